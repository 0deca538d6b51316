package strategy_test

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestRankAgreesWithGuess checks that the first guess Rank lists is the one
// each scoring strategy plays, at the start and after a turn.
func TestRankAgreesWithGuess(t *testing.T) {
	root, _ := mm.NewState(mm.Classic, nil)
	g, _ := mm.Classic.ParseCode("1122")
	after, err := root.Play(g, mm.Feedback{Black: 1, White: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*mm.State{root, after} {
		for _, name := range []string{"knuth", "expected-size", "entropy", "most-parts"} {
			s, _ := strategy.New(name, strategy.Options{})
			want, err := s.Guess(st)
			if err != nil {
				t.Fatal(err)
			}
			ranked, err := strategy.Rank(st, name, 5, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(ranked) == 0 || ranked[0].Guess != want {
				t.Errorf("Rank(%s, after %d turns)[0] = %v; want %v", name, st.Len(), ranked, want)
			}
			for i := 1; i < len(ranked); i++ {
				if name == "knuth" && ranked[i].Largest < ranked[i-1].Largest {
					t.Errorf("Rank(knuth) not in order: %d then %d", ranked[i-1].Largest, ranked[i].Largest)
				}
			}
		}
	}
	r, _ := strategy.Rank(root, "knuth", 10, false)
	if len(r) != 5 { // 1111 1112 1122 1123 1234
		t.Errorf("Rank(knuth, start) has %d guesses; want the 5 symmetry classes", len(r))
	}
	if r[0].Largest != 256 || r[0].Parts != 13 {
		t.Errorf("Rank(knuth)[0] = %+v; want 1122 with largest class 256 in 13 parts", r[0])
	}
	if _, err := strategy.Rank(root, "random", 3, false); err == nil {
		t.Errorf("Rank(random) = nil error; want an error")
	}
}
