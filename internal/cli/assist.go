package cli

import (
	"math/rand/v2"

	"github.com/spf13/cobra"
)

func newAssist(e *Env, rf *rulesFlags) *cobra.Command {
	o := &SessionOptions{Assist: true}
	cmd := &cobra.Command{
		Use:   "assist",
		Short: "Help at a real board: propose guesses, read the answers",
		Long: `assist helps you break a code on a real board. It proposes each guess (from
--strategy), you play it and type the codemaker's answer: black then white
pegs, as "2 1", "2,1", "21", "2b1w", "BBW", "-" for none, or in Bulls and
Cows "1A2B". It shows how many codes are still possible and goes on until
the code is found.

You may play your own guess instead (type the code, or "guess CODE", then its
answer), or type a guess and its answer on one line: "1122 1 0". "undo"
takes back the last change: an answer, a drop or a fix, and "redo" puts it
back; "hint" shows the best guesses with their scores; "list" shows the
codes still possible, a page at a time. "save FILE" writes the session to
a file, and --resume FILE carries on with it later. An answer that leaves no
code possible is reported at once, with the fewest answers that cannot all
be true together: "undo", "drop N" or "fix N ANSWER" gets you out. "help"
lists the commands.

At a terminal it is full-screen with coloured pegs; otherwise, or with
--plain, it reads answers from stdin and writes a transcript on stdout.`,
		Example: `  mastermind assist
  mastermind assist --alphabet RGBYOP --strategy most-parts
  mastermind assist --rules bulls-cows
  printf '1 0\n0 1\n1 2\n1 1\n4 0\n' | mastermind assist
  mastermind assist --resume game.txt`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			for _, f := range []string{"rules", "colors", "pegs", "distinct", "alphabet"} {
				o.RulesGiven = o.RulesGiven || cmd.Flags().Changed(f)
			}
			o.StrategyGiven = cmd.Flags().Changed("strategy")
			if !cmd.Flags().Changed("seed") {
				o.Seed = rand.Uint64()
			}
			return e.session(cmd, o, r, a)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Strategy, "strategy", "knuth", "strategy that proposes the guesses (auto where a variant has more than 2^20 codes)")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of randomised strategies (default: random)")
	f.BoolVar(&o.Plain, "plain", false, "plain line mode even at a terminal")
	f.StringVar(&o.Resume, "resume", "", "carry on with a session saved by \"save FILE\", under its rules and strategy")
	addStrategyFlags(f, &o.Options)
	return cmd
}
