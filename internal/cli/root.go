package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StderrTTY reports whether stderr is a terminal, for progress bars;
	// StdinTTY whether stdin is, for a hint before reading it.
	StderrTTY, StdinTTY bool

	full    *Full
	replace bool // delegate by replacing the process (Main), not as a child
	args    []string
	merged  *shard.Partial // merge runs a command on its shards' partials
	// catchSignals asks for SIGINT and SIGTERM at once (Main); nil when
	// the command runs in a test.
	catchSignals func()
}

// CatchSignals makes SIGINT and SIGTERM cancel the command's context from
// now on, instead of after Main's short grace. A command calls it before
// it tells the world it is up, such as a server printing its address, so
// that a signal sent on that news stops it cleanly.
func (e *Env) CatchSignals() {
	if e.catchSignals != nil {
		e.catchSignals()
	}
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer, full *Full) *Env {
	if full == nil {
		full = &Full{}
	}
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, StderrTTY: isTerminal(stderr), StdinTTY: isTerminal(stdin), full: full}
}

// progressLine returns a function that shows a line of news on stderr,
// rewriting it in place, cut to the terminal's width, and one that clears
// it. When stderr is not a terminal, the news is written as a line every
// logEvery instead, and nothing is cleared.
func (e *Env) progressLine() (show func(string), done func()) {
	n := e.newsLine()
	return n.show, n.done
}

// newsLine returns the line of news of progressLine, whose printf writes
// a line of its own on stderr without landing on the news.
func (e *Env) newsLine() *news {
	return &news{w: e.Stderr, tty: e.StderrTTY, cols: termWidth(e.Stderr) - 1, start: time.Now()}
}

// news is a line of news on stderr, rewritten in place at a terminal.
type news struct {
	mu    sync.Mutex // shown from the goroutines of a search
	w     io.Writer
	tty   bool
	cols  int  // a line that filled the last column would wrap
	shown bool // a line is on the screen, the cursor at its end
	start time.Time
	last  time.Time
}

func (n *news) show(line string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.tty {
		// A log, not a screen: a whole line now and then, so that a long
		// search run in the background still says how far it got.
		if time.Since(n.start) >= logEvery && time.Since(n.last) >= logEvery {
			fmt.Fprintln(n.w, line)
			n.last = time.Now()
		}
		return
	}
	fmt.Fprintf(n.w, "\r\033[K%s", cut(line, n.cols))
	n.shown = true
}

// done clears the line; a later show draws it again.
func (n *news) done() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.erase()
}

func (n *news) erase() {
	if n.shown {
		fmt.Fprint(n.w, "\r\033[K")
		n.shown = false
	}
}

// printf writes a line of its own on stderr, in place of the line of news
// if one is shown (the next news draws it again below), rather than on
// its end.
func (n *news) printf(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.erase()
	fmt.Fprintf(n.w, format, args...)
}

// logEvery is how often a long computation whose stderr is not a terminal
// writes a line of progress.
const logEvery = 30 * time.Second

// IsTerminal reports whether w is a terminal.
func IsTerminal(w any) bool { return isTerminal(w) }

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run executes the command line args.
func (e *Env) run(ctx context.Context, args []string) error {
	e.args = args
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(e.Stdin)
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	strictHelp(root) // after SetOut: the completion scripts go to its writer
	return oneLine(root.ExecuteContext(ctx))
}

// lineError is an error whose text is one line starting with
// "mastermind: "; it unwraps to the original error.
type lineError struct {
	msg string
	err error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.err }

// oneLine rewrites err's text as one line starting with "mastermind: ",
// without the prefix repeated inside wrapped messages.
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*exitStatus); ok {
		return err
	}
	msg := err.Error()
	// cobra's suggestions: "unknown command "x" for "mastermind"\n\nDid you mean this?\n\ty\n"
	msg = strings.Replace(msg, "\n\nDid you mean this?\n", "; did you mean:", 1)
	msg = strings.Join(strings.Fields(msg), " ")
	msg = strings.ReplaceAll(msg, ": mastermind: ", ": ")
	if !strings.HasPrefix(msg, "mastermind: ") {
		msg = "mastermind: " + msg
	}
	return &lineError{msg: msg, err: err}
}

