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

// BenchmarkFallbacks plays seeded games of the sampler as BenchGames does,
// with the complete solver where the searches find no code that fits
// (solver=true) and without it (solver=false), and reports besides the
// guesses that fell back to a code that does not fit for want of one that
// does. solver=alone plays the same games by consistent play from the
// solver alone (gametest.Alone: 64 codes drawn a turn within -large.alone
// budgets of conflicts, the one whose answers split them best played),
// and reports its conflicts too. Minutes a game on 30 × 30: -benchtime 3x.
func BenchmarkFallbacks(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 20, Pegs: 20}, {Colors: 25, Pegs: 25}, {Colors: 30, Pegs: 30}} {
		for _, solver := range []string{"true", "false", "alone"} {
			b.Run(fmt.Sprintf("%dx%d/solver=%s", r.Pegs, r.Colors, solver), func(b *testing.B) {
				budget := DefaultBudgetFor(r)
				if solver == "alone" {
					a := &gametest.Alone{Budget: budget, Budgets: *aloneBudgets}
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
