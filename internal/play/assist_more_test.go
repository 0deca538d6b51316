package play_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// doAll plays inputs and returns the last reply.
func doAll(a *play.Assist, inputs ...string) []play.Line {
	var out []play.Line
	for _, in := range inputs {
		out = a.Do(in)
	}
	return out
}

// TestAssistOneLine checks that a guess and its answer on one line is
// the same as the guess, then the answer.
func TestAssistOneLine(t *testing.T) {
	tests := []struct {
		name    string
		oneLine []string
		twoLine []string
	}{
		{"proposed", []string{"1122 1 0"}, []string{"1 0"}},
		{"own", []string{"1234 0 2"}, []string{"1234", "0 2"}},
		{"letters", []string{"1122 1 0", "1344 w"}, []string{"1 0", "0 1"}},
		{"spaced code", []string{"1 2 3 4 BW"}, []string{"1234", "1 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newAssist(t, mm.Classic), newAssist(t, mm.Classic)
			if out := doAll(a, tt.oneLine...); hasKind(out, play.Problem) {
				t.Fatalf("%q: %s", tt.oneLine, text(out))
			}
			doAll(b, tt.twoLine...)
			if !reflect.DeepEqual(a.Board(), b.Board()) {
				t.Errorf("%q gave the board %+v; %q gave %+v", tt.oneLine, a.Board(), tt.twoLine, b.Board())
			}
		})
	}
	a := newAssist(t, mm.Classic)
	if out := a.Do("1122 5 0"); !strings.Contains(text(out), "cannot be right") {
		t.Errorf("1122 5 0: %q; want the answer refused", text(out))
	}
	if a.Remaining() != 1296 {
		t.Errorf("a refused one-line answer changed the codes left to %d", a.Remaining())
	}
}

// TestAssistRedo checks that redo puts back what each kind of undo took,
// and that a new change ends what can be redone.
func TestAssistRedo(t *testing.T) {
	tests := []struct {
		name   string
		before []string
	}{
		{"answer", []string{"1 0", "0 1"}},
		{"own answer", []string{"1 0", "1234 0 2"}},
		{"drop", []string{"1 0", "0 1", "drop 1"}},
		{"fix", []string{"1 0", "0 1", "fix 1 0 1"}},
		{"typed guess", []string{"1 0", "guess 6543"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAssist(t, mm.Classic)
			doAll(a, tt.before...)
			want := a.Board()
			if out := a.Do("undo"); hasKind(out, play.Problem) {
				t.Fatalf("undo: %s", text(out))
			}
			if reflect.DeepEqual(a.Board(), want) {
				t.Fatalf("undo changed nothing")
			}
			if out := a.Do("redo"); hasKind(out, play.Problem) {
				t.Fatalf("redo: %s", text(out))
			}
			if got := a.Board(); !reflect.DeepEqual(got, want) {
				t.Errorf("after undo and redo the board is %+v; want %+v", got, want)
			}
			if out := a.Do("redo"); !strings.Contains(text(out), "nothing to redo") {
				t.Errorf("a second redo: %q", text(out))
			}
		})
	}
	a := newAssist(t, mm.Classic)
	if out := doAll(a, "1 0", "undo", "2 0", "redo"); !strings.Contains(text(out), "nothing to redo") {
		t.Errorf("redo after a new answer: %q; want nothing to redo", text(out))
	}
}

