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
