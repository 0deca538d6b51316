package exact_test

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// BenchmarkLowerBound64 proves 6 × 4's bound three guesses deep: 5612.
func BenchmarkLowerBound64(b *testing.B) {
	for b.Loop() {
		bd, err := exact.LowerBound(context.Background(), mm.Rules{Colors: 6, Pegs: 4}, 3, nil)
		if err != nil || bd.Total != 5612 {
			b.Fatalf("bound %v, %v; want 5612", bd, err)
		}
	}
}

// BenchmarkLowerBoundExact64 proves 6 × 4's bound two guesses deep with
// the sets of up to 64 codes solved exactly: 5625, the optimum.
func BenchmarkLowerBoundExact64(b *testing.B) {
	for b.Loop() {
		bd, err := exact.LowerBoundWith(context.Background(), mm.Rules{Colors: 6, Pegs: 4}, 2, &exact.BoundOptions{Exact: 64})
		if err != nil || bd.Total != 5625 {
			b.Fatalf("bound %v, %v; want 5625", bd, err)
		}
	}
}
