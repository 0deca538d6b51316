package shard_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want shard.Spec
		err  string
	}{
		{"0/4", shard.Spec{Index: 0, Count: 4}, ""},
		{" 3 / 4 ", shard.Spec{Index: 3, Count: 4}, ""},
		{"0/1", shard.Spec{Index: 0, Count: 1}, ""},
		{"4/4", shard.Spec{}, "shard 4 of 4: want 0 to 3"},
		{"-1/4", shard.Spec{}, "want 0 to 3"},
		{"0/0", shard.Spec{}, "want 1 to 100000 shards"},
		{"1", shard.Spec{}, "want K/N"},
		{"a/b", shard.Spec{}, "want K/N"},
	}
	for _, tt := range tests {
		got, err := shard.Parse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestResolve checks which shard the flags and the environment choose, and
// which wins.
func TestResolve(t *testing.T) {
	tests := []struct {
		name  string
		flag  string
		count int
		env   map[string]string
		want  shard.Spec
		ok    bool
		err   string
	}{
		{"nothing", "", 0, nil, shard.Spec{}, false, ""},
		{"flag", "1/3", 0, nil, shard.Spec{Index: 1, Count: 3}, true, ""},
		{"flag wins over Slurm", "1/3", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, shard.Spec{Index: 1, Count: 3}, true, ""},
		{"flag and count disagree", "1/3", 4, nil, shard.Spec{}, false, "disagree"},
		{"Slurm", "", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"},
			shard.Spec{Index: 2, Count: 4}, true, ""},
		{"Slurm rerun with count", "", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"},
			shard.Spec{Index: 2, Count: 4}, true, ""},
		{"Slurm rerun without count", "", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"},
			shard.Spec{}, false, "give --shard-count"},
		{"Slurm wins over Kubernetes", "", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "0"},
			shard.Spec{Index: 1, Count: 2}, true, ""},
		{"Slurm index out of the count", "", 3, map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, shard.Spec{}, false, "want 0 to 2"},
		{"Slurm garbage", "", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, shard.Spec{}, false, "SLURM_ARRAY_TASK_ID"},
		{"Kubernetes", "", 5, map[string]string{"JOB_COMPLETION_INDEX": "4"}, shard.Spec{Index: 4, Count: 5}, true, ""},
		{"Kubernetes without count", "", 0, map[string]string{"JOB_COMPLETION_INDEX": "4"}, shard.Spec{}, false, "--shard-count"},
		{"count alone", "", 4, nil, shard.Spec{}, false, "needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"},
	}
	for _, tt := range tests {
		got, ok, err := shard.Resolve(tt.flag, tt.count, func(k string) string { return tt.env[k] })
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: Resolve = %v, %v, %v; want an error with %q", tt.name, got, ok, err, tt.err)
			}
			continue
		}
		if err != nil || ok != tt.ok || got != tt.want {
			t.Errorf("%s: Resolve = %v, %v, %v; want %v, %v", tt.name, got, ok, err, tt.want, tt.ok)
		}
	}
}

func TestOutPath(t *testing.T) {
	sp := shard.Spec{Index: 3, Count: 8}
	for in, want := range map[string]string{
		"part.json":           "part.json",
		"parts/bench-%k.json": "parts/bench-3.json",
		"%k-of-%n":            "3-of-8",
		"100%%-%k":            "100%-3",
	} {
		if got, err := shard.OutPath(in, sp); err != nil || got != want {
			t.Errorf("OutPath(%q, %v) = %q, %v; want %q", in, sp, got, err, want)
		}
	}
	for _, bad := range []string{"part-%d.json", "part-%"} {
		if got, err := shard.OutPath(bad, sp); err == nil {
			t.Errorf("OutPath(%q) = %q; want an error", bad, got)
		}
	}
}

// TestAssign checks the longest-processing-time split: deterministic, every
// unit dealt, the loads within the rule's bound.
func TestAssign(t *testing.T) {
	costs := []int64{5, 9, 1, 1, 7, 3, 3, 8, 2, 6, 4, 4}
	got := shard.Assign(costs, 3)
	if again := shard.Assign(costs, 3); !slices.Equal(got, again) {
		t.Fatalf("Assign gave %v, then %v", got, again)
	}
	loads := make([]int64, 3)
	for u, k := range got {
		if k < 0 || k >= 3 {
			t.Fatalf("unit %d dealt to shard %d of 3", u, k)
		}
		loads[k] += costs[u]
	}
	// 53 in all: the best split is 18, 18, 17; the rule gives no worse than
	// 4/3 of it.
	if most := slices.Max(loads); most > 18*4/3 {
		t.Errorf("loads %v; want none above %d", loads, 18*4/3)
	}
	if got[1] != 0 || got[7] != 1 || got[4] != 2 {
		t.Errorf("the three costliest units go to shards %d, %d, %d; want 0, 1, 2", got[1], got[7], got[4])
	}
	if one := shard.Assign(costs, 1); slices.Max(one) != 0 {
		t.Errorf("Assign to one shard = %v", one)
	}
	if n := shard.Normalize([]int64{1, 3, 0}, 1000); !slices.Equal(n, []int64{250, 750, 1}) {
		t.Errorf("Normalize = %v; want [250 750 1]", n)
	}
}

