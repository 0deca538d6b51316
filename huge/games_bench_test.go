//go:build linux

package huge

import (
	"flag"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// budget is the budget a guess of BenchmarkFitGames, 0 for the default of
// the size (DefaultFitBudget).
var budget = flag.Duration("huge.budget", 0, "BenchmarkFitGames: budget a guess (0: the default for the size)")

// BenchmarkFitGames plays seeded games of Fit at the default budget (or
// -huge.budget), one game per iteration (game i: secret and strategy
// seeded with i), on one goroutine. Besides the time a game it reports the
// mean guesses, and the CPU time of the guesses as a multiple of the
// budget in force at the median, the 99th percentile and the worst, read
// from the thread's own accounting so that other work on a shared machine
// does not count. Run one size at a time, as
//
//	go test -run - -bench 'FitGames/20x100' -benchtime 3x ./huge/
func BenchmarkFitGames(b *testing.B) {
	for _, r := range []mm.Rules{{Colors: 10, Pegs: 30}, {Colors: 6, Pegs: 32}, {Colors: 10, Pegs: 40}, {Colors: 8, Pegs: 50}, {Colors: 20, Pegs: 100}} {
		b.Run(r.String(), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			inForce := *budget
			if inForce <= 0 {
				inForce = DefaultFitBudget(r)
			}
			var cpu []time.Duration
			guesses := 0
			for i := range b.N {
				secret := mm.RandomCode(r, rand.New(rand.NewPCG(uint64(i), 1)))
				st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
				if err != nil {
					b.Fatal(err)
				}
				for {
					t0 := threadCPU()
					g, err := Fit{Budget: *budget}.Guess(st)
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
			at := func(q float64) float64 {
				return float64(cpu[min(len(cpu)-1, int(q*float64(len(cpu))))]) / float64(inForce)
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
