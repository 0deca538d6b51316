package large

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// annealHistory returns the constraints of turns random guesses played
// against a random secret of r, and the secret.
func annealHistory(t *testing.T, r mm.Rules, turns int, seed uint64) (*Constraints, mm.Code) {
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
	return c, secret
}

// TestAnneal checks that annealing reaches a code that fits every turn,
// from a random start and from the secret itself, and that it spends what
// it steps.
func TestAnneal(t *testing.T) {
	cases := []struct {
		r     mm.Rules
		turns int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 3},
		{mm.Rules{Colors: 10, Pegs: 10}, 8},
		{mm.Rules{Colors: 8, Pegs: 6, Distinct: true}, 3},
		{mm.Rules{Colors: 20, Pegs: 20}, 12},
	}
	for _, tc := range cases {
		t.Run(tc.r.String(), func(t *testing.T) {
			c, secret := annealHistory(t, tc.r, tc.turns, uint64(tc.r.Pegs))
			m := &meter{budget: 1e18}
			w := newWalker(c, rand.New(rand.NewPCG(1, 2)), m)
			x, err := w.anneal(context.Background(), nil, 50_000_000)
			if err != nil {
				t.Fatal(err)
			}
			if x == nil {
				t.Fatalf("no code found in 50M steps (%d low codes)", len(w.lows))
			}
			if !c.fits(x) {
				t.Fatalf("annealing returned %v, which does not fit the turns", x)
			}
			if tc.r.Distinct && !distinctColors(x) {
				t.Fatalf("annealing returned %v, which repeats a colour", x)
			}
			if m.spent <= 0 {
				t.Errorf("annealing spent %v of the meter", m.spent)
			}
			// From the secret, which fits, it stops at once.
			s := appendCode(nil, secret)
			x, _ = w.anneal(context.Background(), s, 1)
			if !slices.Equal(x, s) {
				t.Errorf("from the secret: got %v, want %v", x, s)
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

// TestAnnealStops checks that annealing out of steps returns no code but
// offers the codes it passed, and that a done context stops it.
func TestAnnealStops(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 20}
	c, _ := annealHistory(t, r, 12, 3)
	w := newWalker(c, rand.New(rand.NewPCG(1, 2)), &meter{budget: 1e18})
	start := make([]uint8, r.Pegs) // all colour 0: it fits no turn
	x, err := w.anneal(context.Background(), start, 1)
	if err != nil || x != nil || len(w.lows) != 1 {
		t.Fatalf("after one step: code %v, %d low codes, error %v; want no code, one low code, no error", x, len(w.lows), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.anneal(ctx, start, 1<<30); err != context.Canceled {
		t.Fatalf("with a done context: error %v, want %v", err, context.Canceled)
	}
}
