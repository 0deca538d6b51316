package eval

import (
	"context"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Weighing compares a guess with the one a strategy plays in the same
// position: the number of guesses each is expected to take from there to
// the end, itself included, when the strategy plays every guess after it,
// over the codes still possible, all equally likely.
type Weighing struct {
	Best         mm.Code // the strategy's guess
	Expected     float64 // with the guess weighed
	BestExpected float64 // with the strategy's guess

	// Scored says the position was too large to weigh (WeighOrScore):
	// Expected and BestExpected are zero, and ExpectedLeft and
	// BestExpectedLeft are the codes the guess and the strategy's are
	// expected to leave possible after their answer.
	Scored                         bool
	ExpectedLeft, BestExpectedLeft float64
}

// Delta returns what the guess costs against the strategy's, in guesses
// expected; negative when it does better. It is zero when Scored.
func (w Weighing) Delta() float64 { return w.Expected - w.BestExpected }

// Weigh weighs guess g in position st against deterministic strategy s,
// growing s's decision tree from st and from each position g leads to. The
// candidates of st must be enumerable; the cost is that of the trees.
func Weigh(ctx context.Context, st *mm.State, s mm.Strategy, g mm.Code) (Weighing, error) {
	var w Weighing
	best, err := mm.GuessContext(ctx, s, st)
	if err != nil {
		return w, err
	}
	t, err := BuildTreeFrom(ctx, st, s)
	if err != nil {
		return w, err
	}
	total, _ := t.Cost()
	size := float64(st.Remaining())
	w.Best, w.BestExpected = best, float64(total)/size
	if g == best {
		w.Expected = w.BestExpected
		return w, nil
	}
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return w, err
	}
	pegs := st.Rules().Pegs
	sum := size // every code plays g
	for i, k := range kids {
		switch {
		case fbs[i].Solved(pegs):
			continue
		case k.Remaining() == st.Remaining():
			// g tells nothing: the strategy carries on as from st.
			sum += float64(total)
			continue
		}
		kt, err := BuildTreeFrom(ctx, k, s)
		if err != nil {
			return w, err
		}
		kTotal, _ := kt.Cost()
		sum += float64(kTotal)
	}
	w.Expected = sum / size
	return w, nil
}
