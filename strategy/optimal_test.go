package strategy_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestOptimalOffTree checks that the strategy still plays well once the
// history leaves its tree, as in assist mode when a person plays their own
// guess: the guess it returns is optimal for what is left.
func TestOptimalOffTree(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 3}
	st, _ := mm.NewState(r, nil)
	g, _ := r.ParseCode("123") // not the tree's opening
	next, err := st.Play(g, mm.Feedback{Black: 1, White: 0})
	if err != nil {
		t.Fatal(err)
	}
	guess, err := strategy.Optimal{}.Guess(next)
	if err != nil {
		t.Fatal(err)
	}
	// The cost of playing guess, then optimally, against the best.
	best, err := exact.Solve(t.Context(), next, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := best.Total
	fbs, kids, err := next.Branch(guess)
	if err != nil {
		t.Fatal(err)
	}
	got := next.Remaining()
	for i, f := range fbs {
		if f.Solved(r.Pegs) {
			continue
		}
		res, err := exact.Solve(t.Context(), kids[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		got += res.Total
	}
	if got != want {
		t.Errorf("Optimal.Guess off the tree = %v costing %d; the best costs %d", guess, got, want)
	}
}

// TestOptimalThroughHarness checks that bench's harness, asking the strategy
// one guess at a time, reproduces the tree's totals.
func TestOptimalThroughHarness(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 4}
	rep, err := eval.Run(t.Context(), r, "optimal", strategy.Optimal{}, &eval.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 905 {
		t.Errorf("bench optimal on 4x4 = %d; want 905", rep.Total)
	}
}

// TestOptimalDeterministic checks that the tree does not depend on the
// number of workers, though the search splits work between them. Each
// search is exact's own, since Optimal keeps one tree per variant.
func TestOptimalDeterministic(t *testing.T) {
	st, err := mm.NewState(mm.Rules{Colors: 5, Pegs: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var first *mm.Tree
	for _, workers := range []int{1, 2, 4} {
		res, err := exact.Solve(context.Background(), st, &exact.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res.Tree
		} else if !reflect.DeepEqual(res.Tree, first) {
			t.Errorf("the optimal tree with %d workers differs from the one with 1", workers)
		}
	}
}

// TestOptimalOpenings checks that the best of the trees of the openings —
// the least total, then the least worst case, then the first in order — is
// the optimal tree, with and without a depth limit, and that an opening
// that cannot meet the limit says so with exact.ErrDepth.
func TestOptimalOpenings(t *testing.T) {
	tests := []struct {
		r        mm.Rules
		maxDepth int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 0},
		{mm.Rules{Colors: 6, Pegs: 4}, 5},
		{mm.Rules{Colors: 5, Pegs: 3}, 0},
	}
	if race.Enabled {
		// The 6 × 4 searches take a minute and a half under the race
		// detector, fifty times their plain 2 s. There 5 × 4 with a
		// limit of 5, where one opening of five is refused, runs the
		// same depth-limited search; the plain run checks 6 × 4.
		tests = []struct {
			r        mm.Rules
			maxDepth int
		}{{mm.Rules{Colors: 5, Pegs: 4}, 5}, {mm.Rules{Colors: 5, Pegs: 3}, 0}}
	}
	for _, tt := range tests {
		o := strategy.Optimal{MaxDepth: tt.maxDepth}
		want, err := o.Tree(tt.r)
		if err != nil {
			t.Fatal(err)
		}
		openings, err := o.Openings(tt.r)
		if err != nil || len(openings) < 2 {
			t.Fatalf("Openings(%v) = %v, %v; want several", tt.r, openings, err)
		}
		var best *mm.Tree
		bestTotal, bestDepth, refused := 0, 0, 0
		for _, g := range openings {
			tree, err := o.Opening(t.Context(), tt.r, g)
			if errors.Is(err, exact.ErrDepth) {
				refused++
				continue
			}
			if err != nil {
				t.Fatalf("Opening(%v, %v): %v", tt.r, g, err)
			}
			total, depth := tree.Cost()
			if tt.maxDepth > 0 && depth > tt.maxDepth {
				t.Errorf("Opening(%v, %v) needs %d guesses; the limit is %d", tt.r, g, depth, tt.maxDepth)
			}
			if best == nil || total < bestTotal || (total == bestTotal && depth < bestDepth) {
				best, bestTotal, bestDepth = tree, total, depth
			}
		}
		if best == nil {
			t.Fatalf("%v, --max-depth %d: every opening refused", tt.r, tt.maxDepth)
		}
		if got, exp := treeText(best), treeText(want); got != exp {
			total, depth := want.Cost()
			t.Errorf("%v, --max-depth %d: the best opening %v (%d, worst %d) is not the optimal tree %v (%d, worst %d)",
				tt.r, tt.maxDepth, best.Guess, bestTotal, bestDepth, want.Guess, total, depth)
		}
		if tt.maxDepth == 5 && refused == 0 {
			t.Errorf("%v: no opening refused at --max-depth 5; 1111 cannot meet it", tt.r)
		}
	}
}

// treeText writes a tree on one line, for comparisons.
func treeText(t *mm.Tree) string {
	var b strings.Builder
	var walk func(t *mm.Tree)
	walk = func(t *mm.Tree) {
		fmt.Fprintf(&b, "%v(", t.Guess)
		for _, br := range t.Branches {
			fmt.Fprintf(&b, "%v:", br.Feedback)
			walk(br.Next)
		}
		b.WriteString(")")
	}
	walk(t)
	return b.String()
}
