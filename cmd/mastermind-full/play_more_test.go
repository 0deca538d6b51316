package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

// TestPlaySaveResume plays a game with a mistyped guess taken back and the
// codes left listed, saves it and quits, which leaves the code hidden, and
// resumes it from the file in another run, which finds the code; the
// transcripts are golden files.
func TestPlaySaveResume(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "game.txt")
	out, _, err := runCmd(t, "1122\n6666\nundo\n1344\nlist\nsave "+file+"\nquit\n", "play", "--secret", "3632", "--max-guesses", "8")
	if err != nil {
		t.Errorf("play, save, then quit: %v; want status 0, the game left saved", err)
	}
	golden(t, "play-undo-save.golden", strings.ReplaceAll(out, dir, "DIR"))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "3632") {
		t.Errorf("the saved game shows its code:\n%s", data)
	}
	out, _, err = runCmd(t, "3526\n1462\n3632\n", "play", "--resume", file)
	if err != nil {
		t.Fatalf("play --resume: %v", err)
	}
	golden(t, "play-resume.golden", out)
}

// TestPlayResumeErrors checks that a game that cannot be resumed is
// refused with one line and status 2, before anything is played.
func TestPlayResumeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The code 3632, encoded as save writes it.
	head := "# mastermind play session\ncolors 6\npegs 4\nalphabet 123456\nlimit 10\ncode bWFzdGVybWluZCBjb2RlIDM2MzI=\nhints 0\nlists 0\nundos 0\nstrategy knuth\n\n"
	assist := write("assist.txt", "# mastermind assist session\ncolors 6\npegs 4\nalphabet 123456\nstrategy knuth\n\n1 0\n")
	tests := []struct {
		cmd  string
		args []string
		want string
	}{
		{"play", []string{"--resume", filepath.Join(dir, "none.txt")}, "no such file"},
		{"play", []string{"--resume", write("bad.txt", "1122\n")}, "not a saved session"},
		{"play", []string{"--resume", write("cut.txt", head[:strings.Index(head, "hints")])}, "end before its strategy line"},
		{"play", []string{"--resume", write("damaged.txt", strings.Replace(head, "code bW", "code !!", 1))}, "the game's code does not read: the file is damaged"},
		{"play", []string{"--resume", write("refused.txt", head+"1122\n11\n")}, `saved guess 2 ("11") is refused`},
		{"play", []string{"--resume", write("over.txt", head+"3632\n")}, "ends the game: there is nothing to resume"},
		{"play", []string{"--resume", assist}, "a saved assist session, not a game of play: resume it with mastermind assist --resume"},
		{"assist", []string{"--resume", write("game.txt", head)}, "a saved game of play, not an assist session: resume it with mastermind play --resume"},
		{"play", []string{"--resume", write("ok.txt", head), "--rules", "super"}, "saved with 6 colours, 4 pegs"},
		{"play", []string{"--resume", write("ok2.txt", head), "--secret", "1234"}, "--resume: the saved game keeps its code and settings; --secret does not apply"},
		{"play", []string{"--resume", write("ok3.txt", head), "--max-guesses", "3"}, "--max-guesses does not apply"},
	}
	for _, tt := range tests {
		out, _, err := runCmd(t, "", append([]string{tt.cmd}, tt.args...)...)
		if code, line := exitStatus(err); code != cli.ExitUsage || !strings.Contains(line, tt.want) || strings.Count(line, "\n") != 1 {
			t.Errorf("%s %s: status %d, %q; want 2 and one line with %q", tt.cmd, strings.Join(tt.args, " "), code, line, tt.want)
		}
		if out != "" {
			t.Errorf("%s %s printed %q before refusing", tt.cmd, strings.Join(tt.args, " "), out)
		}
	}
}

// TestSolvePlaysPlaysCode checks that solve --seed K plays the code that
// play --seed K holds.
func TestSolvePlaysPlaysCode(t *testing.T) {
	out, _, _ := runCmd(t, "quit\n", "play", "--seed", "7")
	if !strings.Contains(out, "The code was 2212.") {
		t.Fatalf("play --seed 7 then quit:\n%s\nwant the code 2212, which solve --seed 7 draws", out)
	}
	if got := mustRun(t, "", "solve", "--seed", "7"); !strings.HasPrefix(got, "secret 2212,") {
		t.Errorf("solve --seed 7:\n%s\nwant secret 2212", got)
	}
}
