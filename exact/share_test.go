package exact_test

import (
	"context"
	"errors"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// TestSolveShare checks a search shared out among processes: shares of
// 1 to 4 processes, run one after another into one journal, with and
// without a bound, leave SolveOpenings nothing to solve, and it then
// gives the same total, worst case and tree as alone.
func TestSolveShare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r     mm.Rules
		depth int
		bound bool
	}{
		{mm.Rules{Colors: 4, Pegs: 3}, 0, true},
		{mm.Rules{Colors: 5, Pegs: 4}, 0, true},
		{mm.Rules{Colors: 5, Pegs: 4}, 0, false},
		{mm.Rules{Colors: 6, Pegs: 4}, 0, true},
		{mm.Rules{Colors: 6, Pegs: 4}, 5, false},
		{mm.Rules{Colors: 6, Pegs: 4}, 4, false}, // no strategy
		{mm.Rules{Colors: 10, Pegs: 3, Distinct: true}, 6, false},
		{mm.Rules{Colors: 2, Pegs: 1}, 1, false}, // no guess left after the first
	} {
		if race.Enabled && tc.r.Size() > 700 {
			continue
		}
		st, _ := mm.NewState(tc.r, nil)
		opts := &exact.Options{MaxDepth: tc.depth, AnyWorstCase: tc.depth > 0}
		want, wantErr := exact.SolveOpenings(context.Background(), st, opts, nil)
		bounds := []int{0}
		if tc.bound {
			// The best strategy's total, where ties among first
			// guesses must all be kept, and a strategy a little worse.
			bounds = []int{want.Total, want.Total + 3}
		}
		parts, err := exact.Parts(st, opts)
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range []int{1, 3, 4} {
			bound := bounds[i%len(bounds)]
			j := newMapJournal(-1)
			missing, err := exact.Missing(st, opts, j)
			if err != nil || len(missing) != len(parts) {
				t.Fatalf("%v: %d missing of %d before any share, %v", tc.r, len(missing), len(parts), err)
			}
			kept := 0
			for k := range n {
				got, err := exact.SolveShare(context.Background(), st, opts, j, exact.Share{
					Mine: func(u int) bool { return u%n == k }, Bound: bound})
				if err != nil {
					t.Fatalf("%v: share %d/%d: %v", tc.r, k, n, err)
				}
				kept += got
			}
			if kept != j.solved {
				t.Errorf("%v, %d shares: they say they kept %d units, the journal has %d", tc.r, n, kept, j.solved)
			}
			if missing, err := exact.Missing(st, opts, j); err != nil || len(missing) > 0 {
				t.Fatalf("%v, %d shares: %d units missing after every share ran, %v", tc.r, n, len(missing), err)
			}
			before := j.solved
			got, err := exact.SolveOpenings(context.Background(), st, opts, j)
			if j.solved != before {
				t.Errorf("%v, %d shares: SolveOpenings solved %d units the shares left", tc.r, n, j.solved-before)
			}
			if wantErr != nil {
				if !errors.Is(wantErr, exact.ErrDepth) || !errors.Is(err, exact.ErrDepth) {
					t.Errorf("%v within %d: alone %v, shared %v; want both ErrDepth", tc.r, tc.depth, wantErr, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total || got.Depth != want.Depth || !sameTree(got.Tree, want.Tree) {
				t.Errorf("%v within %d, %d shares, bound %d: %d depth %d; alone %d depth %d, and the same tree", tc.r, tc.depth, n, bound, got.Total, got.Depth, want.Total, want.Depth)
			}
			if n == 1 && bound > 0 && j.solved >= len(parts) && len(j.beaten) == 0 {
				t.Errorf("%v: the bound %d gave up no first guess and solved all %d units", tc.r, bound, len(parts))
			}
		}
	}
}
