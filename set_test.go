package mastermind_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

var setRules = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 5, Pegs: 3, Distinct: true},
	{Colors: 3, Pegs: 5},
	{Colors: 17, Pegs: 3}, // 51 bits
	{Colors: 9, Pegs: 4},  // 36 bits
	{Colors: 18, Pegs: 4, Distinct: true},
	{Colors: 44, Pegs: 2},                 // 88 bits: two words
	{Colors: 40, Pegs: 3},                 // 120 bits
	{Colors: 45, Pegs: 3, Distinct: true}, // 135 bits: three words
}

// setTrials is how many random subsets TestSetFilter and TestSetSplit try
// on each variant. Sets are filtered and split in one goroutine, so the
// race detector, which makes them ten times slower, has nothing to find;
// under it each kind of subset (the whole space, one and two filters) is
// tried once, the plain run tries six and the slow tier twelve.
func setTrials() int {
	switch {
	case race.Enabled:
		return 3
	case !slow.Enabled:
		// The slow tier (go test -tags slow, which CI runs) tries
		// the twelve: TestSetSplit took 1.6 s of CPU with them.
		return 6
	}
	return 12
}

// randomSet returns a random subset of the space: a chain of Filter calls
// with random guesses and the feedback of a random secret.
func randomSet(t *testing.T, rng *rand.Rand, sp *mm.Space, steps int) *mm.Set {
	s := sp.All()
	secret := sp.Code(rng.IntN(sp.Len()))
	for range steps {
		g := sp.Code(rng.IntN(sp.Len()))
		next, err := s.Filter(g, mm.Score(secret, g))
		if err != nil {
			t.Fatalf("Filter(%v): %v", g, err)
		}
		s = next
	}
	return s
}

// TestSetFilter checks Filter against brute-force filtering, on the whole
// space and on subsets, including feedbacks that no member gives.
func TestSetFilter(t *testing.T) {
	for i, r := range setRules {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 5))
			sp := mustSpace(t, r)
			for trial := range setTrials() {
				s := randomSet(t, rng, sp, trial%3)
				members := s.Codes()
				if !slices.IsSortedFunc(members, mm.Code.Compare) {
					t.Fatalf("Codes() of a filtered set is not in order")
				}
				g := sp.Code(rng.IntN(sp.Len()))
				fs := r.Feedbacks()
				for _, f := range []mm.Feedback{fs[rng.IntN(len(fs))], mm.Score(members[rng.IntN(len(members))], g)} {
					got, err := s.Filter(g, f)
					if err != nil {
						t.Fatalf("Filter(%v, %v): %v", g, f, err)
					}
					want := refFilter(members, g, f)
					if !slices.Equal(got.Codes(), want) {
						t.Fatalf("Filter(%v, %v) over %d members = %d codes %v; want %d codes %v",
							g, f, s.Len(), got.Len(), head(got.Codes()), len(want), head(want))
					}
					if got.Space() != sp {
						t.Errorf("Filter result has another Space")
					}
				}
			}
		})
	}
}

func head(cs []mm.Code) []mm.Code {
	if len(cs) > 8 {
		return cs[:8]
	}
	return cs
}

