package mastermind_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func TestPlayErrors(t *testing.T) {
	r := mm.Classic
	tests := []struct {
		name    string
		history []string
		guess   []int
		f       mm.Feedback
		want    error
	}{
		{"short guess", nil, []int{0, 0, 1}, mm.Feedback{}, mm.ErrInvalidCode},
		{"long guess", nil, []int{0, 0, 1, 1, 1}, mm.Feedback{}, mm.ErrInvalidCode},
		{"colour out of range", nil, []int{0, 0, 1, 6}, mm.Feedback{}, mm.ErrInvalidCode},
		{"three black one white", nil, []int{0, 0, 1, 1}, mm.Feedback{Black: 3, White: 1}, mm.ErrInvalidFeedback},
		{"five pegs", nil, []int{0, 0, 1, 1}, mm.Feedback{Black: 2, White: 3}, mm.ErrInvalidFeedback},
		{"negative", nil, []int{0, 0, 1, 1}, mm.Feedback{Black: -1}, mm.ErrInvalidFeedback},
		// 1122 scoring 0 0 rules out colour 1; 1111 scoring 1 0 needs it.
		{"no 1 then a 1", []string{"1122 0 0"}, []int{0, 0, 0, 0}, mm.Feedback{Black: 1}, mm.ErrInconsistent},
		// Each colour once: five colours cannot fit in four pegs.
		{"five colours", []string{"1111 1 0", "2222 1 0", "3333 1 0", "4444 1 0"}, []int{4, 4, 4, 4}, mm.Feedback{Black: 1}, mm.ErrInconsistent},
		// 1234 scoring 0 4 leaves derangements of 1234; 1255 scoring 2 0
		// would need 1 and 2 in their places.
		{"all white then a black", []string{"1234 0 4"}, []int{0, 1, 4, 4}, mm.Feedback{Black: 2}, mm.ErrInconsistent},
		{"after solved", []string{"1122 1 0", "3632 4 0"}, []int{0, 0, 0, 0}, mm.Feedback{}, mm.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := gametest.PlayTurns(t, gametest.NewState(t, r), tt.history...)
			g := mustCode(t, tt.guess...)
			next, err := st.Play(g, tt.f)
			if !errors.Is(err, tt.want) || next != nil {
				t.Fatalf("Play(%v, %v) = %v, %v; want nil, %v", g, tt.f, next, err, tt.want)
			}
			gametest.CheckOneLine(t, err)
			if st.Len() != len(tt.history) {
				t.Errorf("a failed Play changed the state: %d turns", st.Len())
			}
		})
	}
}

// TestCandidatesBruteForce plays random games and checks the candidates
// after every turn against brute force.
func TestCandidatesBruteForce(t *testing.T) {
	rules := []mm.Rules{
		{Colors: 6, Pegs: 4}, {Colors: 4, Pegs: 5}, {Colors: 7, Pegs: 3},
		{Colors: 6, Pegs: 4, Distinct: true}, {Colors: 8, Pegs: 3, Distinct: true},
	}
	for i, r := range rules {
		rng := rand.New(rand.NewPCG(uint64(i), 8))
		for range 6 {
			secret := randCode(t, rng, r)
			st := gametest.NewState(t, r)
			for turn := 0; turn < 4 && !st.Solved(); turn++ {
				g := randCode(t, rng, r)
				f := mm.Score(secret, g)
				next, err := st.Play(g, f)
				if err != nil {
					t.Fatalf("%v: Play(%v, %v) with secret %v: %v", r, g, f, secret, err)
				}
				if st.Len() != turn {
					t.Fatalf("Play changed its receiver: %d turns; want %d", st.Len(), turn)
				}
				st = next
				got, err := st.Candidates()
				if err != nil {
					t.Fatalf("Candidates(): %v", err)
				}
				want := refCandidates(r, st.Turns())
				if !slices.Equal(got.Codes(), want) {
					t.Fatalf("%v: Candidates() after %v = %d codes; want %d", r, st.Turns(), got.Len(), len(want))
				}
				if !got.Contains(secret) {
					t.Fatalf("%v: candidates after %v lack the secret %v", r, st.Turns(), secret)
				}
				if st.Remaining() != len(want) {
					t.Fatalf("Remaining() = %d; want %d", st.Remaining(), len(want))
				}
				if st.Solved() != (f.Black == r.Pegs) {
					t.Fatalf("Solved() = %v after %v", st.Solved(), f)
				}
			}
		}
	}
}

