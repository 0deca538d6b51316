package consist

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Limits of the benchmarks, in conflicts: genLimit for each guess of the
// game that makes the histories, benchLimit for each code measured.
const (
	genLimit   = 5000
	benchLimit = 50000
)

// A benchGame is a seeded game: its history, and how many of its guesses
// fell back to a random code because the solver found none within
// genLimit.
type benchGame struct {
	turns     []mm.Turn
	fallbacks int
}

var benchVariants = []struct {
	name       string
	r          mm.Rules
	countFirst bool
}{
	{"20x20", mm.Rules{Pegs: 20, Colors: 20}, false},
	{"25x25", mm.Rules{Pegs: 25, Colors: 25}, false},
	{"30x30", mm.Rules{Pegs: 30, Colors: 30}, false},
	{"30x10", mm.Rules{Pegs: 30, Colors: 10}, true},
	{"100x20", mm.Rules{Pegs: 100, Colors: 20}, true},
}

var (
	gamesMu sync.Mutex
	games   = map[string]*benchGame{}
)

// seededGame plays r against a secret drawn from seed 1: consistent play,
// the solver's first code each turn (after one guess of each colour but
// the last if countFirst, as huge.Fit plays 30 x 10 and 100 x 20), or a
// random code where it finds none within genLimit. The game ends when
// solved or after 2·pegs+colours guesses.
func seededGame(name string, r mm.Rules, countFirst bool) *benchGame {
	gamesMu.Lock()
	defer gamesMu.Unlock()
	if g, ok := games[name]; ok {
		return g
	}
	rng := rand.New(rand.NewPCG(1, 7))
	secret := mm.RandomCode(r, rng)
	g := &benchGame{}
	play := func(c mm.Code) bool {
		f := mm.Score(secret, c)
		g.turns = append(g.turns, mm.Turn{Guess: c, Feedback: f})
		return f.Solved(r.Pegs)
	}
	if countFirst {
		for _, code := range monochromes(r) {
			play(code)
		}
	}
	for len(g.turns) < 2*r.Pegs+r.Colors {
		sv, err := New(r, g.turns, rng)
		if err != nil {
			panic(err)
		}
		c, err := sv.Next(context.Background(), genLimit)
		if errors.Is(err, ErrLimit) {
			g.fallbacks++
			c = mm.RandomCode(r, rng)
		} else if err != nil {
			panic(fmt.Sprintf("%s: turn %d: %v", name, len(g.turns)+1, err))
		}
		if play(c) {
			break
		}
	}
	games[name] = g
	return g
}

// BenchmarkTurns times the solver at every turn of a seeded game of each
// variant: the time to the first code that fits the turns before it
// (first), and to 64 distinct ones (sample64). One op is every turn of the
// game. Metrics: the median, 99th percentile and worst time of a turn,
// and the median and 99th percentile of its conflicts (the same on every
// machine); turns where the solver met benchLimit conflicts without a code
// (limited: play would fall back to a code that does not fit); the
// fallbacks of the game that made the history (fallbacks); and the turns.
//
// Run one op at a time: go test -bench Turns -benchtime 1x.
func BenchmarkTurns(b *testing.B) {
	for _, v := range benchVariants {
		for _, n := range []int{1, 64} {
			name := v.name + "/first"
			if n > 1 {
				name = fmt.Sprintf("%s/sample%d", v.name, n)
			}
			b.Run(name, func(b *testing.B) {
				g := seededGame(v.name, v.r, v.countFirst)
				var times []time.Duration
				var conflicts []int64
				limited := 0
				b.ResetTimer()
				for range b.N {
					times, conflicts, limited = times[:0], conflicts[:0], 0
					for k := range g.turns {
						start := time.Now()
						sv, err := New(v.r, g.turns[:k], rand.New(rand.NewPCG(uint64(k), 3)))
						if err != nil {
							b.Fatal(err)
						}
						for range n {
							c, err := sv.Next(context.Background(), benchLimit)
							if errors.Is(err, ErrLimit) {
								limited++
								break
							}
							if err != nil {
								b.Fatalf("turn %d: %v", k+1, err)
							}
							if i := misfit(c, g.turns[:k]); i >= 0 {
								b.Fatalf("turn %d: %s does not fit turn %d", k+1, c, i+1)
							}
						}
						times = append(times, time.Since(start))
						conflicts = append(conflicts, sv.Stats().Conflicts)
					}
				}
				slices.Sort(times)
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
				b.ReportMetric(ms(times[(len(times)*99)/100]), "p99-ms")
				b.ReportMetric(ms(times[len(times)-1]), "max-ms")
				slices.Sort(conflicts)
				b.ReportMetric(float64(conflicts[len(conflicts)/2]), "p50-conflicts")
				b.ReportMetric(float64(conflicts[(len(conflicts)*99)/100]), "p99-conflicts")
				b.ReportMetric(float64(limited), "limited")
				b.ReportMetric(float64(g.fallbacks), "fallbacks")
				b.ReportMetric(float64(len(g.turns)), "turns")
			})
		}
	}
}
