package deep_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/deep"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy/strategytest"
)

// TestClassic checks the bar of the issue: on 6 × 4 the default effort
// reaches the optimum, 5625.
func TestClassic(t *testing.T) {
	tree, err := deep.Strategy{}.TreeContext(context.Background(), mm.Classic)
	if err != nil {
		t.Fatal(err)
	}
	if total, _ := tree.Cost(); total != 5625 {
		t.Errorf("deep on 6x4 = %d guesses; want 5625", total)
	}
}

// TestGuessesFollowTree plays every secret one guess at a time and checks
// the totals against the tree, with tails small enough that the policy
// above them, lookahead included, is exercised.
func TestGuessesFollowTree(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	s := deep.Strategy{Top: 3, Plies: 1, Exact: 20}
	tree, err := s.TreeContext(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	want, depth := tree.Cost()
	rep, err := eval.Run(context.Background(), r, "deep", s, &eval.Options{All: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != want || rep.Max != depth {
		t.Errorf("playing deep game by game on %v = %d guesses, worst %d; its tree says %d, worst %d", r, rep.Total, rep.Max, want, depth)
	}
	// Exact tails everywhere do at least as well as the heuristic above.
	opt, _ := deep.Strategy{Exact: 1 << 20}.TreeContext(context.Background(), r)
	if o, _ := opt.Cost(); o > want {
		t.Errorf("deep with every node exact = %d; with small tails %d: exact should not be worse", o, want)
	}
}

// TestConformance runs the shared checks on small variants.
func TestConformance(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 4, Pegs: 3}, {Colors: 6, Pegs: 3, Distinct: true}, {Colors: 3, Pegs: 5}} {
		if err := strategytest.Check(deep.Strategy{Top: 2, Plies: 1, Exact: 8}, r); err != nil {
			t.Errorf("%v: %v", r, err)
		}
	}
}

// TestRefusals checks what deep cannot play.
func TestRefusals(t *testing.T) {
	if err := (deep.Strategy{}).Check(mm.Rules{Colors: 20, Pegs: 8}); err == nil {
		t.Errorf("Check(20x8) = nil; want too large")
	}
	if err := (deep.Strategy{Effort: "huge"}).Check(mm.Classic); err == nil {
		t.Errorf("Check with effort huge = nil; want unknown effort")
	}
}

// TestOpenings checks that the best of the openings' trees is the tree.
func TestOpenings(t *testing.T) {
	r := mm.Rules{Colors: 5, Pegs: 4}
	s := deep.Strategy{Top: 3, Plies: 2, Exact: 25}
	want, err := s.TreeContext(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (deep.Strategy{Effort: "huge"}).Guess(mustState(t, r)); err == nil {
		t.Error("deep with effort huge on 8x8: no error")
	}
	openings, err := s.Openings(r)
	if err != nil || len(openings) != 3 {
		t.Fatalf("Openings = %v, %v; want 3", openings, err)
	}
	best, bestTotal := (*mm.Tree)(nil), 0
	for _, g := range openings {
		tree, err := s.Opening(context.Background(), r, g)
		if err != nil {
			t.Fatal(err)
		}
		if total, _ := tree.Cost(); best == nil || total < bestTotal {
			best, bestTotal = tree, total
		}
	}
	if best.Guess != want.Guess {
		t.Errorf("best opening %v; the tree opens with %v", best.Guess, want.Guess)
	}
	if total, _ := want.Cost(); total != bestTotal {
		t.Errorf("best opening costs %d; the tree %d", bestTotal, total)
	}
}

// TestLarge checks deep past MaxSpace codes: it plays Large, from its
// book, refuses whole trees, walks every secret, and refuses variants past
// the near pool's reach with the size that fits.
func TestLarge(t *testing.T) {
	r := mm.Rules{Colors: 8, Pegs: 8}
	s := deep.Strategy{Effort: deep.Record}
	if err := s.Check(r); err != nil {
		t.Fatalf("Check(8x8) = %v", err)
	}
	if !s.Walks(r) || s.Walks(mm.Classic) {
		t.Errorf("Walks(8x8) = %v, Walks(6x4) = %v; want true, false", s.Walks(r), s.Walks(mm.Classic))
	}
	if _, err := s.TreeContext(context.Background(), r); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("TreeContext(8x8) = %v; want too large", err)
	}
	if err := s.Check(mm.Rules{Colors: 9, Pegs: 8}); !errors.Is(err, mm.ErrTooLarge) || !strings.Contains(err.Error(), "16777216") {
		t.Errorf("Check(9x8) = %v; want too large, naming 16777216", err)
	}
	if _, err := (deep.Strategy{Effort: "huge"}).Guess(mustState(t, r)); err == nil {
		t.Error("deep with effort huge on 8x8: no error")
	}
	openings, err := s.Openings(r)
	if err != nil || len(openings) != 1 {
		t.Fatalf("Openings(8x8) = %v, %v; want one", openings, err)
	}
	// A game of deep is Large's, guess for guess.
	secret, err := r.ParseCode("36271845")
	if err != nil {
		t.Fatal(err)
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := mm.Solve(st, s, secret, 12)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mm.Solve(st, deep.Large, secret, 12)
	if err != nil {
		t.Fatal(err)
	}
	if a[0].Guess != openings[0] || !slices.Equal(a, b) {
		t.Errorf("deep on 8x8 played %v; Large %v; deep's opening %v", a, b, openings[0])
	}
}

func mustState(t *testing.T, r mm.Rules) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
