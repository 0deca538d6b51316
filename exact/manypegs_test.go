package exact_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// TestManyPegs checks searches of variants of 8 pegs and more, where the
// feedback table once went wrong (its lookup of black and white pegs held
// 7 pegs at most) and the search's total disagreed with the tree it
// rebuilt: 2 × 8 from the start, whose total 1104 the plain branch and
// bound (plainTotal) also finds, in minutes; and states after a guess or
// two on 2 × 8, 2 × 9, 3 × 8 and 2 × 10 (whose dense feedbacks pass 64),
// against the plain searches; and states of 2 × 15, whose win is dense
// feedback 134, past the 128 the shortcut for small sets once held (it
// panicked).
func TestManyPegs(t *testing.T) {
	t.Parallel()
	t.Run("2x8", func(t *testing.T) {
		all := mustSpace(t, mm.Rules{Colors: 2, Pegs: 8}).All().Codes()
		res, err := solve(t, start(t, mm.Rules{Colors: 2, Pegs: 8}), 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 1104 || res.Depth != 6 {
			t.Errorf("Solve(2 × 8) = %d guesses, worst %d; want 1104, worst 6", res.Total, res.Depth)
		}
		replay(t, res.Tree, all)
	})
	rng := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		r             mm.Rules
		states, codes int
	}{
		{mm.Rules{Colors: 2, Pegs: 8}, 4, 20},
		{mm.Rules{Colors: 2, Pegs: 9}, 4, 20},
		{mm.Rules{Colors: 3, Pegs: 8}, 4, 20},
		{mm.Rules{Colors: 2, Pegs: 10}, 4, 20},
		{mm.Rules{Colors: 2, Pegs: 15}, 1, 6},
	} {
		r := c.r
		all := mustSpace(t, r).All().Codes()
		for i := range c.states {
			// A random secret and guesses until few codes are left:
			// the plain search of more, with every code a guess at each
			// node, takes seconds.
			st := start(t, r)
			secret := all[rng.IntN(len(all))]
			for st.Remaining() > c.codes {
				g := all[rng.IntN(len(all))]
				f := mm.Score(secret, g)
				if f.Solved(r.Pegs) {
					continue
				}
				st, _ = st.Play(g, f)
			}
			if i >= 2 && !slow.Enabled {
				// The states are drawn all the same: the plain run
				// solves the first two of each variant, the slow
				// tier (go test -tags slow, which CI runs) all four.
				continue
			}
			t.Run(fmt.Sprintf("%vstate%d", r, i), func(t *testing.T) {
				cands, _ := st.Candidates()
				res, err := solve(t, st, 0)
				if err != nil {
					t.Fatalf("Solve(%v after %v): %v", r, st.Turns(), err)
				}
				idx := make([]int, cands.Len())
				for j := range idx {
					idx[j] = j
				}
				plain := newPlainTotal(all, cands.Codes())
				if want := plain.cost(idx, 1<<30); res.Total != want {
					t.Errorf("Solve(%v after %v) = %d guesses; the plain search finds %d", r, st.Turns(), res.Total, want)
				}
				replay(t, res.Tree, cands.Codes())
			})
		}
	}
}
