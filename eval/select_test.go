package eval_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestSelect checks that runs of disjoint shares of the games add up to
// the whole run, for a deterministic and a randomised strategy, every
// secret and sampled ones, and that Record sees each game of the share.
func TestSelect(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	tests := []struct {
		name string
		s    mm.Strategy
		opts eval.Options
	}{
		{"knuth", strategy.Knuth{}, eval.Options{All: true}},
		{"random-consistent", strategy.RandomConsistent{}, eval.Options{All: true, Seed: 3}},
		{"random-consistent sampled", strategy.RandomConsistent{}, eval.Options{Games: 500, Seed: 9, MaxGuesses: 5}},
	}
	for _, tt := range tests {
		whole, err := eval.Run(t.Context(), r, tt.name, tt.s, &tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		var sum eval.Stats
		for k := range 3 {
			opts := tt.opts
			opts.Select = func(i int, _ mm.Code) bool { return i%3 == k }
			calls, total, zeros := 0, 0, 0
			opts.Record = func(i int, _ mm.Code, guesses int) {
				if i%3 != k {
					t.Errorf("%s: share %d recorded game %d", tt.name, k, i)
				}
				calls++
				total += guesses
				if guesses == 0 {
					zeros++
				}
			}
			part, err := eval.Run(t.Context(), r, tt.name, tt.s, &opts)
			if err != nil {
				t.Fatal(err)
			}
			if part.Played() >= whole.Played() || part.Played() == 0 {
				t.Errorf("%s: share %d played %d games of %d", tt.name, k, part.Played(), whole.Played())
			}
			if calls != part.Played() || total != part.Total || zeros != part.Failed {
				t.Errorf("%s: share %d recorded %d games, %d guesses, %d failed; the report says %d, %d, %d",
					tt.name, k, calls, total, zeros, part.Played(), part.Total, part.Failed)
			}
			sum.Merge(part.Stats)
		}
		if sum.Played() != whole.Played() || sum.Total != whole.Total || sum.Max != whole.Max ||
			sum.Failed != whole.Failed || !slices.Equal(sum.Histogram, whole.Histogram) {
			t.Errorf("%s: the shares add up to %+v; the whole run is %+v", tt.name, sum, whole.Stats)
		}
	}
}

// TestBuildTreeFrom checks that the trees below the first guess's
// feedbacks are the branches of the whole tree.
func TestBuildTreeFrom(t *testing.T) {
	r := mm.Rules{Colors: 6, Pegs: 4}
	s := strategy.Entropy{}
	whole, err := eval.BuildTree(t.Context(), r, s)
	if err != nil {
		t.Fatal(err)
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	fbs, kids, err := st.Branch(whole.Guess)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, f := range fbs {
		if f.Solved(r.Pegs) {
			continue
		}
		sub, err := eval.BuildTreeFrom(t.Context(), kids[i], s)
		if err != nil {
			t.Fatal(err)
		}
		want := whole.Child(f)
		if got, exp := eval.TreeStats(sub), eval.TreeStats(want); sub.Guess != want.Guess || sub.Nodes() != want.Nodes() ||
			got.Total != exp.Total || !slices.Equal(got.Histogram, exp.Histogram) {
			t.Errorf("BuildTreeFrom after %v %v = %v, %d nodes, %+v; the whole tree has %v, %d nodes, %+v",
				whole.Guess, f, sub.Guess, sub.Nodes(), got, want.Guess, want.Nodes(), exp)
		}
		n++
	}
	if n != len(whole.Branches) {
		t.Errorf("%d subtrees; the tree has %d branches", n, len(whole.Branches))
	}
	if _, err := eval.BuildTreeFrom(t.Context(), st, strategy.RandomConsistent{}); err == nil {
		t.Error("BuildTreeFrom of a randomised strategy: no error")
	}
}

// TestBuildTreeProgress checks that the count of secrets found rises one
// at a time, from goroutines that may overlap, to every secret.
func TestBuildTreeProgress(t *testing.T) {
	var mu sync.Mutex
	var calls, last int
	_, err := eval.BuildTreeProgress(context.Background(), mm.Classic, strategy.Knuth{}, func(found int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		last = max(last, found)
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1296 || last != 1296 {
		t.Fatalf("%d calls, the last count %d; want 1296 of each", calls, last)
	}
}
