package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/records"
)

// TestOptimaKilled kills optima midway through the table, by SIGKILL, and
// checks that it leaves a table it can read, with every row's tree, and
// that the next run solves only the rows left, to the table a run never
// stopped makes.
func TestOptimaKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and solves tables of several seconds")
	}
	dir := t.TempDir()
	build(t, dir, ".")
	bin := filepath.Join(dir, "mastermind")
	killed, whole := filepath.Join(dir, "killed"), filepath.Join(dir, "whole")
	args := func(d string) []string { return []string{"optima", "--dir", d, "--max-codes", "1300"} }
	if _, errOut, code := runBin(t, nil, "", bin, args(whole)...); code != 0 {
		t.Fatalf("optima: status %d: %s", code, errOut)
	}
	want := table(t, whole)

	cmd := exec.Command(bin, args(killed)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once 9 rows are in, the smallest: the rest take seconds.
	csv := filepath.Join(killed, "optimal.csv")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(csv)
		if bytes.Count(b, []byte("\n")) >= 10 || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatal("optima ended before the kill reached it; the table is too small for this test")
	}
	part := table(t, killed)
	if len(part) == 0 || len(part) >= len(want) {
		t.Fatalf("killed, optima left %d rows of %d", len(part), len(want))
	}
	for _, o := range part {
		if _, err := os.Stat(filepath.Join(killed, filepath.FromSlash(o.File))); err != nil {
			t.Errorf("killed, optima left the row of %v without its tree: %v", o.Rules, err)
		}
	}
	rest, errOut, code := runBin(t, nil, "", bin, args(killed)...)
	if code != 0 {
		t.Fatalf("optima after the kill: status %d: %s", code, errOut)
	}
	if n := strings.Count(rest, "\n"); n != len(want)-len(part) {
		t.Errorf("after the kill optima solved %d rows; want the %d left:\n%s", n, len(want)-len(part), rest)
	}
	got := table(t, killed)
	if len(got) != len(want) {
		t.Fatalf("resumed, the table has %d rows; want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		g.CPUSeconds, g.WallSeconds, w.CPUSeconds, w.WallSeconds = 0, 0, 0, 0
		if g != w {
			t.Errorf("resumed, row %+v; a run never stopped has %+v", g, w)
		}
		a, _ := os.ReadFile(filepath.Join(killed, filepath.FromSlash(g.File)))
		b, _ := os.ReadFile(filepath.Join(whole, filepath.FromSlash(w.File)))
		if !bytes.Equal(a, b) {
			t.Errorf("resumed, %s differs from a run never stopped", g.File)
		}
	}
}

// table reads dir's optimal.csv.
func table(t *testing.T, dir string) []records.Optimum {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "optimal.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := records.ReadOptima(f)
	if err != nil {
		t.Fatalf("optimal.csv: %v", err)
	}
	return rows
}
