package large

import (
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// BenchmarkFallbacks plays seeded games of the sampler as BenchGames does,
// with the complete solver where the searches find no code that fits and
// without it, and reports besides the guesses that fell back to a code
// that does not fit for want of one that does. Minutes a game on 30 × 30:
// -benchtime 3x.
func BenchmarkFallbacks(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 20, Pegs: 20}, {Colors: 25, Pegs: 25}, {Colors: 30, Pegs: 30}} {
		for _, solver := range []bool{true, false} {
			b.Run(fmt.Sprintf("%dx%d/solver=%v", r.Pegs, r.Colors, solver), func(b *testing.B) {
				useSolver = solver
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
				gametest.PlayGames(b, r, guess, DefaultBudgetFor(r), map[string]*int{"fallbacks/game": &fallbacks})
			})
		}
	}
}
