package huge_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// randomCode returns a uniformly random code of r.
func randomCode(r mm.Rules, rng *rand.Rand) mm.Code {
	colors := make([]int, r.Pegs)
	for i := range colors {
		colors[i] = rng.IntN(r.Colors)
	}
	c, err := mm.NewCode(colors...)
	if err != nil {
		panic(err)
	}
	return c
}

// play plays Split against secret and returns its guesses, failing the test
// on an illegal or repeated guess or a game longer than the bound.
func play(t *testing.T, r mm.Rules, secret mm.Code) int {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return gametest.Play(t, huge.Split{}, st, secret, r.Colors-1+r.Pegs*r.Colors+1)
}

func TestSplitSolves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules mm.Rules
		games int
		most  float64 // the mean guesses must not exceed this
	}{
		{mm.Rules{Colors: 2, Pegs: 1}, 2, 2},
		{mm.Classic, 50, 8},
		{mm.Rules{Colors: 20, Pegs: 20}, 10, 70},
		{mm.Rules{Colors: 20, Pegs: 100}, 10, 300},
		{mm.Rules{Colors: 64, Pegs: 32}, 5, 160},
		{mm.Rules{Colors: 2, Pegs: 100}, 5, 150},
	}
	for _, tt := range tests {
		if race.Enabled {
			// Split plays in one goroutine, where the race detector,
			// which made this test take two minutes, has nothing to
			// find; two games of each are played under it, the
			// plain run plays them all.
			tt.games = min(tt.games, 2)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		total := 0
		for range tt.games {
			total += play(t, tt.rules, randomCode(tt.rules, rng))
		}
		mean := float64(total) / float64(tt.games)
		t.Logf("%v: %.1f guesses a game", tt.rules, mean)
		if mean > tt.most {
			t.Errorf("%v: %.1f guesses a game; want at most %.0f", tt.rules, mean, tt.most)
		}
	}
}

// TestSplitEverySecret plays every secret of small variants, uniform
// codes and codes of one repeated pattern among them.
func TestSplitEverySecret(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 3, Pegs: 3}, {Colors: 2, Pegs: 5}, {Colors: 5, Pegs: 3}} {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range sp.All().Codes() {
			play(t, r, c)
		}
	}
}

func TestSplitRefuses(t *testing.T) {
	st, err := mm.NewState(mm.Rules{Colors: 40, Pegs: 30, Distinct: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (huge.Split{}).Guess(st); !errors.Is(err, mm.ErrUnsupported) {
		t.Errorf("Guess on distinct colours: %v; want ErrUnsupported", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, _ = mm.NewState(mm.Rules{Colors: 20, Pegs: 100}, nil)
	if _, err := (huge.Split{}).GuessContext(ctx, st); !errors.Is(err, context.Canceled) {
		t.Errorf("GuessContext with a cancelled context: %v; want context.Canceled", err)
	}
}

// TestSplitInconsistent gives answers no secret can give.
func TestSplitInconsistent(t *testing.T) {
	r := mm.Rules{Colors: 3, Pegs: 4}
	st, _ := mm.NewState(r, nil)
	for _, turn := range []struct {
		code  string
		black int
	}{{"1111", 2}, {"2222", 2}, {"1122", 0}} {
		c, err := mm.DefaultAlphabet.Parse(r, turn.code)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Play(c, mm.Feedback{Black: turn.black}); err != nil {
			// the state itself may see the contradiction first
			if !errors.Is(err, mm.ErrInconsistent) {
				t.Fatalf("Play(%s): %v", c, err)
			}
			return
		}
	}
	if _, err := (huge.Split{}).Guess(st); !errors.Is(err, mm.ErrInconsistent) {
		t.Errorf("Guess after contradictory answers: %v; want ErrInconsistent", err)
	}
}

// BenchmarkGame100x20 plays a whole game of 100 pegs × 20 colours.
func BenchmarkGame100x20(b *testing.B) {
	r := mm.Rules{Colors: 20, Pegs: 100}
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		secret := randomCode(r, rng)
		if _, err := mm.Solve(mustState(b, r), huge.Split{}, secret, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func mustState(tb testing.TB, r mm.Rules) *mm.State {
	st, err := mm.NewState(r, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func ExampleSplit() {
	r := mm.Rules{Colors: 20, Pegs: 100}
	secret, _ := mm.DefaultAlphabet.Parse(r, strings.Repeat("K123456789ABCDEFGHIJ", 5))
	st, _ := mm.NewState(r, nil)
	steps, err := mm.Solve(st, huge.Split{}, secret, 0)
	fmt.Println(len(steps), err, steps[len(steps)-1].Guess == secret)
	// Output:
	// 293 <nil> true
}

// TestSplitConcurrent plays split through the harness with two workers
// and checks the games against one worker's.
func TestSplitConcurrent(t *testing.T) {
	r := mm.Rules{Colors: 12, Pegs: 40}
	opts := eval.Options{Games: 16, Seed: 3, Workers: 2}
	if race.Enabled {
		// 80 s under the race detector; four games keep both workers
		// busy at once, the plain run plays the sixteen.
		opts.Games = 4
	}
	rep, err := eval.Run(context.Background(), r, "split", huge.Split{}, &opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Workers = 1
	alone, err := eval.Run(context.Background(), r, "split", huge.Split{}, &opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != alone.Total || rep.Max != alone.Max {
		t.Errorf("two workers: %d guesses, at most %d; one: %d, at most %d", rep.Total, rep.Max, alone.Total, alone.Max)
	}
}
