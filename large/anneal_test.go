package large

import (
	"context"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// annealHistory returns the constraints of turns random guesses played
// against a random secret of r.
func annealHistory(t *testing.T, r mm.Rules, turns int, seed uint64) *Constraints {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	secret := mm.RandomCode(r, rng)
	var hist []mm.Turn
	for range turns {
		g := mm.RandomCode(r, rng)
		hist = append(hist, mm.Turn{Guess: g, Feedback: mm.Score(secret, g)})
	}
	c, err := NewConstraints(r, hist)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAnneal checks that annealing reaches a code that fits every turn, on
// histories where it has to cool through several stages and cycles, and
// that it charges its meter for the steps it took and no more.
func TestAnneal(t *testing.T) {
	cases := []struct {
		r     mm.Rules
		turns int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 4},
		{mm.Rules{Colors: 10, Pegs: 10}, 12},
		{mm.Rules{Colors: 8, Pegs: 6, Distinct: true}, 5},
		{mm.Rules{Colors: 20, Pegs: 20}, 14},
		{mm.Rules{Colors: 30, Pegs: 30}, 14},
	}
	for _, tc := range cases {
		t.Run(tc.r.String(), func(t *testing.T) {
			c := annealHistory(t, tc.r, tc.turns, uint64(tc.r.Pegs))
			for seed := range uint64(3) {
				const most = 50_000_000
				m := &meter{budget: 1e18}
				w := newWalker(c, rand.New(rand.NewPCG(seed, 2)), m)
				x, err := w.anneal(context.Background(), most)
				if err != nil {
					t.Fatal(err)
				}
				if x == nil {
					t.Fatalf("seed %d: no code found in %d steps (%d low codes)", seed, most, len(w.lows))
				}
				if !c.fits(x) {
					t.Fatalf("seed %d: annealing returned %v, which does not fit the turns", seed, x)
				}
				if tc.r.Distinct && !distinctColors(x) {
					t.Fatalf("seed %d: annealing returned %v, which repeats a colour", seed, x)
				}
				steps := m.spent / w.stepCost()
				if steps < 0.5 || steps > most || steps != float64(int(steps+0.5)) {
					t.Errorf("seed %d: the meter was charged %v steps, want a whole number from 1 to %d", seed, steps, most)
				}
			}
		})
	}
}

func distinctColors(x []uint8) bool {
	var seen uint64
	for _, k := range x {
		if seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
	}
	return true
}

// TestAnnealStops checks that annealing out of steps returns no code,
// having offered one and charged what it took, and that a done context
// stops it with the context's error (it looks at the context every
// annealStage steps, the first included).
func TestAnnealStops(t *testing.T) {
	r := mm.Rules{Colors: 30, Pegs: 30}
	c := annealHistory(t, r, 30, 3)
	m := &meter{budget: 1e18}
	w := newWalker(c, rand.New(rand.NewPCG(1, 2)), m)
	x, err := w.anneal(context.Background(), 1)
	if err != nil || x != nil || len(w.lows) != 1 {
		t.Fatalf("after one step: code %v, %d low codes, error %v; want no code, one low code, no error", x, len(w.lows), err)
	}
	if m.spent != w.stepCost() {
		t.Errorf("after one step the meter was charged %v, want one step's %v", m.spent, w.stepCost())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.anneal(ctx, 1<<30); err != context.Canceled {
		t.Fatalf("with a done context: error %v, want %v", err, context.Canceled)
	}
}
