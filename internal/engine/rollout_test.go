package engine

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// total returns the guesses of a walk over every secret.
func total(depth []uint8) int {
	t := 0
	for _, d := range depth {
		t += int(d)
	}
	return t
}

// TestRolloutNeverWorse checks the pilot method's promise: at every node
// the guess kept plays out no worse than the chooser's own, and the rule
// below it does no worse than the chooser's, so the whole tree totals no
// more; and that it does better somewhere, or the play-outs choose nothing.
// The walk must match playing each secret guess by guess, with one worker
// and with two.
func TestRolloutNeverWorse(t *testing.T) {
	t.Parallel()
	near := Sample{Work: 1 << 14, Top: 4, Mutate: 30, Near: 10, Climb: 3}
	cases := []struct {
		r          mm.Rules
		sample     Sample
		bonus      int64
		consistent bool
	}{
		{mm.Rules{Colors: 5, Pegs: 3}, Sample{}, 0, false},
		{mm.Rules{Colors: 4, Pegs: 4}, Sample{}, 3 << 31, false},
		{mm.Rules{Colors: 4, Pegs: 4}, near, 3 << 31, false},
		{mm.Rules{Colors: 8, Pegs: 3, Distinct: true}, near, 0, false},
		{mm.Rules{Colors: 5, Pegs: 4}, Sample{}, 0, true},
	}
	gained := 0
	for _, c := range cases {
		sp, _ := mm.SpaceOf(c.r)
		v := For(sp)
		base := &Chooser{V: v, Obj: SumNLogN, Bonus: c.bonus, Sample: c.sample, ConsistentOnly: c.consistent}
		depth, err := base.Walk(context.Background(), nil, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := total(depth)
		for _, roll := range []Rollout{{Top: 3, Min: 3, Max: 1 << 20}, {Top: 6, Min: 10, Max: 100}, {Top: 2, Max: 1 << 20, Small: 20, SmallTop: 8}} {
			ch := &Chooser{V: v, Obj: SumNLogN, Bonus: c.bonus, Sample: c.sample, ConsistentOnly: c.consistent, Rollout: roll}
			// checkWalk plays every secret, and under ConsistentOnly
			// fails on a guess that could not be the secret.
			got := total(checkWalk(t, ch, sp, c.r.String()))
			if got > want {
				t.Errorf("%v, %+v: %d guesses in all, more than the %d without play-outs", c.r, roll, got, want)
			}
			gained += want - got
			t.Logf("%v, %+v: %d, without play-outs %d", c.r, roll, got, want)
		}
	}
	if gained == 0 {
		t.Error("the play-outs took no guess off any variant")
	}
}

// TestPlayOut checks a play-out's total against the chooser's own walk:
// the first guess played out is the walk's, so they must agree, and a
// bound cuts the play-out short with a total of at least the bound.
func TestPlayOut(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 4, Pegs: 5}} {
		sp, _ := mm.SpaceOf(r)
		ch := &Chooser{V: For(sp), Obj: SumNLogN, Bonus: 3 << 31}
		depth, err := ch.Walk(context.Background(), nil, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]uint32, sp.Len())
		for i := range all {
			all[i] = uint32(i)
		}
		wk := &worker{}
		g, err := ch.choose(context.Background(), wk, all, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ch.playOut(context.Background(), wk, all, 0, g, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		if want := total(depth); got != want {
			t.Fatalf("%v: play-out of %v totals %d; the walk %d", r, sp.Code(g), got, want)
		}
		// Cut short below its total, the play-out gives a total above
		// the bound and at most the whole one; at or above, the whole.
		for _, bound := range []int{got / 2, got * 9 / 10, got - 1, got, got + 1} {
			cut, err := ch.playOut(context.Background(), wk, all, 0, g, bound)
			if err != nil {
				t.Fatal(err)
			}
			if bound >= got && cut != got || bound < got && (cut <= bound || cut > got) {
				t.Fatalf("%v: play-out of total %d bounded by %d gives %d", r, got, bound, cut)
			}
		}
	}
}

