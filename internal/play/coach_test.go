package play_test

import (
	"math"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newGameWith(t *testing.T, r mm.Rules, secret string, o play.GameOptions, s mm.Strategy) *play.Game {
	t.Helper()
	var c mm.Code
	if secret != "" {
		var err error
		if c, err = r.ParseCode(secret); err != nil {
			t.Fatal(err)
		}
	}
	g, err := play.NewGameOptions(play.Config{Rules: r, Strategy: s}, c, 0, o)
	if err != nil {
		t.Fatalf("NewGameOptions: %v", err)
	}
	return g
}

// TestAdversary plays guesses against the adversary: every answer keeps
// the largest class of the codes still possible, and the game is won only
// by the last code left.
func TestAdversary(t *testing.T) {
	g := newGameWith(t, mm.Classic, "", play.GameOptions{Adversary: true}, strategy.Knuth{})
	st, _ := mm.NewState(mm.Classic, nil)
	for _, s := range []string{"1122", "1344", "3526", "1462", "3632", "5556"} {
		c, _ := mm.Classic.ParseCode(s)
		cands, _ := st.Candidates()
		parts, _ := cands.Partition(c)
		g.Do(s)
		turns := g.Turns()
		f := turns[len(turns)-1].Feedback
		for _, p := range parts {
			if p.Feedback == f {
				for _, q := range parts {
					if q.Count > p.Count {
						t.Errorf("%s: answered %v, keeping %d codes; %v keeps %d", s, f, p.Count, q.Feedback, q.Count)
					}
				}
			}
		}
		var err error
		if st, err = st.Play(c, f); err != nil {
			t.Fatalf("%s: the answer %v leaves no code: %v", s, f, err)
		}
		if f.Solved(4) {
			if st.Remaining() != 1 {
				t.Errorf("%s won with %d codes possible before", s, st.Remaining())
			}
			break
		}
	}
	// Knuth's own guesses, played against the adversary: it cannot hold
	// out beyond knuth's worst case of 5.
	g = newGameWith(t, mm.Classic, "", play.GameOptions{Adversary: true}, strategy.Knuth{})
	for !g.Over() {
		h := text(g.Do("hint"))
		_, rest, _ := strings.Cut(h, "would play ")
		guess := strings.TrimRight(strings.Fields(rest)[0], ";,.")
		g.Do(guess)
	}
	if !g.Won() || len(g.Turns()) > 5 {
		t.Errorf("knuth's guesses against the adversary: won %v in %d", g.Won(), len(g.Turns()))
	}
	if _, err := play.NewGameOptions(play.Config{Rules: mm.Rules{Colors: 10, Pegs: 8}, Strategy: strategy.Knuth{}},
		mm.Code{}, 0, play.GameOptions{Adversary: true}); err == nil || !strings.Contains(err.Error(), "up to") {
		t.Errorf("the adversary on 10 x 8: %v; want the size refused", err)
	}
}

// TestCoach checks the coach's figures: knuth's own first guess costs
// nothing and is expected to take 5801/1296 guesses (bench's mean), and a
// poorer opening costs something.
func TestCoach(t *testing.T) {
	g := newGameWith(t, mm.Classic, "3632", play.GameOptions{Coach: true}, strategy.Knuth{})
	out := text(g.Do("1122"))
	if !strings.Contains(out, "1122 is knuth's guess too: 4.48 guesses expected from here, 256 codes left") {
		t.Errorf("coach on 1122:\n%s", out)
	}
	n := g.Notes()[0]
	if math.Abs(n.Expected-5801.0/1296) > 1e-9 || n.Delta != 0 || !n.BestIsGuess {
		t.Errorf("note for 1122 = %+v; want %.4f expected, Δ 0", n, 5801.0/1296)
	}
	g = newGameWith(t, mm.Classic, "3632", play.GameOptions{Coach: true}, strategy.Knuth{})
	g.Do("1111")
	n = g.Notes()[0]
	if n.Delta <= 0.1 || n.Left != 625 || n.BestLeft != 256 {
		t.Errorf("note for 1111 = %+v; want Δ > 0.1, 625 codes left against 256", n)
	}
	out = text(send(g, "3632"))
	if !strings.Contains(out, "Coach: Δ expected guesses per guess against knuth: +0.59 -0.09; +0.50 in all.") ||
		!strings.Contains(out, "Guess 1, 1111, cost the most: 0.59 guesses expected more than knuth's 1122.") {
		t.Errorf("coach summary:\n%s", out)
	}
	for _, tt := range []struct {
		r    mm.Rules
		s    mm.Strategy
		want string
	}{
		{mm.Rules{Colors: 20, Pegs: 8}, strategy.Knuth{}, "up to 16777216 codes"},
		{mm.Classic, strategy.RandomConsistent{}, "deterministic"},
	} {
		_, err := play.NewGameOptions(play.Config{Rules: tt.r, Strategy: tt.s}, mm.Code{}, 0, play.GameOptions{Coach: true})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("coach on %v with %v: %v; want %q", tt.r, tt.s, err, tt.want)
		}
	}
}

// TestCoachSummary checks that the guess named as the one that cost the
// most is never the one that found the code: README's game, whose last
// guess was expected to cost 0.17 guesses but won.
func TestCoachSummary(t *testing.T) {
	g := newGameWith(t, mm.Classic, "3632", play.GameOptions{Coach: true}, strategy.Knuth{})
	out := text(send(g, "1234", "1122", "3526", "3632"))
	for _, want := range []string{
		"Coach: Δ expected guesses per guess against knuth: +0.00 +0.08 +0.14 +0.17; +0.39 in all.",
		"Guess 3, 3526, cost the most: 0.14 guesses expected more than knuth's 5133.",
		"Guess 4, 3632, was a gamble that paid: 0.17 guesses expected more than knuth's 1136, but it was the code.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("coach summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "costliest") || strings.Contains(out, "Guess 4, 3632, cost") {
		t.Errorf("the winning guess is named as costly:\n%s", out)
	}
}

// TestCoachSuper checks that the coach takes on Super Mastermind (8 × 5,
// 32,768 codes): a position too large to weigh is scored by the codes
// each guess is expected to leave, at once.
func TestCoachSuper(t *testing.T) {
	super := mm.Rules{Colors: 8, Pegs: 5}
	g := newGameWith(t, super, "12345", play.GameOptions{Coach: true}, strategy.Knuth{})
	start := time.Now()
	out := text(g.Do("11111"))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the coach took %v on the first guess of 8 x 5", d)
	}
	n := g.Notes()[0]
	if !n.Scored || n.Failed || n.ExpLeft <= n.BestExpLeft || n.Left != 12005 {
		t.Errorf("note for 11111 = %+v; want it scored, leaving more than knuth's guess, 12005 left", n)
	}
	if !strings.Contains(out, "coach: 11111: ") || !strings.Contains(out, "codes expected left, 12005 codes left; knuth's ") ||
		!strings.Contains(out, "more codes expected (too many codes to weigh in guesses here).") {
		t.Errorf("coach on 11111:\n%s", out)
	}
	out = text(send(g, "12345"))
	if !strings.Contains(out, "Coach: Δ expected guesses per guess against knuth: · ") || !strings.Contains(out, "· marks 2 guesses with too many codes to weigh") {
		t.Errorf("coach summary on 8 x 5:\n%s", out)
	}
}
