package play_test

import (
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newGame(t *testing.T, r mm.Rules, secret string, limit int) *play.Game {
	t.Helper()
	c, err := r.ParseCode(secret)
	if err != nil {
		t.Fatal(err)
	}
	g, err := play.NewGame(play.Config{Rules: r, Strategy: strategy.Knuth{}}, c, limit)
	if err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	return g
}

func TestGameWon(t *testing.T) {
	g := newGame(t, mm.Classic, "3632", 10)
	if b := g.Board(); b.Revealed || len(b.Rows) != 1 || b.Limit != 10 {
		t.Fatalf("board at start: %+v", b)
	}
	reply := g.Do("1122")
	if got := text(reply); got != "1122: 1 black, 0 white\n" {
		t.Errorf("Do(1122) = %q", got)
	}
	if got := text(g.Do("hint")); !strings.Contains(got, "knuth would play 1344; 256 codes are still possible") {
		t.Errorf("hint = %q", got)
	}
	got := text(send(g, "1344", "3 6 3 2"))
	if !g.Over() || !g.Won() {
		t.Fatalf("not won after 3632: %q", got)
	}
	for _, want := range []string{"You found the code in 3 guesses!", "You beat knuth, which would have taken 5 guesses: 1122 1344 3526 1462 3632.", "1 hint"} {
		if !strings.Contains(got, want) {
			t.Errorf("end lacks %q:\n%s", want, got)
		}
	}
	if b := g.Board(); !b.Revealed || b.Secret.String() != "3632" || len(b.Rows) != 3 {
		t.Errorf("board at the end: %+v", b)
	}
	if reply := g.Do("1111"); len(g.Turns()) != 3 || !hasKind(reply, play.Done) {
		t.Errorf("a guess after the end was played: %q", text(reply))
	}
}

func TestGameLost(t *testing.T) {
	g := newGame(t, mm.Classic, "3632", 2)
	got := text(send(g, "1111", "2222"))
	if !g.Over() || g.Won() {
		t.Fatalf("game not lost after the limit: %q", got)
	}
	for _, want := range []string{"That was your last guess. The code was 3632.", "knuth would have found it in 5 guesses"} {
		if !strings.Contains(got, want) {
			t.Errorf("end lacks %q:\n%s", want, got)
		}
	}
}

func TestGameQuit(t *testing.T) {
	g := newGame(t, mm.Classic, "1111", 0)
	got := text(send(g, "2222", "quit"))
	if !g.Over() || !strings.Contains(got, "The code was 1111") || !strings.Contains(got, "knuth would have found it in") {
		t.Errorf("quit: %q", got)
	}
	if g.Prompt() != "> " {
		t.Errorf("Prompt() after the end = %q", g.Prompt())
	}
}

func TestGameBadInput(t *testing.T) {
	g := newGame(t, mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, "1234", 10)
	for _, in := range []string{"", "1", "12345", "1123", "1237", "hello!", "🙂", "guess", "guess 11"} {
		reply := g.Do(in)
		if !hasKind(reply, play.Problem) {
			t.Errorf("Do(%q) = %q; want a problem", in, text(reply))
		}
		if len(g.Turns()) != 0 || g.Over() {
			t.Fatalf("Do(%q) changed the game", in)
		}
	}
	if got := text(g.Do("1123")); !strings.Contains(got, "distinct") {
		t.Errorf("repeated colour under --distinct: %q", got)
	}
	if got := text(g.Do("1237")); !strings.Contains(got, "only 6 colours") {
		t.Errorf("colour out of range: %q", got)
	}
}

func TestGameAlphabet(t *testing.T) {
	a, err := mm.NewAlphabet("RGBYOP")
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := a.Parse(mm.Classic, "RRGB")
	g, err := play.NewGame(play.Config{Alphabet: a, Strategy: strategy.Knuth{}}, secret, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(g.Do("rrgg")); got != "RRGG: 3 black, 0 white\n" {
		t.Errorf("Do(rrgg) = %q", got)
	}
	if got := text(g.Do("quit")); !strings.Contains(got, "The code was RRGB") {
		t.Errorf("quit = %q", got)
	}
}

func TestGameLargeVariant(t *testing.T) {
	g := newGame(t, mm.Rules{Colors: 10, Pegs: 8}, "12345678", 0)
	if got := text(g.Do("hint")); !strings.Contains(got, "knuth cannot help here") {
		t.Errorf("hint = %q", got)
	}
	got := text(send(g, "1234567A", "12345678"))
	if !g.Won() || !strings.Contains(got, "knuth could not play this code") {
		t.Errorf("end = %q", got)
	}
}

func TestNewGameErrors(t *testing.T) {
	if _, err := play.NewGame(play.Config{Strategy: strategy.Knuth{}}, mm.Code{}, 10); err == nil {
		t.Errorf("NewGame with an empty secret succeeded")
	}
	if _, err := play.NewGame(play.Config{}, code(t, "1234"), 10); err == nil {
		t.Errorf("NewGame without a strategy succeeded")
	}
}
