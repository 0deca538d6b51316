package eval

import (
	"context"

	mm "github.com/mastermind-toolkit/mastermind"
)

// MaxWeighWork is the largest position WeighOrScore weighs in full, as the
// codes still possible times the codes of the variant: the work of
// growing a strategy's tree from it. Weighing a first guess on 10 × 4
// (10,000 × 10,000) with knuth takes about 1.2 s of CPU; the first
// position of 8 × 5 (32,768 × 32,768) takes tens of seconds.
const MaxWeighWork = 10_000 * 10_000

// WeighOrScore weighs guess g in position st against deterministic
// strategy s as Weigh does when the position is at most MaxWeighWork.
// A larger one is only scored, one answer ahead: the Weighing is Scored,
// with the codes g and the strategy's guess are expected to leave, and no
// guesses expected. The candidates of st must be enumerable.
func WeighOrScore(ctx context.Context, st *mm.State, s mm.Strategy, g mm.Code) (Weighing, error) {
	if float64(st.Remaining())*float64(st.Rules().Size()) <= MaxWeighWork {
		return Weigh(ctx, st, s, g)
	}
	w := Weighing{Scored: true}
	best, err := mm.GuessContext(ctx, s, st)
	if err != nil {
		return w, err
	}
	cands, err := st.Candidates()
	if err != nil {
		return w, err
	}
	w.Best = best
	pegs := st.Rules().Pegs
	if w.BestExpectedLeft, err = expectedLeft(cands, pegs, best); err != nil {
		return w, err
	}
	if g == best {
		w.ExpectedLeft = w.BestExpectedLeft
		return w, nil
	}
	w.ExpectedLeft, err = expectedLeft(cands, pegs, g)
	return w, err
}

// expectedLeft returns the codes of cands that guess g is expected to
// leave possible, all codes equally likely: the code itself, found,
// leaves none.
func expectedLeft(cands *mm.Set, pegs int, g mm.Code) (float64, error) {
	parts, err := cands.Partition(g)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for _, p := range parts {
		if !p.Solved(pegs) {
			sum += float64(p.Count) * float64(p.Count)
		}
	}
	return sum / float64(cands.Len()), nil
}
