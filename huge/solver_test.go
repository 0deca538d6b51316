package huge

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestSolverCodes checks the codes the complete solver gives Fit on
// 30 × 10 games with planted secrets, after the colours are counted:
// distinct, and each fits every turn.
func TestSolverCodes(t *testing.T) {
	r := mm.Rules{Colors: 10, Pegs: 30}
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 5))
		secret := mm.RandomCode(r, rng)
		st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 6)))
		if err != nil {
			t.Fatal(err)
		}
		for turn := range 16 {
			if turn >= 9 {
				xs, err := solverCodes(context.Background(), st, float64(time.Second), wantFew)
				if err != nil {
					t.Fatalf("seed %d, turn %d: %v", seed, turn+1, err)
				}
				if len(xs) == 0 {
					t.Fatalf("seed %d, turn %d: no code within a second's conflicts", seed, turn+1)
				}
				seen := map[string]bool{}
				for _, x := range xs {
					c := codeOf(x)
					for i := range st.Len() {
						if tn := st.Turn(i); mm.Score(c, tn.Guess) != tn.Feedback {
							t.Fatalf("seed %d, turn %d: %s does not fit turn %d", seed, turn+1, c, i+1)
						}
					}
					if seen[string(x)] {
						t.Fatalf("seed %d, turn %d: %s drawn twice", seed, turn+1, c)
					}
					seen[string(x)] = true
				}
			}
			g := mm.RandomCode(r, rng)
			if st, err = st.Play(g, mm.Score(secret, g)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
