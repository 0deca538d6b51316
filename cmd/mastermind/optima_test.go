package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/records"
)

// TestOptimaKilled kills optima midway through the table, by SIGKILL, and
// checks that it leaves a table it can read, with every row's tree, and
// that the next run solves only the rows left, to the table a run never
// stopped makes: records/'s rows and trees, byte for byte. (A search makes
// those, as records' TestOptimaRegenerate checks for the same rows, and
// TestOptimaShardKilled for 6 × 4 through optima; comparing with them
// rather than with a second whole run here saves half this test's time.)
func TestOptimaKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and solves tables of several seconds")
	}
	// Mostly waits on its child processes: it runs beside the other
	// tests that do.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".")
	bin := filepath.Join(dir, "mastermind")
	killed, whole := filepath.Join(dir, "killed"), filepath.Join("..", "..", "records")
	const maxCodes = 1300
	args := func(d string) []string {
		return []string{"optima", "--dir", d, "--max-codes", strconv.Itoa(maxCodes)}
	}
	var want []records.Optimum
	for _, o := range table(t, whole) {
		if o.Codes <= maxCodes {
			want = append(want, o)
		}
	}

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

// TestOptimaShardKilled kills a shard of 6 × 4's searches by SIGKILL once
// it has kept a part, and checks that the rounds of shards that follow
// resume it and end, through the merge, at records/'s row and tree, byte
// for byte.
func TestOptimaShardKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and solves 6 × 4 in shards, several seconds")
	}
	// Mostly waits on its child processes: it runs beside the other
	// tests that do.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".")
	bin := filepath.Join(dir, "mastermind")
	table := filepath.Join(dir, "table")
	args := func(more ...string) []string {
		return append([]string{"optima", "--dir", table, "--only", "6x4"}, more...)
	}
	cmd := exec.Command(bin, args("--shard", "0/2")...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(table, "optimal", "partial", "6x4")
	// Kill it once its list names a part (written after the part's tree).
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(2 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(partial, "journal-0.shard-0.json")); err == nil || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the shard ended before the kill reached it; the row is too small for this test")
	}
	// The parts the killed shard listed are kept, not solved again.
	var list struct{ Units []struct{ File string } }
	b, err := os.ReadFile(filepath.Join(partial, "journal-0.shard-0.json"))
	if err == nil {
		err = json.Unmarshal(b, &list)
	}
	if err != nil || len(list.Units) == 0 {
		t.Fatalf("the killed shard listed no part: %v", err)
	}
	before := map[string]time.Time{}
	for _, u := range list.Units {
		fi, err := os.Stat(filepath.Join(partial, u.File))
		if err != nil {
			t.Fatalf("the killed shard listed %s, and it is not there: %v", u.File, err)
		}
		before[u.File] = fi.ModTime()
	}
	rounds := 0
	for ; ; rounds++ {
		if rounds > 4 {
			t.Fatalf("no merge after %d rounds of shards", rounds)
		}
		for _, k := range []string{"0/2", "1/2"} {
			if _, errOut, code := runBin(t, nil, "", bin, args("--shard", k)...); code != 0 {
				t.Fatalf("round %d, shard %s: status %d: %s", rounds, k, code, errOut)
			}
			for file, mod := range before {
				if fi, err := os.Stat(filepath.Join(partial, file)); err != nil || !fi.ModTime().Equal(mod) {
					t.Errorf("resumed, the shard wrote %s again (%v)", file, err)
				}
			}
			before = nil // the merge removes the parts
		}
		_, errOut, code := runBin(t, nil, "", bin, args("--merge")...)
		if code == 0 {
			break
		}
		if code != 3 || !strings.Contains(errOut, "searches not done: 6x4") {
			t.Fatalf("merge after round %d: status %d: %s", rounds, code, errOut)
		}
	}
	b, err = os.ReadFile(filepath.Join(table, "optimal.csv"))
	if err != nil || !strings.Contains(string(b), "\n6,4,false,1296,5625,4.3403,6,5,5626,optimal/6x4.json.gz,") {
		t.Errorf("optimal.csv after the shards = %q, %v; want 6x4's row, 5625, worst 6; within 5, 5626", b, err)
	}
	got, err := os.ReadFile(filepath.Join(table, "optimal", "6x4.json.gz"))
	want, _ := os.ReadFile(filepath.Join("..", "..", "records", "optimal", "6x4.json.gz"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the sharded 6x4 tree differs from records/optimal/6x4.json.gz (%v)", err)
	}
}