// TestPlayOutKeepsWhole checks that a worker keeps only totals of nodes
// played out whole: a play-out cut short, then the same play-out without
// a bound on that worker, gives the whole total, as on a fresh worker.
func TestPlayOutKeepsWhole(t *testing.T) {
	sp, _ := mm.SpaceOf(mm.Rules{Colors: 6, Pegs: 4})
	ch := &Chooser{V: For(sp), Obj: SumNLogN, Bonus: 3 << 31}
	all := make([]uint32, sp.Len())
	for i := range all {
		all[i] = uint32(i)
	}
	ctx := context.Background()
	cut := 0
	for _, code := range []string{"1123", "1234", "1112", "1111", "1122"} {
		c, _ := sp.Rules().ParseCode(code)
		g, _ := sp.Index(c)
		want, err := ch.playOut(ctx, &worker{}, all, 0, g, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		for _, bound := range []int{want * 95 / 100, want * 99 / 100, want - 1} {
			wk := &worker{}
			if got, err := ch.playOut(ctx, wk, all, 0, g, bound); err != nil || got <= bound {
				t.Fatalf("%s bounded by %d: %d, %v; want above the bound", code, bound, got, err)
			}
			cut++
			if got, err := ch.playOut(ctx, wk, all, 0, g, math.MaxInt); err != nil || got != want {
				t.Fatalf("%s after a play-out cut at %d: %d, %v; want %d", code, bound, got, err, want)
			}
		}
	}
	if cut == 0 {
		t.Fatal("no play-out was cut")
	}
}

// TestLeast checks the counting bound of a play-out's classes against
// known least totals: a class of one costs a guess, of two three, and no
// bound exceeds the optimum of the whole space from its first guess.
func TestLeast(t *testing.T) {
	for _, tc := range []struct {
		r       mm.Rules
		n, most int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 1, 1},
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 3},
		{mm.Rules{Colors: 6, Pegs: 4}, 3, 5},
		{mm.Rules{Colors: 6, Pegs: 4}, 1296, 5625},    // Koyama and Lai
		{mm.Rules{Colors: 7, Pegs: 4}, 2401, 11228},   // Ville
		{mm.Rules{Colors: 2, Pegs: 3}, 8, 18},         // optima (records/optimal.csv)
		{mm.Rules{Colors: 10, Pegs: 4}, 10000, 55632}, // optima
		{mm.Rules{Colors: 8, Pegs: 5}, 32768, 178545}, // a tree (records/8x5-entropy-rollout.json.gz)
	} {
		sp, _ := mm.SpaceOf(tc.r)
		got := For(sp).least(tc.n)
		if got > tc.most || tc.n <= 2 && got != tc.most || got < 2*tc.n-1 {
			t.Errorf("%v: least(%d) = %d; want at least %d, at most %d", tc.r, tc.n, got, 2*tc.n-1, tc.most)
		}
	}
}

// TestRolloutStops checks that a context done in the middle of the
// play-outs (a walk of 8 × 5 with them takes seconds) stops the walk with
// its error, and so does Choose's.
func TestRolloutStops(t *testing.T) {
	sp, _ := mm.SpaceOf(mm.Rules{Colors: 8, Pegs: 5})
	ch := &Chooser{V: For(sp), Obj: SumNLogN, Sample: Sample{Work: 1 << 28, Top: 8, Climb: 1}, Rollout: Rollout{Top: 8, Max: 1 << 20}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := ch.Walk(ctx, nil, nil, 2); !errors.Is(err, context.DeadlineExceeded) || err.Error() != context.DeadlineExceeded.Error() {
		t.Fatalf("a walk with play-outs past its deadline returned %q", err)
	}
	all := make([]uint32, sp.Len())
	for i := range all {
		all[i] = uint32(i)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := ch.Choose(ctx, all, nil, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a choice with play-outs past its deadline returned %v", err)
	}
}

// TestRolloutUseless checks play-outs of many guesses, down to some that
// learn nothing at small nodes: they are passed over, not an error.
func TestRolloutUseless(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 4, Pegs: 4}, {Colors: 5, Pegs: 3}} {
		sp, _ := mm.SpaceOf(r)
		ch := &Chooser{V: For(sp), Obj: SumNLogN, Rollout: Rollout{Top: 64, Max: 1 << 20}}
		checkWalk(t, ch, sp, r.String())
	}
}
