package mastermind_test

import (
	"testing"

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
