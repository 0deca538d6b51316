package exact_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// runPlan computes the units of plan that Assign deals to shard k of n,
// into values.
func runPlan(t *testing.T, ctx context.Context, p *exact.BoundPlan, k, n int, values []exact.BoundValue, seen []bool) error {
	t.Helper()
	costs := make([]int64, len(p.Units))
	for u, unit := range p.Units {
		costs[u] = unit.Cost
	}
	var mine []int
	for u, s := range shard.Assign(costs, n) {
		if s == k && !seen[u] {
			mine = append(mine, u)
		}
	}
	var mu sync.Mutex
	return p.Run(ctx, mine, 0, nil, func(u int, _ float64, v exact.BoundValue) error {
		mu.Lock()
		defer mu.Unlock()
		if seen[u] {
			t.Errorf("unit %d done twice", u)
		}
		values[u], seen[u] = v, true
		return nil
	})
}

// TestBoundPlanMerge checks that the units of a plan, computed in shards
// and merged, give exactly the bound of the whole search, with and without
// a cutoff, and with exact sets.
func TestBoundPlanMerge(t *testing.T) {
	for _, tc := range []struct {
		r                    mm.Rules
		depth, exact, cutoff int
		shards               int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 1, 0, 0, 2},
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 0, 0, 3},
		{mm.Rules{Colors: 6, Pegs: 4}, 3, 0, 0, 4},
		{mm.Rules{Colors: 6, Pegs: 4}, 3, 0, 5625, 2}, // the optimum: above the bound
		{mm.Rules{Colors: 6, Pegs: 4}, 3, 0, 5600, 2}, // below it: the bound is cut off
		{mm.Rules{Colors: 6, Pegs: 4}, 2, 12, 0, 3},
		{mm.Rules{Colors: 7, Pegs: 4}, 2, 0, 0, 5},
		{mm.Rules{Colors: 7, Pegs: 4}, 3, 0, 11_500, 3},
		{mm.Rules{Colors: 5, Pegs: 4, Distinct: true}, 3, 0, 0, 2},
	} {
		if race.Enabled && (tc.depth == 3 || tc.r.Colors == 7) {
			continue // the same goroutines as the plain runs
		}
		opts := &exact.BoundOptions{Exact: tc.exact, Cutoff: tc.cutoff}
		whole, err := exact.LowerBoundWith(context.Background(), tc.r, tc.depth, opts)
		if err != nil {
			t.Fatal(err)
		}
		p, err := exact.PlanBound(tc.r, tc.depth, opts)
		if err != nil {
			t.Fatal(err)
		}
		values := make([]exact.BoundValue, len(p.Units))
		seen := make([]bool, len(p.Units))
		for k := range tc.shards {
			if err := runPlan(t, context.Background(), p, k, tc.shards, values, seen); err != nil {
				t.Fatal(err)
			}
		}
		got, err := p.Merge(values)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v depth %d exact %d cutoff %d: %d units, bound %d (whole %d), %d sets (whole %d)",
			tc.r, tc.depth, tc.exact, tc.cutoff, len(p.Units), got.Total, whole.Total, got.Sets, whole.Sets)
		if got.Total != whole.Total || got.First != whole.First {
			t.Errorf("%v depth %d exact %d cutoff %d: shards merged give %d, first guess %v; the whole search %d, %v",
				tc.r, tc.depth, tc.exact, tc.cutoff, got.Total, got.First, whole.Total, whole.First)
		}
	}
}

// TestBoundPlanResume stops a run after a few units, by its context, and
// runs the rest: the units kept and the rest merge into the same bound.
func TestBoundPlanResume(t *testing.T) {
	r := mm.Rules{Colors: 6, Pegs: 4}
	whole, err := exact.LowerBound(context.Background(), r, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := exact.PlanBound(r, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	values := make([]exact.BoundValue, len(p.Units))
	seen := make([]bool, len(p.Units))
	all := make([]int, len(p.Units))
	for u := range all {
		all[u] = u
	}
	ctx, cancel := context.WithCancel(context.Background())
	kept := 0
	err = p.Run(ctx, all, 2, nil, func(u int, _ float64, v exact.BoundValue) error {
		values[u], seen[u] = v, true
		if kept++; kept == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a run stopped after 5 units: %v; want it cancelled", err)
	}
	if kept < 5 || kept >= len(p.Units) {
		t.Fatalf("the stopped run kept %d units of %d", kept, len(p.Units))
	}
	var rest []int
	for u, ok := range seen {
		if !ok {
			rest = append(rest, u)
		}
	}
	if err := p.Run(context.Background(), rest, 0, nil, func(u int, _ float64, v exact.BoundValue) error {
		values[u], seen[u] = v, true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Merge(values)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != whole.Total {
		t.Errorf("resumed after %d units of %d: bound %d; want %d", kept, len(p.Units), got.Total, whole.Total)
	}
}
