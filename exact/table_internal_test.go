package exact

import (
	"errors"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// TestTableAgreesWithScore checks the feedback table, built by the unary
// form where it fits and by the packed scorer elsewhere, against mm.Score,
// and the number of feedbacks that occur (b, on which every bound rests)
// against a count of its own, on variants from few pegs to many: the
// unary form's lookup of (black, black + white) takes (pegs + 1)²
// entries, more than 64 from 8 pegs on, and the dense feedbacks pass 64
// from 10 pegs on.
func TestTableAgreesWithScore(t *testing.T) {
	for _, r := range []mm.Rules{
		{Colors: 3, Pegs: 4},
		{Colors: 9, Pegs: 3},
		{Colors: 33, Pegs: 2}, // the packed scorer: 66 pegs × colours
		{Colors: 2, Pegs: 7},
		{Colors: 2, Pegs: 8},
		{Colors: 3, Pegs: 8},
		{Colors: 2, Pegs: 9},
		{Colors: 2, Pegs: 10},
	} {
		if r == (mm.Rules{Colors: 3, Pegs: 8}) && !slow.Enabled {
			// Three quarters of the test's CPU: 2 × 8 to 2 × 10 check
			// the long codes in the plain run, the slow tier (go test
			// -tags slow, which CI runs) this one too.
			continue
		}
		t.Run(r.String(), func(t *testing.T) {
			s := newTestSearch(t, r)
			p := s.p
			if unary := r.Pegs*r.Colors <= 64; (p.pos != nil) != unary {
				t.Fatalf("unary form %t; want %t", p.pos != nil, unary)
			}
			defer p.release()
			// Every pair on small variants, a row in every few on
			// large ones: Score is slow.
			step := max(1, len(p.cols)/1100)
			occur := map[mm.Feedback]bool{}
			for c := 0; c < len(p.cols); c += step {
				secret := p.sp.Code(int(p.cols[c]))
				for g := range p.N {
					want := mm.Score(secret, p.sp.Code(g))
					if got := p.fbs[p.fb(uint16(c), int32(g))]; got != want {
						t.Fatalf("guess %v against %v: table %v; Score %v", p.sp.Code(g), secret, got, want)
					}
					if !want.Solved(r.Pegs) {
						occur[want] = true
					}
				}
			}
			if step == 1 && p.b != len(occur) {
				t.Errorf("b = %d; %d feedbacks but the win occur", p.b, len(occur))
			}
		})
	}
}

// TestCheckFeedbacks checks that the search refuses variants with more
// feedbacks than a byte of the table holds, and takes those with fewer.
func TestCheckFeedbacks(t *testing.T) {
	for _, tt := range []struct {
		pegs int
		ok   bool
	}{{4, true}, {15, true}, {maxFeedbackPegs, true}, {maxFeedbackPegs + 1, false}, {100, false}} {
		r := mm.Rules{Colors: 2, Pegs: tt.pegs}
		err := checkFeedbacks(r)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, mm.ErrUnsupported)) {
			t.Errorf("checkFeedbacks(%v) = %v; want ok %t, else ErrUnsupported", r, err, tt.ok)
		}
	}
}
