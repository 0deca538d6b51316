package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmux runs a tmux command on the test's own server socket.
func tmux(t *testing.T, sock string, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitScreen captures the pane until it shows want, and returns it.
func waitScreen(t *testing.T, sock, want string, escapes bool) string {
	t.Helper()
	args := []string{"capture-pane", "-p", "-t", "mm"}
	if escapes {
		args = append(args, "-e")
	}
	var screen string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		screen = tmux(t, sock, args...)
		if strings.Contains(screen, want) {
			return screen
		}
	}
	t.Fatalf("the screen never showed %q:\n%s", want, screen)
	return ""
}

// needTmux skips the test under -short or without tmux (failing it in CI).
func needTmux(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds both commands and drives tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("tmux not found; CI must install it (apt-get install -y tmux): %v", err)
		}
		t.Skipf("tmux not found; apt-get install -y tmux to run the terminal test")
	}
}

// typeLine types line into the test's pane and presses Enter.
func typeLine(t *testing.T, sock, line string) {
	t.Helper()
	tmux(t, sock, "send-keys", "-t", "mm", "-l", line)
	tmux(t, sock, "send-keys", "-t", "mm", "Enter")
}

// waitStatus waits for the shell's "echo $? > status" and checks that
// the command it names exited 0. The shell creates the file before it
// writes the status, so an empty file means "not yet", not a status.
func waitStatus(t *testing.T, status, command string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(status)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			continue
		}
		if s := strings.TrimSpace(string(b)); s != "0" {
			t.Errorf("%s exited with status %s; want 0", command, s)
		}
		return
	}
	t.Errorf("%s did not exit after the game", command)
}

