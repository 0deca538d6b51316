package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestShardKilled kills a shard midway — by SIGTERM, as Slurm cancels a
// task, and by SIGKILL — and checks that it leaves no file that merge
// accepts, that merge names the shard missing, and that rerunning the shard
// alone completes the job.
func TestShardKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs a job of several seconds")
	}
	// Mostly waits on its child processes: it runs beside the other
	// tests that do.
	t.Parallel()
	dir := t.TempDir()
	build(t, dir, ".")
	bin := filepath.Join(dir, "mastermind")
	// Three strategies on one worker: about 3 s a shard on the project's
	// machine when quiet. With knuth alone on every core a shard ended in
	// 0.7 s, before the signal below, since the engine got faster.
	job := []string{"bench", "--rules", "super", "--strategy", "knuth,entropy,most-parts", "--workers", "1", "--out", filepath.Join(dir, "part-%k.json")}
	part := func(k string) string { return filepath.Join(dir, "part-"+k+".json") }

	if _, errOut, code := runBin(t, nil, "", bin, append(job, "--shard", "1/2")...); code != 0 {
		t.Fatalf("shard 1/2: status %d: %s", code, errOut)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		cmd := exec.Command(bin, append(job, "--shard", "0/2")...)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if err == nil {
			t.Fatalf("shard 0/2 ended before %v reached it; the job is too small for this test", sig)
		}
		if _, err := os.Stat(part("0")); !os.IsNotExist(err) {
			t.Fatalf("shard 0/2 killed by %v left %s (%v)", sig, part("0"), err)
		}
		_, merr, code := runBin(t, nil, "", bin, "merge", part("1"))
		if code != 2 || !strings.Contains(merr, "shard 0 of 2 missing: rerun it with --shard 0/2") {
			t.Errorf("merge without shard 0, killed by %v: status %d, %q", sig, code, merr)
		}
		left, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(left) != 1 {
			t.Errorf("after %v: %v; want only shard 1's partial", sig, left)
		}
	}
	if _, errOut, code := runBin(t, nil, "", bin, append(job, "--shard", "0/2")...); code != 0 {
		t.Fatalf("shard 0/2 rerun: status %d: %s", code, errOut)
	}
	out, errOut, code := runBin(t, nil, "", bin, "merge", "--json", part("0"), part("1"))
	if code != 0 {
		t.Fatalf("merge: status %d: %s", code, errOut)
	}
	var got struct {
		Results []struct {
			Strategy          string
			Games, Total, Max int
			Histogram         map[string]int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Results) != 3 {
		t.Fatalf("merge --json: %v\n%s", err, out)
	}
	// The merged shards give what one unsharded run gives: the totals
	// strategy's TestGoldenTotals pins for the whole of 8 × 5 (knuth:
	// every secret, 183 966 guesses, at most 7). Read from its golden
	// files rather than run again here, which took 5 s of CPU more than
	// the rest of this test and checked nothing else.
	for _, r := range got.Results {
		var hist []string
		for k := 1; k <= r.Max; k++ {
			if n := r.Histogram[strconv.Itoa(k)]; n > 0 {
				hist = append(hist, fmt.Sprintf("%d:%d", k, n))
			}
		}
		sum := fmt.Sprintf("strategy %s\nrules 8x5\ngames %d\ntotal %d\nmean %.3f\nmax %d\nhistogram %s\n",
			r.Strategy, r.Games, r.Total, float64(r.Total)/float64(r.Games), r.Max, strings.Join(hist, " "))
		want, err := os.ReadFile(filepath.Join("..", "..", "strategy", "testdata", r.Strategy+"-8x5.golden"))
		if err != nil {
			t.Fatal(err)
		}
		if sum != string(want) {
			t.Errorf("merged %s on 8x5:\n%s\nan unsharded run (strategy/testdata):\n%s", r.Strategy, sum, want)
		}
	}
}
