package mastermind_test

import (
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

func TestEvade(t *testing.T) {
	sp, err := mm.SpaceOf(mm.Classic)
	if err != nil {
		t.Fatal(err)
	}
	all := sp.All()
	tests := []struct {
		set   *mm.Set
		guess string
		want  mm.Feedback
	}{
		// 1122 on 6 × 4: 256 codes give 0 0, the first of the largest classes.
		{all, "1122", mm.Feedback{}},
		// 1234: 312 codes give 0 2, the largest class.
		{all, "1234", mm.Feedback{Black: 0, White: 2}},
	}
	for _, tt := range tests {
		g, _ := mm.Classic.ParseCode(tt.guess)
		got, err := tt.set.Evade(g)
		if err != nil || got != tt.want {
			t.Errorf("Evade(%s) = %v, %v; want %v", tt.guess, got, err, tt.want)
		}
		parts, _ := tt.set.Partition(g)
		for _, p := range parts {
			if p.Feedback == got {
				for _, q := range parts {
					if q.Count > p.Count {
						t.Errorf("Evade(%s) = %v with %d codes; %v keeps %d", tt.guess, got, p.Count, q.Feedback, q.Count)
					}
				}
			}
		}
	}
	// Two codes left, one of them guessed: the other is kept, not the win.
	pair := all
	for _, step := range []struct {
		guess string
		f     mm.Feedback
	}{{"1111", mm.Feedback{Black: 3}}, {"1211", mm.Feedback{Black: 2, White: 2}}, {"1121", mm.Feedback{Black: 2, White: 2}}} {
		g, _ := mm.Classic.ParseCode(step.guess)
		if pair, err = pair.Filter(g, step.f); err != nil {
			t.Fatal(err)
		}
	}
	if pair.Len() != 2 {
		t.Fatalf("the pair has %d codes: %v", pair.Len(), pair.Codes())
	}
	a := pair.Code(0)
	if f, _ := pair.Evade(a); f.Solved(4) {
		t.Errorf("Evade(%s) among %v = the win; want the other kept", a, pair.Codes())
	}
	one, _ := pair.Filter(a, mm.Feedback{Black: 4})
	if f, _ := one.Evade(a); !f.Solved(4) {
		t.Errorf("Evade(%s) among {%s} = %v; want the win", a, a, f)
	}
}

// TestGameAdversary plays a codemaker's Game that holds no code: each
// answer is Evade's over the codes left, the game is won by the last code
// left, and Revealed names a code consistent with every answer.
func TestGameAdversary(t *testing.T) {
	now := time.Now()
	g := &mm.Game{ID: "a", Rules: mm.Classic, MaxGuesses: 3, Adversary: true, Created: now}
	for _, s := range []string{"1122", "3345", "3636"} {
		c, _ := mm.Classic.ParseCode(s)
		if _, err := g.Guess(c, now); err != nil {
			t.Fatalf("Guess(%s): %v", s, err)
		}
	}
	if g.Status != mm.Lost {
		t.Fatalf("after 3 guesses of 3: %v", g.Status)
	}
	code, err := g.Revealed()
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range g.Turns {
		if mm.Score(code, turn.Guess) != turn.Feedback {
			t.Errorf("revealed %s does not give %v to %s", code, turn.Feedback, turn.Guess)
		}
	}
	// knuth's line against the adversary wins at the fifth guess.
	g = &mm.Game{ID: "b", Rules: mm.Classic, Adversary: true, Created: now}
	for _, s := range []string{"1122", "3345", "3636", "4544", "5455"} {
		c, _ := mm.Classic.ParseCode(s)
		g.Guess(c, now)
	}
	if r, _ := g.Revealed(); g.Status != mm.Won || r.String() != "5455" {
		t.Errorf("knuth's line: %v, revealed %v; want won with 5455", g.Status, r)
	}
}
