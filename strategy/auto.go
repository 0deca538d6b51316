package strategy

import (
	"context"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/large"
)

// DefaultBudget is the time Auto aims to spend on one guess when no budget
// is given, where it plays an exact heuristic; where it samples, the
// sampler's default for the size (large.DefaultBudgetFor), at most this.
const DefaultBudget = large.DefaultBudget

// MaxSamplerPegs is the most pegs Auto plays with the sampler. Beyond, the
// sampler's games slow down steeply; huge.Fit, which counts the colours
// first, plays them (6 × 32: 34.3 guesses against the sampler's 35.3 and
// split's 40.3, on 3 seeded games, BENCHMARKS.md). Up to 30 pegs the
// sampler takes 10.7, 20.3 and 24.7 guesses on 2, 3 and 4 colours × 30
// pegs against Fit's 14.3, 24.3 and 29.0 on 5.
const MaxSamplerPegs = 30

// samples reports whether Auto leaves r to the sampler's pegs and colours.
func samples(r mm.Rules) bool {
	return r.Pegs <= MaxSamplerPegs
}

// fits reports whether Auto plays huge.Fit on r: beyond the sampler's
// pegs, where Fit takes far fewer guesses than split (BENCHMARKS.md: 206
// against 274 on 100 × 20, 71 against 143 on 32 × 64, 51 against 79 on
// 40 × 10), and on the sampler's long codes of few colours, at least 24
// pegs and at least 5 colours but no more than a third of the pegs, where
// counting the colours first costs little and Fit guesses about as well
// or better in a quarter of the time (30 × 10: 37.9 guesses on 20 games,
// 3.7 s a game, where the sampler took 37.6 on 10 in 16.9 s; 30 × 5: 29.0
// against 33.0; 24 × 8: 27.8 both). With fewer colours (30 × 3: 24.3
// against 20.3) or more (20 × 10: 23.6 against 19.0; 30 × 15, 30 × 30),
// the sampler guesses better.
func fits(r mm.Rules) bool {
	if r.Distinct {
		return false
	}
	return r.Pegs > MaxSamplerPegs || r.Pegs >= 24 && r.Colors >= 5 && 3*r.Colors <= r.Pegs
}

// Costs of the work Auto weighs against its budget, measured on the
// project's 2-core machine (see BENCHMARKS.md): scoring one guess against
// one code, by words of packed code; and listing one code of a symmetry
// pool.
const (
	pairNanos = 0.6 // per word of a packed code
	poolNanos = 60
)

// Auto picks, at every guess, a strategy that fits the space and a time
// budget. Where the space can be enumerated (at most 2²⁰ codes) and
// scoring every code against every candidate fits the budget it plays
// Entropy; else, if scoring the candidates against one another fits, Entropy
// with ConsistentOnly; else Sampler, with as many codes drawn and as many
// candidates scored exactly as the budget allows. Beyond 2²⁰ codes it is
// Sampler, which itself scores exactly, among the candidates, once they are
// few enough to list. On a space of about a million codes a game typically
// opens with Entropy, samples through the middle and ends with Entropy
// again. Beyond the sampler's reach (large.CheckSize, or more than
// MaxSamplerPegs pegs), and on long codes of few colours (see fits), it
// plays huge.Fit, which counts the colours, then anneals for codes that
// fit every answer, and finishes 100 pegs × 20 colours in about 200
// guesses and 10 seconds; distinct-colour variants there are refused.
//
// The budget is turned into amounts of work by fixed costs measured on the
// reference machine, never by reading the clock, so a game is reproducible
// from its seed whatever the machine's speed; the time actually spent varies
// with the machine and stays under the budget in most guesses, not all.
type Auto struct {
	Budget time.Duration // time per guess to aim for; 0 means DefaultBudget, or large.DefaultBudgetFor where Auto samples
}

var (
	_ mm.ContextStrategy = Auto{}
	_ mm.Randomized      = Auto{}
)

func (Auto) String() string { return "auto" }

// Randomized reports true: on large spaces Auto draws codes with st.Rand().
func (Auto) Randomized() bool { return true }

func (a Auto) nanos() float64 {
	if a.Budget <= 0 {
		return float64(DefaultBudget)
	}
	return float64(a.Budget)
}

// pairCost returns the nanoseconds of one scoring under r: a Space packs a
// code into two bit vectors of pegs·colours bits.
func pairCost(r mm.Rules) float64 {
	return pairNanos * float64(2*((r.Pegs*r.Colors+63)/64))
}

// Guess returns the guess of the strategy that fits.
func (a Auto) Guess(st *mm.State) (mm.Code, error) {
	return a.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (a Auto) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	r := st.Rules()
	b := a.nanos()
	pc := pairCost(r)
	if size := r.Size(); size <= MaxHeuristicSpace {
		n := float64(st.Remaining())
		pool := float64(size)
		if st.Len() == 0 {
			pool = float64(len(r.Openings()))
		}
		if pool*n*pc+float64(size)*poolNanos <= b {
			return Entropy{}.GuessContext(ctx, st)
		}
		if n*n*pc <= b {
			return Entropy{ConsistentOnly: true}.GuessContext(ctx, st)
		}
	}
	if fits(r) {
		return huge.Fit{Budget: a.Budget}.GuessContext(ctx, st)
	}
	if err := large.CheckSize(r); err != nil || !samples(r) {
		if r.Distinct {
			if err == nil {
				err = fmt.Errorf("%w: auto samples variants of up to %d pegs, and %s has %d; fit, beyond, needs repeated colours",
					mm.ErrTooLarge, MaxSamplerPegs, r, r.Pegs)
			}
			return mm.Code{}, err
		}
		return huge.Fit{Budget: a.Budget}.GuessContext(ctx, st)
	}
	return large.Sampler{Budget: a.Budget}.GuessContext(ctx, st)
}
