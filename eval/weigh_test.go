package eval_test

import (
	"context"
	"math"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestWeigh checks Weigh against figures bench gives: knuth's own opening
// is expected to take 5801/1296 guesses, and 1111 what knuth takes when
// it opens with 1111 (bench --strategy knuth --opening 1111).
func TestWeigh(t *testing.T) {
	st, err := mm.NewState(mm.Classic, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, _ := mm.Classic.ParseCode("1122")
	w, err := eval.Weigh(ctx, st, strategy.Knuth{}, g)
	if err != nil {
		t.Fatal(err)
	}
	if w.Best != g || math.Abs(w.Expected-5801.0/1296) > 1e-12 || w.Delta() != 0 {
		t.Errorf("Weigh(1122) = %+v; want knuth's 1122 at 5801/1296", w)
	}
	g, _ = mm.Classic.ParseCode("1111")
	if w, err = eval.Weigh(ctx, st, strategy.Knuth{}, g); err != nil {
		t.Fatal(err)
	}
	// bench --strategy knuth --opening 1111: 6564 guesses in all.
	if math.Abs(w.Expected-6564.0/1296) > 1e-12 || w.Delta() <= 0.5 {
		t.Errorf("Weigh(1111) = %+v; want 6564/1296, which knuth opening with 1111 takes", w)
	}
}

// TestWeighOrScore checks that a small position is weighed as Weigh does
// and that the first of 8 × 5, too large to weigh, is scored by the codes
// each guess is expected to leave: 11111 leaves C(5,k)·7^(5−k) codes
// under k black pegs.
func TestWeighOrScore(t *testing.T) {
	ctx := context.Background()
	st, _ := mm.NewState(mm.Classic, nil)
	g, _ := mm.Classic.ParseCode("1111")
	w, err := eval.WeighOrScore(ctx, st, strategy.Knuth{}, g)
	if err != nil {
		t.Fatal(err)
	}
	if w.Scored || math.Abs(w.Expected-6564.0/1296) > 1e-12 {
		t.Errorf("WeighOrScore(1111) on 6 x 4 = %+v; want it weighed, 6564/1296", w)
	}
	super := mm.Rules{Colors: 8, Pegs: 5}
	if st, err = mm.NewState(super, nil); err != nil {
		t.Fatal(err)
	}
	g, _ = super.ParseCode("11111")
	if w, err = eval.WeighOrScore(ctx, st, strategy.Knuth{}, g); err != nil {
		t.Fatal(err)
	}
	want, binom := 0.0, []float64{1, 5, 10, 10, 5}
	for k, c := range binom {
		n := c * math.Pow(7, float64(5-k))
		want += n * n
	}
	want /= 32768
	if !w.Scored || w.Expected != 0 || math.Abs(w.ExpectedLeft-want) > 1e-9 || w.BestExpectedLeft >= w.ExpectedLeft {
		t.Errorf("WeighOrScore(11111) on 8 x 5 = %+v; want it scored, %.3f codes expected left, knuth's guess fewer", w, want)
	}
}
