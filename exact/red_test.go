package exact

import (
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// TestPoolsByHistory checks the pools the search builds near the root — a
// relabelling pool reduced by the history's permutations, shared between
// histories of the same group — against symmetry's own listing.
func TestPoolsByHistory(t *testing.T) {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 6, Pegs: 4, Distinct: true}, {Colors: 7, Pegs: 3}} {
		s := newTestSearch(t, r)
		p := s.p
		N := int32(p.N)
		for _, h := range [][]int32{{}, {7 % N}, {0}, {7 % N, 100 % N}, {0, 43 % N}, {8 % N, 300 % N}, {N - 1, N / 2}} {
			for _, excl := range []uint64{0, 1, 0b110000} {
				var codes []mm.Code
				for _, g := range h {
					codes = append(codes, p.sp.Code(int(g)))
				}
				g := symmetry.New(p.rules, codes)
				var buf []int32
				got := p.pools.byHistory(p, h, excl, &buf)
				if !g.Permutes() {
					if got != nil {
						t.Errorf("%v after %v: a pool for a history with no permutations", r, codes)
					}
					continue
				}
				if want := g.Exclude(excl).AppendList(nil, p.sp); !slices.Equal(got, want) {
					t.Errorf("%v after %v, excluding %b: pool of %d codes; symmetry lists %d", r, codes, excl, len(got), len(want))
				}
			}
		}
	}
}
