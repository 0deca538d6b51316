package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

//go:generate go run ../../cmd/mastermind man --out ../../docs/mastermind.1

func newMan(e *Env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "man",
		Short: "Write the manual page, mastermind(1), in roff",
		Long: `man writes the manual page of mastermind, built from the same help as
"mastermind help": every command with its flags and examples, the exit
statuses, and the reports the strategies come from. Read it with
"mastermind man | man -l -", or install it:

  mastermind man --out /usr/local/share/man/man1/mastermind.1`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := e.Stdout
			if out != "" {
				f, err := os.Create(out)
				if err != nil {
					return err
				}
				defer f.Close()
				w = f
			}
			b := bufio.NewWriter(w)
			writeMan(b, cmd.Root())
			if err := b.Flush(); err != nil {
				return Failure(err)
			}
			if f, ok := w.(*os.File); ok && out != "" {
				return Failure(f.Close())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the page into this file instead of stdout")
	return cmd
}

// writeMan writes the manual page of root and its commands.
func writeMan(w io.Writer, root *cobra.Command) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p(`.TH MASTERMIND 1 "" "mastermind" "User Commands"`)
	p(".SH NAME")
	p(`mastermind \- %s`, roff(lowerFirst(root.Short)))
	p(".SH SYNOPSIS")
	p(`.B mastermind`)
	p(`.I command`)
	p(`[\fIflags\fR] [\fIarguments\fR]`)
	p(".SH DESCRIPTION")
	manText(w, root.Long)
	p(".SH COMMANDS")
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		p(`.SS "%s"`, roff(c.CommandPath()+strings.TrimPrefix(c.Use, c.Name())))
		long := c.Long
		if long == "" {
			long = c.Short + "."
		}
		manText(w, long)
		if c.HasAvailableLocalFlags() {
			p(".PP")
			p("Flags:")
			manFlags(w, c.LocalFlags())
		}
		if c.Example != "" {
			p(".PP")
			p("Examples:")
			p(".PP")
			p(".RS 4")
			p(".nf")
			for _, line := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
				p("%s", roffLine(strings.TrimPrefix(line, "  ")))
			}
			p(".fi")
			p(".RE")
		}
	}
	p(".SH OPTIONS")
	p("Every command takes these flags:")
	manFlags(w, root.PersistentFlags())
	p(".SH EXIT STATUS")
	p(".TP")
	p("0")
	p("Success.")
	p(".TP")
	p("1")
	p("The command ran and failed: a game not solved within its guesses, a game lost, the server stopped, an internal error.")
	p(".TP")
	p("2")
	p("Bad usage or input: flags, codes, answers, rules, sizes that cannot fit, a server that cannot be reached.")
	p(".SH SEE ALSO")
	p(`The README of github.com/mastermind\-toolkit/mastermind, which cites the reports the strategies come from, and its guides in docs/.`)
}

// manText writes help text: paragraphs, with indented lines kept as
// they are.
func manText(w io.Writer, s string) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	verbatim := false
	p(".PP")
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		indented := strings.HasPrefix(line, "  ")
		switch {
		case indented && !verbatim:
			p(".RS 4")
			p(".nf")
			verbatim = true
		case !indented && verbatim:
			p(".fi")
			p(".RE")
			verbatim = false
		}
		switch {
		case verbatim:
			p("%s", roffLine(strings.TrimPrefix(line, "  ")))
		case strings.TrimSpace(line) == "":
			p(".PP")
		default:
			p("%s", roffLine(line))
		}
	}
	if verbatim {
		p(".fi")
		p(".RE")
	}
}

// manFlags writes a flag set as a tagged list.
func manFlags(w io.Writer, fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name, usage := pflag.UnquoteUsage(f)
		tag := `\fB\-\-` + roff(f.Name) + `\fR`
		if name != "" {
			tag += ` \fI` + roff(name) + `\fR`
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" && !strings.Contains(usage, "(default") {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, ".TP\n%s\n%s\n", tag, roffLine(usage+def))
	})
}

// roff escapes text for roff.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	return strings.ReplaceAll(s, "-", `\-`)
}

// roffLine escapes a line of text, which must not start with a control
// character.
func roffLine(s string) string {
	s = roff(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
