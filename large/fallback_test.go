package large

import (
	"flag"
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// aloneBudgets is the solver's limit a guess of BenchmarkFallbacks'
// solver=alone, in budgets.
var aloneBudgets = flag.Float64("large.alone", 2, "BenchmarkFallbacks solver=alone: the solver's limit a guess, in budgets")

// aloneN is the codes drawn a turn by BenchmarkFallbacks' solver=alone.
var aloneN = flag.Int("large.alone.n", 64, "BenchmarkFallbacks solver=alone: codes drawn a turn")

// BenchmarkFallbacks plays seeded games of the sampler as BenchGames does,
// with the complete solver where the searches find no code that fits
// (solver=true) and without it (solver=false), and reports besides the
// guesses that fell back to a code that does not fit for want of one that
// does. solver=alone plays the same games by consistent play from the
// solver alone (gametest.Alone: 64 codes, or -large.alone.n, drawn a turn
// within -large.alone budgets of conflicts, the one whose answers split
// them best played), and reports its conflicts too; solver=hybrid is
// solver=alone with the sampler's guess (its searches, not the solver)
// where the solver draws no code, and the fallbacks it counts are those
// guesses. Minutes a game on 30 × 30: -benchtime 3x.
func BenchmarkFallbacks(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 20, Pegs: 20}, {Colors: 25, Pegs: 25}, {Colors: 30, Pegs: 30}} {
		for _, solver := range []string{"true", "false", "alone", "hybrid"} {
			b.Run(fmt.Sprintf("%dx%d/solver=%s", r.Pegs, r.Colors, solver), func(b *testing.B) {
				budget := DefaultBudgetFor(r)
				if solver == "alone" || solver == "hybrid" {
					a := &gametest.Alone{N: *aloneN, Budget: budget, Budgets: *aloneBudgets}
					if solver == "hybrid" {
						useSolver = false
						defer func() { useSolver = true }()
						a.Else = Sampler{}.Guess
					}
					gametest.PlayGames(b, r, a.Guess, budget, a.Counts())
					b.ReportMetric(float64(a.MaxConflicts)/float64(a.Limit(r)), "maxwork/limit")
					return
				}
				useSolver = solver == "true"
				defer func() { useSolver = true }()
				s := Sampler{}
				fallbacks := 0
				guess := func(st *mm.State) (mm.Code, error) {
					g, err := s.Guess(st)
					if pl, ok := st.Attached(poolKey{}).(*pool); ok && pl.closest != nil {
						fallbacks++
					}
					return g, err
				}
				gametest.PlayGames(b, r, guess, budget, map[string]*int{"fallbacks/game": &fallbacks})
			})
		}
	}
}