// TestSetSplit checks that Split's branches partition the set, come in
// (black, white) order, and hold exactly the members that give their
// feedback; and that Partition, Count and Keys agree with them.
func TestSetSplit(t *testing.T) {
	for i, r := range setRules {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 6))
			sp := mustSpace(t, r)
			for trial := range setTrials() {
				s := randomSet(t, rng, sp, trial%3)
				g := rng.IntN(sp.Len())
				if trial%4 == 0 {
					g = s.Index(rng.IntN(s.Len())) // a member as the guess
				}
				gc := sp.Code(g)
				bs := s.Split(g)
				byFeedback := map[mm.Feedback][]mm.Code{}
				for _, c := range s.Codes() {
					f := refScoreCodes(c, gc)
					byFeedback[f] = append(byFeedback[f], c)
				}
				if len(byFeedback) != len(bs) {
					t.Errorf("Split(%v) has %d branches; want %d", gc, len(bs), len(byFeedback))
				}
				var union []mm.Code
				for j, b := range bs {
					if b.Set.Len() == 0 {
						t.Errorf("Split(%v) has an empty branch %v", gc, b.Feedback)
					}
					if j > 0 {
						a := bs[j-1].Feedback
						if a.Black > b.Feedback.Black || (a.Black == b.Feedback.Black && a.White >= b.Feedback.White) {
							t.Errorf("Split(%v): branch %v after %v; want (black, white) order", gc, b.Feedback, a)
						}
					}
					codes := b.Set.Codes()
					if !slices.IsSortedFunc(codes, mm.Code.Compare) {
						t.Errorf("Split(%v): branch %v is not in ascending order", gc, b.Feedback)
					}
					for _, c := range codes {
						if f := refScoreCodes(c, gc); f != b.Feedback {
							t.Fatalf("Split(%v): %v in branch %v but scores %v", gc, c, b.Feedback, f)
						}
					}
					// A branch is a set like any other: filter and count it.
					want := byFeedback[b.Feedback]
					if !slices.Equal(codes, want) {
						t.Fatalf("Split(%v) branch %v = %v; want %v", gc, b.Feedback, head(codes), head(want))
					}
					counts := make([]uint32, sp.Keys())
					b.Set.Count(g, counts)
					if int(counts[sp.Key(b.Feedback)]) != b.Set.Len() {
						t.Errorf("Split(%v): Count on branch %v gives %d under its key; want %d",
							gc, b.Feedback, counts[sp.Key(b.Feedback)], b.Set.Len())
					}
					union = append(union, codes...)
				}
				slices.SortFunc(union, mm.Code.Compare)
				if !slices.Equal(union, s.Codes()) {
					t.Fatalf("Split(%v): branches hold %d codes; the set has %d", gc, len(union), s.Len())
				}
				parts, err := s.Partition(gc)
				if err != nil {
					t.Fatal(err)
				}
				if len(parts) != len(bs) {
					t.Fatalf("Partition(%v) has %d parts; Split has %d branches", gc, len(parts), len(bs))
				}
				for j, p := range parts {
					if p.Feedback != bs[j].Feedback || p.Count != bs[j].Set.Len() {
						t.Errorf("Partition(%v)[%d] = %v; Split branch is %v with %d", gc, j, p, bs[j].Feedback, bs[j].Set.Len())
					}
				}
				// Count and Keys agree with each other and with Split.
				counts := make([]uint32, sp.Keys())
				s.Count(g, counts)
				keys := make([]uint16, s.Len())
				s.Keys(g, keys)
				fromKeys := make([]uint32, sp.Keys())
				for _, k := range keys {
					fromKeys[k]++
				}
				if !slices.Equal(counts, fromKeys) {
					t.Errorf("Count(%v) = %v; Keys tally %v", gc, counts, fromKeys)
				}
				solved := counts[sp.SolvedKey()]
				if (solved == 1) != s.Contains(gc) || solved > 1 {
					t.Errorf("Count(%v)[SolvedKey] = %d but Contains = %v", gc, solved, s.Contains(gc))
				}
			}
		})
	}
}

func TestSetContains(t *testing.T) {
	for i, r := range setRules {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		sp := mustSpace(t, r)
		s := randomSet(t, rng, sp, 2)
		in := map[mm.Code]bool{}
		for _, c := range s.Codes() {
			in[c] = true
		}
		for range 500 {
			c := sp.Code(rng.IntN(sp.Len()))
			if got := s.Contains(c); got != in[c] {
				t.Errorf("%v: Contains(%v) = %v; want %v", r, c, got, in[c])
			}
		}
		for _, c := range s.Codes() {
			if !s.Contains(c) {
				t.Errorf("%v: Contains(%v) = false for a member", r, c)
			}
		}
	}
}

// TestKeys checks the feedback keys: Key and KeyFeedback are inverse, keys
// fit the counting array and the solved key is all pegs black.
func TestKeys(t *testing.T) {
	for _, r := range setRules {
		sp := mustSpace(t, r)
		seen := map[int]bool{}
		for _, f := range r.Feedbacks() {
			k := sp.Key(f)
			if k < 0 || k >= sp.Keys() {
				t.Errorf("%v: Key(%v) = %d; want 0 to %d", r, f, k, sp.Keys()-1)
			}
			if seen[k] {
				t.Errorf("%v: Key(%v) = %d is shared", r, f, k)
			}
			seen[k] = true
			if got := sp.KeyFeedback(k); got != f {
				t.Errorf("%v: KeyFeedback(Key(%v)) = %v", r, f, got)
			}
		}
		if got := sp.KeyFeedback(sp.SolvedKey()); got != (mm.Feedback{Black: r.Pegs}) {
			t.Errorf("%v: KeyFeedback(SolvedKey()) = %v; want %d 0", r, got, r.Pegs)
		}
	}
}

// TestFilterImpossibleFeedback checks that a feedback no code can give
// selects nothing: in particular, counts beyond the number of pegs must not
// alias another feedback's key.
func TestFilterImpossibleFeedback(t *testing.T) {
	sp := mustSpace(t, mm.Classic)
	g := gametest.MustParse(t, mm.Classic, "1122")
	for _, f := range []mm.Feedback{
		{Black: 3, White: 1},
		{Black: 0, White: 5},
		{Black: 0, White: 9}, // 9 = 8 + 1 would alias (1, 0) in a 3-bit field
		{Black: 1, White: 8},
		{Black: 5, White: 0},
		{Black: -1, White: 1},
	} {
		s, err := sp.All().Filter(g, f)
		if err == nil && s.Len() != 0 {
			t.Errorf("Filter(%v, %+v) = %d codes (first %v); want none", g, f, s.Len(), s.Code(0))
		}
	}
}
