package huge_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// playFit plays Fit from a state seeded with seed against secret.
func playFit(t *testing.T, f huge.Fit, r mm.Rules, secret mm.Code, seed uint64, limit int) int {
	t.Helper()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	return gametest.Play(t, f, st, secret, limit)
}

func TestFitSolves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rules mm.Rules
		games int
		most  float64 // the mean guesses must not exceed this
	}{
		{mm.Rules{Colors: 2, Pegs: 1}, 2, 2},
		{mm.Classic, 20, 8},
		{mm.Rules{Colors: 3, Pegs: 12}, 10, 14},
		{mm.Rules{Colors: 10, Pegs: 30}, 3, 50}, // split takes about 60
		{mm.Rules{Colors: 6, Pegs: 32}, 2, 40},  // split takes 40.3
	}
	for _, tt := range tests {
		if race.Enabled || testing.Short() {
			tt.games = min(tt.games, 2)
		}
		if !slow.Enabled && tt.rules.Pegs > 12 {
			// At 50 ms a guess the long codes took 6 s of CPU,
			// most of the package's: the plain run plays one game
			// of each, the slow tier (go test -tags slow, which CI
			// runs) all of them.
			tt.games = 1
		}
		if race.Enabled && tt.rules.Pegs > 12 {
			// Fit plays a game in one goroutine, where the race
			// detector, which made this test take 80 s, has nothing to
			// find; the plain run plays the long codes.
			continue
		}
		// Each variant on its own: the long codes are most of the
		// test's time, and they play beside each other.
		t.Run(tt.rules.String(), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, 2))
			total := 0
			for g := range tt.games {
				total += playFit(t, huge.Fit{Budget: 50 * time.Millisecond}, tt.rules, randomCode(tt.rules, rng), uint64(g), 10*tt.rules.Pegs+tt.rules.Colors)
			}
			mean := float64(total) / float64(tt.games)
			t.Logf("%.1f guesses a game", mean)
			if mean > tt.most {
				t.Errorf("%.1f guesses a game; want at most %.0f", mean, tt.most)
			}
		})
	}
}

// TestFitEverySecret plays every secret of small variants: the counting
// and the search must find each, whatever the colours' counts.
func TestFitEverySecret(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 3, Pegs: 3}, {Colors: 2, Pegs: 5}, {Colors: 5, Pegs: 2}} {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sp.Len() {
			playFit(t, huge.Fit{}, r, sp.Code(i), uint64(i), 12)
		}
	}
}

// TestFitReproducible checks that a game is the same from the same seed.
func TestFitReproducible(t *testing.T) {
	r := mm.Rules{Colors: 8, Pegs: 20}
	secret := randomCode(r, rand.New(rand.NewPCG(5, 5)))
	guesses := func() []mm.Code {
		st, err := mm.NewState(r, rand.New(rand.NewPCG(9, 9)))
		if err != nil {
			t.Fatal(err)
		}
		var out []mm.Code
		for range 100 {
			g, err := huge.Fit{Budget: 20 * time.Millisecond}.Guess(st)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, g)
			f := mm.Score(secret, g)
			if f.Solved(r.Pegs) {
				return out
			}
			if st, err = st.Play(g, f); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("not solved in 100 guesses")
		return nil
	}
	a, b := guesses(), guesses()
	if len(a) != len(b) {
		t.Fatalf("%d guesses, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("guess %d: %s, then %s", i+1, a[i], b[i])
		}
	}
}

