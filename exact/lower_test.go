package exact_test

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// TestLowerBound checks the proved lower bounds against the optima of
// small variants: never above, rising with the depth, and reaching the
// optimum where the search is deep enough to see every guess of it.
func TestLowerBound(t *testing.T) {
	// The bounds one, two and three deep, as a search without cutoffs
	// across classes found them: pruning may not change them.
	for _, tc := range []struct {
		r    mm.Rules
		want [3]int
	}{
		{mm.Rules{Colors: 3, Pegs: 3}, [3]int{72, 73, 73}},
		{mm.Rules{Colors: 4, Pegs: 3}, [3]int{194, 206, 206}},
		{mm.Rules{Colors: 5, Pegs: 4}, [3]int{2333, 2386, 2462}},
		{mm.Rules{Colors: 6, Pegs: 4}, [3]int{5196, 5429, 5612}},
		{mm.Rules{Colors: 6, Pegs: 3, Distinct: true}, [3]int{413, 429, 436}},
	} {
		r := tc.r
		st, _ := mm.NewState(r, nil)
		opt, err := exact.Solve(context.Background(), st, &exact.Options{AnyWorstCase: true})
		if err != nil {
			t.Fatal(err)
		}
		prev := 0
		for depth := 1; depth <= 3; depth++ {
			if race.Enabled && depth == 3 && r.Size() > 200 {
				break // the same goroutines as below; the plain run goes three deep
			}
			b, err := exact.LowerBound(context.Background(), r, depth, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v depth %d: %d (optimum %d), first guess %v, %d sets", r, depth, b.Total, opt.Total, b.First, b.Sets)
			if b.Total != tc.want[depth-1] {
				t.Errorf("%v: bound %d at depth %d; want %d", r, b.Total, depth, tc.want[depth-1])
			}
			if b.Total > opt.Total || b.Total < prev {
				t.Errorf("%v: bound %d at depth %d, %d one level up; the optimum is %d", r, b.Total, depth, prev, opt.Total)
			}
			prev = b.Total
		}
	}
}

func TestLowerBoundErrors(t *testing.T) {
	if _, err := exact.LowerBound(context.Background(), mm.Rules{Colors: 6, Pegs: 4}, 0, nil); err == nil {
		t.Error("LowerBound at depth 0 took it")
	}
	if _, err := exact.LowerBound(context.Background(), mm.Rules{Colors: 20, Pegs: 20}, 1, nil); err == nil {
		t.Error("LowerBound of 20 x 20 took it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exact.LowerBound(ctx, mm.Rules{Colors: 6, Pegs: 4}, 3, nil); err == nil {
		t.Error("LowerBound with its context done went on")
	}
}

// TestLowerBoundSetsSame checks that the count of sets bounded is the same
// on every run, whichever core finishes a class first: it once depended
// on their order, 29 to 34 sets of 6 × 4 two deep.
func TestLowerBoundSetsSame(t *testing.T) {
	for _, tc := range []struct {
		r     mm.Rules
		depth int
		exact int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 0},
		{mm.Rules{Colors: 4, Pegs: 4}, 3, 0},
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 32},
	} {
		var first *exact.Bound
		runs := 20
		if !slow.Enabled {
			// 1.7 s of CPU at 20: the slow tier (go test -tags
			// slow, which CI runs) makes the 20.
			runs = 8
		}
		for range runs {
			b, err := exact.LowerBoundWith(context.Background(), tc.r, tc.depth, &exact.BoundOptions{Exact: tc.exact})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = b
				continue
			}
			if *b != *first {
				t.Fatalf("LowerBound(%v, %d) = %+v, then %+v; want the same", tc.r, tc.depth, *first, *b)
			}
		}
	}
}

// TestLowerBoundExact checks the bound with the exact optima of small sets
// in place of the counting bound: never above the optimum, never below
// the counting bound, and the optimum itself where every class below the
// first guess is solved exactly.
func TestLowerBoundExact(t *testing.T) {
	for _, tc := range []struct {
		r     mm.Rules
		depth int
		exact int
		want  int
	}{
		{mm.Rules{Colors: 4, Pegs: 4, Distinct: true}, 2, 24, 86}, // the optimum: every class solved
		{mm.Rules{Colors: 5, Pegs: 4}, 2, 625, 2463},
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 16, 5545},
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 64, 5625},
		{mm.Rules{Colors: 6, Pegs: 3, Distinct: true}, 3, 8, 436},
		{mm.Rules{Colors: 7, Pegs: 3}, 2, 12, 1459},
	} {
		r := tc.r
		st, _ := mm.NewState(r, nil)
		opt, err := exact.Solve(context.Background(), st, &exact.Options{AnyWorstCase: true})
		if err != nil {
			t.Fatal(err)
		}
		counting, err := exact.LowerBound(context.Background(), r, tc.depth, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := exact.LowerBoundWith(context.Background(), r, tc.depth, &exact.BoundOptions{Exact: tc.exact})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v depth %d, exact %d: %d (counting %d, optimum %d), %d sets", r, tc.depth, tc.exact, b.Total, counting.Total, opt.Total, b.Sets)
		if b.Total > opt.Total || b.Total < counting.Total {
			t.Errorf("%v depth %d, exact %d: bound %d; the counting bound is %d, the optimum %d", r, tc.depth, tc.exact, b.Total, counting.Total, opt.Total)
		}
		if b.Total != tc.want {
			t.Errorf("%v depth %d, exact %d: bound %d; want %d", r, tc.depth, tc.exact, b.Total, tc.want)
		}
	}
	if _, err := exact.LowerBoundWith(context.Background(), mm.Rules{Colors: 6, Pegs: 4}, 2, &exact.BoundOptions{Exact: -1}); err == nil {
		t.Error("LowerBoundWith took exact sets of -1 codes")
	}
}