// TestBranch checks that the children of Branch cover the candidates, one
// per feedback that occurs, in order, each with the right history.
func TestBranch(t *testing.T) {
	r := mm.Classic
	for _, tc := range []struct {
		history []string
		guess   string
	}{
		{nil, "1122"},
		{nil, "1234"},
		{[]string{"1122 1 0"}, "1344"},
		{[]string{"1122 1 0", "1344 0 1"}, "3526"},
		{[]string{"1122 1 0"}, "6666"},
	} {
		st := gametest.PlayTurns(t, gametest.NewState(t, r), tc.history...)
		g := gametest.MustParse(t, r, tc.guess)
		fs, kids, err := st.Branch(g)
		if err != nil {
			t.Fatalf("Branch(%v): %v", g, err)
		}
		if len(fs) != len(kids) {
			t.Fatalf("Branch(%v): %d feedbacks, %d states", g, len(fs), len(kids))
		}
		parent, _ := st.Candidates()
		var union []mm.Code
		for i, k := range kids {
			if i > 0 && (fs[i-1].Black > fs[i].Black || fs[i-1].Black == fs[i].Black && fs[i-1].White >= fs[i].White) {
				t.Errorf("Branch(%v): %v after %v", g, fs[i], fs[i-1])
			}
			turns := k.Turns()
			wantTurns := append(st.Turns(), mm.Turn{Guess: g, Feedback: fs[i]})
			if !slices.Equal(turns, wantTurns) {
				t.Errorf("Branch(%v) child %d turns = %v; want %v", g, i, turns, wantTurns)
			}
			c, err := k.Candidates()
			if err != nil {
				t.Fatalf("child %v: Candidates(): %v", fs[i], err)
			}
			if want := refCandidates(r, turns); !slices.Equal(c.Codes(), want) {
				t.Errorf("Branch(%v) child %v has %d candidates; want %d", g, fs[i], c.Len(), len(want))
			}
			if k.Solved() != (fs[i].Black == r.Pegs) {
				t.Errorf("child %v: Solved() = %v", fs[i], k.Solved())
			}
			union = append(union, c.Codes()...)
		}
		slices.SortFunc(union, mm.Code.Compare)
		if !slices.Equal(union, parent.Codes()) {
			t.Errorf("Branch(%v): children hold %d codes; parent has %d", g, len(union), parent.Len())
		}
	}
	st := gametest.NewState(t, r)
	if _, _, err := st.Branch(mustCode(t, 0, 0, 0)); !errors.Is(err, mm.ErrInvalidCode) {
		t.Errorf("Branch of a 3-peg code: %v; want ErrInvalidCode", err)
	}
}

func TestStateBasics(t *testing.T) {
	if _, err := mm.NewState(mm.Rules{Colors: 1}, nil); !errors.Is(err, mm.ErrInvalidRules) {
		t.Errorf("NewState(1 colour) = %v; want ErrInvalidRules", err)
	}
	st := gametest.NewState(t, mm.Rules{})
	if st.Rules() != mm.Classic || st.Len() != 0 || st.Solved() || st.Remaining() != 1296 {
		t.Errorf("new state: rules %v, %d turns, solved %v, %d remaining", st.Rules(), st.Len(), st.Solved(), st.Remaining())
	}
	st = gametest.PlayTurns(t, st, "1122 1 0")
	turns := st.Turns()
	turns[0].Guess = mustCode(t, 5, 5, 5, 5)
	if st.Turn(0).Guess.String() != "1122" {
		t.Errorf("modifying Turns() changed the state")
	}
	// A nil source is seeded the same way every time.
	a, b := gametest.NewState(t, mm.Classic), gametest.NewState(t, mm.Classic)
	if x, y := a.Rand().Uint64(), b.Rand().Uint64(); x != y {
		t.Errorf("states with a nil source draw %d and %d; want the same", x, y)
	}
	// Concurrent first calls to Candidates agree.
	st = gametest.PlayTurns(t, gametest.NewState(t, mm.Classic), "1122 1 0")
	var wg sync.WaitGroup
	lens := make([]int, 8)
	for i := range lens {
		wg.Go(func() {
			s, err := st.Candidates()
			if err == nil {
				lens[i] = s.Len()
			}
		})
	}
	wg.Wait()
	for i, n := range lens {
		if n != 256 {
			t.Errorf("goroutine %d: Candidates().Len() = %d; want 256", i, n)
		}
	}
}

// TestStateTooLarge plays a variant that cannot be enumerated.
func TestStateTooLarge(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 8}
	st := gametest.NewState(t, r)
	g := mustCode(t, 0, 1, 2, 3, 4, 5, 6, 7)
	st, err := st.Play(g, mm.Feedback{Black: 2, White: 3})
	if err != nil {
		t.Fatalf("Play on %v: %v", r, err)
	}
	if n := st.Remaining(); n != -1 {
		t.Errorf("Remaining() = %d; want -1", n)
	}
	if _, err := st.Candidates(); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Candidates() = %v; want ErrTooLarge", err)
	}
	if _, err := st.Space(); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Space() = %v; want ErrTooLarge", err)
	}
	if _, _, err := st.Branch(g); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Branch() = %v; want ErrTooLarge", err)
	}
	if _, err := st.Play(g, mm.Feedback{Black: 7, White: 1}); !errors.Is(err, mm.ErrInvalidFeedback) {
		t.Errorf("Play(7 1) on 8 pegs = %v; want ErrInvalidFeedback", err)
	}
	// Once the code is found it is the one left, however large the variant.
	for _, r := range []mm.Rules{{Colors: 20, Pegs: 8}, {Colors: 15, Pegs: 15}, {Colors: 25, Pegs: 25}} {
		st := gametest.NewState(t, r)
		var pegs []int
		for i := range r.Pegs {
			pegs = append(pegs, i%r.Colors)
		}
		g := mustCode(t, pegs...)
		won, err := st.Play(g, mm.Feedback{Black: r.Pegs})
		if err != nil {
			t.Fatalf("Play on %v: %v", r, err)
		}
		if n := won.Remaining(); n != 1 {
			t.Errorf("%v: Remaining() after the winning guess = %d; want 1", r, n)
		}
	}
}