// TestFitReadsAnyHistory checks that Fit counts colours from turns it did
// not ask for, and goes straight to codes that fit once they tell every
// count: each guess it then plays has the secret's counts.
func TestFitReadsAnyHistory(t *testing.T) {
	r := mm.Rules{Colors: 3, Pegs: 6}
	secret := gametest.MustParse(t, r, "112233")
	st := gametest.NewState(t, r)
	for _, g := range []string{"111222", "123123"} {
		c := gametest.MustParse(t, r, g)
		var err error
		if st, err = st.Play(c, mm.Score(secret, c)); err != nil {
			t.Fatal(err)
		}
	}
	// 111222 scores 2 black 2 white against 112233: colours 1 and 2 have
	// at least 2 pegs each, which 123123 (1 black 5 white: 6 in all)
	// cannot tell apart from 3 pegs; no count is proven, so Fit counts.
	g, err := huge.Fit{}.Guess(st)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Colors(); got[0] != got[1] || got[1] != got[5] {
		t.Errorf("after two turns that prove no count, Fit played %s; want a code of one colour", g)
	}
	c := gametest.MustParse(t, r, "111111")
	if st, err = st.Play(c, mm.Score(secret, c)); err != nil {
		t.Fatal(err)
	}
	c = gametest.MustParse(t, r, "222111")
	if st, err = st.Play(c, mm.Score(secret, c)); err != nil {
		t.Fatal(err)
	}
	// Colour 1 has 2 pegs; 222111 scores 0 black 4 white, 2 of colour 1
	// and so 2 of colour 2, and colour 3 has the 2 left.
	for range 5 {
		g, err := huge.Fit{}.Guess(st)
		if err != nil {
			t.Fatal(err)
		}
		n := map[int]int{}
		for _, k := range g.Colors() {
			n[k]++
		}
		if n[0] != 2 || n[1] != 2 || n[2] != 2 {
			t.Fatalf("Fit played %s once every count was known; want two pegs of each colour", g)
		}
		f := mm.Score(secret, g)
		if f.Solved(r.Pegs) {
			return
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("not solved in 5 guesses after the counts")
}

func TestFitRefuses(t *testing.T) {
	st := gametest.NewState(t, mm.Rules{Colors: 10, Pegs: 4, Distinct: true})
	if _, err := (huge.Fit{}).Guess(st); !errors.Is(err, mm.ErrUnsupported) {
		t.Errorf("distinct colours: %v; want an error wrapping ErrUnsupported", err)
	}
}

func TestFitInconsistent(t *testing.T) {
	r := mm.Rules{Colors: 4, Pegs: 40}
	for _, turns := range [][]string{
		// 30 pegs of colour 1 and 20 of colour 2: more than 40
		{"1111111111111111111111111111111111111111 30 0", "2222222222222222222222222222222222222222 20 0"},
		// every count known, then a turn whose blacks and whites miss them
		{"1111111111111111111111111111111111111111 10 0", "2222222222222222222222222222222222222222 10 0",
			"3333333333333333333333333333333333333333 10 0", "1212121212121212121212121212121212121212 5 5"},
	} {
		st := gametest.NewState(t, r)
		var err error
		for _, s := range turns {
			st = gametest.PlayTurns(t, st, s)
		}
		_, err = huge.Fit{}.Guess(st)
		if !errors.Is(err, mm.ErrInconsistent) {
			t.Errorf("%q: %v; want an error wrapping ErrInconsistent", turns, err)
		}
	}
}

func TestFitCancel(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 100}
	st := gametest.NewState(t, r)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (huge.Fit{}).GuessContext(ctx, st); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want context.Canceled", err)
	}
}

// seeded returns a state of r whose random source is seeded with seed.
func seeded(t *testing.T, r mm.Rules, seed uint64) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, seed)))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestAutoPlaysFit checks that auto plays fit beyond the sampler's pegs,
// even where the sampler's size limit would take them, and on long codes
// of few colours; that it samples the others of up to 30 pegs, whatever
// their colours; and that it refuses distinct colours beyond 30 pegs.
func TestAutoPlaysFit(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 100}
	secret := randomCode(r, rand.New(rand.NewPCG(5, 5)))
	a, f := seeded(t, r, 1), seeded(t, r, 1)
	turns := 25 // the 19 that count the colours, then codes that fit
	if race.Enabled {
		turns = 21 // each search 10 times slower
	}
	for range turns {
		want, err := huge.Fit{}.Guess(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := strategy.Auto{}.Guess(a)
		if err != nil || got != want {
			t.Fatalf("Auto on %v after %d turns = %s, %v; want fit's %s", r, a.Len(), got, err, want)
		}
		fb := mm.Score(secret, got)
		if a, err = a.Play(got, fb); err != nil {
			t.Fatal(err)
		}
		if f, err = f.Play(want, fb); err != nil {
			t.Fatal(err)
		}
	}
	const quick = 10 * time.Millisecond // the first guesses' budget: only who plays them matters
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 32}, {Colors: 3, Pegs: 40}, {Colors: 2, Pegs: 31}, {Colors: 31, Pegs: 31},
		{Colors: 10, Pegs: 30}, {Colors: 5, Pegs: 30}, {Colors: 8, Pegs: 24}} {
		want, err := huge.Fit{Budget: quick}.Guess(seeded(t, r, 2))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := (strategy.Auto{Budget: quick}).Guess(seeded(t, r, 2)); err != nil || got != want {
			t.Errorf("Auto on %v = %s, %v; want fit's %s", r, got, err, want)
		}
	}
	for _, r := range []mm.Rules{{Colors: 25, Pegs: 25}, {Colors: 4, Pegs: 30}, {Colors: 2, Pegs: 21}, {Colors: 10, Pegs: 20}, {Colors: 11, Pegs: 30}, {Colors: 5, Pegs: 23}} {
		fit, err := huge.Fit{Budget: quick}.Guess(seeded(t, r, 3))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := (strategy.Auto{Budget: quick}).Guess(seeded(t, r, 3)); err != nil || got == fit {
			t.Errorf("Auto on %v = %s, %v; want the sampler's guess, not fit's", r, got, err)
		}
	}
	for _, r := range []mm.Rules{{Colors: 40, Pegs: 31, Distinct: true}, {Colors: 64, Pegs: 40, Distinct: true}} {
		if _, err := (strategy.Auto{}).Guess(seeded(t, r, 4)); !errors.Is(err, mm.ErrTooLarge) {
			t.Errorf("Auto on %v: %v; want ErrTooLarge", r, err)
		}
	}
}
