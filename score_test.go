package mastermind_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// TestRefScore pins the reference scorer itself to hand-worked examples, so
// that the tests built on it stand on firm ground.
func TestRefScore(t *testing.T) {
	tests := []struct {
		secret, guess []int
		want          mm.Feedback
	}{
		{[]int{0, 0, 1, 1}, []int{1, 1, 0, 0}, mm.Feedback{Black: 0, White: 4}},
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 1}, mm.Feedback{Black: 4, White: 0}},
		{[]int{0, 0, 0, 0}, []int{0, 1, 1, 1}, mm.Feedback{Black: 1, White: 0}},
		{[]int{0, 1, 2, 3}, []int{3, 2, 1, 0}, mm.Feedback{Black: 0, White: 4}},
		{[]int{0, 0, 1, 2}, []int{1, 0, 0, 0}, mm.Feedback{Black: 1, White: 2}},
		{[]int{2, 5, 1, 4}, []int{0, 0, 0, 0}, mm.Feedback{}},
		{[]int{3}, []int{3}, mm.Feedback{Black: 1}},
	}
	for _, tt := range tests {
		if got := refScore(tt.secret, tt.guess); got != tt.want {
			t.Errorf("refScore(%v, %v) = %v; want %v", tt.secret, tt.guess, got, tt.want)
		}
	}
}

func TestScoreExamples(t *testing.T) {
	tests := []struct {
		secret, guess string
		want          mm.Feedback
	}{
		{"1122", "2211", mm.Feedback{Black: 0, White: 4}},
		{"1122", "1122", mm.Feedback{Black: 4, White: 0}},
		{"3632", "1122", mm.Feedback{Black: 1, White: 0}},
		{"3632", "1344", mm.Feedback{Black: 0, White: 1}},
		{"3632", "3526", mm.Feedback{Black: 1, White: 2}},
		{"3632", "1462", mm.Feedback{Black: 1, White: 1}},
		{"1234", "5656", mm.Feedback{}},
		{"1123", "3211", mm.Feedback{Black: 0, White: 4}},
		{"6666", "6111", mm.Feedback{Black: 1, White: 0}},
		{"1216", "2111", mm.Feedback{Black: 1, White: 2}},
	}
	for _, tt := range tests {
		s, g := gametest.MustParse(t, mm.Classic, tt.secret), gametest.MustParse(t, mm.Classic, tt.guess)
		if got := mm.Score(s, g); got != tt.want {
			t.Errorf("Score(%v, %v) = %v; want %v", s, g, got, tt.want)
		}
	}
}

func TestScorePanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Score of a 4-peg code against a 3-peg code did not panic")
		}
	}()
	mm.Score(mustCode(t, 0, 0, 0, 0), mustCode(t, 0, 0, 0))
}

// exhaustiveRules are variants small enough to check every pair of codes.
var exhaustiveRules = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 3, Pegs: 3},
	{Colors: 2, Pegs: 5},
	{Colors: 5, Pegs: 3, Distinct: true},
	{Colors: 4, Pegs: 4},
	{Colors: 5, Pegs: 1},
	{Colors: 2, Pegs: 1},
	{Colors: 4, Pegs: 2, Distinct: true},
	{Colors: 6, Pegs: 4, Distinct: true},
}

// TestScoreExhaustive checks Score and every packed path against the
// reference scorer on every pair of codes of small variants.
func TestScoreExhaustive(t *testing.T) {
	for _, r := range exhaustiveRules {
		t.Run(r.String(), func(t *testing.T) {
			if race.Enabled && r.Size() > 300 {
				// Scoring runs in one goroutine: the race detector,
				// which makes every pair ten times slower, has
				// nothing to find here. The plain run checks it.
				t.Skip("every pair of a large space: the plain go test ./... checks it")
			}
			codes := enumerate(r)
			for _, a := range codes {
				ca := mustCode(t, a...)
				for _, b := range codes {
					cb := mustCode(t, b...)
					want := refScore(a, b)
					if got := mm.Score(ca, cb); got != want {
						t.Fatalf("Score(%v, %v) = %v; want %v", ca, cb, got, want)
					}
				}
			}
			checkPacked(t, mustSpace(t, r), -1, 1)
		})
	}
}

