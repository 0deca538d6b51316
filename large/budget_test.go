package large

import (
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestDefaultBudgetFor checks the default budget on both sides of 15 × 15.
func TestDefaultBudgetFor(t *testing.T) {
	for _, c := range []struct {
		r    mm.Rules
		want time.Duration
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, SmallBudget},
		{mm.Rules{Colors: 12, Pegs: 12}, SmallBudget},
		{mm.Rules{Colors: 15, Pegs: 15}, SmallBudget},
		{mm.Rules{Colors: 16, Pegs: 15}, DefaultBudget},
		{mm.Rules{Colors: 16, Pegs: 16}, DefaultBudget},
		{mm.Rules{Colors: 20, Pegs: 20}, DefaultBudget},
		{mm.Rules{Colors: 30, Pegs: 30}, DefaultBudget},
	} {
		if got := DefaultBudgetFor(c.r); got != c.want {
			t.Errorf("DefaultBudgetFor(%v) = %v; want %v", c.r, got, c.want)
		}
	}
}
