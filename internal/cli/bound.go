package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mastermind-toolkit/mastermind/exact"
)

func newBound(e *Env, rf *rulesFlags) *cobra.Command {
	var depth, exactMax int
	cmd := &cobra.Command{
		Use:   "bound",
		Short: "Prove a lower bound of the least total guesses of a large space",
		Long: `bound proves that no strategy finds every secret of the variant in fewer
guesses in all than the number it prints, any code being a guess. It tries
every guess, one per class of codes that the symmetries of the guesses
before it map onto each other, --depth guesses deep, and below them
counts: a set of n codes needs at least the total of the best case, where
each guess is one of the codes and splits the others into as many classes
as there are answers. The deeper, the higher the bound and the longer the
search: on 6 × 4, depth 1, 2 and 3 give 5196, 5429 and 5612 against the
optimum of 5625. It is the lower end of what is not known for variants
too large for optimal, such as 8 × 5.

--exact N bounds every set of at most N codes by its exact optimum, found
by the exact search, in place of the counting bound: higher, and slower
the larger N.`,
		Example: `  mastermind bound --colors 6 --pegs 4 --depth 3
  mastermind bound --rules logik --depth 2`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := atLeast(1, "depth", depth); err != nil {
				return err
			}
			if err := atLeast(0, "exact", exactMax); err != nil {
				return err
			}
			show, done := e.progressLine()
			defer done()
			start := time.Now()
			cpu0, cpuKnown := cpuTime()
			b, err := exact.LowerBoundWith(cmd.Context(), r, depth, &exact.BoundOptions{Exact: exactMax, Progress: func(p exact.BoundProgress) {
				line := fmt.Sprintf("bound %v, depth %d: first guess %s (%d of %d), %d sets", r, depth, a.Format(p.Guess), p.Tried, p.Guesses, p.Sets)
				if p.Best > 0 {
					line += fmt.Sprintf(", least so far %d", p.Best)
				}
				show(line + ", " + short(p.Elapsed))
			}})
			done()
			if err != nil {
				return err
			}
			n := r.Size()
			line := fmt.Sprintf("%s: every strategy needs at least %d guesses in all (mean %.4f), by every guess %d deep; the least from first guess %s; %d sets, %.1f s",
				describeRules(r), b.Total, float64(b.Total)/float64(n), depth, a.Format(b.First), b.Sets, time.Since(start).Seconds())
			if cpu1, ok := cpuTime(); ok && cpuKnown {
				line += fmt.Sprintf(", %.1f s CPU", (cpu1 - cpu0).Seconds())
			}
			fmt.Fprintln(e.Stdout, line)
			return nil
		},
	}
	cmd.Flags().IntVar(&depth, "depth", 2, "guesses tried in full before counting takes over")
	cmd.Flags().IntVar(&exactMax, "exact", 0, "solve sets of at most this many codes exactly (0: count them)")
	return cmd
}