// sampledRules are variants whose spaces are too large for every pair but
// small enough to build; they cover packings of one, two and three words.
var sampledRules = []mm.Rules{
	{Colors: 10, Pegs: 4, Distinct: true}, // 40 bits
	{Colors: 8, Pegs: 5},                  // 40 bits
	{Colors: 17, Pegs: 4},                 // 68 bits: two words
	{Colors: 9, Pegs: 5},                  // 45 bits
	{Colors: 4, Pegs: 8},                  // 32 bits, 8 pegs
	{Colors: 64, Pegs: 2},                 // 128 bits: two full words
	{Colors: 44, Pegs: 3},                 // 132 bits: three words
	{Colors: 43, Pegs: 3, Distinct: true}, // 129 bits: three words
	{Colors: 20, Pegs: 3},
	{Colors: 12, Pegs: 4, Distinct: true},
}

func TestScoreSampled(t *testing.T) {
	for i, r := range sampledRules {
		t.Run(r.String(), func(t *testing.T) {
			sp := mustSpace(t, r)
			if sp.Len() > 100_000 {
				t.Fatalf("test space %v has %d codes; keep it under 100 000", r, sp.Len())
			}
			guesses := 40
			switch {
			case race.Enabled:
				guesses = 4 // one goroutine: the slow tier checks the 40
			case !slow.Enabled:
				// 1.5 s of CPU at 40: the slow tier (go test -tags
				// slow, which CI runs) checks the 40.
				guesses = 15
			}
			checkPacked(t, sp, guesses, uint64(i))
		})
	}
}

// checkPacked compares Space.Score, Set.Count, Set.Keys and Set.Partition
// with the reference scorer. guesses < 0 means every code as a guess;
// otherwise that many random guesses, each against every code for Count,
// Keys and Partition, and 500 random pairs a guess for Space.Score.
func checkPacked(t *testing.T, sp *mm.Space, guesses int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	n := sp.Len()
	colors := make([][]int, n)
	for i := range colors {
		colors[i] = sp.Code(i).Colors()
	}
	var gs []int
	if guesses < 0 {
		for i := 0; i < n; i++ {
			gs = append(gs, i)
		}
		// Every pair through Space.Score.
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if got, want := sp.Score(i, j), refScore(colors[i], colors[j]); got != want {
					t.Fatalf("Space.Score(%v, %v) = %v; want %v", sp.Code(i), sp.Code(j), got, want)
				}
			}
		}
	} else {
		for range guesses {
			gs = append(gs, rng.IntN(n))
		}
		for range 500 * guesses {
			i, j := rng.IntN(n), rng.IntN(n)
			if got, want := sp.Score(i, j), refScore(colors[i], colors[j]); got != want {
				t.Fatalf("Space.Score(%v, %v) = %v; want %v", sp.Code(i), sp.Code(j), got, want)
			}
			if got, want := mm.Score(sp.Code(i), sp.Code(j)), refScore(colors[i], colors[j]); got != want {
				t.Fatalf("Score(%v, %v) = %v; want %v", sp.Code(i), sp.Code(j), got, want)
			}
		}
	}
	// A subset as well as the whole space: the members of a subset sit at
	// other offsets in the packed data.
	sub := sp.All().Split(rng.IntN(n))
	sets := []*mm.Set{sp.All(), sub[len(sub)/2].Set}
	counts := make([]uint32, sp.Keys())
	keys := make([]uint16, n)
	for _, s := range sets {
		for _, g := range gs {
			want := make([]uint32, sp.Keys())
			wantParts := map[mm.Feedback]int{}
			clear(counts)
			s.Count(g, counts)
			s.Keys(g, keys)
			for m := 0; m < s.Len(); m++ {
				f := refScore(colors[s.Index(m)], colors[g])
				want[sp.Key(f)]++
				wantParts[f]++
				if int(keys[m]) != sp.Key(f) {
					t.Fatalf("Set.Keys(%v)[%d] (member %v) = %d (%v); want %d (%v)",
						sp.Code(g), m, s.Code(m), keys[m], sp.KeyFeedback(int(keys[m])), sp.Key(f), f)
				}
			}
			if !slices.Equal(counts, want) {
				t.Fatalf("Set.Count(%v) over %d members = %v; want %v", sp.Code(g), s.Len(), counts, want)
			}
			parts, err := s.Partition(sp.Code(g))
			if err != nil {
				t.Fatalf("Partition(%v): %v", sp.Code(g), err)
			}
			checkParts(t, sp.Code(g), parts, wantParts)
		}
	}
}

