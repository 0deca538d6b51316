package strategy_test

import (
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/large"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestGameTime checks the guesses of a game's time: the sampler's budget
// times about twice the counting bound in guesses, split's by its size,
// and none for the strategies whose time has no budget to go by.
func TestGameTime(t *testing.T) {
	r20 := mm.Rules{Colors: 20, Pegs: 20}
	for _, tc := range []struct {
		s      mm.Strategy
		r      mm.Rules
		lo, hi time.Duration // 0, 0: no guess
	}{
		{strategy.Auto{}, r20, 4 * time.Second, 6 * time.Second}, // 21.8 guesses of 250 ms measured
		{large.Sampler{}, r20, 4 * time.Second, 6 * time.Second},
		{large.Sampler{Budget: time.Second}, r20, 16 * time.Second, 24 * time.Second},
		{strategy.Opening{Text: "1", Then: strategy.Auto{}}, r20, 4 * time.Second, 6 * time.Second},
		{strategy.Auto{}, mm.Rules{Colors: 12, Pegs: 12}, 500 * time.Millisecond, time.Second}, // 0.8 s measured
		{strategy.Auto{}, mm.Rules{Colors: 20, Pegs: 100}, 5 * time.Second, 15 * time.Second},  // fit: 9.6 s measured
		{huge.Fit{}, mm.Rules{Colors: 10, Pegs: 40}, 2 * time.Second, 15 * time.Second},
		{huge.Split{}, mm.Rules{Colors: 10, Pegs: 50}, 5 * time.Millisecond, 50 * time.Millisecond},
		{strategy.Auto{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 0}, // entropy, no budget to spend
		{strategy.Knuth{}, mm.Rules{Colors: 9, Pegs: 6}, 0, 0},
	} {
		d, ok := strategy.GameTime(tc.s, tc.r)
		if ok != (tc.hi > 0) || d < tc.lo || d > tc.hi {
			t.Errorf("GameTime(%v, %v) = %v, %v; want %v to %v", tc.s, tc.r, d, ok, tc.lo, tc.hi)
		}
	}
}