// TestAssistRedoConflict checks that redo puts back an answer that
// conflicts, as it did before its undo, and then the fix that resolved
// the conflict: each redo puts back one undo, and a saved session with a
// conflict resumes.
func TestAssistRedoConflict(t *testing.T) {
	var saved []byte
	cfg := knuthConfig(mm.Rules{})
	cfg.Save = func(name string, data []byte) error { saved = data; return nil }
	a, err := play.NewAssist(cfg)
	if err != nil {
		t.Fatal(err)
	}
	doAll(a, "1122 1 0", "1122 2 0")
	if a.Conflict() == nil {
		t.Fatal("1122 answered 1 0, then 2 0: no conflict")
	}
	doAll(a, "fix 2 1 0")
	want := a.Board()
	doAll(a, "undo", "undo")
	if out := a.Do("redo"); a.Conflict() == nil || !strings.Contains(text(out), "Redid") {
		t.Fatalf("the first redo, of the conflicting answer: %q; conflict %v", text(out), a.Conflict())
	}
	if out := a.Do("redo"); hasKind(out, play.Problem) {
		t.Fatalf("the second redo, of the fix, is refused: %s", text(out))
	}
	if got := a.Board(); !reflect.DeepEqual(got, want) {
		t.Errorf("after two undos and two redos the board is %+v; want %+v", got, want)
	}
	if out := a.Do("redo"); !strings.Contains(text(out), "nothing to redo") {
		t.Errorf("a third redo: %q", text(out))
	}
	// Saved in conflict, the session resumes in conflict.
	doAll(a, "undo")
	a.Do("save game.txt")
	s, err := play.ReadSaved(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := play.NewAssist(knuthConfig(s.Rules))
	if err := b.Resume(s.Inputs); err != nil {
		t.Fatalf("Resume of a session saved in conflict: %v\n%s", err, saved)
	}
	if !reflect.DeepEqual(a.Board(), b.Board()) || !reflect.DeepEqual(a.Conflict(), b.Conflict()) {
		t.Errorf("resumed board %+v, conflict %v; want %+v, %v", b.Board(), b.Conflict(), a.Board(), a.Conflict())
	}
}

// TestAssistList checks the pages of codes left.
func TestAssistList(t *testing.T) {
	a := newAssist(t, mm.Classic)
	a.Do("1 0") // 256 codes: 50 a page
	seen := map[string]bool{}
	var heads []string
	for range 6 {
		out := a.Do("list")
		heads = append(heads, out[0].Text)
		for _, l := range out[1:] {
			for _, f := range strings.Fields(l.Text) {
				if _, err := mm.Classic.ParseCode(f); err == nil {
					seen[f] = true
				}
			}
		}
	}
	var want []string
	for p := range 6 {
		want = append(want, fmt.Sprintf("256 codes possible, page %d of 6:", p+1))
	}
	if !reflect.DeepEqual(heads, want) {
		t.Errorf("headings %q; want %q", heads, want)
	}
	if len(seen) != 256 {
		t.Errorf("six pages list %d distinct codes; want 256", len(seen))
	}
	if out := a.Do("list"); out[0].Text != want[0] {
		t.Errorf("list after the last page: %q; want the first again", out[0].Text)
	}
	if out := a.Do("list 2"); out[0].Text != want[1] {
		t.Errorf("list 2: %q", out[0].Text)
	}
	for _, in := range []string{"list 7", "list x", "list 0"} {
		if out := a.Do(in); !hasKind(out, play.Problem) {
			t.Errorf("%s: %q; want a problem", in, text(out))
		}
	}
	big := newAssist(t, mm.Rules{Colors: 10, Pegs: 8})
	if out := big.Do("list"); !strings.Contains(text(out), "too many to list") {
		t.Errorf("list on 10 x 8: %q", text(out))
	}
}

// TestAssistSaveResume checks that a saved session resumes with the same
// board, undo history and save file.
func TestAssistSaveResume(t *testing.T) {
	var saved []byte
	cfg := knuthConfig(mm.Rules{})
	cfg.Save = func(name string, data []byte) error { saved = data; return nil }
	a, err := play.NewAssist(cfg)
	if err != nil {
		t.Fatal(err)
	}
	doAll(a, "1 0", "1234 0 2", "undo", "redo", "drop 1", "fix 2 0 1", "undo", "guess 6655")
	if out := a.Do("save game.txt"); hasKind(out, play.Problem) {
		t.Fatalf("save: %s", text(out))
	}
	s, err := play.ReadSaved(bytes.NewReader(saved))
	if err != nil {
		t.Fatalf("ReadSaved: %v\n%s", err, saved)
	}
	if s.Rules.Colors != 6 || s.Rules.Pegs != 4 || s.Strategy != "knuth" {
		t.Errorf("ReadSaved = %+v", s)
	}
	b, err := play.NewAssist(knuthConfig(s.Rules))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Resume(s.Inputs); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if !reflect.DeepEqual(a.Board(), b.Board()) {
		t.Errorf("resumed board %+v; want %+v", b.Board(), a.Board())
	}
	if !bytes.Equal(a.Saved(), b.Saved()) {
		t.Errorf("resumed session saves as\n%s\nwant\n%s", b.Saved(), a.Saved())
	}
	if !strings.Contains(text(b.Start()), "Resumed a saved session") {
		t.Errorf("resumed Start does not say so:\n%s", text(b.Start()))
	}
	// The undo history came along.
	a.Do("undo")
	b.Do("undo")
	if !reflect.DeepEqual(a.Board(), b.Board()) {
		t.Errorf("after undo, resumed board %+v; want %+v", b.Board(), a.Board())
	}
}

func knuthConfig(r mm.Rules) play.Config {
	return play.Config{Rules: r, Strategy: strategy.Knuth{}, Name: "knuth", Rank: knuthRank, RankBy: "knuth"}
}

func TestReadSavedErrors(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"not a session", "hello\n", "not a saved session"},
		{"bad number", "# mastermind assist session\ncolors six\n", "line 2"},
		{"unknown", "# mastermind assist session\ncolours 6\n", `unknown setting "colours"`},
		{"no strategy", "# mastermind assist session\ncolors 6\npegs 4\n", "before its strategy"},
		{"bad rules", "# mastermind assist session\ncolors 1\npegs 4\nalphabet 12\nstrategy knuth\n", "colo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := play.ReadSaved(strings.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadSaved: %v; want an error with %q", err, tt.want)
			}
		})
	}
	a, _ := play.NewAssist(knuthConfig(mm.Rules{}))
	if err := a.Resume([]string{"1 0", "7777 1 0"}); err == nil || !strings.Contains(err.Error(), `saved input 2 ("7777 1 0")`) {
		t.Errorf("Resume with a bad input: %v", err)
	}
}

// TestAssistAmbiguousAnswer checks that on a board of 10 pegs two digits
// together that read two ways ("10": 10 black, or 1 black and 0 white)
// are refused with both readings, wherever an answer is typed, and that
// the answer typed apart is taken.
func TestAssistAmbiguousAnswer(t *testing.T) {
	r := mm.Rules{Colors: 2, Pegs: 10}
	for _, tt := range []struct{ before, in string }{
		{"", "10"},
		{"", "1111111111 10"},
		{"1 0", "fix 1 10"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			a := newAssist(t, r)
			if tt.before != "" {
				a.Do(tt.before)
			}
			want := a.Board()
			out := text(a.Do(tt.in))
			if !strings.Contains(out, `reads two ways: "10" on 10 pegs is 10 black, or 1 black and 0 white: type "10 0" or "1 0"`) {
				t.Errorf("%q: %q; want it refused as reading two ways", tt.in, out)
			}
			if !reflect.DeepEqual(a.Board(), want) {
				t.Errorf("%q changed the board to %+v", tt.in, a.Board())
			}
		})
	}
	a := newAssist(t, r)
	if out := a.Do("1 0"); hasKind(out, play.Problem) || a.Board().Rows[0].Feedback != (mm.Feedback{Black: 1}) {
		t.Errorf("1 0 on 10 pegs: %q, board %+v", text(out), a.Board())
	}
}
