package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestWatchPaced checks that watch waits --delay between guesses, and
// stops at once when its context is cancelled during a wait.
func TestWatchPaced(t *testing.T) {
	start := time.Now()
	out := mustRun(t, "", "watch", "--delay", "30ms", "3632")
	if !strings.Contains(out, "solved 3632 in 5 guesses") {
		t.Fatalf("watch --delay 30ms 3632:\n%s", out)
	}
	if took := time.Since(start); took < 4*30*time.Millisecond {
		t.Errorf("5 guesses took %v; want at least 4 waits of 30ms", took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var stdout, stderr bytes.Buffer
	start = time.Now()
	err := Run(ctx, []string{"watch", "--delay", "1h", "3632"}, strings.NewReader(""), &stdout, &stderr, nil)
	if err == nil || time.Since(start) > time.Minute {
		t.Errorf("watch --delay 1h cancelled after 200ms: %v after %v; want an error at once", err, time.Since(start))
	}
	if !strings.Contains(stdout.String(), " 1  1122") {
		t.Errorf("watch showed no first guess before the wait:\n%s", stdout.String())
	}
}

func TestWatchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"watch", "--delay", "-1s"},
		{"watch", "--show", "-1"},
		{"watch", "12345"},
		{"watch", "1111", "2222"},
		{"watch", "--strategy", "nonesuch"},
	} {
		if _, _, err := runCmd(t, "", args...); err == nil {
			t.Errorf("mastermind %s: no error", strings.Join(args, " "))
		}
	}
}

// TestWatchDraws checks that watch without a SECRET draws one at random,
// as play does, and names the seed that watches the same game again;
// --seed draws the same code each time and says nothing more.
func TestWatchDraws(t *testing.T) {
	secrets := map[string]bool{}
	var first string
	for range 6 {
		out := mustRun(t, "", "watch", "--show", "0")
		head, rest, _ := strings.Cut(out, "\n")
		drawn, _, _ := strings.Cut(rest, "\n")
		seed, ok := strings.CutPrefix(drawn, "(drawn with --seed ")
		seed, ok2 := strings.CutSuffix(seed, ")")
		if !ok || !ok2 {
			t.Fatalf("watch names no seed: %q then %q", head, drawn)
		}
		fields := strings.Fields(head)
		secrets[fields[2]] = true
		if first == "" {
			first = out
			again := mustRun(t, "", "watch", "--show", "0", "--seed", seed)
			want := strings.Replace(first, drawn+"\n", "", 1)
			if again != want {
				t.Errorf("watch --seed %s:\n%s\nwant\n%s", seed, again, want)
			}
		}
	}
	if len(secrets) < 2 {
		t.Errorf("6 watches drew only %v", secrets)
	}
}

// TestWatchLarge checks that watch, like solve and play, watches auto on a
// variant with more codes than the default strategy enumerates, rather
// than drawing a code and then failing; a strategy named on the command
// line is kept, and refused with its reason.
func TestWatchLarge(t *testing.T) {
	out := mustRun(t, "", "watch", "--delay", "0", "--show", "0", "--seed", "1", "--colors", "8", "--pegs", "7")
	if !strings.Contains(out, "with auto") {
		t.Errorf("watch on 8 x 7, the default strategy:\n%s", out)
	}
	if _, _, err := runCmd(t, "", "watch", "--delay", "0", "--strategy", "knuth", "--colors", "9", "--pegs", "8"); err == nil {
		t.Error("watch --strategy knuth on 9 x 8: no error")
	}
}

// TestWatchWidth checks that watch's lines fit 80 columns: the counts as
// wide as the largest that is shown (not 11 digits for 10 × 10's 10^10
// codes, 85 columns), the seed of a drawn code on a line of its own (90
// columns with the heading), the codes listed as many as fit.
func TestWatchWidth(t *testing.T) {
	for _, args := range [][]string{
		{"watch", "--colors", "10", "--pegs", "10", "--seed", "1"},
		{"watch", "--show", "0"},
		{"watch", "--strategy", "random-consistent", "--colors", "2", "--pegs", "20", "--show", "40", "--seed", "2"},
	} {
		out := mustRun(t, "", args...)
		for _, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > 79 {
				t.Errorf("mastermind %s: a line of %d columns: %q", strings.Join(args, " "), n, line)
			}
		}
	}
}
