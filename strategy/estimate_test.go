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

// TestTreeTime checks the guesses of a scoring strategy's whole tree
// against the CPU times measured (BENCHMARKS.md), within a factor of two:
// 8 x 5 one thread, 7 x 7 entropy scoring every code and over the near
// pool, 8 x 8 over the near pool, play-outs on 8 x 5, 6 x 6 and 7 x 7; a sampled run costs no more than the
// tree; and no guess for the strategies that build no such tree.
func TestTreeTime(t *testing.T) {
	for _, tc := range []struct {
		s     mm.Strategy
		r     mm.Rules
		games int
		cpu   time.Duration // measured; 0: no guess
	}{
		{strategy.Knuth{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 2170 * time.Millisecond},
		{strategy.ExpectedSize{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 1810 * time.Millisecond},
		{strategy.Entropy{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 2710 * time.Millisecond},
		{strategy.MostParts{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 1290 * time.Millisecond},
		{strategy.Knuth{}, mm.Rules{Colors: 10, Pegs: 4}, 0, 395 * time.Millisecond},
		{strategy.Entropy{}, mm.Rules{Colors: 7, Pegs: 7}, 0, 2851 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true}, mm.Rules{Colors: 7, Pegs: 7}, 0, 85 * time.Second},
		{strategy.Entropy{WinBonus: 1.5}, mm.Rules{Colors: 8, Pegs: 8}, 0, 5796 * time.Second},
		{strategy.Entropy{Rollout: 16}, mm.Rules{Colors: 8, Pegs: 5}, 0, 53 * time.Second},
		{strategy.Entropy{Rollout: 64}, mm.Rules{Colors: 8, Pegs: 5}, 0, 157 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true, Rollout: 4}, mm.Rules{Colors: 8, Pegs: 5}, 0, 11 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true, Rollout: 64}, mm.Rules{Colors: 8, Pegs: 5}, 0, 104 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true, Rollout: 256}, mm.Rules{Colors: 8, Pegs: 5}, 0, 260 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true, Rollout: 64}, mm.Rules{Colors: 6, Pegs: 6}, 0, 170 * time.Second},
		{strategy.Entropy{WinBonus: 1.5, Near: true, Rollout: 8, RolloutMax: 20000, RolloutSmall: 300}, mm.Rules{Colors: 7, Pegs: 7}, 0, 2803 * time.Second},
		{strategy.Opening{Text: "1122", Then: strategy.Knuth{}}, mm.Rules{Colors: 10, Pegs: 4}, 0, 395 * time.Millisecond},
		{strategy.Auto{}, mm.Rules{Colors: 8, Pegs: 5}, 0, 0},
		{strategy.Knuth{}, mm.Rules{Colors: 20, Pegs: 20}, 0, 0},
	} {
		d, ok := strategy.TreeTime(tc.s, tc.r, tc.games)
		if tc.cpu == 0 {
			if ok {
				t.Errorf("TreeTime(%T, %v) = %v; want no guess", tc.s, tc.r, d)
			}
			continue
		}
		if !ok || d < tc.cpu/2 || d > tc.cpu*2 {
			t.Errorf("TreeTime(%T, %v) = %v, %v; measured %v", tc.s, tc.r, d, ok, tc.cpu)
		}
		whole := d
		for _, games := range []int{1, 100, 1e9} {
			if d, ok := strategy.TreeTime(tc.s, tc.r, games); !ok || d <= 0 || d > whole {
				t.Errorf("TreeTime(%T, %v, %d games) = %v, %v; want above 0, at most the whole tree's %v", tc.s, tc.r, games, d, ok, whole)
			}
		}
	}
}