// oneLineText returns err's text as oneLine writes it, without the
// "mastermind: " prefix.
func oneLineText(err error) string {
	return strings.TrimPrefix(oneLine(err).Error(), "mastermind: ")
}

func newRoot(e *Env) *cobra.Command {
	rf := &rulesFlags{}
	root := &cobra.Command{
		Use:   "mastermind",
		Short: "Break Mastermind codes: score, partition, solve and benchmark strategies",
		Long: `mastermind breaks Mastermind codes.

A codemaker hides a code of --pegs pegs in --colors colours; each guess is
answered with black pegs (right colour, right place) and white pegs (right
colour, wrong place). Codes are written with the symbols 123456789ABC…
(colour 1 first), or with --alphabet; spaces and commas between pegs are
allowed. Classic Mastermind, 6 colours × 4 pegs, is the default; --rules
names other games (` + presetNames() + `) or
sizes, such as 8x5 or 10x4-distinct.

` + wrapWords("Strategies: "+strings.Join(strategy.Names(), ", ")+".", helpWidth) + `

Besides the classics (Knuth 1977, Irving, Neuwirth, Kooi), the toolkit
plays the strategies and reruns the experiments of five reports:
Xinhao Su and David Xu, "Master Minds: The Report" (2021); Arjun Bhushan,
"Mastermind Solver"; Anthony D. Rhodes, "Search Algorithms for Mastermind";
"Informed Mastermind guessing with Max-Parts" (a blog post whose author is
not named); and Ben Knox, "COSC343: Assignment 1 report" (2023).`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	// The flags' help wrapped short of the 80th column, under every
	// command (cobra writes each on one line, up to 200 columns).
	root.SetUsageTemplate(wrappedUsage(root.UsageTemplate()))
	rf.add(root.PersistentFlags())
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		newScore(e, rf),
		newPartition(e, rf),
		newSolve(e, rf),
		newWatch(e, rf),
		newBench(e, rf),
		newTree(e, rf),
		newOpenings(e, rf),
		newBook(e, rf),
		newOptima(e),
		newBound(e, rf),
		newGrid(e, rf),
		newMerge(e),
		newAssist(e, rf),
		newPlay(e, rf),
		newServe(e, rf),
		newClient(e, rf),
		newVersion(e),
		newMan(e),
	)
	addCompletions(root)
	return root
}

// strictHelp makes cobra's help and completion commands refuse what they
// do not know, as every other command does: "help nosuch" and
// "completion tcsh" print cobra's usage and exit 0 otherwise.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Run = nil
			c.RunE = func(c *cobra.Command, args []string) error {
				cmd, rest, err := c.Root().Find(args)
				if err != nil {
					return err
				}
				if len(rest) > 0 && cmd.HasSubCommands() {
					return fmt.Errorf("no help topic %q under %q", strings.Join(rest, " "), cmd.CommandPath())
				}
				cmd.InitDefaultHelpFlag()
				cmd.InitDefaultVersionFlag()
				return cmd.Help()
			}
		case "completion":
			var shells []string
			for _, sh := range c.Commands() {
				shells = append(shells, sh.Name())
			}
			c.Use = "completion SHELL"
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) > 0 {
					return fmt.Errorf("completion: no shell %q; want one of %s", args[0], strings.Join(shells, ", "))
				}
				return c.Help()
			}
		}
	}
}