// checkParts checks that parts lists exactly the non-empty classes of want,
// in (black, white) order.
func checkParts(t *testing.T, g mm.Code, parts []mm.Part, want map[mm.Feedback]int) {
	t.Helper()
	var wantParts []mm.Part
	for f, n := range want {
		wantParts = append(wantParts, mm.Part{Feedback: f, Count: n})
	}
	slices.SortFunc(wantParts, func(a, b mm.Part) int {
		if a.Black != b.Black {
			return a.Black - b.Black
		}
		return a.White - b.White
	})
	if !slices.Equal(parts, wantParts) {
		t.Fatalf("Partition(%v) = %v; want %v", g, parts, wantParts)
	}
}

// propertyRules are random variants for the property tests: pegs 1 to 8,
// colours 2 to 20.
func propertyRules(rng *rand.Rand) mm.Rules {
	r := mm.Rules{Colors: 2 + rng.IntN(19), Pegs: 1 + rng.IntN(8)}
	if rng.IntN(3) == 0 && r.Pegs <= r.Colors {
		r.Distinct = true
	}
	return r
}

func TestScoreRandomLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		r := propertyRules(rng)
		a, b := randColors(rng, r), randColors(rng, r)
		// Make near misses common: copy some pegs of a into b.
		for i := range b {
			if rng.IntN(3) == 0 && !r.Distinct {
				b[i] = a[i]
			}
		}
		ca, cb := mustCode(t, a...), mustCode(t, b...)
		if got, want := mm.Score(ca, cb), refScore(a, b); got != want {
			t.Fatalf("Score(%v, %v) = %v; want %v (rules %v)", ca, cb, got, want, r)
		}
	}
}

// TestScoreProperties checks the algebra of Score on random codes.
func TestScoreProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
		r := propertyRules(rng)
		p := r.Pegs
		a, b := randColors(rng, r), randColors(rng, r)
		if rng.IntN(10) == 0 {
			b = append([]int(nil), a...)
		}
		ca, cb := mustCode(t, a...), mustCode(t, b...)
		f := mm.Score(ca, cb)
		if g := mm.Score(cb, ca); g != f {
			t.Fatalf("Score(%v, %v) = %v but Score(%v, %v) = %v; want symmetry", ca, cb, f, cb, ca, g)
		}
		if f.Black < 0 || f.White < 0 || f.Black+f.White > p {
			t.Fatalf("Score(%v, %v) = %v; want black, white >= 0 and black+white <= %d", ca, cb, f, p)
		}
		if (f.Black == p) != (ca == cb) {
			t.Fatalf("Score(%v, %v) = %v; want %d black exactly when the codes are equal", ca, cb, f, p)
		}
		if f.Black == p-1 && f.White == 1 {
			t.Fatalf("Score(%v, %v) = %v; (pegs-1, 1) cannot happen", ca, cb, f)
		}
		if f.Solved(p) != (ca == cb) {
			t.Fatalf("Score(%v, %v).Solved(%d) = %v; want %v", ca, cb, p, f.Solved(p), ca == cb)
		}
		// Rename colours: the same permutation applied to both codes.
		sigma := rng.Perm(r.Colors)
		ra, rb := make([]int, p), make([]int, p)
		for i := range a {
			ra[i], rb[i] = sigma[a[i]], sigma[b[i]]
		}
		if g := mm.Score(mustCode(t, ra...), mustCode(t, rb...)); g != f {
			t.Fatalf("Score(%v, %v) = %v but after renaming colours by %v, Score(%v, %v) = %v",
				ca, cb, f, sigma, ra, rb, g)
		}
		// Permute positions: the same permutation applied to both codes.
		pi := rng.Perm(p)
		pa, pb := make([]int, p), make([]int, p)
		for i := range a {
			pa[pi[i]], pb[pi[i]] = a[i], b[i]
		}
		if g := mm.Score(mustCode(t, pa...), mustCode(t, pb...)); g != f {
			t.Fatalf("Score(%v, %v) = %v but after moving pegs by %v, Score(%v, %v) = %v",
				ca, cb, f, pi, pa, pb, g)
		}
	}
}

