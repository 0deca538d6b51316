package large_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/large"
)

// randomHistory returns n turns of random guesses, answered as secret
// would answer them, or at random when secret is the zero Code.
func randomHistory(r mm.Rules, rng *rand.Rand, secret mm.Code, n int) []mm.Turn {
	var turns []mm.Turn
	fs := r.Feedbacks()
	for range n {
		g := mm.RandomCode(r, rng)
		f := fs[rng.IntN(len(fs))]
		for r.CheckFeedback(f) != nil {
			f = fs[rng.IntN(len(fs))]
		}
		if secret.Len() > 0 {
			f = mm.Score(secret, g)
		}
		turns = append(turns, mm.Turn{Guess: g, Feedback: f})
	}
	return turns
}

// filterSpace returns the codes of r's space consistent with turns, or nil.
func filterSpace(t *testing.T, r mm.Rules, turns []mm.Turn) []mm.Code {
	t.Helper()
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	s := sp.All()
	for _, tu := range turns {
		if s, err = s.Filter(tu.Guess, tu.Feedback); err != nil {
			t.Fatal(err)
		}
	}
	return s.Codes()
}

func historyString(turns []mm.Turn) string {
	var b strings.Builder
	for _, t := range turns {
		fmt.Fprintf(&b, "%s:%s; ", t.Guess, t.Feedback)
	}
	return b.String()
}

