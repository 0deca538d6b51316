package exact_test

import (
	"context"
	"errors"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// mapJournal keeps units in memory, and can fail after a number of them,
// as a search stopped midway.
type mapJournal struct {
	units  map[[2]string]exact.Unit
	beaten map[string]bool
	left   int // units kept before Solved fails; < 0 for no limit
	solved int
}

var errStopped = errors.New("stopped")

func newMapJournal(left int) *mapJournal {
	return &mapJournal{units: map[[2]string]exact.Unit{}, beaten: map[string]bool{}, left: left}
}

func (m *mapJournal) Unit(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	u, ok := m.units[[2]string{g.String(), f.String()}]
	return u, ok
}

func (m *mapJournal) Solved(u exact.Unit) error {
	if m.left == 0 {
		return errStopped
	}
	m.left--
	m.solved++
	m.units[[2]string{u.Guess.String(), u.Feedback.String()}] = u
	return nil
}

func (m *mapJournal) Beaten(g mm.Code) bool { return m.beaten[g.String()] }
func (m *mapJournal) Beat(g mm.Code) error  { m.beaten[g.String()] = true; return nil }

// TestSolveOpenings checks the search by first guess against Solve: the
// same least total and worst case, with and without a depth limit, and the
// same again when stopped after every few units and resumed from its
// journal, solving no unit twice.
func TestSolveOpenings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r     mm.Rules
		depth int
	}{
		{mm.Rules{Colors: 4, Pegs: 3}, 0},
		{mm.Rules{Colors: 5, Pegs: 4}, 0},
		{mm.Rules{Colors: 6, Pegs: 4}, 0},
		{mm.Rules{Colors: 6, Pegs: 4}, 5},
		{mm.Rules{Colors: 10, Pegs: 3, Distinct: true}, 6},
		{mm.Rules{Colors: 6, Pegs: 4}, 4},
		{mm.Rules{Colors: 2, Pegs: 1}, 1}, // no guess left after the first
		{mm.Rules{Colors: 2, Pegs: 1}, 2},
		{mm.Rules{Colors: 3, Pegs: 2}, 2},
	} {
		if race.Enabled && tc.r.Size() > 700 {
			continue // the searches' goroutines are the same on the small ones; the plain run does these
		}
		st, _ := mm.NewState(tc.r, nil)
		opts := &exact.Options{MaxDepth: tc.depth}
		want, wantErr := exact.Solve(context.Background(), st, opts)
		got, err := exact.SolveOpenings(context.Background(), st, opts, nil)
		if wantErr != nil {
			if !errors.Is(wantErr, exact.ErrDepth) || !errors.Is(err, exact.ErrDepth) {
				t.Errorf("%v within %d: Solve %v, SolveOpenings %v; want both ErrDepth", tc.r, tc.depth, wantErr, err)
			}
			continue
		}
		if err != nil || got.Total != want.Total || got.Depth != want.Depth {
			t.Fatalf("%v within %d: SolveOpenings %+v, %v; Solve %d, depth %d", tc.r, tc.depth, got, err, want.Total, want.Depth)
		}
		if total, depth := got.Tree.Cost(); total != want.Total || depth != want.Depth || got.Tree.Size != st.Remaining() {
			t.Errorf("%v: the tree costs %d, depth %d, size %d", tc.r, total, depth, got.Tree.Size)
		}
		// Stopped after every 3 units, resumed until done.
		j := newMapJournal(3)
		runs := 0
		for {
			runs++
			res, err := exact.SolveOpenings(context.Background(), st, opts, j)
			if errors.Is(err, errStopped) {
				j.left = 3
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != want.Total || res.Depth != want.Depth || !sameTree(res.Tree, got.Tree) {
				t.Errorf("%v: resumed %d times, %d depth %d; want %d depth %d and the same tree", tc.r, runs, res.Total, res.Depth, want.Total, want.Depth)
			}
			break
		}
		t.Logf("%v within %d: %d, depth %d; %d units over %d runs", tc.r, tc.depth, want.Total, want.Depth, j.solved, runs)
	}
}

func sameTree(a, b *mm.Tree) bool {
	if a.Guess != b.Guess || a.Size != b.Size || len(a.Branches) != len(b.Branches) {
		return false
	}
	for i := range a.Branches {
		if a.Branches[i].Feedback != b.Branches[i].Feedback || !sameTree(a.Branches[i].Next, b.Branches[i].Next) {
			return false
		}
	}
	return true
}