// TestTerminal plays a game as a person would, at a real terminal: tmux
// runs mastermind play, which hands the game to mastermind-full's
// full-screen UI; keys are sent and the screen read back, pegs in the
// palette's colours.
func TestTerminal(t *testing.T) {
	needTmux(t)
	// Mostly waits on tmux, in a socket and directory of its own:
	// it runs beside the other tests that wait.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".", "../mastermind-full")
	sock := filepath.Join(dir, "tmux.sock")
	status := filepath.Join(dir, "status")
	script := filepath.Join(dir, "mastermind") + " play --secret 3632; echo $? > " + status + "; sleep 60"
	tmux(t, sock, "-f", "/dev/null", "new-session", "-d", "-s", "mm", "-x", "100", "-y", "32", "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })

	waitScreen(t, sock, "mastermind play", false)
	for _, guess := range []string{"1122", "3632"} {
		tmux(t, sock, "send-keys", "-t", "mm", guess, "Enter")
	}
	screen := waitScreen(t, sock, "You found the code in 2 guesses", true)
	// Colour 1 on the palette's red, colour 3 on its yellow, as on the web
	// page: in true colour, or the palette's own 256-colour forms (161,
	// 220) where the terminal has 256 colours, as tmux says here.
	for _, want := range [][]string{{"48;2;230;25;75m 1 ", "48;5;161m 1 "}, {"48;2;255;225;25m 3 ", "48;5;220m 3 "}} {
		if !strings.Contains(screen, want[0]) && !strings.Contains(screen, want[1]) {
			t.Errorf("no peg drawn as %q or %q on the screen:\n%s", want[0], want[1], screen)
		}
	}
	// Any key leaves; the game is left on the terminal in plain text and
	// the exit status is 0.
	tmux(t, sock, "send-keys", "-t", "mm", "q")
	waitScreen(t, sock, "2. 3632  4 black, 0 white", false)
	waitStatus(t, status, "mastermind play")
}

// TestTerminalAssist breaks a code with assist at a real terminal under
// tmux: a guess and its answer on one line, the codes left listed, the
// session saved, then resumed in a second run that finishes it.
func TestTerminalAssist(t *testing.T) {
	needTmux(t)
	// Mostly waits on tmux, in a socket and directory of its own:
	// it runs beside the other tests that wait.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".", "../mastermind-full")
	sock := filepath.Join(dir, "tmux.sock")
	saved := filepath.Join(dir, "game.txt")
	bin := filepath.Join(dir, "mastermind")
	script := bin + " assist; " + bin + " assist --resume " + saved + "; sleep 60"
	tmux(t, sock, "-f", "/dev/null", "new-session", "-d", "-s", "mm", "-x", "100", "-y", "40", "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })

	waitScreen(t, sock, "mastermind assist", false)
	steps := []struct{ keys, want string }{
		{"1122 1 0", "Guess 2: 1344"},
		{"list", "256 codes possible, page 1 of 6"},
		{"save " + saved, "Saved 1 answer to"},
		{"quit", "press any key to leave"},
		{"q", "Resumed a saved session"},
		{"1344 0 1", "Guess 3: 3526"},
		{"undo", "Took back answer 2"},
		{"redo", "Redid 1344 0 1"},
		{"3526 1 2", "Guess 4: 1462"},
		{"1462 1 1", "Guess 5: 3632"},
		{"3632 4 0", "Solved in 5 guesses"},
	}
	for _, s := range steps {
		typeLine(t, sock, s.keys)
		waitScreen(t, sock, s.want, false)
	}
	screen := waitScreen(t, sock, "Solved in 5 guesses", false)
	if !strings.Contains(screen, "3632") {
		t.Errorf("the solved board does not show 3632:\n%s", screen)
	}
}

// TestTerminalTwoPlayer plays two players at a real terminal under tmux:
// the codemaker's code does not show as it is typed, a mistyped one is
// asked for again, and the codebreaker then finds it.
func TestTerminalTwoPlayer(t *testing.T) {
	needTmux(t)
	// Mostly waits on tmux, in a socket and directory of its own:
	// it runs beside the other tests that wait.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".", "../mastermind-full")
	sock := filepath.Join(dir, "tmux.sock")
	status := filepath.Join(dir, "status")
	script := filepath.Join(dir, "mastermind") + " play --two-player; echo $? > " + status + "; sleep 60"
	tmux(t, sock, "-f", "/dev/null", "new-session", "-d", "-s", "mm", "-x", "100", "-y", "32", "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })

	waitScreen(t, sock, "it will not show", false)
	send := func(keys string) { typeLine(t, sock, keys) }
	send("365")
	if screen := waitScreen(t, sock, "That is not a code", false); strings.Contains(screen, "365") {
		t.Errorf("the mistyped code shows on the screen:\n%s", screen)
	}
	send("5163")
	screen := waitScreen(t, sock, "mastermind play", false)
	// Before the first guess, the code is nowhere on the screen.
	if strings.Contains(screen, "5163") || strings.Contains(screen, "365") {
		t.Errorf("the codemaker's code shows on the screen:\n%s", screen)
	}
	send("1122")
	waitScreen(t, sock, "1122", false)
	send("5163")
	waitScreen(t, sock, "You found the code in 2 guesses", false)
	tmux(t, sock, "send-keys", "-t", "mm", "q")
	waitStatus(t, status, "mastermind play --two-player")
}

// TestTerminalCoach plays against the adversary with the coach at a real
// terminal under tmux: each guess gets the adversary's answer and the
// coach's line beside the board.
func TestTerminalCoach(t *testing.T) {
	needTmux(t)
	// Mostly waits on tmux, in a socket and directory of its own:
	// it runs beside the other tests that wait.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".", "../mastermind-full")
	sock := filepath.Join(dir, "tmux.sock")
	script := filepath.Join(dir, "mastermind") + " play --adversary --coach; sleep 60"
	tmux(t, sock, "-f", "/dev/null", "new-session", "-d", "-s", "mm", "-x", "110", "-y", "30", "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })

	waitScreen(t, sock, "I have chosen no code", false)
	typeLine(t, sock, "1234")
	waitScreen(t, sock, "Yours costs nothing", false)
	typeLine(t, sock, "5566")
	screen := waitScreen(t, sock, "Yours costs 0.23 guesses", false)
	for _, want := range []string{"0 black 2 white", "1 black 1 white", "2545: 3.69, 54 codes left"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not show %q:\n%s", want, screen)
		}
	}
}
