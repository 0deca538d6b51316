package exact_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// TestFits checks Fits against Solve within a limit: some strategy keeps
// to the limit exactly when Solve finds one, from the start and after a
// first guess, on either side of each variant's fewest guesses that always
// suffice (6 × 4: 5, Koyama and Lai; 7 × 4 and 8 × 4: 6). 7 × 4 is in the
// slow tier (go test -tags slow).
func TestFits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		r     mm.Rules
		first string // a guess played first, answered with its largest class
	}{
		{mm.Rules{Colors: 6, Pegs: 4}, ""},
		{mm.Rules{Colors: 6, Pegs: 4}, "1123"},
		{mm.Rules{Colors: 5, Pegs: 4}, ""},
		{mm.Rules{Colors: 4, Pegs: 4}, ""},
		{mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, ""},
		{mm.Rules{Colors: 3, Pegs: 5}, ""},
		{mm.Rules{Colors: 8, Pegs: 4}, "1122"},
	}
	if slow.Enabled {
		// Three quarters of the test's 2 s of CPU; 8 × 4 after 1122
		// is the plain run's larger case.
		cases = append(cases, struct {
			r     mm.Rules
			first string
		}{mm.Rules{Colors: 7, Pegs: 4}, "1234"})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v %s", c.r, c.first), func(t *testing.T) {
			st, err := mm.NewState(c.r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.first != "" {
				st = playLargest(t, st, c.first)
			}
			fits := 0 // the first limit that fits
			for d := st.Len() + 1; fits == 0 && d <= st.Len()+8; d++ {
				ok, err := exact.Fits(context.Background(), st, d, nil)
				if err != nil {
					t.Fatal(err)
				}
				_, serr := exact.Solve(context.Background(), st, &exact.Options{MaxDepth: d, AnyWorstCase: true})
				if serr != nil && !errors.Is(serr, exact.ErrDepth) {
					t.Fatal(serr)
				}
				if ok != (serr == nil) {
					t.Errorf("within %d: Fits says %v, Solve %v", d, ok, serr)
				}
				if ok {
					fits = d
				}
			}
			if fits == 0 {
				t.Errorf("no limit of up to %d guesses fits", st.Len()+8)
			}
		})
	}
	st, _ := mm.NewState(mm.Classic, nil)
	if _, err := exact.Fits(context.Background(), playLargest(t, st, "1122"), 1, nil); err == nil {
		t.Error("Fits within 1 guess after 1 played: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exact.Fits(ctx, st, 5, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Fits with its context done: %v; want context.Canceled", err)
	}
}

// playLargest plays guess g at st and answers it with its largest class.
func playLargest(t *testing.T, st *mm.State, g string) *mm.State {
	t.Helper()
	code, err := st.Rules().ParseCode(g)
	if err != nil {
		t.Fatal(err)
	}
	_, kids, err := st.Branch(code)
	if err != nil {
		t.Fatal(err)
	}
	best := kids[0]
	for _, k := range kids {
		if k.Remaining() > best.Remaining() {
			best = k
		}
	}
	return best
}

// BenchmarkFits times Fits on questions answered no (8 × 4 and 7 × 4
// within 5, 7 × 5 distinct within 5) and yes (8 × 4 within 6, 5 × 4 within
// 5), on one worker.
func BenchmarkFits(b *testing.B) {
	for _, c := range []struct {
		r     mm.Rules
		depth int
	}{
		{mm.Rules{Colors: 8, Pegs: 4}, 5},
		{mm.Rules{Colors: 7, Pegs: 4}, 5},
		{mm.Rules{Colors: 7, Pegs: 5, Distinct: true}, 5},
		{mm.Rules{Colors: 8, Pegs: 4}, 6},
		{mm.Rules{Colors: 5, Pegs: 4}, 5},
	} {
		st, err := mm.NewState(c.r, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%v within %d", c.r, c.depth), func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.Fits(context.Background(), st, c.depth, &exact.Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
