package exact

import (
	"context"
	"errors"
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// mapJournal is a FitsJournal in memory that counts what it is told, and
// cancels a context after a number of records.
type mapJournal struct {
	fit     map[string]int
	refuted map[string]int
	beaten  map[string]int
	writes  int
	after   int // cancel after this many writes, if not 0
	cancel  context.CancelFunc
}

func newMapJournal() *mapJournal {
	return &mapJournal{fit: map[string]int{}, refuted: map[string]int{}, beaten: map[string]int{}}
}

func partKey(g mm.Code, f mm.Feedback) string { return fmt.Sprintf("%v %v", g, f) }

func (j *mapJournal) wrote() {
	j.writes++
	if j.after > 0 && j.writes == j.after {
		j.cancel()
	}
}

func (j *mapJournal) Fits(g mm.Code, f mm.Feedback) bool { return j.fit[partKey(g, f)] > 0 }
func (j *mapJournal) Fit(g mm.Code, f mm.Feedback) error {
	j.fit[partKey(g, f)]++
	j.wrote()
	return nil
}
func (j *mapJournal) Refuted(g mm.Code, f mm.Feedback, g2 mm.Code) bool {
	return j.refuted[partKey(g, f)+" "+g2.String()] > 0
}
func (j *mapJournal) Refute(g mm.Code, f mm.Feedback, g2 mm.Code) error {
	j.refuted[partKey(g, f)+" "+g2.String()]++
	j.wrote()
	return nil
}
func (j *mapJournal) Beaten(g mm.Code) bool { return j.beaten[g.String()] > 0 }
func (j *mapJournal) Beat(g mm.Code) error {
	j.beaten[g.String()]++
	j.wrote()
	return nil
}

// twice returns a fact the journal was told more than once: a step a
// resumed search proved again.
func (j *mapJournal) twice() string {
	for _, m := range []map[string]int{j.fit, j.refuted, j.beaten} {
		for k, n := range m {
			if n > 1 {
				return k
			}
		}
	}
	return ""
}

// TestFitsOpenings checks FitsOpenings against Fits on either side of
// each case's fewest guesses, with parts split by second guess from 1
// code and from 40 codes on, and run whole; then stopped after ever more
// records and resumed until it answers, which it must do with the same answer and
// without proving any step twice.
func TestFitsOpenings(t *testing.T) {
	cases := []struct {
		r     mm.Rules
		first string // a guess played first, answered with its largest class
		depth int    // the fewest guesses that always suffice
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, "", 5},
		{mm.Rules{Colors: 5, Pegs: 4}, "", 5},
		{mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, "", 5},
		{mm.Rules{Colors: 3, Pegs: 5}, "", 4},
		{mm.Rules{Colors: 7, Pegs: 4}, "1234", 6},
	}
	refuted := 0 // second guesses refuted, over the cases
	for _, c := range cases {
		st, err := mm.NewState(c.r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.first != "" {
			code, _ := c.r.ParseCode(c.first)
			_, kids, _ := st.Branch(code)
			st = kids[0]
			for _, k := range kids {
				if k.Remaining() > st.Remaining() {
					st = k
				}
			}
		}
		for _, d := range []int{c.depth - 1, c.depth} {
			want, err := Fits(context.Background(), st, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want != (d == c.depth) {
				t.Fatalf("%v %s within %d: Fits says %v", c.r, c.first, d, want)
			}
			for _, split := range []int{1, 40, 1 << 30} {
				name := fmt.Sprintf("%v %s within %d, split %d", c.r, c.first, d, split)
				j := newMapJournal()
				got, err := fitsOpenings(context.Background(), st, d, nil, j, split)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: %v, Fits %v", name, got, want)
				}
				if split != 1 {
					continue
				}
				// Stopped after one record, then after ever more, and
				// resumed each time.
				j = newMapJournal()
				runs := 0
				for {
					ctx, cancel := context.WithCancel(context.Background())
					j.after, j.cancel = j.writes+1+j.writes/4, cancel
					got, err := fitsOpenings(ctx, st, d, nil, j, split)
					cancel()
					runs++
					if errors.Is(err, context.Canceled) {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s, resumed %d times: %v, Fits %v", name, runs-1, got, want)
					}
					break
				}
				if k := j.twice(); k != "" {
					t.Errorf("%s, resumed: %q proved again", name, k)
				}
				if runs < 2 && j.writes > 1 {
					t.Errorf("%s: answered in 1 run of %d records; the test stops it after the first", name, j.writes)
				}
				refuted += len(j.refuted)
			}
		}
	}
	if refuted == 0 {
		t.Error("no second guess was refuted: the journal's finest step went untested")
	}
}

// TestFitsOpeningsJournal checks that FitsOpenings takes the journal's
// word: a first guess beaten is not tried, a part known to fit is not
// searched, and a second guess refuted is not tried again.
func TestFitsOpeningsJournal(t *testing.T) {
	st, _ := mm.NewState(mm.Classic, nil)
	sv, err := NewSolver(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	openings, _ := sv.Openings(st)
	sv.Close()
	// Every first guess beaten: no strategy, though 5 suffice.
	j := newMapJournal()
	for _, g := range openings {
		j.beaten[g.String()] = 1
	}
	if ok, err := fitsOpenings(context.Background(), st, 5, nil, j, 1); err != nil || ok {
		t.Errorf("every first guess beaten: %v, %v; want false", ok, err)
	}
	// Every part of the first known to fit: a strategy within 4, which
	// does not exist.
	j = newMapJournal()
	fs, _, _ := st.Branch(openings[0])
	for _, f := range fs {
		j.fit[partKey(openings[0], f)] = 1
	}
	if ok, err := fitsOpenings(context.Background(), st, 4, nil, j, 1); err != nil || !ok {
		t.Errorf("every part of %v known to fit: %v, %v; want true", openings[0], ok, err)
	}
}
