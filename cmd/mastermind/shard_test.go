package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
	type results struct {
		Results []struct{ Games, Total, Max int }
	}
	var got results
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Results) != 3 {
		t.Fatalf("merge --json: %v\n%s", err, out)
	}
	// knuth on 8 × 5: every secret, 183 966 guesses, at most 7.
	if r := got.Results[0]; r.Games != 32768 || r.Total != 183966 || r.Max != 7 {
		t.Errorf("merged knuth on 8x5: %+v; want 32768 games, 183966 guesses, at most 7", r)
	}
	// All three as one unsharded run gives them.
	whole, errOut, code := runBin(t, nil, "", bin, "bench", "--rules", "super", "--strategy", "knuth,entropy,most-parts", "--json")
	if code != 0 {
		t.Fatalf("unsharded run: status %d: %s", code, errOut)
	}
	var want results
	if err := json.Unmarshal([]byte(whole), &want); err != nil || len(want.Results) != 3 {
		t.Fatalf("bench --json: %v\n%s", err, whole)
	}
	for i := range want.Results {
		if got.Results[i] != want.Results[i] {
			t.Errorf("strategy %d merged: %+v; unsharded: %+v", i, got.Results[i], want.Results[i])
		}
	}
}
