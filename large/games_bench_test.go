package large

import (
	"flag"
	"fmt"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// budget is the budget a guess of BenchmarkGames, 0 for the default of the
// size (DefaultBudgetFor).
var budget = flag.Duration("large.budget", 0, "BenchmarkGames: budget a guess (0: the default for the size)")

// BenchmarkGames plays seeded games of Sampler at the default budget (or
// -large.budget) on pegs × colours of 8 to 30, one game per iteration
// (see gametest.BenchGames: besides the time a game, the mean guesses, and
// the CPU time of the guesses as a multiple of the budget in force at the
// median, the 99th percentile and the worst, read from the thread's own
// accounting so that other work on a shared machine does not count). Run
// one size at a time, as
//
//	go test -run - -bench 'Games/12x12' -benchtime 20x ./large/
func BenchmarkGames(b *testing.B) {
	for _, n := range []int{8, 10, 12, 15, 16, 18, 20, 25, 30} {
		r := mm.Rules{Colors: n, Pegs: n}
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			s := Sampler{Budget: *budget}
			gametest.BenchGames(b, r, s, time.Duration(s.budget(r)))
		})
	}
}
