package play_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestGameUndo checks that undo takes back a mistyped guess: the board,
// the turn count and the codes possible are as before it, the coach's
// notes too, and the summary says a guess was taken back.
func TestGameUndo(t *testing.T) {
	g := newGame(t, mm.Classic, "3632", 10)
	if out := text(g.Do("undo")); !strings.Contains(out, "no guess to take back") {
		t.Errorf("undo at the start = %q; want a refusal", out)
	}
	g.Do("1122")
	g.Do("6666") // mistyped
	out := text(g.Do("undo"))
	if !strings.Contains(out, "Took back guess 2, 6666 (1 black, 0 white)") {
		t.Errorf("undo = %q; want it to name guess 2, 6666", out)
	}
	if n := len(g.Turns()); n != 1 || g.Prompt() != "guess 2/10> " {
		t.Errorf("after undo: %d turns, prompt %q; want 1 and guess 2/10", n, g.Prompt())
	}
	// The guess taken back may be played again, and the game goes on.
	for _, in := range []string{"6666", "undo", "1344", "3526", "1462"} {
		g.Do(in)
	}
	out = text(g.Do("3632"))
	if !g.Won() || !strings.Contains(out, "You found the code in 5 guesses") || !strings.Contains(out, "You took back 2 guesses.") {
		t.Errorf("the game after two undos:\n%s\nwant it won in 5, two guesses taken back", out)
	}
	if out := text(g.Do("undo")); !strings.Contains(out, "The game is over") {
		t.Errorf("undo after the end = %q; want the game over", out)
	}

	// The coach's notes follow the guesses.
	c := newGameWith(t, mm.Classic, "3632", play.GameOptions{Coach: true}, strategy.Knuth{})
	c.Do("1122")
	c.Do("1111")
	c.Do("undo")
	if n := len(c.Notes()); n != 1 {
		t.Errorf("coach after an undo has %d notes; want 1", n)
	}
}

