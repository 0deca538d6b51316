package large

import (
	"context"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestSolverCodes checks the codes the complete solver gives the sampler
// on 20 × 20 games with planted secrets: distinct, each fits every turn,
// and their work is spent on the meter.
func TestSolverCodes(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 20}
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 5))
		secret := mm.RandomCode(r, rng)
		st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 6)))
		if err != nil {
			t.Fatal(err)
		}
		for turn := range 12 {
			m := &meter{budget: float64(DefaultBudget)}
			flat, err := solverCodes(context.Background(), st, m, seeds)
			if err != nil {
				t.Fatalf("seed %d, turn %d: %v", seed, turn+1, err)
			}
			if len(flat) == 0 || m.spent <= 0 {
				t.Fatalf("seed %d, turn %d: %d codes, %.0f spent; want some of both", seed, turn+1, len(flat)/r.Pegs, m.spent)
			}
			c := ConstraintsOf(st)
			seen := map[string]bool{}
			for i := 0; i < len(flat); i += r.Pegs {
				x := flat[i : i+r.Pegs]
				if !c.fits(x) || seen[string(x)] {
					t.Fatalf("seed %d, turn %d: %s does not fit, or drawn twice", seed, turn+1, toCode(x))
				}
				seen[string(x)] = true
			}
			g := mm.RandomCode(r, rng) // a guess that need not fit
			if st, err = st.Play(g, mm.Score(secret, g)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
