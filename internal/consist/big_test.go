package consist

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// playGame plays r against a planted secret with the solver's first code as
// every guess (consistent play), for at most turns turns; each turn calls
// check with the history so far, and the game stops when it returns false.
func playGame(tb testing.TB, r mm.Rules, seed uint64, countFirst bool, turns int, limit int64, each func(turns []mm.Turn, code mm.Code, d time.Duration, conflicts int64)) []mm.Turn {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	secret := mm.RandomCode(r, rng)
	var hist []mm.Turn
	if countFirst {
		// Count the colours first, as huge.Fit does: one guess of a
		// single colour each.
		for c := range r.Colors - 1 {
			cs := make([]int, r.Pegs)
			for i := range cs {
				cs[i] = c
			}
			g, _ := mm.NewCode(cs...)
			hist = append(hist, mm.Turn{Guess: g, Feedback: mm.Score(secret, g)})
		}
	}
	for len(hist) < turns {
		start := time.Now()
		sv, err := New(r, hist, rng)
		if err != nil {
			tb.Fatal(err)
		}
		g, err := sv.Next(context.Background(), limit)
		d := time.Since(start)
		if errors.Is(err, ErrLimit) {
			tb.Logf("%s, seed %d, turn %d: no code within %d conflicts", r, seed, len(hist)+1, limit)
			return hist
		}
		if err != nil {
			tb.Fatalf("%s, seed %d, turn %d: %v (secret %s)", r, seed, len(hist)+1, err, secret)
		}
		if i := misfit(g, hist); i >= 0 {
			tb.Fatalf("%s, seed %d, turn %d: code %s does not fit turn %d", r, seed, len(hist)+1, g, i+1)
		}
		if each != nil {
			each(hist, g, d, sv.Stats().Conflicts)
		}
		f := mm.Score(secret, g)
		hist = append(hist, mm.Turn{Guess: g, Feedback: f})
		if f.Solved(r.Pegs) {
			break
		}
	}
	return hist
}

// TestPlantedBig plays big variants with planted secrets: the solver must
// never report that no code fits, and every code must fit.
func TestPlantedBig(t *testing.T) {
	cases := []struct {
		r     mm.Rules
		turns int
	}{
		{mm.Rules{Pegs: 20, Colors: 20}, 40},
		{mm.Rules{Pegs: 30, Colors: 10}, 14},
		{mm.Rules{Pegs: 30, Colors: 30}, 12},
		{mm.Rules{Pegs: 100, Colors: 20}, 9},
	}
	for _, c := range cases {
		t.Run(c.r.String(), func(t *testing.T) {
			start := time.Now()
			var worst time.Duration
			h := playGame(t, c.r, 1, false, c.turns, 20000, func(_ []mm.Turn, _ mm.Code, d time.Duration, _ int64) {
				worst = max(worst, d)
			})
			t.Logf("%d turns in %v, slowest %v", len(h), time.Since(start), worst)
		})
	}
}
