package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

// TestSessionGolden drives assist and play in line mode through stdin and
// stdout (a strings.Reader is not a terminal) and compares the transcripts
// with testdata/*.golden; go test -update rewrites them.
func TestSessionGolden(t *testing.T) {
	tests := []struct {
		file  string
		stdin string
		args  []string
		fails string // play: why the game was not won, exit status 1
	}{
		{"assist-3632.golden", "1 0\n0 1\n1 2\n1 1\n4 0\n", []string{"assist"}, ""},
		// A mistyped answer (1462 got 1 1, not BBB): the contradiction is
		// named, undo recovers, and the game goes on to the code.
		{"assist-conflict.golden", "1 0\n0 1\n1 2\nBBB\n1 1\nhistory\nundo\n1 1\n4 0\n", []string{"assist"}, ""},
		// An old answer was wrong (1122 got 1 0, not 0 0): fix repairs it.
		{"assist-fix.golden", "0 0\n0 1\nguess 1111\n1 0\nfix 1 1 0\nhint\n1b1w\n4 0\n", []string{"assist"}, ""},
		{"assist-drop.golden", "0 0\n1111\n1b\ndrop 1\n", []string{"assist"}, ""},
		{"assist-bad-answers.golden", "help\n5 0\n3 1\nhello\n12345\n1237\n\nundo\ndrop 1\n2b1w\nundo\nBW\nquit\n", []string{"assist"}, ""},
		{"assist-rgb.golden", "b\nw w\nhint\nbbw\n", []string{"assist", "--alphabet", "RGBYOP", "--strategy", "most-parts"}, ""},
		{"assist-large.golden", "1 0\n12345678\n2 1\nhint\nhistory\n", []string{"assist", "--colors", "10", "--pegs", "8", "--seed", "1"}, ""},
		// Bulls and Cows, answered as its players write it.
		{"assist-bulls-cows.golden", "0A2B\n0 bulls 3 cows\n0A1B\n2A2B\n4A0B\n", []string{"assist", "--rules", "bulls-cows"}, ""},
		// A drop taken back, and a mistyped command.
		{"assist-undo-drop.golden", "1 0\n0 1\ndrop 1\nhnit\nundo\nhistory\n1 2\n", []string{"assist"}, ""},
		// A guess and its answer on one line, the codes left a page at a
		// time, and an undo put back with redo.
		{"assist-one-line.golden", "1122 1 0\nlist\nlist\nlist 1\n1344 0 1\nundo\nredo\nredo\n3526 1 2\nlist\nhelp\n1462 1 1\n3632 BBBB\n", []string{"assist"}, ""},
		// A session saved after two answers, resumed, and finished.
		{"assist-resume.golden", "undo\nredo\n3526 1 2\n1462 1 1\n3632 4 0\n", []string{"assist", "--resume", "testdata/assist-saved.txt"}, ""},
		// Colour names, and a guess played twice.
		{"play-names.golden", "red red green green\nRRGG\nblue yellow red green\nquit\n",
			[]string{"play", "--alphabet", "red,green,blue,yellow,orange,purple", "--secret", "blue yellow red green"}, ""},
		{"play-3632.golden", "hint\n1122\nhelp\n11\n1127\nguess 1344\nhistory\n3 5 2 6\n3632\n", []string{"play", "--secret", "3632"}, ""},
		// The adversary holds no code; knuth's guesses corner it in 5.
		{"play-adversary.golden", "1122\nhint\n1344\n3526\n5555\nquit\n", []string{"play", "--adversary"}, "game abandoned after 4 guesses"},
		{"play-adversary-won.golden", "1122\n3345\n3636\n4544\n5455\n", []string{"play", "--adversary"}, ""},
		// Two players: the code on the first line is not shown.
		{"play-two-player.golden", "3632\n1122\nhint\n3632\n", []string{"play", "--two-player"}, ""},
		// The coach weighs each guess against knuth's.
		{"play-coach.golden", "1234\n1122\n3526\n3632\n", []string{"play", "--secret", "3632", "--coach"}, ""},
		{"play-lost.golden", "1111\n2222\n3333\n", []string{"play", "--secret", "3632", "--max-guesses", "3"}, "game lost: the code was not found in 3 guesses"},
		{"play-seed.golden", "12345\nhint\nquit\n", []string{"play", "--seed", "7", "--colors", "8", "--pegs", "5"}, "game abandoned after 1 guess"},
		{"play-distinct.golden", "0123\n1234\nhint\n", []string{"play", "--distinct", "--colors", "10", "--secret", "A395", "--strategy", "entropy"}, "game abandoned after 1 guess"},
		{"play-rgb.golden", "rrgg\nRGBY\nquit\n", []string{"play", "--alphabet", "RGBYOP", "--secret", "RRGB"}, "game abandoned after 2 guesses"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out, _, err := runCmd(t, tt.stdin, tt.args...)
			code, line := exitStatus(err)
			switch {
			case tt.fails == "" && err != nil:
				t.Fatalf("mastermind %s: %v", strings.Join(tt.args, " "), err)
			case tt.fails != "" && (code != cli.ExitFailure || !strings.Contains(line, tt.fails)):
				t.Errorf("mastermind %s: status %d, %q; want 1 and %q", strings.Join(tt.args, " "), code, line, tt.fails)
			}
			golden(t, tt.file, out)
		})
	}
}

