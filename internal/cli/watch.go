package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newWatch(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		name  string
		seed  uint64
		delay time.Duration
		show  int
		so    strategy.Options
	)
	cmd := &cobra.Command{
		Use:   "watch [SECRET]",
		Short: "Watch a strategy break a code, guess by guess",
		Long: `watch plays --strategy against SECRET (or a code drawn at random, or
with --seed, as play draws one; the line under the heading gives the seed
to watch the same game again) one guess at a time: each guess, its
answer, how many codes it left of those possible before, on a bar drawn
to a logarithmic scale, and the codes still possible while there are at
most --show of them (the first --show otherwise). At a terminal it waits
--delay between guesses; otherwise it does not wait.`,
		Example: `  mastermind watch 3632
  mastermind watch --strategy entropy --rules super
  mastermind watch --delay 0 --show 0 --colors 8 --pegs 6`,
		Args: argsBetween(0, 1, "at most one SECRET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := atLeast(0, "show", show); err != nil {
				return err
			}
			if delay < 0 {
				return fmt.Errorf("--delay %v: want 0 or more", delay)
			}
			if !cmd.Flags().Changed("delay") && !IsTerminal(e.Stdout) {
				delay = 0
			}
			drawn := len(args) == 0
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64()
			}
			secret := mm.RandomCode(r, rand.New(rand.NewPCG(seed, 0)))
			if !drawn {
				if secret, err = a.Parse(r, args[0]); err != nil {
					return err
				}
			}
			name = adaptStrategy(cmd, strings.ToLower(strings.TrimSpace(name)), r)
			if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			s, err := MakeStrategy(name, so, r, a)
			if err != nil {
				return err
			}
			w := &watcher{out: e.Stdout, a: a, name: name, show: show, delay: delay}
			if drawn && !cmd.Flags().Changed("seed") {
				// A line of its own: with the heading, 90 columns.
				w.drawn = fmt.Sprintf("(drawn with --seed %d)\n", seed)
			}
			return w.run(cmd.Context(), r, s, secret, seed)
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "strategy", "knuth", "strategy to watch (auto where a variant has more than 2^20 codes)")
	f.Uint64Var(&seed, "seed", 0, "seed of the code drawn when no SECRET is given, and of randomised strategies (default: random)")
	f.DurationVar(&delay, "delay", time.Second, "pause between guesses at a terminal")
	f.IntVar(&show, "show", 12, "list the codes left when there are at most this many (0: never)")
	addStrategyFlags(f, &so)
	return cmd
}

// watchGuesses bounds a watched game, against a strategy that never ends.
const watchGuesses = 100

// watchBar is the width of the bar of codes left, at most; watchWidth
// the columns a line of watch takes, at most, but for codes of more pegs
// than fit.
const (
	watchBar   = 24
	watchWidth = 79
)

// A watcher writes a game as it is played.
type watcher struct {
	out   io.Writer
	a     *mm.Alphabet
	name  string
	show  int
	delay time.Duration
	drawn string // how the secret was drawn, when watch drew it at random
}

func (w *watcher) run(ctx context.Context, r mm.Rules, s mm.Strategy, secret mm.Code, seed uint64) error {
	st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return err
	}
	total := float64(r.Size())
	head := fmt.Sprintf("%s breaks %s, %d colours × %d pegs (%s codes)", w.name, w.a.Format(secret), r.Colors, r.Pegs, sizeWords(r))
	if runes(head) > watchWidth {
		head = fmt.Sprintf("%s breaks %s,\n%d colours × %d pegs (%s codes)", w.name, w.a.Format(secret), r.Colors, r.Pegs, sizeWords(r))
	}
	fmt.Fprintf(w.out, "%s\n%s\n", head, w.drawn)
	before := -1
	if r.Size() <= mm.MaxSpace {
		before = int(r.Size())
	}
	// The counts are at most the codes of a space that can be
	// enumerated: larger ones are "?".
	width := len(fmt.Sprint(min(r.Size(), mm.MaxSpace)))
	for n := 1; n <= watchGuesses; n++ {
		g, err := mm.GuessContext(ctx, s, st)
		if err != nil {
			return runError(w.name, err)
		}
		f := mm.Score(secret, g)
		if st, err = st.Play(g, f); err != nil {
			return err
		}
		left := st.Remaining()
		line := fmt.Sprintf("%2d  %s  %d black, %d white", n, w.a.Format(g), f.Black, f.White)
		switch {
		case f.Solved(r.Pegs):
			fmt.Fprintf(w.out, "%s   found\n\nsolved %s in %s with %s\n", line, w.a.Format(secret), Plural(n, "guess"), w.name)
			return nil
		case left < 0:
			fmt.Fprintf(w.out, "%s   ? codes left\n", line)
		default:
			line = fmt.Sprintf("%s   %*s → %-*d", line, width, countText(before), width, left)
			// The bar takes what the line leaves of watchWidth, up to
			// watchBar columns; none if under 4.
			if n := min(watchBar, watchWidth-runes(line)-1); n >= 4 {
				line += " " + logBar(float64(left), total, n)
			}
			fmt.Fprintln(w.out, strings.TrimRight(line, " "))
			w.list(st)
		}
		before = left
		if w.delay > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(w.delay):
			}
		}
	}
	return &failure{fmt.Errorf("%s did not find %s in %d guesses", w.name, w.a.Format(secret), watchGuesses)}
}

// list writes the codes left when there are few, or the first of them.
func (w *watcher) list(st *mm.State) {
	if w.show == 0 || !st.Known() {
		return
	}
	set, err := st.Candidates()
	if err != nil {
		return
	}
	line, n := "     ", 0
	for ; n < min(set.Len(), w.show); n++ {
		c := " " + w.a.Format(set.Code(n))
		// Room for " …" after it, unless it is the last.
		if runes(line+c) > watchWidth || (n+1 < set.Len() && runes(line+c) > watchWidth-2) {
			break
		}
		line += c
	}
	if n < set.Len() {
		line += " …"
	}
	fmt.Fprintln(w.out, line)
}

// countText writes a count of codes, "?" if unknown.
func countText(n int) string {
	if n < 0 {
		return "?"
	}
	return fmt.Sprint(n)
}

// logBar draws n of total codes as a bar of width columns whose length
// is log(n+1) of log(total+1), so that every step of a game shows.
func logBar(n, total float64, width int) string {
	full := int(math.Round(float64(width) * math.Log1p(n) / math.Log1p(total)))
	full = max(0, min(width, full))
	return strings.Repeat("█", full) + strings.Repeat("░", width-full)
}

// sizeWords writes the number of codes of r, or its order of magnitude.
func sizeWords(r mm.Rules) string {
	if r.Log10Size() < 15 {
		return fmt.Sprint(r.Size())
	}
	return fmt.Sprintf("about 10^%.1f", r.Log10Size())
}
