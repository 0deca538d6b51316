package cli

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
)

// DefaultPlayLimit is play's guess limit.
const DefaultPlayLimit = 10

func newPlay(e *Env, rf *rulesFlags) *cobra.Command {
	o := &SessionOptions{}
	var secret string
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Break a code the computer holds",
		Long: `play holds a code, random or --secret, and you guess it. Each guess gets
its black pegs (right colour, right place) and white pegs (right colour,
wrong place); "hint" asks the --strategy for its next guess. The game ends
when you find the code or after --max-guesses guesses, and then shows the
code and how the strategy would have played it. A guess you already made
is refused without using a turn; "undo" takes back a mistyped one (the
summary counts it), "list" shows the codes still possible a page at a
time, and "save FILE" writes the game to a file that --resume FILE carries
on with later. The exit status is 1 when the game ends without the code
found: out of guesses, "quit", or the end of the input.

With --adversary the computer holds no code at all: it answers each guess
with the feedback that keeps the most codes possible, as Absurdle and
cheatermind do, and gives in only when your guess is the last code left.
With --two-player, one person types the code first, without echo at a
terminal (otherwise it is the first line of stdin), and another breaks it.
With --coach, each guess is weighed against the strategy's: the guesses
the game is expected to take from there with yours and with its, and the
codes each leaves; a position with too many codes to weigh (such as the
first of 8 × 5) compares the codes each guess is expected to leave. The
end of the game adds up what your guesses cost and names the guess that
cost the most.

At a terminal it is a full-screen game with coloured pegs, where a hint
(or the tab key) puts the strategy's guess on the input line to send or
change; otherwise, or with --plain, it reads guesses from stdin and writes
a transcript on stdout.`,
		Example: `  mastermind play
  mastermind play --rules super --max-guesses 12
  mastermind play --alphabet red,green,blue,yellow,orange,purple --seed 7
  printf '1122\n1344\n3526\n1462\n3632\n' | mastermind play --secret 3632
  mastermind play --adversary
  mastermind play --two-player
  mastermind play --coach --strategy expected-size
  mastermind play --resume game.txt`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := atLeast(0, "max-guesses", o.MaxGuesses); err != nil {
				return err
			}
			if o.Adversary && secret != "" {
				return fmt.Errorf("--adversary holds no code: --secret does not apply")
			}
			if o.TwoPlayer && (secret != "" || o.Adversary) {
				return fmt.Errorf("--two-player: the codemaker types the code; --secret and --adversary do not apply")
			}
			if o.Resume != "" {
				for _, name := range []string{"secret", "adversary", "two-player", "coach", "max-guesses"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("--resume: the saved game keeps its code and settings; --%s does not apply", name)
					}
				}
				for _, f := range []string{"rules", "colors", "pegs", "distinct", "alphabet"} {
					o.RulesGiven = o.RulesGiven || cmd.Flags().Changed(f)
				}
				o.StrategyGiven = cmd.Flags().Changed("strategy")
			}
			if !cmd.Flags().Changed("seed") {
				o.Seed = rand.Uint64()
			}
			o.Secret = mm.RandomCode(r, rand.New(rand.NewPCG(o.Seed, 0)))
			if secret != "" {
				if o.Secret, err = a.Parse(r, secret); err != nil {
					return err
				}
			}
			return e.session(cmd, o, r, a)
		},
	}
	f := cmd.Flags()
	f.StringVar(&secret, "secret", "", "the code to break (default: drawn at random)")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the random code and of randomised strategies (default: random)")
	f.IntVar(&o.MaxGuesses, "max-guesses", DefaultPlayLimit, "guesses allowed (0: no limit)")
	f.StringVar(&o.Strategy, "strategy", "knuth", "strategy that gives hints and plays the same code for comparison (auto where a variant has more than 2^20 codes)")
	f.BoolVar(&o.Plain, "plain", false, "plain line mode even at a terminal")
	f.BoolVar(&o.Adversary, "adversary", false, "hold no code: answer each guess so as to keep the most codes possible")
	f.BoolVar(&o.Coach, "coach", false, "after each guess, compare it with the strategy's")
	f.BoolVar(&o.TwoPlayer, "two-player", false, "a codemaker types the code first, hidden (the first line of stdin when it is not a terminal)")
	f.StringVar(&o.Resume, "resume", "", "carry on with a game saved by \"save FILE\", under its rules, code and strategy")
	addStrategyFlags(f, &o.Options)
	return cmd
}

// session checks the strategy of o, then plays the session in this
// binary or in mastermind-full.
func (e *Env) session(cmd *cobra.Command, o *SessionOptions, r mm.Rules, a *mm.Alphabet) error {
	o.Rules, o.Alphabet = r, a
	o.Strategy = adaptStrategy(cmd, strings.ToLower(strings.TrimSpace(o.Strategy)), r)
	if err := checkStrategyFlags(cmd, []string{o.Strategy}); err != nil {
		return err
	}
	if _, err := MakeStrategy(o.Strategy, o.Options, r, a); err != nil {
		return err
	}
	if e.full.Session == nil {
		return e.delegate(cmd.Name())
	}
	return e.full.Session(cmd.Context(), e, o)
}
