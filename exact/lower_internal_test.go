package exact

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestLowerBoundBySet checks that the exact searches built set by set, as
// on spaces whose whole table does not fit, bound as the search of every
// code does.
func TestLowerBoundBySet(t *testing.T) {
	for _, tc := range []struct {
		r            mm.Rules
		depth, exact int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 32},
		{mm.Rules{Colors: 5, Pegs: 4}, 3, 8},
		{mm.Rules{Colors: 7, Pegs: 3, Distinct: true}, 2, 40},
	} {
		whole, err := LowerBoundWith(context.Background(), tc.r, tc.depth, &BoundOptions{Exact: tc.exact})
		if err != nil {
			t.Fatal(err)
		}
		wholeTable = 0
		bySet, err := LowerBoundWith(context.Background(), tc.r, tc.depth, &BoundOptions{Exact: tc.exact})
		wholeTable = leafTable
		if err != nil {
			t.Fatal(err)
		}
		if *bySet != *whole {
			t.Errorf("%v depth %d, exact %d: by set %+v; by the whole space %+v", tc.r, tc.depth, tc.exact, *bySet, *whole)
		}
	}
}
