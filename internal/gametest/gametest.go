// Package gametest plays games for the tests of strategies.
package gametest

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Play plays s against secret from st and returns the number of guesses.
// It fails the test if a guess is illegal or repeats one before it, or if
// the game takes more than limit guesses.
func Play(t testing.TB, s mm.Strategy, st *mm.State, secret mm.Code, limit int) int {
	t.Helper()
	r := st.Rules()
	for n := 1; n <= limit; n++ {
		g, err := s.Guess(st)
		if err != nil {
			t.Fatalf("%v, secret %s, guess %d: %v", r, secret, n, err)
		}
		if err := r.Check(g); err != nil {
			t.Fatalf("%v, secret %s, guess %d: %v", r, secret, n, err)
		}
		if st.Guessed(g) {
			t.Fatalf("%v, secret %s, guess %d: %s again", r, secret, n, g)
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
