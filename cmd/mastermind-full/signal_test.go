//go:build unix

package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

// TestSignalStops starts each long command, sends it an interrupt or
// SIGTERM once it is under way, and checks that it stops soon, with exit
// status 130 or 143, the one-line reason on stderr and nothing on stdout:
// partial work is not reported as a result.
func TestSignalStops(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	// Mostly waits on its own server, on a port and database of its own:
	// it runs beside the other tests that wait.
	t.Parallel()
	bin := buildBinary(t)
	srv := startServer(t, bin, filepath.Join(t.TempDir(), "games.db"))
	// A server that never answers: the client is interrupted waiting.
	stalled := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stalled:
		}
	}))
	t.Cleanup(func() { close(stalled); hung.Close() })
	// Each runs for minutes if left alone.
	long := []struct {
		name string
		args []string
	}{
		{"solve", []string{"solve", "--colors", "20", "--pegs", "20", "--budget", "10s", "123456789ABCDEFGHIJK"}},
		{"bench", []string{"bench", "--colors", "8", "--pegs", "6", "--strategy", "knuth", "--games", "100"}},
		{"grid", []string{"grid", "--colors", "8:8", "--pegs", "6:6", "--strategy", "knuth", "--games", "100"}},
		{"tree", []string{"tree", "--colors", "8", "--pegs", "6", "--strategy", "knuth"}},
		{"openings", []string{"openings", "--colors", "8", "--pegs", "6"}},
		{"client", []string{"client", "--server", srv.url, "--colors", "12", "--pegs", "12", "--games", "100", "--budget", "10s"}},
		{"client waiting", []string{"client", "--server", hung.URL, "--games", "1"}},
	}
	sigs := []struct {
		sig    syscall.Signal
		status int
		says   string
	}{
		{syscall.SIGINT, cli.ExitInterrupt, "mastermind: interrupted"},
		{syscall.SIGTERM, cli.ExitTerm, "mastermind: terminated"},
	}
	for i, c := range long {
		s := sigs[i%len(sigs)]
		t.Run(c.name+"/"+s.sig.String(), func(t *testing.T) {
			cmd, exited, stdout, stderr := startLong(t, bin, c.args...)
			select {
			case err := <-exited:
				t.Fatalf("%s ended before the signal: %v; stderr: %s", c.args, err, stderr)
			case <-time.After(700 * time.Millisecond):
			}
			start := time.Now()
			if err := cmd.Process.Signal(s.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still running 10 s after %v", c.args, s.sig)
			}
			// The target is a second; the test allows for a loaded machine.
			t.Logf("stopped %v after %v", time.Since(start).Round(time.Millisecond), s.sig)
			var xe *exec.ExitError
			if !errors.As(err, &xe) || xe.ExitCode() != s.status {
				t.Errorf("%s after %v: %v; want exit status %d", c.args, s.sig, err, s.status)
			}
			if got := stderr.String(); !saysOnly(got, s.says) {
				t.Errorf("stderr = %q; want %q, after the run's guessed time at most", got, s.says)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q; want nothing from work cut short", stdout)
			}
		})
	}
}

// startLong starts bin with args, as mastermind-full runs a command it was
// delegated, and returns the process, a channel that receives its end, and
// its output.
func startLong(t *testing.T, bin string, args ...string) (cmd *exec.Cmd, exited <-chan error, stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "MASTERMIND_DELEGATED=1")
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return cmd, done, stdout, stderr
}

// TestInterruptAnyTime interrupts a long command at once, early and late,
// and checks that it stops every time with nothing on stdout. Main asks
// for signals only after a tenth of a second: before, the interrupt's
// default action ends the process (a shell reports status 130 all the
// same); after, Main's handler cancels the work and exits with 130 and its
// reason on stderr.
func TestInterruptAnyTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it")
	}
	bin := buildBinary(t)
	for _, after := range []time.Duration{0, 20 * time.Millisecond, 600 * time.Millisecond} {
		// Minutes if left alone.
		cmd, exited, stdout, stderr := startLong(t, bin, "bench", "--colors", "8", "--pegs", "6", "--strategy", "knuth", "--games", "100")
		time.Sleep(after)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Fatalf("interrupted after %v: still running 10 s later", after)
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		handled := ws.Exited() && ws.ExitStatus() == cli.ExitInterrupt && saysOnly(stderr.String(), "mastermind: interrupted")
		byDefault := ws.Signaled() && ws.Signal() == syscall.SIGINT && saysOnly(stderr.String(), "")
		switch {
		case after >= 500*time.Millisecond && !handled:
			t.Errorf("interrupted after %v: %v, stderr %q; want exit status 130 and the reason", after, cmd.ProcessState, stderr)
		case !handled && !byDefault:
			t.Errorf("interrupted after %v: %v, stderr %q; want the signal's default action or exit status 130", after, cmd.ProcessState, stderr)
		}
		if stdout.Len() != 0 {
			t.Errorf("interrupted after %v: stdout %q; want nothing", after, stdout)
		}
	}
}

// saysOnly reports whether stderr holds the line says alone ("" for
// nothing), after at most the line that guesses the run's time, which
// bench, tree and openings write before a run of 10 s or more.
func saysOnly(stderr, says string) bool {
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) > 1 && strings.Contains(lines[0], ": about ") {
		lines = lines[1:]
	}
	if says == "" {
		return len(lines) == 0 || len(lines) == 1 && lines[0] == "" || len(lines) == 1 && strings.Contains(lines[0], ": about ")
	}
	return len(lines) == 1 && lines[0] == says
}