// partials writes the partials of a small job of n shards into dir, each
// shard's units' results a number, and returns their files.
func partials(t *testing.T, dir string, n int, settings map[string]string) []string {
	t.Helper()
	var files []string
	costs := []int64{4, 3, 3, 2, 2, 1}
	for k := range n {
		p, err := shard.NewPartial("bench", settings, shard.Spec{Index: k, Count: n}, map[string]int{"plan": 1}, costs)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.Mine() {
			if err := p.Add(u, 0.5, u*10); err != nil {
				t.Fatal(err)
			}
		}
		file := filepath.Join(dir, fmt.Sprintf("part-%d.json", k))
		if err := shard.WriteFile(file, p); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	return files
}

// TestCollect checks that a whole set of partials merges, and that every
// fault is an error naming the file or shard at fault.
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	settings := map[string]string{"strategy": "knuth", "colors": "8"}
	files := partials(t, dir, 3, settings)
	all, err := shard.Collect(files)
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	for u, r := range all.Results {
		if r.Unit != u || string(r.Data) != fmt.Sprint(u*10) {
			t.Errorf("result %d = unit %d, %s; want unit %d, %d", u, r.Unit, r.Data, u, u*10)
		}
	}
	// In any order.
	if _, err := shard.Collect([]string{files[2], files[0], files[1]}); err != nil {
		t.Errorf("Collect in another order: %v", err)
	}

	other := partials(t, t.TempDir(), 3, map[string]string{"strategy": "entropy", "colors": "8"})
	four := partials(t, t.TempDir(), 4, settings)
	truncated := filepath.Join(dir, "truncated.json")
	b, _ := os.ReadFile(files[1])
	os.WriteFile(truncated, b[:len(b)/2], 0o644)
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, bytes.Replace(b, []byte(`"seconds":0.5`), []byte(`"seconds":0.6`), 1), 0o644)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, bytes.Replace(b, []byte(`"cost":4`), []byte(`"cost":5`), 1), 0o644)

	tests := []struct {
		name  string
		files []string
		err   string
	}{
		{"none", nil, "no partial results"},
		{"missing", files[:2], "shard 2 of 3 missing: rerun it with --shard 2/3"},
		{"a run missing", four[:1], "shard 1–3 of 4 missing: rerun it with --shard 1/4"},
		{"two missing", four[1:3], "shard 0, 3 of 4 missing: rerun it with --shard 0/4"},
		{"duplicate", []string{files[0], files[1], files[1], files[2]}, "part-1.json and " + files[1] + " are both shard 1/3"},
		{"other strategy", []string{files[0], other[1], files[2]}, other[1] + " has --strategy entropy, and " + files[0] + " has knuth"},
		{"other count", []string{files[0], four[1], files[2]}, "of 4 shards"},
		{"truncated", []string{files[0], truncated, files[2]}, "truncated.json: not a whole partial result"},
		{"tampered", []string{files[0], tampered, files[2]}, "tampered.json: its content hash does not match"},
		{"absent", []string{files[0], filepath.Join(dir, "nope.json")}, "nope.json"},
	}
	for _, tt := range tests {
		_, err := shard.Collect(tt.files)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: Collect = %v; want an error with %q", tt.name, err, tt.err)
		}
	}
	// A result's own time is not part of the job's inputs; what it says
	// is the shard's word.
	if _, err := shard.Collect([]string{files[0], edited, files[2]}); err != nil {
		t.Errorf("Collect with a unit's seconds changed: %v", err)
	}
}

// TestWriteFileLeavesNothingHalfDone checks that WriteFile leaves either the
// whole file or none, and no temporary file behind when it fails.
func TestWriteFileLeavesNothingHalfDone(t *testing.T) {
	dir := t.TempDir()
	p, err := shard.NewPartial("bench", nil, shard.Spec{Index: 0, Count: 1}, nil, []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	if err := shard.WriteFile(filepath.Join(dir, "missing-dir", "p.json"), p); err == nil {
		t.Error("WriteFile into a missing directory: no error")
	}
	p.Results = append(p.Results, shard.Result{Unit: 0, Data: []byte("{bad json")})
	if err := shard.WriteFile(filepath.Join(dir, "p.json"), p); err == nil {
		t.Error("WriteFile of a result that is not JSON: no error")
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Errorf("failed writes left %v", left)
	}
}