// TestGameList checks the list of codes still possible: all of them on a
// small space, a page at a time on a larger one, and a refusal where the
// variant is too large to enumerate for it.
func TestGameList(t *testing.T) {
	g := newGame(t, mm.Classic, "3632", 10)
	g.Do("1122")
	g.Do("1344")
	g.Do("3526")
	out := text(g.Do("list"))
	if !strings.HasPrefix(out, "7 codes possible:\n") || !strings.Contains(out, "3632") || strings.Contains(out, "page") {
		t.Errorf("list after three guesses:\n%s\nwant the 7 codes on one page", out)
	}
	// At the start, 1296 codes: ten lines a page.
	g = newGame(t, mm.Classic, "3632", 10)
	out = text(g.Do("list"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(out, "1296 codes possible, page 1 of ") || len(lines) != 12 || !strings.Contains(out, `"list" again for page 2.`) {
		t.Errorf("list at the start:\n%s\nwant a heading, 10 lines of codes and the next page", out)
	}
	for _, l := range lines {
		if len(l) > 40 {
			t.Errorf("list line %q is wider than 40 columns", l)
		}
	}
	if out := text(g.Do("list")); !strings.Contains(out, "page 2 of") {
		t.Errorf("list again:\n%s\nwant page 2", out)
	}
	if out := text(g.Do("list 999")); !strings.Contains(out, `Type "list" or "list N" with N from 1 to`) {
		t.Errorf("list 999 = %q; want the pages there are", out)
	}
	// 10 colours × 8 pegs: 10^8 codes, not enumerated for a list.
	big, err := play.NewGame(play.Config{Rules: mm.Rules{Colors: 10, Pegs: 8}, Strategy: strategy.Knuth{}}, code8(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	if out := text(big.Do("list")); !strings.Contains(out, "100000000 codes: too many to list") {
		t.Errorf("list on 10 x 8 = %q; want too many to list", out)
	}
	// The summary counts the lists.
	g = newGame(t, mm.Classic, "3632", 10)
	g.Do("list")
	g.Do("hint")
	if out := text(g.Do("quit")); !strings.Contains(out, "You asked for 1 hint and listed the codes left once.") {
		t.Errorf("quit after a hint and a list:\n%s", out)
	}
}

func code8(t *testing.T) mm.Code {
	t.Helper()
	c, err := mm.Rules{Colors: 10, Pegs: 8}.ParseCode("12345678")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGameHintSuggests checks that a hint proposes its guess to a front
// end through Board.Suggest, for one reply only.
func TestGameHintSuggests(t *testing.T) {
	g := newGame(t, mm.Classic, "3632", 10)
	g.Do("hint")
	if s := g.Board().Suggest; s != "1122" {
		t.Errorf("Board().Suggest after hint = %q; want 1122", s)
	}
	g.Do("history")
	if s := g.Board().Suggest; s != "" {
		t.Errorf("Board().Suggest after the next line = %q; want none", s)
	}
}

// TestGameSaveResume checks that a saved game reads back as it was: rules,
// code, limit, guesses and what the person asked for, and that the code is
// not written in the clear.
func TestGameSaveResume(t *testing.T) {
	var files = map[string][]byte{}
	cfg := play.Config{Rules: mm.Classic, Strategy: strategy.Knuth{}, Name: "knuth",
		Save: func(name string, data []byte) error { files[name] = data; return nil }}
	g, err := play.NewGame(cfg, code(t, "3632"), 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"1122", "hint", "6666", "undo", "1344"} {
		g.Do(in)
	}
	out := text(g.Do("save game.txt"))
	if !strings.Contains(out, "Saved the game after 2 guesses to game.txt; resume with: mastermind play --resume game.txt") {
		t.Errorf("save = %q", out)
	}
	data := files["game.txt"]
	if bytes.Contains(data, []byte("3632")) {
		t.Errorf("the saved game shows its code:\n%s", data)
	}
	s, err := play.ReadSaved(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadSaved:\n%s\n%v", data, err)
	}
	if s.Game == nil || s.Game.Limit != 8 || s.Game.Hints != 1 || s.Game.Undos != 1 || s.Strategy != "knuth" || s.Rules != mm.Classic {
		t.Fatalf("ReadSaved = %+v, game %+v", s, s.Game)
	}
	r, err := play.ResumeGame(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	if start := text(r.Start()); !strings.Contains(start, "Resumed a saved game:\n  1. 1122  1 black, 0 white\n  2. 1344  0 black, 1 white\n") {
		t.Errorf("Start of the resumed game:\n%s", start)
	}
	if r.Prompt() != "guess 3/8> " {
		t.Errorf("resumed prompt %q; want guess 3/8", r.Prompt())
	}
	r.Do("3526")
	r.Do("1462")
	out = text(r.Do("3632"))
	if !r.Won() || !strings.Contains(out, "You asked for 1 hint and took back 1 guess.") {
		t.Errorf("the resumed game's end:\n%s", out)
	}

	// An adversary's game has no code; two players' has the typed one.
	a := newGameWith(t, mm.Classic, "", play.GameOptions{Adversary: true}, strategy.Knuth{})
	a.Do("1122")
	as, err := play.ReadSaved(bytes.NewReader(a.Saved()))
	if err != nil || !as.Game.Adversary || len(as.Inputs) != 1 {
		t.Errorf("ReadSaved of an adversary's game = %+v, %v", as, err)
	}
}

// TestReadSavedGameErrors checks that a damaged game file is refused
// with what is wrong, and that a game whose saved guesses cannot be played
// again names the guess.
func TestReadSavedGameErrors(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	head := "# mastermind play session\ncolors 6\npegs 4\nalphabet 123456\nlimit 10\n"
	good := "code " + enc("mastermind code 3632") + "\n"
	tail := "hints 0\nlists 0\nundos 0\nstrategy knuth\n\n"
	tests := []struct {
		name, file, want string
	}{
		{"not a session", "hello\n", "not a saved session"},
		{"no code", head + tail + "1122\n", "the game's code is missing"},
		{"code damaged", head + "code !!!\n" + tail, "the game's code does not read: the file is damaged"},
		{"code not of the rules", head + "code " + enc("mastermind code 3639") + "\n" + tail, "the game's code does not fit its rules"},
		{"bad limit", head + "limit many\n" + good + tail, `line 6: limit: "many" is not a count`},
		{"bad count", head + good + "hints -1\n" + tail, `hints: "-1" is not a count`},
		{"cut short", head + good, "the session's settings end before its strategy line"},
		{"adversary with a code", head + "adversary\n" + good + tail, "an adversary's game has no code"},
		{"unknown setting", head + good + "colour red\n" + tail, `unknown setting "colour"`},
	}
	for _, tt := range tests {
		_, err := play.ReadSaved(strings.NewReader(tt.file))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ReadSaved = %v; want an error with %q", tt.name, err, tt.want)
		}
	}
	cfg := play.Config{Rules: mm.Classic, Strategy: strategy.Knuth{}}
	for _, tt := range []struct{ guesses, want string }{
		{"1122\n12\n", `saved guess 2 ("12") is refused: Not a guess (12): has 2 pegs; want 4`},
		{"1122\n1122\n", `saved guess 2 ("1122") is refused: You played 1122 already`},
		{"1122\n3632\n", `saved guess 2 ("3632") ends the game: there is nothing to resume`},
	} {
		s, err := play.ReadSaved(strings.NewReader(head + good + tail + tt.guesses))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := play.ResumeGame(cfg, s); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ResumeGame of %q = %v; want %q", tt.guesses, err, tt.want)
		}
	}
	// An assist session is not a game.
	s, err := play.ReadSaved(strings.NewReader("# mastermind assist session\ncolors 6\npegs 4\nalphabet 123456\nstrategy knuth\n\n1 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := play.ResumeGame(cfg, s); err == nil || !strings.Contains(err.Error(), "assist --resume") {
		t.Errorf("ResumeGame of an assist session = %v; want it sent to assist", err)
	}
}

// TestGameQuitSaved checks that quitting a game saved as it stands leaves
// the code hidden, and that quitting after a change since shows it.
func TestGameQuitSaved(t *testing.T) {
	cfg := play.Config{Rules: mm.Classic, Strategy: strategy.Knuth{},
		Save: func(string, []byte) error { return nil }}
	g, err := play.NewGame(cfg, code(t, "3632"), 10)
	if err != nil {
		t.Fatal(err)
	}
	g.Do("1122")
	g.Do("save g.txt")
	out := text(g.Do("quit"))
	if strings.Contains(out, "3632") || !strings.Contains(out, "Left the game saved after 1 guess; resume it with: mastermind play --resume g.txt") || !g.LeftSaved() {
		t.Errorf("quit after save:\n%s\nwant the game left saved, the code hidden", out)
	}
	if b := g.Board(); b.Revealed || !strings.Contains(b.Status, "saved") {
		t.Errorf("the board after leaving it saved: revealed %v, status %q", b.Revealed, b.Status)
	}
	for _, after := range [][]string{{"1344"}, {"1344", "undo"}} {
		g, _ := play.NewGame(cfg, code(t, "3632"), 10)
		g.Do("1122")
		g.Do("save g.txt")
		for _, in := range after {
			g.Do(in)
		}
		if out := text(g.Do("quit")); !strings.Contains(out, "The code was 3632") || g.LeftSaved() {
			t.Errorf("quit after save and %q:\n%s\nwant the code shown: the file is older than the game", after, out)
		}
	}
}
