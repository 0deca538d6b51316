package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

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
	dir := t.TempDir()
	build(t, dir, ".")
	bin := filepath.Join(dir, "mastermind")
	for _, after := range []time.Duration{0, 20 * time.Millisecond, 600 * time.Millisecond} {
		// Minutes if left alone.
		cmd := exec.Command(bin, "bench", "--colors", "8", "--pegs", "6", "--strategy", "knuth", "--games", "100")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
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
		handled := ws.Exited() && ws.ExitStatus() == 130 && stderr.String() == "mastermind: interrupted\n"
		byDefault := ws.Signaled() && ws.Signal() == syscall.SIGINT && stderr.Len() == 0
		switch {
		case after >= 500*time.Millisecond && !handled:
			t.Errorf("interrupted after %v: %v, stderr %q; want exit status 130 and the reason", after, cmd.ProcessState, &stderr)
		case !handled && !byDefault:
			t.Errorf("interrupted after %v: %v, stderr %q; want the signal's default action or exit status 130", after, cmd.ProcessState, &stderr)
		}
		if stdout.Len() != 0 {
			t.Errorf("interrupted after %v: stdout %q; want nothing", after, &stdout)
		}
	}
}