// TestSolveOpeningsProgress checks that a search by first guess reports
// from one goroutine at a time (the race detector watches the count),
// names its first guesses, and names the part under search: an answer
// that leaves codes, of fewer codes than the space, among the parts not
// all solved.
func TestSolveOpeningsProgress(t *testing.T) {
	st, _ := mm.NewState(mm.Rules{Colors: 5, Pegs: 4}, nil)
	calls, named, parted := 0, 0, 0 // unguarded: the reports must not overlap
	var bad []exact.Progress
	opts := &exact.Options{ProgressEvery: time.Millisecond, Progress: func(p exact.Progress) {
		calls++
		if p.Guesses > 0 && p.Tried >= 1 && p.Tried <= p.Guesses {
			named++
		}
		if p.Parts > 0 {
			parted++
			if p.PartsDone >= p.Parts || p.PartCodes < 2 || p.PartCodes >= 625 || p.Part.Solved(4) || p.Part.Black+p.Part.White > 4 {
				bad = append(bad, p)
			}
		}
	}}
	if _, err := exact.SolveOpenings(context.Background(), st, opts, nil); err != nil {
		t.Fatal(err)
	}
	if calls > 0 && named == 0 {
		t.Errorf("%d reports, none naming the first guess under trial", calls)
	}
	t.Logf("%d reports, %d naming a part", calls, parted)
	if calls > 0 && parted == 0 {
		t.Errorf("%d reports, none naming the part under search", calls)
	}
	for _, p := range bad {
		t.Errorf("report of part %v, %d codes, %d of %d parts done", p.Part, p.PartCodes, p.PartsDone, p.Parts)
	}
}

// floorJournal is a mapJournal of a search within a limit that knows the
// units of a looser search: those that keep to the limit it returns as
// solved, and the totals of all as floors (exact.Floorer).
type floorJournal struct {
	*mapJournal
	loose *mapJournal
	limit int
}

func (j floorJournal) Unit(g mm.Code, f mm.Feedback) (exact.Unit, bool) {
	if u, ok := j.mapJournal.Unit(g, f); ok {
		return u, true
	}
	if u, ok := j.loose.Unit(g, f); ok && 1+u.Depth <= j.limit {
		return u, true
	}
	return exact.Unit{}, false
}

func (j floorJournal) Floor(g mm.Code, f mm.Feedback) (int, bool) {
	u, ok := j.loose.Unit(g, f)
	return u.Total, ok
}

// TestSolveOpeningsFloors checks a search within a limit that starts from
// a search without one: the same least total and worst case as Solve's
// within the limit, with fewer units solved than on its own; and that a
// floor above what the best leaves gives a first guess up unsolved.
func TestSolveOpeningsFloors(t *testing.T) {
	for _, tc := range []struct {
		r     mm.Rules
		depth int
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, 5},
		{mm.Rules{Colors: 10, Pegs: 3, Distinct: true}, 6},
		{mm.Rules{Colors: 5, Pegs: 4}, 5},
	} {
		if race.Enabled && tc.r.Size() > 700 {
			continue
		}
		st, _ := mm.NewState(tc.r, nil)
		ctx := context.Background()
		want, err := exact.Solve(ctx, st, &exact.Options{MaxDepth: tc.depth})
		if err != nil {
			t.Fatal(err)
		}
		loose := newMapJournal(-1)
		if _, err := exact.SolveOpenings(ctx, st, nil, loose); err != nil {
			t.Fatal(err)
		}
		alone := newMapJournal(-1)
		if _, err := exact.SolveOpenings(ctx, st, &exact.Options{MaxDepth: tc.depth}, alone); err != nil {
			t.Fatal(err)
		}
		j := floorJournal{newMapJournal(-1), loose, tc.depth}
		got, err := exact.SolveOpenings(ctx, st, &exact.Options{MaxDepth: tc.depth}, j)
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != want.Total || got.Depth != want.Depth {
			t.Errorf("%v within %d, from the search without a limit: %d depth %d; Solve %d depth %d", tc.r, tc.depth, got.Total, got.Depth, want.Total, want.Depth)
		}
		if total, depth := got.Tree.Cost(); total != got.Total || depth != got.Depth {
			t.Errorf("%v within %d: the tree costs %d depth %d", tc.r, tc.depth, total, depth)
		}
		if j.solved >= alone.solved && alone.solved > 0 {
			t.Errorf("%v within %d: %d units solved from the looser search's, %d alone", tc.r, tc.depth, j.solved, alone.solved)
		}
		t.Logf("%v within %d: %d, depth %d; %d units solved, %d alone", tc.r, tc.depth, got.Total, got.Depth, j.solved, alone.solved)
	}

	// Floors that leave a second first guess no room give it up before
	// any of its units is solved.
	st, _ := mm.NewState(mm.Rules{Colors: 4, Pegs: 3}, nil)
	ctx := context.Background()
	open, err := exact.Parts(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	loose := newMapJournal(-1)
	for _, p := range open {
		if p.Guess != open[0].Guess {
			loose.units[[2]string{p.Guess.String(), p.Feedback.String()}] = exact.Unit{Guess: p.Guess, Feedback: p.Feedback, Total: 1000, Depth: 100}
		}
	}
	j := floorJournal{newMapJournal(-1), loose, 0}
	res, err := exact.SolveOpenings(ctx, st, nil, j)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tree.Guess != open[0].Guess {
		t.Errorf("opened with %v, want %v", res.Tree.Guess, open[0].Guess)
	}
	for g := range j.beaten {
		for k := range j.units {
			if k[0] == g {
				t.Errorf("first guess %s given up on its floors, yet its unit %s was solved", g, k[1])
			}
		}
	}
	if len(j.beaten) == 0 {
		t.Errorf("no first guess given up on floors of 1000 guesses a unit")
	}
}
