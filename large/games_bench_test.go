//go:build linux

package large

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// budget is the budget a guess of BenchmarkGames, 0 for the default of the
// size (DefaultBudgetFor).
var budget = flag.Duration("large.budget", 0, "BenchmarkGames: budget a guess (0: the default for the size)")

// BenchmarkGames plays seeded games of Sampler at the default budget (or
// -large.budget) on pegs × colours of 8 to 30, one game per iteration
// (game i: secret and strategy seeded with i), on one goroutine. Besides
// the time a game it reports the mean guesses, and the CPU time of the
// guesses as a multiple of the budget in force at the median, the 99th
// percentile and the worst, read from the thread's own accounting so that
// other work on a shared machine does not count. Run one size at a time, as
//
//	go test -run - -bench 'Games/12x12' -benchtime 20x ./large/
func BenchmarkGames(b *testing.B) {
	for _, n := range []int{8, 10, 12, 15, 16, 18, 20, 25, 30} {
		r := mm.Rules{Colors: n, Pegs: n}
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu []time.Duration
			guesses := 0
			for i := range b.N {
				rng := rand.New(rand.NewPCG(uint64(i), 1))
				secret := mm.RandomCode(r, rng)
				st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
				if err != nil {
					b.Fatal(err)
				}
				for {
					t0 := threadCPU()
					g, err := Sampler{Budget: *budget}.Guess(st)
					cpu = append(cpu, threadCPU()-t0)
					if err != nil {
						b.Fatal(err)
					}
					guesses++
					f := mm.Score(secret, g)
					if f.Solved(r.Pegs) {
						break
					}
					if st, err = st.Play(g, f); err != nil {
						b.Fatal(err)
					}
				}
			}
			slices.Sort(cpu)
			inForce := Sampler{Budget: *budget}.budget(r)
			at := func(q float64) float64 {
				return float64(cpu[min(len(cpu)-1, int(q*float64(len(cpu))))]) / inForce
			}
			b.ReportMetric(float64(guesses)/float64(b.N), "guesses/game")
			b.ReportMetric(at(0.5), "p50/budget")
			b.ReportMetric(at(0.99), "p99/budget")
			b.ReportMetric(at(1), "max/budget")
		})
	}
}

// threadCPU returns the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