// robot answers assist's proposals for secret through pipes, as a person
// at a board would, and returns the number of guesses assist needed.
func robot(t *testing.T, secret mm.Code, args ...string) int {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		var stderr bytes.Buffer
		err := cli.Run(context.Background(), append([]string{"assist"}, args...), inR, outW, &stderr, full())
		outW.Close()
		errc <- err
	}()
	guesses := 0
	solved := false
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "answer> ")
		var n int
		var g string
		if _, err := fmt.Sscanf(line, "Guess %d: %s", &n, &g); err == nil {
			c, err := mm.Classic.ParseCode(g)
			if err != nil {
				t.Fatalf("secret %s: proposal %q: %v", secret, line, err)
			}
			guesses = n
			fmt.Fprintf(inW, "%s\n", mm.Score(secret, c))
		}
		if strings.HasPrefix(line, "Solved in ") {
			solved = strings.Contains(line, "the code is "+secret.String())
		}
	}
	inW.Close()
	if err := <-errc; err != nil {
		t.Fatalf("secret %s: %v", secret, err)
	}
	if !solved {
		t.Fatalf("secret %s: assist did not solve it", secret)
	}
	return guesses
}

// TestAssistRobot plays 20 seeded secrets through the command in line
// mode: knuth must find each in at most 5 guesses.
func TestAssistRobot(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 6))
	for range 20 {
		secret := mm.RandomCode(mm.Classic, rng)
		if n := robot(t, secret); n > 5 {
			t.Errorf("assist took %d guesses for %s; knuth needs at most 5", n, secret)
		}
	}
}

func TestSessionErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"play", "--secret", "12345"}, "5 pegs"},
		{[]string{"play", "--secret", "1237"}, "only 6 colours"},
		{[]string{"play", "--strategy", "nope"}, "unknown strategy"},
		{[]string{"play", "3632"}, "no arguments"},
		{[]string{"assist", "--strategy", "nope"}, "unknown strategy"},
		{[]string{"assist", "--colors", "40", "--alphabet", "RGB"}, "alphabet RGB has 3"},
		{[]string{"assist", "--alphabet", "RGBRGB"}, "repeats"},
		{[]string{"assist", "extra"}, "no arguments"},
	}
	for _, tt := range tests {
		_, _, err := runCmd(t, "", tt.args...)
		if err == nil {
			t.Errorf("mastermind %s succeeded; want an error", strings.Join(tt.args, " "))
			continue
		}
		code, line := exitStatus(err)
		if code != cli.ExitUsage {
			t.Errorf("mastermind %s: exit status %d; want %d", strings.Join(tt.args, " "), code, cli.ExitUsage)
		}
		if !strings.HasPrefix(line, "mastermind: ") || strings.Count(line, "\n") != 1 || !strings.Contains(line, tt.want) {
			t.Errorf("mastermind %s: stderr %q; want one line mentioning %q", strings.Join(tt.args, " "), line, tt.want)
		}
	}
}

// TestTwoPlayerErrors checks the codemaker's code in line mode and the
// flags that exclude two players.
func TestTwoPlayerErrors(t *testing.T) {
	tests := []struct {
		stdin string
		args  []string
		want  string
	}{
		{"36\n", nil, `code "36": has 2 pegs; want 4`},
		{"", nil, "stdin ended before the codemaker's code"},
		{"3632\n", []string{"--secret", "3632"}, "--secret and --adversary do not apply"},
		{"3632\n", []string{"--adversary"}, "--secret and --adversary do not apply"},
	}
	for _, tt := range tests {
		args := append([]string{"play", "--two-player"}, tt.args...)
		_, _, err := runCmd(t, tt.stdin, args...)
		if code, line := exitStatus(err); code != cli.ExitUsage || !strings.Contains(line, tt.want) {
			t.Errorf("mastermind %s <<< %q: status %d, %q; want 2 and %q", strings.Join(args, " "), tt.stdin, code, line, tt.want)
		}
	}
}

// TestAssistResumeErrors checks that a session file that cannot be
// resumed is refused with one line and status 2.
func TestAssistResumeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	head := "# mastermind assist session\ncolors 6\npegs 4\nalphabet 123456\nstrategy knuth\n\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--resume", dir + "/none.txt"}, "no such file"},
		{[]string{"--resume", write("bad.txt", "1122 1 0\n")}, "not a saved session"},
		{[]string{"--resume", write("wrong.txt", head+"1122 1 0\n1344 5 0\n")}, `saved input 2 ("1344 5 0") is refused`},
		{[]string{"--resume", write("ok.txt", head+"1122 1 0\n"), "--rules", "super"}, "saved with 6 colours, 4 pegs"},
	}
	for _, tt := range tests {
		_, _, err := runCmd(t, "", append([]string{"assist"}, tt.args...)...)
		if code, line := exitStatus(err); code != cli.ExitUsage || !strings.Contains(line, tt.want) {
			t.Errorf("assist %s: status %d, %q; want 2 and %q", strings.Join(tt.args, " "), code, line, tt.want)
		}
	}
}