func TestNumFeedbacks(t *testing.T) {
	for p := 1; p <= mm.MaxPegs; p++ {
		r := mm.Rules{Colors: mm.MaxColors, Pegs: p}
		want := (p+1)*(p+2)/2 - 1
		if got := r.NumFeedbacks(); got != want {
			t.Errorf("%v.NumFeedbacks() = %d; want %d", r, got, want)
		}
		fs := r.Feedbacks()
		if len(fs) != want {
			t.Errorf("len(%v.Feedbacks()) = %d; want %d", r, len(fs), want)
		}
		for i, f := range fs {
			if f.Black < 0 || f.White < 0 || f.Black+f.White > p || (f.Black == p-1 && f.White == 1) {
				t.Errorf("%v.Feedbacks() holds %v, which is impossible", r, f)
			}
			if err := r.CheckFeedback(f); err != nil {
				t.Errorf("%v.CheckFeedback(%v) = %v for a member of Feedbacks", r, f, err)
			}
			if i > 0 {
				e := fs[i-1]
				if e.Black > f.Black || (e.Black == f.Black && e.White >= f.White) {
					t.Errorf("%v.Feedbacks() has %v before %v; want (black, white) order", r, e, f)
				}
			}
		}
	}
	if got := mm.Classic.NumFeedbacks(); got != 14 {
		t.Errorf("Classic.NumFeedbacks() = %d; want 14", got)
	}
	if got := (mm.Rules{}).NumFeedbacks(); got != 14 {
		t.Errorf("Rules{}.NumFeedbacks() = %d; want 14", got)
	}
}

// TestFeedbacksSeen checks NumFeedbacks against the feedbacks that actually
// occur. By symmetry under moving pegs, every pair of codes can be turned
// into one whose first code is sorted, so only sorted codes need be guesses.
// It also checks that CheckFeedback accepts every feedback that occurs.
func TestFeedbacksSeen(t *testing.T) {
	rules := []mm.Rules{
		{Colors: 2, Pegs: 1}, {Colors: 2, Pegs: 2}, {Colors: 3, Pegs: 3}, {Colors: 4, Pegs: 4},
		{Colors: 6, Pegs: 4}, {Colors: 5, Pegs: 5}, {Colors: 6, Pegs: 6}, {Colors: 8, Pegs: 5},
		// Fewer colours than pegs, and distinct colours, see fewer.
		{Colors: 2, Pegs: 4}, {Colors: 3, Pegs: 5},
		{Colors: 5, Pegs: 4, Distinct: true}, {Colors: 6, Pegs: 6, Distinct: true}, {Colors: 10, Pegs: 4, Distinct: true},
	}
	for _, r := range rules {
		sp := mustSpace(t, r)
		counts := make([]uint32, sp.Keys())
		for g := 0; g < sp.Len(); g++ {
			if !slices.IsSorted(sp.Code(g).Colors()) {
				continue
			}
			sp.All().Count(g, counts)
		}
		seen := map[mm.Feedback]bool{}
		for k, n := range counts {
			if n > 0 {
				f := sp.KeyFeedback(k)
				seen[f] = true
				if err := r.CheckFeedback(f); err != nil {
					t.Errorf("%v.CheckFeedback(%v) = %v, but the feedback occurs", r, f, err)
				}
			}
		}
		// With repeats and at least as many colours as pegs every feedback
		// occurs, except that 2 colours cannot give (0, 1) on 2 pegs: it
		// needs a third colour.
		full := !r.Distinct && r.Colors >= r.Pegs && (r.Colors >= 3 || r.Pegs == 1)
		if r == (mm.Rules{Colors: 2, Pegs: 2}) && len(seen) != r.NumFeedbacks()-1 {
			t.Errorf("%v: %d distinct feedbacks over all pairs; want %d (all but (0, 1))", r, len(seen), r.NumFeedbacks()-1)
		}
		switch {
		case full && len(seen) != r.NumFeedbacks():
			t.Errorf("%v: %d distinct feedbacks over all pairs; NumFeedbacks() = %d", r, len(seen), r.NumFeedbacks())
		case len(seen) > r.NumFeedbacks():
			t.Errorf("%v: %d distinct feedbacks over all pairs, more than NumFeedbacks() = %d", r, len(seen), r.NumFeedbacks())
		}
		for f := range seen {
			if !slices.Contains(r.Feedbacks(), f) {
				t.Errorf("%v: feedback %v occurs but is not in Feedbacks()", r, f)
			}
		}
	}
}

