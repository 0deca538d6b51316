package strategy

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestPlanTime checks the symmetries PlanTime divides by, and that it
// guesses only for strategies that score every code.
func TestPlanTime(t *testing.T) {
	r := mm.Rules{Colors: 8, Pegs: 8}
	for _, tt := range []struct {
		code string
		want float64
	}{
		{"11122334", 1152}, // 3!·2!·2! pegs, colours 2 and 3, the four unused
		{"11223344", 9216}, // 2!⁴ pegs, the four pairs, the four unused
		{"12345678", 40320},
		{"11111111", 40320 * 5040},
	} {
		c, err := r.ParseCode(tt.code)
		if err != nil {
			t.Fatal(err)
		}
		if got := automorphisms(r, c); got != tt.want {
			t.Errorf("automorphisms of %s: %v, want %v", tt.code, got, tt.want)
		}
	}
	ctx := context.Background()
	mike := Opening{Text: "11122334", Then: Entropy{AllCodes: true}}
	for _, tt := range []struct {
		name string
		s    mm.Strategy
		ok   bool
	}{
		{"every code", mike, true},
		{"near pool", Opening{Text: "11122334", Then: Entropy{}}, false},
		{"near", Opening{Text: "11122334", Then: Entropy{Near: true, AllCodes: false}}, false},
		{"knuth past 2^20", Opening{Text: "11122334", Then: Knuth{}}, false},
		{"first-consistent", Opening{Text: "11122334", Then: FirstConsistent{}}, false},
	} {
		d, ok := PlanTime(ctx, tt.s, r)
		if ok != tt.ok {
			t.Errorf("%s: PlanTime %v, %v; want ok %v", tt.name, d, ok, tt.ok)
		}
	}
	// About 40 minutes from 11122334 (16.7 M codes times the guesses
	// after it, a 1152th of them).
	if d, _ := PlanTime(ctx, mike, r); d.Minutes() < 30 || d.Minutes() > 50 {
		t.Errorf("PlanTime from 11122334 on 8x8: %v, want about 40 minutes", d)
	}
}
