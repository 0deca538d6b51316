package gametest

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// BenchGames plays b.N seeded games of s under r, one per iteration (game
// i: secret drawn with a source seeded (i, 1), the state's source seeded
// (i, 2)), on one locked thread. Besides the time a game it reports the
// mean guesses, the CPU time of a game's guesses (cpu-s/game), and the
// CPU time of the guesses as a multiple of budget at the median, the 99th
// percentile and the worst, read from the thread's own accounting
// (ThreadCPU) so that other work on a shared machine does not count.
func BenchGames(b *testing.B, r mm.Rules, s mm.Strategy, budget time.Duration) {
	b.Helper()
	PlayGames(b, r, s.Guess, budget, nil)
}

// PlayGames is BenchGames with each guess made by guess, which may count
// what it sees in counts: each count is reported too, a game, under its
// name (such as "fallbacks/game").
func PlayGames(b *testing.B, r mm.Rules, guess func(*mm.State) (mm.Code, error), budget time.Duration, counts map[string]*int) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu []time.Duration
	guesses := 0
	for i := range b.N {
		secret := mm.RandomCode(r, rand.New(rand.NewPCG(uint64(i), 1)))
		st, err := mm.NewState(r, rand.New(rand.NewPCG(uint64(i), 2)))
		if err != nil {
			b.Fatal(err)
		}
		for {
			t0 := ThreadCPU()
			g, err := guess(st)
			cpu = append(cpu, ThreadCPU()-t0)
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
		return float64(cpu[min(len(cpu)-1, int(q*float64(len(cpu))))]) / float64(budget)
	}
	var total time.Duration
	for _, d := range cpu {
		total += d
	}
	b.ReportMetric(float64(guesses)/float64(b.N), "guesses/game")
	b.ReportMetric(total.Seconds()/float64(b.N), "cpu-s/game")
	b.ReportMetric(at(0.5), "p50/budget")
	b.ReportMetric(at(0.99), "p99/budget")
	b.ReportMetric(at(1), "max/budget")
	for name, n := range counts {
		b.ReportMetric(float64(*n)/float64(b.N), name)
	}
}