func TestCheckFeedback(t *testing.T) {
	tests := []struct {
		r    mm.Rules
		f    mm.Feedback
		ok   bool
		desc string
	}{
		{mm.Classic, mm.Feedback{Black: 2, White: 1}, true, ""},
		{mm.Classic, mm.Feedback{Black: 4, White: 0}, true, ""},
		{mm.Classic, mm.Feedback{Black: 0, White: 4}, true, ""},
		{mm.Classic, mm.Feedback{}, true, ""},
		{mm.Classic, mm.Feedback{Black: 3, White: 1}, false, "(pegs-1, 1)"},
		{mm.Classic, mm.Feedback{Black: 2, White: 3}, false, "too many pegs"},
		{mm.Classic, mm.Feedback{Black: 5, White: 0}, false, "too many blacks"},
		{mm.Classic, mm.Feedback{Black: -1, White: 2}, false, "negative"},
		{mm.Classic, mm.Feedback{Black: 1, White: -1}, false, "negative"},
		{mm.Rules{Colors: 5, Pegs: 4, Distinct: true}, mm.Feedback{Black: 1, White: 1}, false, "distinct 5x4 codes share 3 colours"},
		{mm.Rules{Colors: 5, Pegs: 4, Distinct: true}, mm.Feedback{Black: 1, White: 2}, true, ""},
		// Counts so large that black+white overflows must not slip through.
		{mm.Classic, mm.Feedback{Black: int(^uint(0) >> 1), White: 1}, false, "overflowing black"},
		{mm.Classic, mm.Feedback{Black: 1, White: int(^uint(0) >> 1)}, false, "overflowing white"},
	}
	for _, tt := range tests {
		err := tt.r.CheckFeedback(tt.f)
		if tt.ok && err != nil {
			t.Errorf("%v.CheckFeedback(%+v) = %v; want nil", tt.r, tt.f, err)
		}
		if !tt.ok && !errors.Is(err, mm.ErrInvalidFeedback) {
			t.Errorf("%v.CheckFeedback(%+v) = %v; want ErrInvalidFeedback (%s)", tt.r, tt.f, err, tt.desc)
		}
	}
}

func TestFeedbackString(t *testing.T) {
	for _, tt := range []struct {
		f    mm.Feedback
		want string
	}{{mm.Feedback{Black: 2, White: 1}, "2 1"}, {mm.Feedback{}, "0 0"}, {mm.Feedback{Black: 4}, "4 0"}} {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("%#v.String() = %q; want %q", tt.f, got, tt.want)
		}
	}
	if got := (mm.Part{Feedback: mm.Feedback{Black: 1, White: 2}, Count: 7}).String(); got != "1 2: 7" {
		t.Errorf("Part.String() = %q; want %q", got, "1 2: 7")
	}
}

func ExampleScore() {
	r := mm.Classic
	secret, _ := r.ParseCode("1122")
	for _, s := range []string{"2211", "1213", "1122", "3456"} {
		guess, _ := r.ParseCode(s)
		fmt.Printf("%v: %v\n", guess, mm.Score(secret, guess))
	}
	// Output:
	// 2211: 0 4
	// 1213: 1 2
	// 1122: 4 0
	// 3456: 0 0
}