// addStrategyFlags registers the flags that configure strategies.
func addStrategyFlags(f *pflag.FlagSet, so *strategy.Options) {
	f.BoolVar(&so.ConsistentOnly, "consistent-only", false, "scoring strategies guess only codes that could be the secret")
	f.Float64Var(&so.WinBonus, "win-bonus", 0, "entropy: nats a guess that could be the secret is worth beyond its class of one (0: Neuwirth's entropy; 1.5 plays best on the variants measured)")
	f.IntVar(&so.Rollout, "rollout", 0, "entropy: choose each guess by playing the `K` best out to the end of every game, keeping the one of fewest guesses in all (the pilot method; about K times the time at each level of the tree)")
	f.IntVar(&so.RolloutMax, "rollout-max", 0, "entropy: play out guesses only at nodes of at most `N` candidates (0: every node); those near the root cost most")
	f.IntVar(&so.RolloutSmall, "rollout-small", 0, "entropy: play out 64 guesses at nodes of at most `N` candidates (within --rollout-max), where play-outs cost least (0: none)")
	f.VarPF(&nearFlag{near: &so.Near, all: &so.AllCodes}, "near", "", "entropy: score as guesses only the candidates and codes one or two pegs from them, as past 2^20 codes by default (within 0.003 guesses a game of every code on 7x7, at a 30th of the time); --near=false scores every code there too (8x8 over every secret: hundreds of CPU hours)").NoOptDefVal = "true"
	f.IntVar(&so.MaxDepth, "max-depth", 0, "optimal: most guesses any game may take (0: no limit)")
	f.StringVar(&so.Effort, "effort", "", "deep: how hard it works: quick, normal, high or record (default normal)")
	f.IntVar(&so.Top, "top", 0, "deep: guesses compared by playing them out at the first --plies levels (0: the effort's)")
	f.IntVar(&so.Plies, "plies", 0, "deep: levels from the start where the --top best guesses are played out (0: the effort's)")
	f.BoolVar(&so.NoBook, "no-book", false, "deep and entropy: compute every guess, never reading a shipped record tree or book (to regenerate one)")
	f.IntVar(&so.Exact, "exact", 0, "deep: largest number of codes left played optimally (0: sized to the variant)")
	f.Var((*byteSize)(&so.Memory), "memory", "optimal: memory for the search's table of solved sets, as 512K, 64M or 1G (0: sized to the variant, at most 64M)")
	f.StringVar(&so.Opening, "opening", "", `first guess: "pairs" (two pegs of each colour, as in Ben Knox's COSC343 report), "own", or a code`)
	f.DurationVar(&so.Budget, "budget", 0, "auto, sampler and fit: time to aim for per guess, turned into amounts of work (0: "+strategy.DefaultBudget.String()+"; sampling, 60ms up to 15x15; fit, 5s over the pegs, such as 50ms on 100 pegs)")
}

// MakeStrategy builds the named strategy for rules r, with the opening of
// --opening: "pairs", "own", or a code written in alphabet a. Names are
// case-insensitive.
func MakeStrategy(name string, so strategy.Options, r mm.Rules, a *mm.Alphabet) (mm.Strategy, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	var first *mm.Code
	switch so.Opening {
	case "", "own", "pairs":
	default:
		c, err := a.Parse(r, so.Opening)
		if err != nil {
			return nil, fmt.Errorf("--opening: %w", err)
		}
		first, so.Opening = &c, "own"
	}
	if so.Alphabet == nil {
		so.Alphabet = a
	}
	if !(so.WinBonus >= 0 && so.WinBonus <= strategy.MaxWinBonus) {
		return nil, fmt.Errorf("--win-bonus %v: want 0 to %d nats", so.WinBonus, strategy.MaxWinBonus)
	}
	if so.Rollout < 0 || so.Rollout > strategy.MaxRollout {
		return nil, fmt.Errorf("--rollout %d: want 0 to %d guesses", so.Rollout, strategy.MaxRollout)
	}
	if so.RolloutMax < 0 || so.RolloutMax > 0 && so.RolloutMax < 3 {
		return nil, fmt.Errorf("--rollout-max %d: want 0 (every node) or at least 3 candidates, the fewest played out", so.RolloutMax)
	}
	if so.RolloutSmall < 0 {
		return nil, fmt.Errorf("--rollout-small %d: want 0 (none) or more candidates", so.RolloutSmall)
	}
	if so.RolloutMax > 0 && so.Rollout < 2 {
		return nil, fmt.Errorf("--rollout-max %d plays nothing out without --rollout 2 or more", so.RolloutMax)
	}
	if so.RolloutSmall > 0 && so.Rollout < 2 {
		return nil, fmt.Errorf("--rollout-small %d plays nothing out without --rollout 2 or more", so.RolloutSmall)
	}
	if so.Budget < 0 {
		return nil, fmt.Errorf("--budget %v: want a positive duration, or 0 for the default", so.Budget)
	}
	s, err := strategy.New(name, so)
	if err != nil {
		return nil, err
	}
	// A strategy that can tell at once that it cannot play r (optimal on
	// more than 16384 codes) refuses before the game is built.
	if c, ok := s.(interface{ CheckRules(mm.Rules) error }); ok {
		if err := c.CheckRules(r); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if first != nil {
		s = strategy.Opening{First: *first, Then: s}
	}
	return s, nil
}

// strategyList parses a comma-separated list of strategy names.
func strategyList(s string, o strategy.Options, r mm.Rules, a *mm.Alphabet) ([]string, []mm.Strategy, error) {
	var names []string
	var out []mm.Strategy
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" || seen[n] {
			continue
		}
		st, err := MakeStrategy(n, o, r, a)
		if err != nil {
			return nil, nil, err
		}
		seen[n] = true
		names = append(names, n)
		out = append(out, st)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no strategy given; known: %s", strings.Join(strategy.Names(), ", "))
	}
	return names, out, nil
}

