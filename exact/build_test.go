package exact

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestGuessesKept checks that the tree Solve returns, whose root guess it
// takes from its first search when the worst case was not lowered and
// whose other nodes' guesses from the transposition table where it knows
// them to be the first in order, is the tree a search of every node again
// gives.
func TestGuessesKept(t *testing.T) {
	tests := []struct {
		r     mm.Rules
		depth int
	}{
		{mm.Rules{Colors: 3, Pegs: 3}, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0},
		{mm.Rules{Colors: 4, Pegs: 5}, 0},
		{mm.Rules{Colors: 6, Pegs: 3}, 0},
		{mm.Rules{Colors: 4, Pegs: 4, Distinct: true}, 0},
		{mm.Rules{Colors: 8, Pegs: 3, Distinct: true}, 0},
		{mm.Rules{Colors: 3, Pegs: 5}, 4},
		{mm.Rules{Colors: 5, Pegs: 4}, 5},
		{mm.Classic, 5},
		{mm.Classic, 0},
	}
	for _, tt := range tests {
		st, err := mm.NewState(tt.r, nil)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := NewSolver(st, &Options{MaxDepth: tt.depth, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sv.Solve(context.Background(), st)
		if err != nil {
			t.Fatalf("%v, max depth %d: %v", tt.r, tt.depth, err)
		}
		hist, root, _, err := sv.node(st)
		if err != nil {
			t.Fatal(err)
		}
		var stop halt
		w := sv.s.getWorker(context.Background(), &stop, hist)
		w.fresh = true
		rebuilt := w.build(root, res.Depth, 0)
		sv.s.putWorker(w)
		sv.Close()
		if path, a, b := firstDifference(res.Tree, rebuilt, ""); path != "" || a != b {
			t.Errorf("%v, max depth %d: after %q Solve's tree guesses %v, rebuilt node by node %v", tt.r, tt.depth, path, a, b)
		}
	}
}

// firstDifference returns the feedbacks, as (black, white), that lead to
// the first node where a and b differ, and their guesses there (equal if only their branches
// differ); an empty path and equal guesses if the trees are the same.
func firstDifference(a, b *mm.Tree, path string) (string, mm.Code, mm.Code) {
	if a.Guess != b.Guess || len(a.Branches) != len(b.Branches) {
		return path + "·", a.Guess, b.Guess
	}
	for i, br := range a.Branches {
		if br.Feedback != b.Branches[i].Feedback {
			return path + "·", a.Guess, b.Guess
		}
		if p, x, y := firstDifference(br.Next, b.Branches[i].Next, fmt.Sprintf("%s(%d,%d) ", path, br.Feedback.Black, br.Feedback.White)); p != "" || x != y {
			return p, x, y
		}
	}
	if !reflect.DeepEqual(a, b) {
		return path + "·", a.Guess, b.Guess
	}
	return "", a.Guess, a.Guess
}