// TestConstraintsEnumerate checks, on variants small enough to enumerate,
// that the constraint search reaches exactly the candidates that filtering
// the space leaves, for histories answered by a secret and for random ones
// (mostly contradictory), and that every sampled code is a candidate.
func TestConstraintsEnumerate(t *testing.T) {
	rules := []mm.Rules{
		{Colors: 3, Pegs: 3}, {Colors: 2, Pegs: 5}, {Colors: 6, Pegs: 4}, {Colors: 8, Pegs: 3},
		{Colors: 4, Pegs: 6}, {Colors: 5, Pegs: 3, Distinct: true}, {Colors: 8, Pegs: 5, Distinct: true},
		{Colors: 7, Pegs: 5}, {Colors: 3, Pegs: 8}, {Colors: 12, Pegs: 2}, {Colors: 2, Pegs: 1},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range rules {
		for i := range 60 {
			var secret mm.Code
			if i%3 != 2 {
				secret = mm.RandomCode(r, rng)
			}
			turns := randomHistory(r, rng, secret, rng.IntN(7))
			want := filterSpace(t, r, turns)
			c, err := large.NewConstraints(r, turns)
			if err != nil {
				t.Fatalf("NewConstraints(%v, %s): %v", r, historyString(turns), err)
			}
			got, err := c.Enumerate(1<<20, 0)
			switch {
			case len(want) == 0:
				if !errors.Is(err, mm.ErrInconsistent) || len(got) > 0 {
					t.Errorf("%v %s: Enumerate = %d codes, %v; want ErrInconsistent", r, historyString(turns), len(got), err)
				}
				if _, err := c.Sample(rng, 3, 0); !errors.Is(err, mm.ErrInconsistent) {
					t.Errorf("%v %s: Sample error %v; want ErrInconsistent", r, historyString(turns), err)
				}
				continue
			case err != nil:
				t.Errorf("%v %s: Enumerate: %v", r, historyString(turns), err)
				continue
			case !slices.Equal(got, want):
				t.Errorf("%v %s: Enumerate = %d codes %v; want the %d candidates %v",
					r, historyString(turns), len(got), head(got), len(want), head(want))
			}
			sample, err := c.Sample(rng, 20, 0)
			if err != nil || len(sample) != 20 {
				t.Errorf("%v %s: Sample = %d codes, %v; want 20", r, historyString(turns), len(sample), err)
			}
			for _, x := range sample {
				if _, ok := slices.BinarySearchFunc(want, x, mm.Code.Compare); !ok {
					t.Errorf("%v %s: Sample gave %s, not a candidate", r, historyString(turns), x)
				}
			}
			if x, err := c.Find(0); err != nil || !c.Consistent(x) {
				t.Errorf("%v %s: Find = %s, %v", r, historyString(turns), x, err)
			}
		}
	}
}

// TestConstraintsSampleLarge samples codes in variants far too large to
// enumerate, along games that play a sampled code each turn, and checks
// each code against every turn with Score.
func TestConstraintsSampleLarge(t *testing.T) {
	for _, tc := range []struct {
		r     mm.Rules
		turns int
	}{
		{mm.Rules{Colors: 15, Pegs: 15}, 10},
		{mm.Rules{Colors: 20, Pegs: 20}, 6},
		{mm.Rules{Colors: 15, Pegs: 12, Distinct: true}, 12},
		{mm.Rules{Colors: 3, Pegs: 30}, 5},
	} {
		r := tc.r
		rng := rand.New(rand.NewPCG(7, uint64(r.Pegs)))
		secret := mm.RandomCode(r, rng)
		var turns []mm.Turn
		for n := 0; n < tc.turns; n++ {
			c, err := large.NewConstraints(r, turns)
			if err != nil {
				t.Fatal(err)
			}
			codes, err := c.Sample(rng, 30, 0)
			if err != nil || len(codes) != 30 {
				t.Fatalf("%v, %d turns: Sample = %d codes, %v", r, n, len(codes), err)
			}
			for _, x := range codes {
				if err := r.Check(x); err != nil {
					t.Errorf("%v: Sample gave an illegal code: %v", r, err)
				}
				for _, tu := range turns {
					if f := mm.Score(x, tu.Guess); f != tu.Feedback {
						t.Errorf("%v: Sample gave %s, which scores %s against %s; want %s", r, x, f, tu.Guess, tu.Feedback)
					}
				}
			}
			f := mm.Score(secret, codes[0])
			if f.Solved(r.Pegs) {
				break
			}
			turns = append(turns, mm.Turn{Guess: codes[0], Feedback: f})
		}
	}
}

func TestConstraintsReproducible(t *testing.T) {
	r := mm.Rules{Colors: 12, Pegs: 12}
	rng := rand.New(rand.NewPCG(3, 4))
	turns := randomHistory(r, rng, mm.RandomCode(r, rng), 6)
	c, _ := large.NewConstraints(r, turns)
	a, errA := c.Sample(rand.New(rand.NewPCG(9, 9)), 50, 0)
	b, errB := c.Sample(rand.New(rand.NewPCG(9, 9)), 50, 0)
	if errA != nil || errB != nil || !slices.Equal(a, b) {
		t.Errorf("Sample with equal seeds gave different codes (%v, %v)", errA, errB)
	}
	x, _ := c.Find(0)
	y, _ := c.Find(0)
	if x != y {
		t.Errorf("Find gave %s, then %s", x, y)
	}
	if d := slices.CompactFunc(slices.SortedFunc(slices.Values(a), mm.Code.Compare), func(x, y mm.Code) bool { return x == y }); len(d) < 45 {
		t.Errorf("Sample of 50 codes among many gave only %d distinct codes", len(d))
	}
}

func TestConstraintsLimits(t *testing.T) {
	r := mm.Rules{Colors: 15, Pegs: 15}
	c, _ := large.NewConstraints(r, nil)
	if codes, err := c.Enumerate(100, 0); !errors.Is(err, mm.ErrTooLarge) || len(codes) != 100 {
		t.Errorf("Enumerate(100) of 15x15 = %d codes, %v; want 100 and ErrTooLarge", len(codes), err)
	}
	if _, err := c.Sample(rand.New(rand.NewPCG(1, 1)), 100, 20); !errors.Is(err, large.ErrSearchLimit) {
		t.Errorf("Sample of 100 codes in 20 nodes: %v; want ErrSearchLimit", err)
	}
	bad := []mm.Turn{{Guess: gametest.MustParse(t, r, "111111111111111"), Feedback: mm.Feedback{Black: 16}}}
	if _, err := large.NewConstraints(r, bad); !errors.Is(err, mm.ErrInvalidFeedback) {
		t.Errorf("NewConstraints with 16 blacks of 15: %v; want ErrInvalidFeedback", err)
	}
}

// TestPlayLargeInconsistent checks that Play rejects a contradictory
// history on variants too large to enumerate, found by the constraint
// search, on watched states.
func TestPlayLargeInconsistent(t *testing.T) {
	tests := []struct {
		r       mm.Rules
		history []string
		guess   string
		f       mm.Feedback
	}{
		// Two blacks where one peg differs from a guess that scored nothing.
		{mm.Rules{Colors: 15, Pegs: 15}, []string{"111111111111111 0 0"}, "111111111111112", mm.Feedback{Black: 2}},
		// The last peg is 2, then 3.
		{mm.Rules{Colors: 15, Pegs: 15}, []string{"111111111111111 0 0", "111111111111112 1 0"}, "111111111111113", mm.Feedback{Black: 1}},
		// Fifteen distinct colours fill the code; others cannot score.
		{mm.Rules{Colors: 20, Pegs: 15}, []string{"123456789ABCDEF 0 15"}, "GHIJGHIJGHIJGHI", mm.Feedback{White: 1}},
		// The secret's colours are 1 to C; a guess sharing nine of them
		// cannot match twelve.
		{mm.Rules{Colors: 15, Pegs: 12, Distinct: true}, []string{"123456789ABC 0 12"}, "DEF123456789", mm.Feedback{White: 12}},
	}
	for _, tt := range tests {
		t.Run(tt.r.String(), func(t *testing.T) {
			st := gametest.PlayTurns(t, large.Watch(gametest.NewState(t, tt.r)), tt.history...)
			g := gametest.MustParse(t, tt.r, tt.guess)
			next, err := st.Play(g, tt.f)
			if !errors.Is(err, mm.ErrInconsistent) || next != nil {
				t.Fatalf("Play(%s, %v) = %v, %v; want ErrInconsistent", g, tt.f, next, err)
			}
			gametest.CheckOneLine(t, err)
		})
	}
}

// TestListCandidates lists the candidates of a large variant once they are
// few, and checks that Play filters the list from turn to turn.
func TestListCandidates(t *testing.T) {
	r := mm.Rules{Colors: 12, Pegs: 12}
	rng := rand.New(rand.NewPCG(4, 4))
	secret := mm.RandomCode(r, rng)
	st := gametest.NewState(t, r)
	if _, err := large.ListCandidates(st, 1000, 10000); !errors.Is(err, mm.ErrTooLarge) && !errors.Is(err, large.ErrSearchLimit) {
		t.Fatalf("ListCandidates at the start of 12x12: %v; want ErrTooLarge or ErrSearchLimit", err)
	}
	if _, ok := large.Listed(st); ok || st.Remaining() != -1 {
		t.Fatalf("a failed ListCandidates left a list behind (Remaining %d)", st.Remaining())
	}
	// Play sampled codes until few candidates are left.
	var list []mm.Code
	for st.Len() < 40 {
		codes, err := large.ConstraintsOf(st).Sample(rng, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		f := mm.Score(secret, codes[0])
		if f.Solved(r.Pegs) {
			break
		}
		if st, err = st.Play(codes[0], f); err != nil {
			t.Fatal(err)
		}
		if list, err = large.ListCandidates(st, 500, 1<<20); err == nil {
			break
		}
	}
	if list == nil {
		// The game is seeded: with this seed the candidates become few
		// long before it ends, so reaching here means listing or
		// sampling broke.
		t.Fatalf("after %d turns of 12x12 ListCandidates(500) still fails", st.Len())
	}
	if !slices.Contains(list, secret) || st.Remaining() != len(list) {
		t.Fatalf("ListCandidates = %d codes, Remaining %d; want the secret among them", len(list), st.Remaining())
	}
	for _, x := range list {
		if !large.ConstraintsOf(st).Consistent(x) {
			t.Fatalf("ListCandidates gave %s, which is not consistent", x)
		}
	}
	g := list[len(list)/2]
	f := mm.Score(secret, g)
	next, err := st.Play(g, f)
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := large.Listed(next)
	var want []mm.Code
	for _, x := range list {
		if mm.Score(x, g) == f {
			want = append(want, x)
		}
	}
	if !ok || !slices.Equal(kept, want) || next.Remaining() != len(want) {
		t.Errorf("after Play the list is %d codes (listed %v); want the %d that fit", len(kept), ok, len(want))
	}
	// A feedback no listed code gives is a contradiction.
	for _, fb := range r.Feedbacks() {
		fits := false
		for _, x := range list {
			fits = fits || mm.Score(x, g) == fb
		}
		if !fits {
			if _, err := st.Play(g, fb); !errors.Is(err, mm.ErrInconsistent) {
				t.Errorf("Play(%s, %v) with no listed code fitting: %v; want ErrInconsistent", g, fb, err)
			}
			break
		}
	}
}

// A history on 15 pegs of 15 colours, far too large to enumerate: the
// constraints still find codes that fit it, and list them once they are
// few.
func ExampleConstraints() {
	r := mm.Rules{Colors: 15, Pegs: 15}
	secret, _ := r.ParseCode("123456789ABCDEF")
	var turns []mm.Turn
	for _, g := range []string{"111111111111111", "123123123123123", "FEDCBA987654321", "123456789ABCDFE"} {
		guess, _ := r.ParseCode(g)
		turns = append(turns, mm.Turn{Guess: guess, Feedback: mm.Score(secret, guess)})
	}
	c, err := large.NewConstraints(r, turns)
	if err != nil {
		fmt.Println(err)
		return
	}
	x, err := c.Find(1000)
	fmt.Println(c.Consistent(x), err)
	all, err := c.Enumerate(100, 0)
	fmt.Println(len(all), all[:3], slices.Contains(all, secret), err)
	// Output:
	// true <nil>
	// 61 [123456789ABCDEF 123456789ABCEFD 123456789ABCFDE] true <nil>
}

// BenchmarkSample draws codes in the middle of a 15 × 15 game, after eight
// guesses that were themselves drawn codes.
func BenchmarkSample(b *testing.B) {
	r := mm.Rules{Colors: 15, Pegs: 15}
	rng := rand.New(rand.NewPCG(8, 8))
	secret := mm.RandomCode(r, rng)
	var turns []mm.Turn
	for range 8 {
		c, _ := large.NewConstraints(r, turns)
		codes, err := c.Sample(rng, 1, 0)
		if err != nil {
			b.Fatal(err)
		}
		turns = append(turns, mm.Turn{Guess: codes[0], Feedback: mm.Score(secret, codes[0])})
	}
	c, _ := large.NewConstraints(r, turns)
	for b.Loop() {
		if _, err := c.Sample(rng, 16, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/16, "ns/code")
}

func head(cs []mm.Code) []mm.Code {
	if len(cs) > 8 {
		return cs[:8]
	}
	return cs
}