func TestSolve(t *testing.T) {
	r := mm.Classic
	secret := gametest.MustParse(t, r, "3632")
	first := func(st *mm.State) (mm.Code, error) {
		s, err := st.Candidates()
		if err != nil {
			return mm.Code{}, err
		}
		return s.Code(0), nil
	}
	steps, err := mm.Solve(gametest.NewState(t, r), mm.StrategyFunc(first), secret, 0)
	if err != nil {
		t.Fatalf("Solve(first consistent, 3632): %v", err)
	}
	st := gametest.NewState(t, r)
	for i, s := range steps {
		if f := refScoreCodes(secret, s.Guess); f != s.Feedback {
			t.Errorf("step %d: %v scored %v; want %v", i, s.Guess, s.Feedback, f)
		}
		st = gametest.PlayTurns(t, st, fmt.Sprintf("%v %d %d", s.Guess, s.Feedback.Black, s.Feedback.White))
		if s.Remaining != st.Remaining() {
			t.Errorf("step %d: Remaining = %d; want %d", i, s.Remaining, st.Remaining())
		}
	}
	if last := steps[len(steps)-1]; last.Guess != secret {
		t.Errorf("last guess %v; want %v", last.Guess, secret)
	}

	errBroken := errors.New("broken strategy")
	tests := []struct {
		name string
		s    mm.StrategyFunc
		max  int
		want error
	}{
		{"error", func(*mm.State) (mm.Code, error) { return mm.Code{}, errBroken }, 0, errBroken},
		{"illegal", func(*mm.State) (mm.Code, error) { return mustCode(t, 0, 0, 0), nil }, 0, mm.ErrInvalidCode},
		{"out of range", func(*mm.State) (mm.Code, error) { return mustCode(t, 0, 0, 0, 9), nil }, 0, mm.ErrInvalidCode},
		{"limit", mm.StrategyFunc(first), 2, mm.ErrGuessLimit},
	}
	for _, tt := range tests {
		steps, err := mm.Solve(gametest.NewState(t, r), tt.s, secret, tt.max)
		if !errors.Is(err, tt.want) {
			t.Errorf("Solve(%s) error = %v; want %v", tt.name, err, tt.want)
		}
		if tt.max > 0 && len(steps) != tt.max {
			t.Errorf("Solve(%s) played %d steps; want %d", tt.name, len(steps), tt.max)
		}
	}
	if _, err := mm.Solve(gametest.NewState(t, r), mm.StrategyFunc(first), mustCode(t, 0, 0, 7, 0), 0); !errors.Is(err, mm.ErrInvalidCode) {
		t.Errorf("Solve with secret out of range: %v; want ErrInvalidCode", err)
	}
}

func TestIsRandomized(t *testing.T) {
	if mm.IsRandomized(mm.StrategyFunc(nil)) {
		t.Errorf("IsRandomized(StrategyFunc) = true")
	}
	if mm.IsRandomized(strategy.Knuth{}) {
		t.Errorf("IsRandomized(Knuth) = true")
	}
	if !mm.IsRandomized(strategy.RandomConsistent{}) {
		t.Errorf("IsRandomized(RandomConsistent) = false")
	}
}

func ExampleSolve() {
	st, err := mm.NewState(mm.Classic, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	secret, _ := mm.Classic.ParseCode("3632")
	steps, err := mm.Solve(st, strategy.Knuth{}, secret, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range steps {
		fmt.Printf("%v  %v  %d left\n", s.Guess, s.Feedback, s.Remaining)
	}
	// Output:
	// 1122  1 0  256 left
	// 1344  0 1  44 left
	// 3526  1 2  7 left
	// 1462  1 1  1 left
	// 3632  4 0  1 left
}

func TestStepJSON(t *testing.T) {
	s := mm.Step{Guess: gametest.MustParse(t, mm.Classic, "1122"), Feedback: mm.Feedback{Black: 1}, Remaining: 256}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"guess":"1122","feedback":{"black":1,"white":0},"remaining":256}`
	if string(b) != want {
		t.Errorf("json.Marshal(%+v) = %s; want %s", s, b, want)
	}
	var back mm.Turn
	if err := json.Unmarshal([]byte(`{"guess":"3632","feedback":{"black":4,"white":0}}`), &back); err != nil ||
		back.Guess.String() != "3632" || back.Feedback != (mm.Feedback{Black: 4}) {
		t.Errorf("json.Unmarshal(Turn) = %+v, %v", back, err)
	}
}
