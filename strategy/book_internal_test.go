package strategy

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestShippedGuess checks which games the shipped 8 × 8 book serves: the
// strategy and settings it was written with, at a node it holds, and no
// other strategy, bonus, variant or node.
func TestShippedGuess(t *testing.T) {
	r := mm.Rules{Colors: 8, Pegs: 8}
	root, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	opening, _ := r.ParseCode("11223344")
	other, _ := r.ParseCode("12345678")
	left, err := root.Play(other, mm.Feedback{}) // a node the book does not hold
	if err != nil {
		t.Fatal(err)
	}
	classic, _ := mm.NewState(mm.Classic, nil)
	settings := func(e Entropy, r mm.Rules) func() map[string]string {
		return func() map[string]string { return e.Settings(r) }
	}
	cases := []struct {
		name     string
		strategy string
		e        Entropy
		st       *mm.State
		want     bool
	}{
		{"the book's own", "entropy", Entropy{WinBonus: 1.5}, root, true},
		{"near said", "entropy", Entropy{WinBonus: 1.5, Near: true}, root, true},
		{"another bonus", "entropy", Entropy{WinBonus: 1}, root, false},
		{"play-outs", "entropy", Entropy{WinBonus: 1.5, Rollout: 8}, root, false},
		{"another strategy", "knuth", Entropy{WinBonus: 1.5}, root, false},
		{"another variant", "entropy", Entropy{WinBonus: 1.5}, classic, false},
		{"a node left out", "entropy", Entropy{WinBonus: 1.5}, left, false},
	}
	for _, c := range cases {
		g, ok := shippedGuess(c.strategy, settings(c.e, c.st.Rules()), c.st)
		if ok != c.want || ok && g != opening {
			t.Errorf("%s: %v, %v; want %v (%v)", c.name, g, ok, c.want, opening)
		}
	}
	// Entropy reads it: the first guess of 8 × 8 without its space.
	g, err := Entropy{WinBonus: 1.5}.Guess(root)
	if err != nil || g != opening {
		t.Errorf("entropy's first guess on 8x8 = %v, %v; want %v from the book", g, err, opening)
	}
}
