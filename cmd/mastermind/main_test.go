package main

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// built holds the commands built so far, in one directory kept for the
// whole run: a link of mastermind-full takes seconds of CPU, and most tests
// here need it.
var built struct {
	mu   sync.Mutex
	dir  string
	done map[string]bool // by package
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// build builds the named commands of this module, once each, and puts
// them into dir side by side.
func build(t *testing.T, dir string, pkgs ...string) {
	t.Helper()
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir == "" {
		d, err := os.MkdirTemp("", "mastermind-test")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.done = d, map[string]bool{}
	}
	var todo []string
	for _, p := range pkgs {
		if !built.done[p] {
			todo = append(todo, p)
		}
	}
	if len(todo) > 0 {
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		args := append([]string{"build", "-o", built.dir + string(filepath.Separator)}, todo...)
		if out, err := exec.Command(goBin, args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, p := range todo {
			built.done[p] = true
		}
	}
	for _, p := range pkgs {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(abs)
		from, to := filepath.Join(built.dir, name), filepath.Join(dir, name)
		if os.Link(from, to) == nil {
			continue
		}
		b, err := os.ReadFile(from)
		if err == nil {
			err = os.WriteFile(to, b, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// runBin runs bin with args and stdin and returns its output and exit
// status.
func runBin(t *testing.T, env []string, stdin, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var xe *exec.ExitError
	switch {
	case errors.As(err, &xe):
		code = xe.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// TestLight checks that mastermind links none of the large dependencies,
// and that it runs mastermind-full, found beside it, for the commands that
// need them, with the same streams and exit status.
func TestLight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both commands")
	}
	// Mostly waits on its child processes: it runs beside the other
	// tests that do.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".", "../mastermind-full")
	light, full := filepath.Join(dir, "mastermind"), filepath.Join(dir, "mastermind-full")

	bi, err := buildinfo.ReadFile(light)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range bi.Deps {
		for _, heavy := range []string{"modernc.org/sqlite", "gonum.org/v1/plot", "charm.land/bubbletea", "charm.land/lipgloss", "github.com/chromedp"} {
			if strings.HasPrefix(m.Path, heavy) {
				t.Errorf("mastermind links %s", m.Path)
			}
		}
	}
	if bi, err := buildinfo.ReadFile(full); err != nil || !strings.Contains(bi.String(), "modernc.org/sqlite") {
		t.Errorf("mastermind-full does not link SQLite: %v", err)
	}

	// Computed here.
	if out, _, code := runBin(t, nil, "", light, "score", "1122", "1234"); out != "1 1\n" || code != 0 {
		t.Errorf("mastermind score = %q, status %d", out, code)
	}
	// Played in mastermind-full, on the same streams.
	out, _, code := runBin(t, nil, "1122\n3632\n", light, "play", "--secret", "3632")
	if code != 0 || !strings.Contains(out, "You found the code in 2 guesses!") {
		t.Errorf("mastermind play: status %d\n%s", code, out)
	}
	_, stderr, code := runBin(t, nil, "1122\n", light, "play", "--secret", "3632", "--max-guesses", "1")
	if code != 1 || !strings.Contains(stderr, "game lost") {
		t.Errorf("mastermind play, lost: status %d, %q; want 1", code, stderr)
	}
	plot := filepath.Join(dir, "hist.png")
	if _, stderr, code := runBin(t, nil, "", light, "bench", "--strategy", "knuth", "--plot", plot); code != 0 {
		t.Errorf("mastermind bench --plot: status %d, %s", code, stderr)
	} else if fi, err := os.Stat(plot); err != nil || fi.Size() < 1000 {
		t.Errorf("mastermind bench --plot wrote no figure: %v", err)
	}
	// Bad input is refused before mastermind-full runs.
	if _, stderr, code := runBin(t, []string{"MASTERMIND_FULL=/nonexistent"}, "", light, "serve", "--rate", "-1"); code != 2 || !strings.Contains(stderr, "--rate") {
		t.Errorf("mastermind serve --rate -1: status %d, %q; want 2", code, stderr)
	}

	// Alone, with no mastermind-full beside it or on PATH.
	// A hard link rather than a copy: a file written here could not be
	// run while another test's goroutine forks a child, which inherits
	// the file open for writing ("text file busy", golang/go#22315).
	alone := filepath.Join(t.TempDir(), "mastermind")
	if err := os.Link(light, alone); err != nil {
		t.Fatal(err)
	}
	noPath := []string{"PATH=" + t.TempDir()}
	_, stderr, code = runBin(t, noPath, "", alone, "assist")
	if code != 2 || !strings.Contains(stderr, "assist needs mastermind-full") || !strings.Contains(stderr, "go install ./cmd/...") || strings.Contains(stderr, "@latest") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("mastermind assist without mastermind-full: status %d, %q; want 2 and how to install it", code, stderr)
	}
	// Never a loop: a mastermind that mastermind-full ran cannot delegate.
	_, stderr, code = runBin(t, []string{"MASTERMIND_DELEGATED=1", "MASTERMIND_FULL=" + alone}, "", alone, "assist")
	if code != 2 || !strings.Contains(stderr, "not in this build") {
		t.Errorf("mastermind assist delegated to itself: status %d, %q", code, stderr)
	}
}