// argsBetween accepts lo to hi arguments (hi < 0: no most), with a message
// that says what is expected.
func argsBetween(lo, hi int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < lo || (hi >= 0 && len(args) > hi) {
			return fmt.Errorf("expected %s, got %d argument(s)", what, len(args))
		}
		return nil
	}
}

// nearFlag is --near, a flag of three states: not given, the near pool
// past 2^20 codes and every code below; --near, the near pool always;
// --near=false, every code always.
type nearFlag struct{ near, all *bool }

func (n *nearFlag) String() string { return strconv.FormatBool(n.near != nil && *n.near) }

func (n *nearFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*n.near, *n.all = v, !v
	return nil
}

func (n *nearFlag) Type() string { return "bool" }

// byteSize is a flag holding a number of bytes, written with an optional
// K, M or G suffix (powers of 1024; KB, MiB and the like also read).
type byteSize int64

func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult, t = 1<<10, t[:len(t)-1]
		case 'M':
			mult, t = 1<<20, t[:len(t)-1]
		case 'G':
			mult, t = 1<<30, t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return fmt.Errorf("want a size such as 512K, 64M or 1G, not %q", s)
	}
	*b = byteSize(n * mult)
	return nil
}

func (*byteSize) Type() string { return "size" }

// adaptStrategy returns name, the value of the --strategy flag of cmd, or
// auto when the flag was left at its default and r has more codes than the
// default heuristics enumerate (strategy.MaxHeuristicSpace). A strategy
// named on the command line is kept, so that one that cannot play r is
// refused with its reason.
func adaptStrategy(cmd *cobra.Command, name string, r mm.Rules) string {
	if cmd.Flags().Changed("strategy") || r.Size() <= strategy.MaxHeuristicSpace {
		return name
	}
	return "auto"
}

// helpWidth is the most columns a line of help takes: a line that filled
// the 80th column would wrap on some terminals.
const helpWidth = 79

// wrappedUsage returns cobra's usage template t with the flags' help
// wrapped to helpWidth.
func wrappedUsage(t string) string {
	t = strings.ReplaceAll(t, "for more information about a command.", "for more about a command.")
	for _, set := range []string{"LocalFlags", "InheritedFlags"} {
		t = strings.ReplaceAll(t, "."+set+".FlagUsages", "."+set+".FlagUsagesWrapped "+strconv.Itoa(helpWidth))
	}
	return t
}

// wrapWords breaks s between words into lines of at most width runes, but
// for a word longer than width, which keeps a line of its own.
func wrapWords(s string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		switch {
		case col == 0:
		case col+1+n <= width:
			b.WriteByte(' ')
			col++
		default:
			b.WriteByte('\n')
			col = 0
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}
