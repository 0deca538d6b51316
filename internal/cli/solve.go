package cli

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

type solveStepJSON struct {
	Guess     string `json:"guess"`
	Black     int    `json:"black"`
	White     int    `json:"white"`
	Remaining *int   `json:"remaining"`
}

type solveJSON struct {
	Secret string `json:"secret"`
	// Seed is the --seed that drew the secret, when none was given.
	Seed     *uint64         `json:"seed,omitempty"`
	Strategy string          `json:"strategy"`
	Rules    rulesJSON       `json:"rules"`
	Guesses  []solveStepJSON `json:"guesses"`
	Solved   bool            `json:"solved"`
}

type rulesJSON struct {
	Colors   int  `json:"colors"`
	Pegs     int  `json:"pegs"`
	Distinct bool `json:"distinct"`
}

func toRulesJSON(r mm.Rules) rulesJSON {
	r = r.WithDefaults()
	return rulesJSON{Colors: r.Colors, Pegs: r.Pegs, Distinct: r.Distinct}
}

func newSolve(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		asJSON     bool
		name       string
		seed       uint64
		maxGuesses int
		so         strategy.Options
	)
	cmd := &cobra.Command{
		Use:   "solve [SECRET]",
		Short: "Play a strategy against a secret and show the game",
		Long: `solve plays a strategy against SECRET and shows each guess, its feedback
and the number of codes still possible after it.

Without SECRET it draws one at random and says which, with the --seed that
draws it again (random unless given): solve --seed K plays the code that
play --seed K holds, as play's summary does.`,
		Example: `  mastermind solve 3632
  mastermind solve --seed 7
  mastermind solve --strategy entropy --json 3632
  mastermind solve --colors 8 --pegs 5 --strategy most-parts 71453`,
		Args: argsBetween(0, 1, "at most one SECRET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			var secret mm.Code
			var drawn *uint64
			// A drawn secret comes from the stream play draws its code
			// from, and the strategy plays on the stream of play's
			// summary game; a secret given keeps the stream it had.
			stream := uint64(0)
			if len(args) == 1 {
				if secret, err = a.Parse(r, args[0]); err != nil {
					return err
				}
			} else {
				if !cmd.Flags().Changed("seed") {
					// Short enough to type again.
					seed = rand.Uint64N(1_000_000)
				}
				secret = mm.RandomCode(r, rand.New(rand.NewPCG(seed, 0)))
				drawn, stream = &seed, 1
			}
			if err := atLeast(0, "max-guesses", maxGuesses); err != nil {
				return err
			}
			name = adaptStrategy(cmd, strings.ToLower(strings.TrimSpace(name)), r)
			if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			status, news := e.newStatus(name)
			defer status.stop()
			so.Progress = news
			s, err := MakeStrategy(name, so, r, a)
			if err != nil {
				return err
			}
			st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, stream)))
			if err != nil {
				return err
			}
			steps, err := mm.SolveEach(cmd.Context(), st, s, secret, maxGuesses, status.step)
			status.stop()
			solved := err == nil
			if err != nil && !errors.Is(err, mm.ErrGuessLimit) {
				return err
			}
			if asJSON {
				out := solveJSON{Secret: a.Format(secret), Seed: drawn, Strategy: name, Rules: toRulesJSON(r),
					Guesses: []solveStepJSON{}, Solved: solved}
				for _, s := range steps {
					j := solveStepJSON{Guess: a.Format(s.Guess), Black: s.Feedback.Black, White: s.Feedback.White}
					if s.Remaining >= 0 {
						j.Remaining = &s.Remaining
					}
					out.Guesses = append(out.Guesses, j)
				}
				if werr := writeJSON(e.Stdout, out); werr != nil {
					return werr
				}
			} else {
				if drawn != nil {
					fmt.Fprintf(e.Stdout, "secret %s, drawn at random with --seed %d\n\n", a.Format(secret), seed)
				}
				t := newTable(e.Stdout)
				t.row("#", "guess", "black", "white", "remaining")
				for i, s := range steps {
					rem := "?"
					if s.Remaining >= 0 {
						rem = strconv.Itoa(s.Remaining)
					}
					t.row(strconv.Itoa(i+1), a.Format(s.Guess), strconv.Itoa(s.Feedback.Black), strconv.Itoa(s.Feedback.White), rem)
				}
				if err := t.flush(); err != nil {
					return err
				}
				if solved {
					fmt.Fprintf(e.Stdout, "solved %s in %s with %s\n", a.Format(secret), Plural(len(steps), "guess"), name)
				}
			}
			if !solved {
				return &failure{err}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the game as JSON")
	f.StringVar(&name, "strategy", "knuth", "strategy to play (auto where a variant has more than 2^20 codes)")
	f.Uint64Var(&seed, "seed", 1, "seed of randomised strategies, and of the secret drawn when none is given (then random by default)")
	f.IntVar(&maxGuesses, "max-guesses", 0, "count the game as lost, exit status 1, if not won within this many guesses (0: no limit)")
	addStrategyFlags(f, &so)
	return cmd
}
