package huge

import (
	"context"
	"flag"
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// aloneBudgets is the solver's limit a guess of BenchmarkFitFallbacks'
// solver=alone, in budgets.
var aloneBudgets = flag.Float64("huge.alone", 2, "BenchmarkFitFallbacks solver=alone: the solver's limit a guess, in budgets")

// BenchmarkFitFallbacks plays seeded games of Fit as BenchFitGames does,
// with the complete solver where the walk finds no code that fits
// (solver=true) and without it (solver=false), and reports besides the
// guesses that fell back to a code that does not fit for want of one that
// does, and those whose code the solver found. solver=alone plays the same
// games by consistent play from the solver alone (gametest.Alone: 64 codes
// drawn a turn within -huge.alone budgets of conflicts, the one whose
// answers split them best played), and reports its conflicts too;
// solver=counted is solver=alone after Fit's first phase, which counts the
// colours (as Fit, one colour a guess). Seconds a game: -benchtime 12x on
// 30 × 10, but minutes for solver=alone.
func BenchmarkFitFallbacks(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 10, Pegs: 30}, {Colors: 20, Pegs: 100}} {
		for _, solver := range []string{"true", "false", "alone", "counted"} {
			b.Run(fmt.Sprintf("%dx%d/solver=%s", r.Pegs, r.Colors, solver), func(b *testing.B) {
				budget := DefaultFitBudget(r)
				if solver == "alone" || solver == "counted" {
					a := &gametest.Alone{Budget: budget, Budgets: *aloneBudgets}
					guess := a.Guess
					if solver == "counted" {
						guess = func(st *mm.State) (mm.Code, error) {
							count, err := counts(st)
							if err != nil {
								return mm.Code{}, err
							}
							if u := unknown(count); u >= 0 {
								return codeOf(countGuess(r.Pegs, count, u, st.Rand())), nil
							}
							return a.Guess(st)
						}
					}
					gametest.PlayGames(b, r, guess, budget, a.Counts())
					b.ReportMetric(float64(a.MaxConflicts)/float64(a.Limit(r)), "maxwork/limit")
					return
				}
				useSolver = solver == "true"
				defer func() { useSolver = true }()
				fallbacks, solved := 0, 0
				// Fit.GuessContext, with a look at the problem.
				guess := func(st *mm.State) (mm.Code, error) {
					count, err := counts(st)
					if err != nil {
						return mm.Code{}, err
					}
					if u := unknown(count); u >= 0 {
						return codeOf(countGuess(r.Pegs, count, u, st.Rand())), nil
					}
					p, err := newProblem(st, count)
					if err != nil {
						return mm.Code{}, err
					}
					steps := int(float64(budget) / p.stepCost())
					x, err := p.guess(context.Background(), st.Rand(), max(steps, minSteps))
					if err != nil {
						return mm.Code{}, err
					}
					if p.found == 0 {
						if p.solved > 0 {
							solved++
						} else {
							fallbacks++
						}
					}
					return codeOf(x), nil
				}
				gametest.PlayGames(b, r, guess, budget, map[string]*int{"fallbacks/game": &fallbacks, "solver's/game": &solved})
			})
		}
	}
}
