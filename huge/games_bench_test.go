package huge

import (
	"flag"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// budget is the budget a guess of BenchmarkFitGames, 0 for the default of
// the size (DefaultFitBudget).
var budget = flag.Duration("huge.budget", 0, "BenchmarkFitGames: budget a guess (0: the default for the size)")

// BenchmarkFitGames plays seeded games of Fit at the default budget (or
// -huge.budget), one game per iteration (see gametest.BenchGames: the mean
// guesses, and the CPU time of a guess over the budget in force at the
// median, the 99th percentile and the worst, on Linux). Run one size at a
// time, as
//
//	go test -run - -bench 'FitGames/20x100' -benchtime 3x ./huge/
func BenchmarkFitGames(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 10, Pegs: 30}, {Colors: 6, Pegs: 32}, {Colors: 10, Pegs: 40}, {Colors: 8, Pegs: 50}, {Colors: 20, Pegs: 100}} {
		b.Run(r.String(), func(b *testing.B) {
			inForce := *budget
			if inForce <= 0 {
				inForce = DefaultFitBudget(r)
			}
			gametest.BenchGames(b, r, Fit{Budget: *budget}, inForce)
		})
	}
}
