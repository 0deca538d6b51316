package exact_test

import (
	"context"
	"errors"
	"fmt"
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
	return p.Run(ctx, mine, nil, func(u int, _ float64, v exact.BoundValue) error {
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
	err = p.Run(ctx, all, &exact.BoundRunOptions{Workers: 2}, func(u int, _ float64, v exact.BoundValue) error {
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
	if err := p.Run(context.Background(), rest, nil, func(u int, _ float64, v exact.BoundValue) error {
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

// pieces is a BoundPieces in memory that cancels its run after the first
// after pieces kept.
type pieces struct {
	mu     sync.Mutex
	kept   map[string][2]int64
	hits   int
	after  int
	cancel func()
}

func pieceKey(u int, g mm.Code, f mm.Feedback, room int) string {
	return fmt.Sprint(u, g, f, room)
}

func (p *pieces) Piece(u int, g mm.Code, f mm.Feedback, room int) (int, int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.kept[pieceKey(u, g, f, room)]
	if ok {
		p.hits++
	}
	return int(v[0]), v[1], ok
}

func (p *pieces) Keep(u int, g mm.Code, f mm.Feedback, room, v int, sets int64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kept[pieceKey(u, g, f, room)] = [2]int64{int64(v), sets}
	if len(p.kept) == p.after {
		p.cancel()
	}
	return nil
}

// TestBoundPlanPieces stops a run of one unit midway, after some of its
// pieces, and runs it again with the pieces kept: it takes them, and
// finds the unit's value and count of sets as a run without a stop.
func TestBoundPlanPieces(t *testing.T) {
	for _, tc := range []struct {
		r            mm.Rules
		depth, exact int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 3, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 4, 4},
	} {
		p, err := exact.PlanBound(tc.r, tc.depth, &exact.BoundOptions{Exact: tc.exact})
		if err != nil {
			t.Fatal(err)
		}
		u := 0 // the largest unit of the first first guess
		for i, unit := range p.Units {
			if unit.First == 0 && unit.Codes > p.Units[u].Codes {
				u = i
			}
		}
		var want exact.BoundValue
		if err := p.Run(context.Background(), []int{u}, nil, func(_ int, _ float64, v exact.BoundValue) error {
			want = v
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		pc := &pieces{kept: map[string][2]int64{}, after: 5, cancel: cancel}
		err = p.Run(ctx, []int{u}, &exact.BoundRunOptions{Pieces: pc}, func(int, float64, exact.BoundValue) error {
			t.Errorf("%v: unit %d finished; want it stopped after %d pieces", tc.r, u, pc.after)
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: %v; want the run cancelled", tc.r, err)
		}
		pc.after = -1
		var got exact.BoundValue
		if err := p.Run(context.Background(), []int{u}, &exact.BoundRunOptions{Pieces: pc}, func(_ int, _ float64, v exact.BoundValue) error {
			got = v
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got != want || pc.hits < 5 {
			t.Errorf("%v depth %d: unit %d resumed from %d pieces: %+v; want %+v, every piece kept taken", tc.r, tc.depth, u, pc.hits, got, want)
		}
	}
}
