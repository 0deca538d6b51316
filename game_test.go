package mastermind_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func newGame(t *testing.T, secret string, maxGuesses int, limit time.Duration) *mm.Game {
	t.Helper()
	return &mm.Game{ID: "g", Rules: mm.Classic, Secret: gametest.MustParse(t, mm.Classic, secret),
		MaxGuesses: maxGuesses, TimeLimit: limit, Created: t0}
}

func TestGameGuess(t *testing.T) {
	type step struct {
		guess  string
		after  time.Duration // since Created
		want   mm.Feedback
		err    error
		status mm.GameStatus // after the step
	}
	tests := []struct {
		name  string
		max   int
		limit time.Duration
		steps []step
	}{
		{"won", 10, 0, []step{
			{"1122", 0, mm.Feedback{Black: 1}, nil, mm.Playing},
			{"3632", time.Hour, mm.Feedback{Black: 4}, nil, mm.Won},
			{"3632", time.Hour, mm.Feedback{}, mm.ErrGameOver, mm.Won},
		}},
		{"guess limit", 2, 0, []step{
			{"1122", 0, mm.Feedback{Black: 1}, nil, mm.Playing},
			{"1111", 0, mm.Feedback{}, nil, mm.Lost},
			{"3632", 0, mm.Feedback{}, mm.ErrGameOver, mm.Lost},
		}},
		{"won on the last guess", 2, 0, []step{
			{"1122", 0, mm.Feedback{Black: 1}, nil, mm.Playing},
			{"3632", 0, mm.Feedback{Black: 4}, nil, mm.Won},
		}},
		{"no limit", 0, 0, []step{
			{"1111", 0, mm.Feedback{}, nil, mm.Playing},
			{"1111", 0, mm.Feedback{}, nil, mm.Playing},
			{"1111", 0, mm.Feedback{}, nil, mm.Playing},
		}},
		{"bad codes are not counted", 1, 0, []step{
			{"112", 0, mm.Feedback{}, mm.ErrInvalidCode, mm.Playing},
			{"1129", 0, mm.Feedback{}, mm.ErrInvalidCode, mm.Playing},
			{"3632", 0, mm.Feedback{Black: 4}, nil, mm.Won},
		}},
		{"on the deadline", 10, 2 * time.Second, []step{
			{"1122", 2 * time.Second, mm.Feedback{Black: 1}, nil, mm.Playing},
		}},
		{"after the deadline", 10, 2 * time.Second, []step{
			{"1122", time.Second, mm.Feedback{Black: 1}, nil, mm.Playing},
			{"3632", 2*time.Second + time.Millisecond, mm.Feedback{}, mm.ErrTimeUp, mm.Lost},
			{"3632", 3 * time.Second, mm.Feedback{}, mm.ErrGameOver, mm.Lost},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, "3632", tt.max, tt.limit)
			played := 0
			for i, s := range tt.steps {
				c, err := mm.DefaultAlphabet.Parse(mm.Rules{Colors: 9, Pegs: len(s.guess)}, s.guess)
				if err != nil {
					t.Fatal(err)
				}
				f, err := g.Guess(c, t0.Add(s.after))
				if !errors.Is(err, s.err) || (s.err == nil && err != nil) {
					t.Fatalf("step %d: Guess(%s) error = %v; want %v", i+1, s.guess, err, s.err)
				}
				if err == nil {
					played++
				}
				if f != s.want {
					t.Errorf("step %d: Guess(%s) = %v; want %v", i+1, s.guess, f, s.want)
				}
				if g.Status != s.status {
					t.Errorf("step %d: status %v; want %v", i+1, g.Status, s.status)
				}
				if len(g.Turns) != played {
					t.Errorf("step %d: %d turns; want %d", i+1, len(g.Turns), played)
				}
				if (g.Status == mm.Playing) != g.Ended.IsZero() {
					t.Errorf("step %d: status %v but ended %v", i+1, g.Status, g.Ended)
				}
			}
		})
	}
}

func TestGameStatusAt(t *testing.T) {
	g := newGame(t, "3632", 10, time.Second)
	if s := g.StatusAt(t0.Add(time.Second)); s != mm.Playing {
		t.Errorf("StatusAt(deadline) = %v; want playing", s)
	}
	if s := g.StatusAt(t0.Add(time.Second + 1)); s != mm.Lost {
		t.Errorf("StatusAt(after deadline) = %v; want lost", s)
	}
	if g.Status != mm.Playing {
		t.Errorf("StatusAt changed the status to %v", g.Status)
	}
	if d := newGame(t, "3632", 10, 0).Deadline(); !d.IsZero() {
		t.Errorf("Deadline() without a time limit = %v; want zero", d)
	}
}

