package main

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newPlay(e *env, rf *rulesFlags) *cobra.Command {
	var (
		secret     string
		seed       uint64
		maxGuesses int
		name       string
		plain      bool
		so         strategy.Options
	)
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Break a code the computer holds",
		Long: `play holds a code, random or --secret, and you guess it. Each guess gets
its black pegs (right colour, right place) and white pegs (right colour,
wrong place); "hint" asks the --strategy for its next guess. The game ends
when you find the code or after --max-guesses guesses, and then shows the
code and how the strategy would have played it.

At a terminal it is a full-screen game with coloured pegs; otherwise, or
with --plain, it reads guesses from stdin and writes a transcript on stdout.`,
		Example: `  mastermind play
  mastermind play --colors 8 --pegs 5 --max-guesses 12
  mastermind play --alphabet RGBYOP --seed 7
  printf '1122\n1344\n3526\n1462\n3632\n' | mastermind play --secret 3632`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, a, err := rf.rules()
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64()
			}
			code := mm.RandomCode(r, rand.New(rand.NewPCG(seed, 0)))
			if secret != "" {
				if code, err = a.Parse(r, secret); err != nil {
					return err
				}
			}
			cfg, err := sessionConfig(r, a, name, so, seed)
			if err != nil {
				return err
			}
			g, err := play.NewGame(cfg, code, maxGuesses)
			if err != nil {
				return err
			}
			return runSession(cmd.Context(), e, g, plain)
		},
	}
	f := cmd.Flags()
	f.StringVar(&secret, "secret", "", "the code to break (default: drawn at random)")
	f.Uint64Var(&seed, "seed", 0, "seed of the random code and of randomised strategies (default: random)")
	f.IntVar(&maxGuesses, "max-guesses", play.DefaultLimit, "guesses allowed (0: no limit)")
	f.StringVar(&name, "strategy", "knuth", "strategy that gives hints and plays the same code for comparison")
	f.BoolVar(&plain, "plain", false, "plain line mode even at a terminal")
	addStrategyFlags(f, &so)
	return cmd
}

// sessionConfig returns the configuration of an interactive session: the
// strategy called name (with its --opening), hints ranked by it (or by knuth if it does not
// score guesses), and a random source for randomised strategies.
func sessionConfig(r mm.Rules, a *mm.Alphabet, name string, so strategy.Options, seed uint64) (play.Config, error) {
	s, err := makeStrategy(name, so, r, a)
	if err != nil {
		return play.Config{}, err
	}
	rank, by := ranker(name, so)
	return play.Config{
		Rules:    r,
		Alphabet: a,
		Strategy: s,
		Name:     name,
		Rank:     rank,
		RankBy:   by,
		Rand:     rand.New(rand.NewPCG(seed, 1)),
	}, nil
}

// rankOrders says how strategy.Rank orders guesses for each scoring
// strategy.
var rankOrders = map[string]string{
	"knuth":         "smallest worst case first",
	"expected-size": "smallest expected size first",
	"entropy":       "most entropy first",
	"most-parts":    "most parts first",
}

// ranker returns strategy.Rank for the named strategy, or for knuth when
// that one does not score guesses, and what it orders by.
func ranker(name string, so strategy.Options) (play.Ranker, string) {
	if _, ok := rankOrders[name]; !ok {
		name = "knuth"
	}
	return func(st *mm.State, k int) ([]play.Scored, error) {
		ranked, err := strategy.Rank(st, name, k, so.ConsistentOnly)
		if err != nil {
			return nil, err
		}
		out := make([]play.Scored, len(ranked))
		for i, s := range ranked {
			out[i] = play.Scored{Guess: s.Guess, Consistent: s.Consistent, Parts: s.Parts,
				Largest: s.Largest, Expected: s.Expected, Entropy: s.Entropy}
		}
		return out, nil
	}, name + ": " + rankOrders[name]
}

// runSession plays sess full-screen when stdin and stdout are terminals
// and plain is false, and in line mode otherwise.
func runSession(ctx context.Context, e *env, sess play.Session, plain bool) error {
	tty := isTerminal(e.stdin) && isTerminal(e.stdout)
	var err error
	if tty && !plain {
		err = play.RunTUI(ctx, sess, e.stdin, e.stdout)
	} else {
		err = play.RunLines(ctx, sess, e.stdin, e.stdout, !tty)
	}
	if errors.Is(err, context.Canceled) {
		return &failure{errors.New("interrupted")}
	}
	return err
}
