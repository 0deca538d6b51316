package exact_test

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

func solve(t testing.TB, r mm.Rules, maxDepth int) *exact.Result {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exact.Solve(context.Background(), st, &exact.Options{MaxDepth: maxDepth})
	if err != nil {
		t.Fatalf("Solve(%v, max depth %d): %v", r, maxDepth, err)
	}
	return res
}

// TestKnown checks published optima.
func TestKnown(t *testing.T) {
	tests := []struct {
		r            mm.Rules
		maxDepth     int
		total, depth int
	}{
		{mm.Rules{Colors: 4, Pegs: 4}, 0, 905, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0, 2463, 0},
		{mm.Rules{Colors: 6, Pegs: 3}, 0, 854, 0},
		{mm.Classic, 0, 5625, 6},
		{mm.Classic, 5, 5626, 5},
	}
	for _, tt := range tests {
		res := solve(t, tt.r, tt.maxDepth)
		t.Logf("%v max depth %d: %d nodes, %+v", tt.r, tt.maxDepth, res.Nodes, res.Stats)
		if res.Total != tt.total || (tt.depth > 0 && res.Depth != tt.depth) {
			t.Errorf("Solve(%v, max depth %d) = %d guesses, worst %d; want %d, worst %d", tt.r, tt.maxDepth, res.Total, res.Depth, tt.total, tt.depth)
		}
	}
}

func BenchmarkClassic(b *testing.B) {
	for b.Loop() {
		solve(b, mm.Classic, 0)
	}
}

func TestSevenFour(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes")
	}
	res := solve(t, mm.Rules{Colors: 7, Pegs: 4}, 0)
	t.Logf("7x4: %d guesses, worst %d, %d nodes, %+v", res.Total, res.Depth, res.Nodes, res.Stats)
	if res.Total != 11228 {
		t.Errorf("7x4 total %d; want 11228", res.Total)
	}
}
