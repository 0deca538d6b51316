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
// sampler's games slow down steeply and it plays worse than huge.Split,
// which takes a tenth of a second. On 3 seeded games (BENCHMARKS.md), since
// the sampler anneals for a consistent code when its sample dies, it
// takes 10.7, 20.3, 24.7 and 33.0 guesses on 2, 3, 4 and 5 colours × 30
// pegs against split's 14.7, 23.0, 29.7 and 36.3 (before annealing, 47 on
// 4 × 30), and 35.3 against 40.3 on 6 × 32, but 30.7 against 27.7 on
// 3 × 40.
const MaxSamplerPegs = 30

// samples reports whether Auto leaves r to the sampler's pegs and colours.
func samples(r mm.Rules) bool {
	return r.Pegs <= MaxSamplerPegs
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
// MaxSamplerPegs pegs) it plays huge.Split, which counts the colours, then
// halves the positions, and finishes 100 pegs × 20 colours in a tenth of a
// second; distinct-colour variants there are refused.
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
	if err := large.CheckSize(r); err != nil || !samples(r) {
		if r.Distinct {
			if err == nil {
				err = fmt.Errorf("%w: auto samples variants of up to %d pegs, and %s has %d; split, beyond, needs repeated colours",
					mm.ErrTooLarge, MaxSamplerPegs, r, r.Pegs)
			}
			return mm.Code{}, err
		}
		return huge.Split{}.GuessContext(ctx, st)
	}
	return large.Sampler{Budget: a.Budget}.GuessContext(ctx, st)
}
