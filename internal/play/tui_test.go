package play_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", file, got, want)
	}
}

// update sends msg to m and runs the commands it returns, as the bubbletea
// runtime would, until none is left or the program quits. It reports
// whether the program quit.
func feed(m play.Model, msg tea.Msg) (play.Model, bool) {
	next, cmd := m.Update(msg)
	m = next.(play.Model)
	for cmd != nil {
		msg := cmd()
		if _, ok := msg.(tea.QuitMsg); ok {
			return m, true
		}
		next, cmd = m.Update(msg)
		m = next.(play.Model)
	}
	return m, false
}

func key(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

var (
	enter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	backspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
	up        = tea.KeyPressMsg{Code: tea.KeyUp}
	ctrlC     = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	esc       = tea.KeyPressMsg{Code: tea.KeyEscape}
	tab       = tea.KeyPressMsg{Code: tea.KeyTab}
)

// typeLines types each line and presses enter.
func typeLines(t *testing.T, m play.Model, lines ...string) play.Model {
	t.Helper()
	for _, l := range lines {
		for _, r := range l {
			m, _ = feed(m, key(r))
		}
		var quit bool
		if m, quit = feed(m, enter); quit {
			t.Fatalf("the program quit after %q", l)
		}
	}
	return m
}

func screen(m play.Model) string { return ansi.Strip(m.Render()) + "\n" }

func sized(m play.Model, w, h int) play.Model {
	m, _ = feed(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func assistModel(t *testing.T) play.Model {
	return play.NewModel(newAssist(t, mm.Classic))
}

func gameModel(t *testing.T, secret string, limit int) play.Model {
	return play.NewModel(newGame(t, mm.Classic, secret, limit))
}

func TestTUIGolden(t *testing.T) {
	tests := []struct {
		name string
		m    func(t *testing.T) play.Model
	}{
		{"tui-assist-start.golden", func(t *testing.T) play.Model { return sized(assistModel(t), 80, 24) }},
		{"tui-assist-hint.golden", func(t *testing.T) play.Model {
			return typeLines(t, sized(assistModel(t), 120, 30), "1 0", "0 1", "hint")
		}},
		{"tui-assist-conflict.golden", func(t *testing.T) play.Model {
			return typeLines(t, sized(assistModel(t), 80, 30), "1 0", "0 1", "1 2", "BBB")
		}},
		{"tui-assist-solved.golden", func(t *testing.T) play.Model {
			return typeLines(t, sized(assistModel(t), 100, 24), "1 0", "0 1", "1 2", "1 1", "4 0")
		}},
		{"tui-play-typing.golden", func(t *testing.T) play.Model {
			m := typeLines(t, sized(gameModel(t, "3632", 10), 80, 24), "1122", "1344")
			m, _ = feed(m, key('3'))
			m, _ = feed(m, key('6'))
			return m
		}},
		{"tui-play-lost.golden", func(t *testing.T) play.Model {
			// The hint's guess fills the input line; esc clears it for
			// a guess of one's own.
			m := typeLines(t, sized(gameModel(t, "3632", 3), 90, 20), "1111", "hint")
			m, _ = feed(m, esc)
			return typeLines(t, m, "1344", "2222")
		}},
		{"tui-play-narrow.golden", func(t *testing.T) play.Model {
			return typeLines(t, sized(gameModel(t, "3632", 10), 30, 12), "1122", "help")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, tt.name, screen(tt.m(t)))
		})
	}
}

// TestTUIPegColours checks that pegs are drawn in their colours with their
// symbols, the palette's (and the web page's): red, green, yellow, blue
// behind colours 1 to 4; a custom alphabet's letters and an alphabet's
// names in the colours they name.
func TestTUIPegColours(t *testing.T) {
	m := typeLines(t, gameModel(t, "3632", 10), "1234")
	raw := m.Render()
	for _, want := range []string{"48;2;230;25;75m 1 ", "48;2;60;180;75m 2 ", "48;2;255;225;25m 3 ", "48;2;67;99;216m 4 "} {
		if !strings.Contains(raw, want) {
			t.Errorf("no peg drawn as %q:\n%q", want, raw)
		}
	}
	named, _ := mm.NewNamedAlphabet([]string{"blue", "black", "white", "red", "green", "yellow"})
	secret, _ := named.Parse(mm.Classic, "blue black white red")
	g, err := play.NewGame(play.Config{Alphabet: named, Strategy: strategy.Knuth{}}, secret, 10)
	if err != nil {
		t.Fatal(err)
	}
	m = typeLines(t, play.NewModel(g), "white black blue blue")
	for _, want := range []string{"48;2;255;255;255m W ", "48;2;0;0;0m L ", "48;2;67;99;216m B "} {
		if raw := m.Render(); !strings.Contains(raw, want) {
			t.Errorf("the named colours: no peg drawn as %q:\n%q", want, raw)
		}
	}
	a, _ := mm.NewAlphabet("BGRYOP")
	secret, _ = a.Parse(mm.Classic, "BBGR")
	g, err = play.NewGame(play.Config{Alphabet: a, Strategy: strategy.Knuth{}}, secret, 10)
	if err != nil {
		t.Fatal(err)
	}
	m = typeLines(t, play.NewModel(g), "RRRR")
	if raw := m.Render(); !strings.Contains(raw, "48;2;230;25;75m R ") {
		t.Errorf("R is not drawn on red:\n%q", raw)
	}
	// On a 256-colour terminal the pegs take the palette's nearest
	// colours, red for red rather than the grey the terminal library
	// would pick.
	m256, _ := m.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	if raw := m256.(play.Model).Render(); !strings.Contains(raw, "48;5;161m R ") {
		t.Errorf("on a 256-colour terminal R is not drawn on colour 161:\n%q", raw)
	}
	// The view asks for the full screen.
	if v := m.View(); !v.AltScreen || !strings.Contains(v.WindowTitle, "mastermind play") {
		t.Errorf("View() = AltScreen %v, title %q", v.AltScreen, v.WindowTitle)
	}
}

func TestTUIKeys(t *testing.T) {
	m := sized(gameModel(t, "3632", 10), 80, 24)
	for _, r := range "1123" {
		m, _ = feed(m, key(r))
	}
	m, _ = feed(m, backspace)
	m, _ = feed(m, key('2'))
	m, _ = feed(m, tea.PasteMsg{Content: "\nignored"})
	if !strings.Contains(screen(m), "guess 1/10> 1122") {
		t.Fatalf("input after backspace:\n%s", screen(m))
	}
	m = typeLines(t, m)
	m, _ = feed(m, enter)
	if !strings.Contains(screen(m), "1122: 1 black, 0 white") {
		t.Fatalf("after enter:\n%s", screen(m))
	}
	// Up brings the last line back.
	m, _ = feed(m, up)
	if !strings.Contains(screen(m), "guess 2/10> 1122") {
		t.Fatalf("after up:\n%s", screen(m))
	}
	// While the session works, the screen says so; lines typed ahead are
	// sent in turn.
	next, cmd := m.Update(enter)
	m = next.(play.Model)
	if cmd == nil || !strings.Contains(screen(m), "thinking…") {
		t.Fatalf("after enter: cmd %v, screen:\n%s", cmd, screen(m))
	}
	for _, r := range "1344" {
		m, _ = feed(m, key(r))
	}
	next, cmd2 := m.Update(enter)
	m = next.(play.Model)
	if cmd2 != nil {
		t.Fatalf("a line typed while busy was sent at once")
	}
	m, _ = feed(m, cmd())
	if s := screen(m); strings.Contains(s, "thinking") || !strings.Contains(s, "1344: 0 black, 1 white") {
		t.Errorf("after the replies:\n%s", s)
	}
	if _, quit := feed(m, ctrlC); !quit {
		t.Errorf("ctrl+c did not quit")
	}
}

func TestTUIEnd(t *testing.T) {
	m := typeLines(t, sized(assistModel(t), 80, 24), "1 0", "0 1", "1 2", "1 1", "4 0")
	if !strings.Contains(screen(m), "press any key to leave") {
		t.Fatalf("end screen:\n%s", screen(m))
	}
	if _, quit := feed(m, key('x')); !quit {
		t.Fatalf("a key at the end did not quit")
	}
	want := `mastermind assist · 6 colours × 4 pegs, colours 123456 · knuth
  1. 1122  1 black, 0 white
  2. 1344  0 black, 1 white
  3. 3526  1 black, 2 white
  4. 1462  1 black, 1 white
  5. 3632  4 black, 0 white
Solved in 5 guesses: the code is 3632.
`
	if got := m.Summary(); got != want {
		t.Errorf("Summary() =\n%s\nwant:\n%s", got, want)
	}
	m = typeLines(t, gameModel(t, "3632", 10), "1122")
	if got := m.Summary(); !strings.HasSuffix(got, "Left before the end.\n") {
		t.Errorf("Summary() of a game left early =\n%s", got)
	}
}

// TestTUICoachSummaryWidth checks that the coach's summary, written on the
// terminal once the full screen is gone, is wrapped between words short
// of the last column at 80 × 24: the terminal broke "knuth's" and "1136"
// in two.
func TestTUICoachSummaryWidth(t *testing.T) {
	g := newGameWith(t, mm.Classic, "3632", play.GameOptions{Coach: true}, strategy.Knuth{})
	m := typeLines(t, sized(play.NewModel(g), 80, 24), "1234", "1122", "3526", "3632")
	got := m.Summary()
	for _, want := range []string{
		"Coach: Δ expected guesses per guess against knuth: +0.00 +0.08 +0.14 +0.17;\n+0.39 in all.",
		"Guess 4, 3632, was a gamble that paid: 0.17 guesses expected more than knuth's\n1136, but it was the code.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Summary() lacks %q:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if n := len([]rune(line)); n > 79 {
			t.Errorf("Summary() has a line of %d columns: %q", n, line)
		}
	}
}

// TestTUIHintFills checks that a hint, asked with "hint" or the tab key,
// puts the strategy's guess on the input line instead of playing it, and
// that enter then plays it.
func TestTUIHintFills(t *testing.T) {
	m := typeLines(t, sized(gameModel(t, "3632", 10), 80, 24), "1122")
	m, _ = feed(m, tab)
	if got := screen(m); !strings.Contains(got, "guess 2/10> 1344") {
		t.Fatalf("after tab the input line is not 1344:\n%s", got)
	}
	if got := screen(m); !strings.Contains(got, "knuth would play 1344") || strings.Contains(got, "1344: ") {
		t.Errorf("tab played the hint instead of proposing it:\n%s", got)
	}
	// Enter plays it.
	m = typeLines(t, m, "")
	if got := screen(m); !strings.Contains(got, "1344: 0 black, 1 white") {
		t.Errorf("enter after the hint did not play 1344:\n%s", got)
	}
	// Typed "hint" fills the line too, and it may be changed.
	m = typeLines(t, m, "hint")
	if got := screen(m); !strings.Contains(got, "guess 3/10> 3526") {
		t.Fatalf("after hint the input line is not 3526:\n%s", got)
	}
	m, _ = feed(m, backspace)
	m = typeLines(t, m, "5")
	if got := screen(m); !strings.Contains(got, "3525: ") {
		t.Errorf("the hint changed and sent did not play 3525:\n%s", got)
	}
	// Assist's hint proposes no code to type: the line stays empty.
	a := typeLines(t, sized(assistModel(t), 80, 24), "1 0")
	a, _ = feed(a, tab)
	if got := screen(a); !strings.Contains(got, "answer>  ") || !strings.Contains(got, "best guesses") && !strings.Contains(got, "proposes") {
		t.Errorf("tab in assist:\n%s\nwant the hint shown and the input line empty", got)
	}
}
