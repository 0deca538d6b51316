package large_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/large"
)

// playGame plays s against secret from a state seeded with seed and fails
// the test if a guess is illegal or repeats one before it, or if the game
// takes more than limit guesses. It returns the number of guesses.
func playGame(t *testing.T, s mm.Strategy, r mm.Rules, secret mm.Code, seed uint64, limit int) int {
	t.Helper()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	return gametest.Play(t, s, st, secret, limit)
}

// TestSamplerGames plays seeded games of many shapes, small and large,
// with and without repeated colours, at the default budget and at budgets
// so small that the sample is its least.
func TestSamplerGames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s     large.Sampler
		r     mm.Rules
		games int
	}{
		{large.Sampler{}, mm.Rules{Colors: 6, Pegs: 4}, 20},
		{large.Sampler{Budget: 1}, mm.Rules{Colors: 6, Pegs: 4}, 20},
		{large.Sampler{Budget: 1}, mm.Rules{Colors: 8, Pegs: 5, Distinct: true}, 10},
		{large.Sampler{}, mm.Rules{Colors: 8, Pegs: 10}, 5},
		{large.Sampler{Budget: 1}, mm.Rules{Colors: 12, Pegs: 12}, 4},
		{large.Sampler{}, mm.Rules{Colors: 14, Pegs: 10, Distinct: true}, 4},
		{large.Sampler{}, mm.Rules{Colors: 3, Pegs: 15}, 4},
		{large.Sampler{}, mm.Rules{Colors: 2, Pegs: 1}, 2},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/%v", c.s.Budget, c.r), func(t *testing.T) {
			if c.s.Budget == 0 && c.r.Log10Size() > 6 {
				switch {
				case testing.Short():
					// Most of the test's half minute.
					t.Skip("long games: run without -short")
				case race.Enabled:
					// Two to three minutes each under the race
					// detector (at load 13), where the games, played
					// one after another in one goroutine, can have
					// no race. The plain run plays them.
					t.Skip("long games in one goroutine: the plain go test ./... plays one of each, go test -tags slow all")
				}
				if !slow.Enabled {
					// 5 s of CPU for the 13 games, half the
					// package's: the plain run plays one of
					// each, the slow tier (go test -tags slow,
					// which CI runs) all of them.
					c.games = 1
				}
			}
			rng := rand.New(rand.NewPCG(uint64(c.r.Colors), uint64(c.r.Pegs)))
			for i := range c.games {
				secret := mm.RandomCode(c.r, rng)
				playGame(t, c.s, c.r, secret, uint64(i), 4*c.r.Pegs*c.r.Colors)
			}
		})
	}
}

// TestSamplerReproducible plays the same seeded game twice.
func TestSamplerReproducible(t *testing.T) {
	if race.Enabled {
		// 36 s under the race detector, two games in one goroutine, for
		// a check of determinism; the plain run makes it.
		t.Skip("two games of 11 × 11 at the default budget: the plain go test ./... plays them")
	}
	r := mm.Rules{Colors: 11, Pegs: 11}
	secret := mm.RandomCode(r, rand.New(rand.NewPCG(5, 5)))
	var games [2][]mm.Step
	for i := range games {
		st, _ := mm.NewState(r, rand.New(rand.NewPCG(1, 2)))
		steps, err := mm.Solve(st, large.Sampler{}, secret, 0)
		if err != nil {
			t.Fatal(err)
		}
		games[i] = steps
	}
	if fmt.Sprint(games[0]) != fmt.Sprint(games[1]) {
		t.Errorf("two games from one seed differ:\n%v\n%v", games[0], games[1])
	}
}
