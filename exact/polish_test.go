package exact_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// treeText writes a tree in one line, for comparing two trees.
func treeText(t *mm.Tree) string {
	var b strings.Builder
	var walk func(t *mm.Tree)
	walk = func(t *mm.Tree) {
		fmt.Fprintf(&b, "%v(%d)[", t.Guess, t.Size)
		for _, br := range t.Branches {
			fmt.Fprintf(&b, "%v:", br.Feedback)
			walk(br.Next)
		}
		b.WriteString("]")
	}
	walk(t)
	return b.String()
}

// checkFinds plays t against every secret of r and checks that it finds
// each, in the total and worst case its Cost gives.
func checkFinds(t *testing.T, r mm.Rules, tr *mm.Tree) {
	t.Helper()
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	total, most := 0, 0
	for i := range sp.Len() {
		gs, err := tr.Play(sp.Code(i))
		if err != nil {
			t.Fatal(err)
		}
		total += len(gs)
		most = max(most, len(gs))
	}
	if ct, cd := tr.Cost(); ct != total || cd != most {
		t.Fatalf("tree plays %d guesses, worst %d; its Cost says %d, worst %d", total, most, ct, cd)
	}
}

func TestPolish(t *testing.T) {
	ctx := context.Background()
	r := mm.Rules{Colors: 6, Pegs: 4}
	knuth, err := eval.BuildTree(ctx, r, strategy.Knuth{})
	if err != nil {
		t.Fatal(err)
	}
	knuthText := treeText(knuth)
	knuthTotal, _ := knuth.Cost()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev := knuthTotal
	for _, tc := range []struct {
		most int
		want int // the total, where known
	}{
		{0, 5801}, // nothing searched: Knuth's own total
		{2, 5801}, // pairs are never searched: already optimal
		{10, 0},
		{60, 0},
		{300, 0},
		{1296, 5625}, // the whole tree: the optimum of 6 × 4
	} {
		t.Run(fmt.Sprint(tc.most), func(t *testing.T) {
			var trees []string
			for _, workers := range []int{1, 2} {
				calls := 0
				got, stats, err := exact.Polish(ctx, st, knuth, tc.most, &exact.PolishOptions{
					Workers:  workers,
					Progress: func(exact.PolishProgress) { calls++ },
				})
				if err != nil {
					t.Fatal(err)
				}
				checkFinds(t, r, got)
				total, _ := got.Cost()
				if stats.Before != knuthTotal || stats.After != total {
					t.Errorf("stats say %d -> %d; the trees cost %d -> %d", stats.Before, stats.After, knuthTotal, total)
				}
				if tc.want != 0 && total != tc.want {
					t.Errorf("total %d, want %d", total, tc.want)
				}
				// A larger size searches subtrees that contain the smaller
				// ones': never worse.
				if total > prev {
					t.Errorf("total %d, above %d at a smaller size", total, prev)
				}
				if calls != stats.Subtrees || stats.Replaced > stats.Subtrees {
					t.Errorf("%d progress calls, %d subtrees, %d replaced", calls, stats.Subtrees, stats.Replaced)
				}
				trees = append(trees, treeText(got))
				if treeText(knuth) != knuthText {
					t.Fatal("Polish changed the tree it was given")
				}
				prev = total
			}
			if trees[0] != trees[1] {
				t.Error("one worker and two give different trees")
			}
		})
	}
}

// TestPolishOptimal checks that an optimal tree comes back as it was: no
// subtree of it can be beaten, and at equal cost none is replaced.
func TestPolishOptimal(t *testing.T) {
	ctx := context.Background()
	r := mm.Rules{Colors: 4, Pegs: 4}
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exact.Solve(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, stats, err := exact.Polish(ctx, st, res.Tree, 256, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Replaced != 0 || treeText(got) != treeText(res.Tree) {
		t.Errorf("an optimal tree was changed: %d subtrees replaced", stats.Replaced)
	}
}

func TestPolishRefused(t *testing.T) {
	ctx := context.Background()
	big, err := mm.NewState(mm.Rules{Colors: 8, Pegs: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A table of 100 codes against 8^8 is over MaxTable: refused before
	// the tree is looked at.
	if _, _, err := exact.Polish(ctx, big, &mm.Tree{Size: 1 << 24}, 100, nil); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("8x8, subtrees of 100 codes: %v, want ErrTooLarge", err)
	}
	small, err := mm.NewState(mm.Rules{Colors: 4, Pegs: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := exact.Polish(ctx, small, &mm.Tree{Size: 64}, -1, nil); err == nil {
		t.Error("a negative size: no error")
	}
	tr, err := eval.BuildTree(ctx, mm.Rules{Colors: 4, Pegs: 3}, strategy.Knuth{})
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := exact.Polish(cancelled, small, tr, 64, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