// A copy of a Game keeps its turns while the original plays on, and a
// clone plays on without disturbing the original.
func TestGameClone(t *testing.T) {
	g := newGame(t, "3632", 0, 0)
	for _, s := range []string{"1111", "2222", "3333"} {
		g.Guess(gametest.MustParse(t, mm.Classic, s), t0)
	}
	snap := *g
	g.Guess(gametest.MustParse(t, mm.Classic, "4444"), t0)
	cp := snap.Clone()
	cp.Guess(gametest.MustParse(t, mm.Classic, "5555"), t0)
	if len(snap.Turns) != 3 || snap.Turns[2].Guess.String() != "3333" {
		t.Errorf("snapshot turns = %v; want 3 ending 3333", snap.Turns)
	}
	if last := g.Turns[len(g.Turns)-1].Guess.String(); last != "4444" {
		t.Errorf("original's last guess = %s; want 4444", last)
	}
	if last := cp.Turns[len(cp.Turns)-1].Guess.String(); len(cp.Turns) != 4 || last != "5555" {
		t.Errorf("clone's turns = %v; want 4 ending 5555", cp.Turns)
	}
}

func TestGameStatusText(t *testing.T) {
	for _, s := range []mm.GameStatus{mm.Playing, mm.Won, mm.Lost} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back mm.GameStatus
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("round trip of %v through %s = %v, %v", s, b, back, err)
		}
	}
	var s mm.GameStatus
	if err := s.UnmarshalText([]byte("paused")); err == nil {
		t.Error(`UnmarshalText("paused") succeeded`)
	}
	if _, err := mm.GameStatus(7).MarshalText(); err == nil {
		t.Error("MarshalText(7) succeeded")
	}
}

func ExampleGame_Guess() {
	r := mm.Classic
	secret, _ := r.ParseCode("3632")
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	g := &mm.Game{Rules: r, Secret: secret, MaxGuesses: 10, TimeLimit: 2 * time.Second, Created: start}
	for i, s := range []string{"1122", "1344", "3632"} {
		c, _ := r.ParseCode(s)
		f, err := g.Guess(c, start.Add(time.Duration(i)*500*time.Millisecond))
		fmt.Println(s, f, g.Status, err)
	}
	c, _ := r.ParseCode("1111")
	_, err := g.Guess(c, start.Add(3*time.Second))
	fmt.Println(err)
	// Output:
	// 1122 1 0 playing <nil>
	// 1344 0 1 playing <nil>
	// 3632 4 0 won <nil>
	// mastermind: game over: the code was found in 3 guesses
}

// GuessAnswer asks for an adversary's answer only once the guess is legal
// and the game in play; an error from it changes nothing, and an answer
// made from codes kept turn to turn is the one Guess gives.
func TestGameGuessAnswer(t *testing.T) {
	errNo := errors.New("no answer")
	calls := 0
	fail := func() (mm.Feedback, error) { calls++; return mm.Feedback{}, errNo }
	adv := &mm.Game{Rules: mm.Classic, MaxGuesses: 2, TimeLimit: time.Minute, Created: t0, Adversary: true}
	c := gametest.MustParse(t, mm.Classic, "1122")
	tests := []struct {
		name      string
		g         *mm.Game
		guess     mm.Code
		at        time.Time
		wantCalls int
		want      error
	}{
		{"not an adversary", newGame(t, "1122", 0, 0), c, t0, 0, nil},
		{"illegal guess", adv.Clone(), gametest.MustParse(t, mm.Rules{Colors: 6, Pegs: 5}, "11223"), t0, 0, mm.ErrInvalidCode},
		{"time up", adv.Clone(), c, t0.Add(time.Hour), 0, mm.ErrTimeUp},
		{"in play", adv.Clone(), c, t0, 1, errNo},
	}
	for _, tt := range tests {
		calls = 0
		_, err := tt.g.GuessAnswer(tt.guess, tt.at, fail)
		if calls != tt.wantCalls || !errors.Is(err, tt.want) {
			t.Errorf("%s: %d calls, %v; want %d, %v", tt.name, calls, err, tt.wantCalls, tt.want)
		}
	}
	g := adv.Clone()
	if _, err := g.GuessAnswer(c, t0, fail); err == nil || len(g.Turns) != 0 || g.Status != mm.Playing {
		t.Errorf("a failed answer left %d turns, %v; want none, playing", len(g.Turns), g.Status)
	}

	// Codes kept from turn to turn answer as Guess does.
	ref, kept := adv.Clone(), adv.Clone()
	kept.MaxGuesses, ref.MaxGuesses = 0, 0
	left, err := kept.Possible()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"1122", "1122", "3456", "1111", "6543", "2211"} {
		c := gametest.MustParse(t, mm.Classic, s)
		want, err := ref.Guess(c, t0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := kept.GuessAnswer(c, t0, func() (mm.Feedback, error) { return left.Evade(c) })
		if err != nil || got != want {
			t.Fatalf("%s: %v, %v; want %v", s, got, err, want)
		}
		if left, err = left.Filter(c, got); err != nil {
			t.Fatal(err)
		}
		if p, _ := ref.Possible(); p.Len() != left.Len() {
			t.Fatalf("after %s: Possible has %d codes, the kept ones %d", s, p.Len(), left.Len())
		}
	}
}
