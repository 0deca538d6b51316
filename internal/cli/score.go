package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
)

func newScore(e *Env, rf *rulesFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "score [SECRET GUESS]",
		Short: "Print the feedback of a guess against a secret",
		Long: `score prints the feedback of GUESS against SECRET as "B W": black pegs
(right colour, right place), then white pegs (right colour, wrong place).

With no arguments it reads lines "SECRET GUESS" from stdin and prints one
"B W" line for each, for bulk checks; blank lines are skipped. The first bad
line stops it with an error naming the line. At a terminal it first says on
stderr what it waits for.`,
		Example: `  mastermind score 1122 1213          # 1 2
  mastermind score --json 1122 2211   # {"black":0,"white":4}
  printf '1122 1213\n3456 6543\n' | mastermind score`,
		Args: argsBetween(0, 2, "SECRET GUESS, or no arguments to read pairs from stdin"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				return fmt.Errorf("expected SECRET GUESS, or no arguments to read pairs from stdin; got only %q", args[0])
			}
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			out := bufio.NewWriter(e.Stdout)
			defer out.Flush()
			write := func(f mm.Feedback) {
				if asJSON {
					b, _ := json.Marshal(f)
					out.Write(b)
					out.WriteByte('\n')
					return
				}
				out.WriteString(strconv.Itoa(f.Black))
				out.WriteByte(' ')
				out.WriteString(strconv.Itoa(f.White))
				out.WriteByte('\n')
			}
			if len(args) == 2 {
				f, err := scorePair(r, a, args[0], args[1])
				if err != nil {
					return err
				}
				write(f)
				return nil
			}
			if e.StdinTTY {
				// Someone typed "mastermind score" alone: say what it waits for.
				fmt.Fprintln(e.Stderr, `mastermind score: type "SECRET GUESS" pairs, one a line, and end with Ctrl-D; or run "mastermind score SECRET GUESS"`)
			}
			in := bufio.NewScanner(e.Stdin)
			in.Buffer(make([]byte, 64*1024), 1024*1024)
			for line := 1; in.Scan(); line++ {
				text := strings.TrimSpace(in.Text())
				if text == "" {
					continue
				}
				fields := strings.Fields(text)
				if len(fields) != 2 {
					out.Flush()
					return fmt.Errorf("line %d: %q: want SECRET GUESS", line, text)
				}
				f, err := scorePair(r, a, fields[0], fields[1])
				if err != nil {
					out.Flush()
					return fmt.Errorf("line %d: %w", line, err)
				}
				write(f)
			}
			if err := in.Err(); err != nil {
				out.Flush()
				return fmt.Errorf("reading stdin: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"black":B,"white":W}`)
	return cmd
}

func scorePair(r mm.Rules, a *mm.Alphabet, secret, guess string) (mm.Feedback, error) {
	s, err := a.Parse(r, secret)
	if err != nil {
		return mm.Feedback{}, err
	}
	g, err := a.Parse(r, guess)
	if err != nil {
		return mm.Feedback{}, err
	}
	return mm.Score(s, g), nil
}
