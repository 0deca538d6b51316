package strategy_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// playChecked plays s against secret from a state seeded with seed and
// fails the test at the first guess that is not consistent with the turns
// before it (mm.Score against each), or if the game takes more than limit
// guesses. It returns the number of guesses.
func playChecked(t *testing.T, s mm.Strategy, r mm.Rules, secret mm.Code, seed uint64, limit int) int {
	t.Helper()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= limit; n++ {
		g, err := s.Guess(st)
		if err != nil {
			t.Fatalf("%v, secret %s, guess %d: %v", r, secret, n, err)
		}
		for _, tu := range st.Turns() {
			if f := mm.Score(g, tu.Guess); f != tu.Feedback {
				t.Fatalf("%v, secret %s, guess %d: %s scores %s against turn %s; want %s: not consistent",
					r, secret, n, g, f, tu.Guess, tu.Feedback)
			}
		}
		f := mm.Score(secret, g)
		if f.Solved(r.Pegs) {
			return n
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatalf("%v, secret %s: Play(%s, %s): %v", r, secret, g, f, err)
		}
	}
	t.Fatalf("%v, secret %s: not solved in %d guesses", r, secret, limit)
	return 0
}

// TestSamplerConsistent plays many seeded games and checks that every
// guess of the sampler could be the secret: drawn from the candidates of
// small variants, from the constraint search on large ones, listed and
// scored exactly near the end.
func TestSamplerConsistent(t *testing.T) {
	cases := []struct {
		s     mm.Strategy
		r     mm.Rules
		games int
	}{
		{strategy.Sampler{}, mm.Rules{Colors: 6, Pegs: 4}, 40},
		// Few codes scored exactly, so that it samples the candidate set.
		{strategy.Sampler{Samples: 24, Exact: 16}, mm.Rules{Colors: 6, Pegs: 4}, 40},
		{strategy.Sampler{Samples: 24, Exact: 16}, mm.Rules{Colors: 8, Pegs: 5, Distinct: true}, 20},
		{strategy.Sampler{}, mm.Rules{Colors: 8, Pegs: 10}, 15},
		{strategy.Sampler{MostParts: true}, mm.Rules{Colors: 10, Pegs: 8}, 10},
		{strategy.Sampler{Samples: 32, Exact: 40}, mm.Rules{Colors: 12, Pegs: 12}, 8},
		{strategy.Sampler{}, mm.Rules{Colors: 14, Pegs: 10, Distinct: true}, 8},
		{strategy.Sampler{}, mm.Rules{Colors: 3, Pegs: 15}, 8},
		// auto hands large spaces to the sampler.
		{strategy.Auto{}, mm.Rules{Colors: 9, Pegs: 9}, 8},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/%v", c.s, c.r), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.r.Colors), uint64(c.r.Pegs)))
			for i := range c.games {
				secret := mm.RandomCode(c.r, rng)
				playChecked(t, c.s, c.r, secret, uint64(i), 4*c.r.Pegs*c.r.Colors)
			}
		})
	}
}

// TestSamplerReproducible plays the same seeded game twice.
func TestSamplerReproducible(t *testing.T) {
	r := mm.Rules{Colors: 11, Pegs: 11}
	secret := mm.RandomCode(r, rand.New(rand.NewPCG(5, 5)))
	var games [2][]mm.Step
	for i := range games {
		st, _ := mm.NewState(r, rand.New(rand.NewPCG(1, 2)))
		steps, err := mm.Solve(st, strategy.Sampler{}, secret, 0)
		if err != nil {
			t.Fatal(err)
		}
		games[i] = steps
	}
	if fmt.Sprint(games[0]) != fmt.Sprint(games[1]) {
		t.Errorf("two games from one seed differ:\n%v\n%v", games[0], games[1])
	}
}

// TestAutoLarge solves 15 × 15 games with auto, far fewer guesses than
// seeds/001's brute force needed on smaller variants (38 at 10 × 15).
func TestAutoLarge(t *testing.T) {
	r := mm.Rules{Colors: 15, Pegs: 15}
	rng := rand.New(rand.NewPCG(15, 15))
	games := 3
	if testing.Short() {
		games = 1
	}
	total := 0
	start := time.Now()
	for i := range games {
		total += playChecked(t, strategy.Auto{}, r, mm.RandomCode(r, rng), uint64(i), 30)
	}
	t.Logf("auto on 15x15: %d games, %.1f guesses each, %v a game", games, float64(total)/float64(games),
		time.Since(start)/time.Duration(games))
	if mean := float64(total) / float64(games); mean > 18 {
		t.Errorf("auto on 15x15: %.1f guesses a game; want at most 18", mean)
	}
}

// TestAutoChoice checks what auto plays: the exact heuristic where it fits
// the budget, the sampler where not.
func TestAutoChoice(t *testing.T) {
	st, _ := mm.NewState(mm.Classic, nil)
	want, _ := strategy.Entropy{}.Guess(st)
	if got, err := (strategy.Auto{}).Guess(st); err != nil || got != want {
		t.Errorf("auto on 6x4 opens with %s, %v; want entropy's %s", got, err, want)
	}
	// With a tiny budget even 6x4 is left to the sampler, whose guesses are
	// consistent.
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 20 {
		playChecked(t, strategy.Auto{Budget: time.Microsecond}, mm.Classic, mm.RandomCode(mm.Classic, rng), uint64(i), 20)
	}
	s, err := strategy.New("auto", strategy.Options{Budget: time.Second})
	if err != nil || s.(strategy.Auto).Budget != time.Second {
		t.Errorf(`New("auto", Budget 1s) = %v, %v`, s, err)
	}
}
