package exact

import (
	"context"
	"reflect"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestRootGuessKept checks that the tree Solve returns, whose root guess it
// takes from its first search when the worst case was not lowered, is the
// tree a rebuild of every node, the root included, gives.
func TestRootGuessKept(t *testing.T) {
	tests := []struct {
		r     mm.Rules
		depth int
	}{
		{mm.Rules{Colors: 3, Pegs: 3}, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0},
		{mm.Rules{Colors: 4, Pegs: 5}, 0},
		{mm.Rules{Colors: 6, Pegs: 3}, 0},
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
		rebuilt := w.build(root, res.Depth, 0)
		sv.s.putWorker(w)
		sv.Close()
		if !reflect.DeepEqual(res.Tree, rebuilt) {
			t.Errorf("%v, max depth %d: Solve's tree opens with %v; rebuilt node by node it opens with %v", tt.r, tt.depth, res.Tree.Guess, rebuilt.Guess)
		}
	}
}
