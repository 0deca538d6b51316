// Package gametest holds what the tests of the domain and of strategies
// share: starting and playing games, parsing codes, checking error texts.
package gametest

import (
	"fmt"
	"strings"
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

// NewState returns the state at the start of a game of r, failing the test
// on error.
func NewState(t testing.TB, r mm.Rules) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatalf("NewState(%v): %v", r, err)
	}
	return st
}

// PlayTurns plays on st the turns given as "GUESS B W" triples and fails
// the test on error.
func PlayTurns(t testing.TB, st *mm.State, turns ...string) *mm.State {
	t.Helper()
	for _, s := range turns {
		var g string
		var f mm.Feedback
		if _, err := fmt.Sscan(s, &g, &f.Black, &f.White); err != nil {
			t.Fatalf("bad turn %q: %v", s, err)
		}
		next, err := st.Play(MustParse(t, st.Rules(), g), f)
		if err != nil {
			t.Fatalf("Play(%s, %v): %v", g, f, err)
		}
		st = next
	}
	return st
}

// MustParse returns the code s of r, failing the test on error.
func MustParse(t testing.TB, r mm.Rules, s string) mm.Code {
	t.Helper()
	c, err := r.ParseCode(s)
	if err != nil {
		t.Fatalf("ParseCode(%q): %v", s, err)
	}
	return c
}

// CheckOneLine checks that err's text is a single line that starts with
// "mastermind: ".
func CheckOneLine(t testing.TB, err error) {
	t.Helper()
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error text %q is not one line", msg)
	}
	if !strings.HasPrefix(msg, "mastermind: ") {
		t.Errorf("error text %q does not start with \"mastermind: \"", msg)
	}
}
