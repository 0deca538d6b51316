package eval_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// oneAtATime hides a strategy's Walk, so that Run plays it guess by guess
// through its decision tree.
type oneAtATime struct{ mm.Strategy }

// TestRunWalkerMatchesTree checks that Run reports the same games from a
// Walker's walk as from playing the strategy one guess at a time: every
// secret, a selection of them, sampled games, and a guess limit.
func TestRunWalkerMatchesTree(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	type named struct {
		name string
		s    mm.Strategy
	}
	var all []named
	for _, name := range []string{"knuth", "expected-size", "entropy", "most-parts"} {
		s, err := strategy.New(name, strategy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// An opening of their own too, as --opening gives one: walked
		// from it, not grown as a tree.
		all = append(all, named{name, s},
			named{name + " from 1223", strategy.Opening{Text: "1223", Then: s}},
			named{name + " from pairs", strategy.Opening{Pairs: true, Then: s}})
	}
	for _, ns := range all {
		name, s := ns.name, ns.s
		if _, ok := s.(eval.Walker); !ok {
			t.Fatalf("%s is not an eval.Walker", name)
		}
		for _, o := range []eval.Options{
			{All: true},
			{All: true, MaxGuesses: 4},
			{All: true, Select: func(i int, _ mm.Code) bool { return i%3 == 1 }},
			{Games: 300, Seed: 7},
			{Games: 5000, Seed: 8, Select: func(i int, _ mm.Code) bool { return i%2 == 0 }},
		} {
			type rec struct {
				i       int
				secret  mm.Code
				guesses int
			}
			run := func(s mm.Strategy) (*eval.Report, []rec, int) {
				var recs []rec
				calls := 0
				o := o
				o.Record = func(i int, secret mm.Code, g int) { recs = append(recs, rec{i, secret, g}) }
				o.Progress = func(done, total int) { calls++ }
				rep, err := eval.Run(context.Background(), r, name, s, &o)
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(recs, func(a, b rec) int { return a.i - b.i })
				return rep, recs, calls
			}
			got, gotRecs, gotCalls := run(s)
			want, wantRecs, wantCalls := run(oneAtATime{s})
			if got.Total != want.Total || got.Games != want.Games || got.Failed != want.Failed ||
				!slices.Equal(got.Histogram, want.Histogram) || !slices.Equal(gotRecs, wantRecs) {
				t.Errorf("%s, %+v: walked %d games, %d guesses, %d failed, %v; one at a time %d, %d, %d, %v",
					name, o, got.Games, got.Total, got.Failed, got.Histogram, want.Games, want.Total, want.Failed, want.Histogram)
			}
			if gotCalls != wantCalls {
				t.Errorf("%s, %+v: Progress called %d times; one at a time %d", name, o, gotCalls, wantCalls)
			}
		}
	}
}

// TestRunBillionCancelled checks that a run of a billion sampled games, of
// a walking strategy and of one played through its tree, stops soon after
// its context is cancelled: the loops over the games look at it.
func TestRunBillionCancelled(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    func(mm.Strategy) mm.Strategy
	}{
		{"walk", func(s mm.Strategy) mm.Strategy { return s }},
		{"tree", func(s mm.Strategy) mm.Strategy { return oneAtATime{s} }},
	} {
		s, err := strategy.New("knuth", strategy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var started atomic.Bool
		time.AfterFunc(200*time.Millisecond, func() { started.Store(true); cancel() })
		start := time.Now()
		rep, err := eval.Run(ctx, mm.Classic, "knuth", tt.s(s), &eval.Options{Games: 1e9, Seed: 1})
		// Unpolled, these loops take minutes; a minute is far past any
		// wait of a polled loop, however loaded the machine.
		if d := time.Since(start); !errors.Is(err, context.Canceled) || d > time.Minute {
			t.Errorf("%s: Run of 1e9 games cancelled after 0.2 s = %v, %v after %v; want context.Canceled at once", tt.name, rep, err, d)
		}
		if !started.Load() {
			t.Errorf("%s: Run returned before it was cancelled", tt.name)
		}
	}
}

// TestCheckMemoryShare checks that CheckMemory weighs the games a run
// plays: a shard's share (Options.Selected) fits where every secret does
// not, and a strategy that opens with a given code and walks the rest
// needs no tree at all, on 8 × 8 too.
func TestCheckMemoryShare(t *testing.T) {
	big := mm.Rules{Colors: 12, Pegs: 6} // every secret: just too large
	huge := mm.Rules{Colors: 8, Pegs: 8}
	entropy := strategy.Entropy{AllCodes: true}
	tests := []struct {
		name string
		r    mm.Rules
		s    mm.Strategy
		opts eval.Options
		ok   bool
	}{
		{"every secret", big, strategy.FirstConsistent{}, eval.Options{All: true}, false},
		{"a quarter", big, strategy.FirstConsistent{}, eval.Options{All: true, Selected: 746496}, true},
		{"most of them", big, strategy.FirstConsistent{}, eval.Options{All: true, Selected: 2800000}, false},
		{"entropy, 8x8", huge, entropy, eval.Options{All: true}, true},
		{"entropy from 11122334, 8x8", huge, strategy.Opening{Text: "11122334", Then: entropy}, eval.Options{All: true}, true},
		{"first-consistent from 111222, 12x6", big, strategy.Opening{Text: "111222", Then: strategy.FirstConsistent{}}, eval.Options{All: true}, false},
	}
	for _, tt := range tests {
		err := eval.CheckMemory(tt.r, tt.s, &tt.opts)
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, eval.ErrMemory) {
			t.Errorf("%s: %v; want ok %v", tt.name, err, tt.ok)
		}
	}
}
