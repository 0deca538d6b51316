package large

import (
	"context"
	"math"
	"slices"
)

// The schedule of anneal: every annealCycle steps the chain is heated
// again to temperature annealHot (1/beta) and cooled linearly towards
// annealCold, in stages of annealStage steps (the last at 0.213). Tried on three 30 × 30
// histories where the sampler had lost every consistent code (six seeds
// each, at most 2 million steps, about half a second): cycles of 30 000
// steps from 0.6 to 0.2 found a consistent code in 11 of 18 runs; from 1.0
// or 1.5, 2 to 6; cycles of 100 000 or 300 000, 3 to 9; cooling to 0.05, 9.
// The constraint search found one in 5 of its 12 runs of 524 288 nodes,
// each 10 to 30 seconds, and a CDCL solver with pseudo-Boolean constraints
// (gophersat) in 1.5 and 14.6 s on two histories and not in 120 s on the
// third. In seeded games (BENCHMARKS.md) annealing took 30 × 30 from 49.2
// to 43.7 guesses and 25 × 25 from 37.3 to 32.3 (10 games each), and left
// 20 × 20 as it was; starting it from the codes nearest to fitting rather
// than a random code gave 43.3 but a worst game of 63 against 51, and
// resuming each turn where the last turn's annealing ended, 46.5.
const (
	annealCycle = 30_000
	annealStage = 1_000
	annealHot   = 0.6
	annealCold  = 0.2
)

// setBeta makes beta the chain's inverse temperature.
func (ch *chain) setBeta(beta float64) {
	for d := range ch.accept {
		ch.accept[d] = math.Exp(-beta * float64(d))
	}
}

// anneal looks for a code consistent with the turns by simulated
// annealing: one chain (see chain: its energy is how far a code is from
// fitting the turns, the score of Rhodes's report, Search Algorithms for
// Mastermind), started at a random code, heated and cooled again and again
// on the schedule above, until it reaches a code of energy 0, which it
// returns, or has taken most steps, when it returns nil. The code it is at
// at the start of each stage is offered to w.lows, and its steps are spent
// on w's meter. It stops with ctx.Err() soon after ctx is done.
//
// Walks at the sampler's fixed temperature (beta) keep near the codes they
// start from; late in large games the consistent codes are far from those,
// and cooling is what finds them.
func (w *walker) anneal(ctx context.Context, most int) ([]uint8, error) {
	start := make([]uint8, w.c.pegs)
	w.randomCode(start)
	ch := w.newChain(start)
	steps := 0
	defer func() { w.meter.spend(float64(steps) * w.stepCost()) }()
	for ; ch.e > 0 && steps < most; steps++ {
		if at := steps % annealCycle; at%annealStage == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t := annealHot + (annealCold-annealHot)*float64(at)/annealCycle
			ch.setBeta(1 / t)
			w.offer(ch.x, ch.e)
		}
		ch.step()
	}
	if ch.e == 0 {
		return slices.Clone(ch.x), nil
	}
	return nil, nil
}
