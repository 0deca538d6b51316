package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// runShards runs the command line args as n shards, each writing its
// partial into dir, and returns the files.
func runShards(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var files []string
	for k := range n {
		file := filepath.Join(dir, fmt.Sprintf("part-%d.json", k))
		a := append(slices.Clone(args), "--shard", fmt.Sprintf("%d/%d", k, n), "--out", filepath.Join(dir, "part-%k.json"))
		if out := mustRun(t, "", a...); out != "" {
			t.Fatalf("mastermind %s printed %q; a shard with --out prints nothing", strings.Join(a, " "), out)
		}
		files = append(files, file)
	}
	return files
}

// untimed removes what measures wall time from a command's output:
// JSON's seconds fields, CSV's seconds columns, the seconds row of bench's
// table, the seconds column of openings' and grid's tables.
func untimed(t *testing.T, out string) string {
	t.Helper()
	switch {
	case strings.HasPrefix(out, "{"):
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		var strip func(v any)
		strip = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				delete(x, "seconds")
				delete(x, "secondsPerGame")
				for _, y := range x {
					strip(y)
				}
			case []any:
				for _, y := range x {
					strip(y)
				}
			}
		}
		strip(v)
		b, _ := json.MarshalIndent(v, "", " ")
		return string(b)
	case strings.HasPrefix(out, "strategy,") || strings.HasPrefix(out, "rank,"):
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("not CSV: %v\n%s", err, out)
		}
		for i, h := range rows[0] {
			if h == "seconds" || h == "seconds_per_game" {
				for _, row := range rows[1:] {
					row[i] = "-"
				}
			}
		}
		var b strings.Builder
		csv.NewWriter(&b).WriteAll(rows)
		return b.String()
	}
	var keep []string
	timeCell := regexp.MustCompile(`\s+\d+\.\d+e[-+]\d+`) // grid's seconds/game
	seconds := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "seconds"): // bench's row
			continue
		case strings.HasPrefix(line, "rank") && strings.HasSuffix(line, "seconds"): // openings' column
			seconds = true
		case line == "":
			seconds = false
		}
		if seconds {
			line = line[:strings.LastIndexAny(line, " ")]
		}
		keep = append(keep, timeCell.ReplaceAllString(line, " -"))
	}
	return strings.Join(keep, "\n")
}

// TestMergeEqualsWholeRun checks, for every command that runs in shards,
// that merging the shards' partials prints what the command prints run
// whole, in each of its output formats, wall times aside.
func TestMergeEqualsWholeRun(t *testing.T) {
	tests := []struct {
		args    []string
		formats [][]string
		shards  []int
	}{
		{[]string{"bench"}, [][]string{nil, {"--json"}, {"--csv"}}, []int{1, 3}},
		{[]string{"bench", "--strategy", "optimal,knuth", "--colors", "5", "--max-guesses", "4"}, [][]string{nil, {"--json"}, {"--csv"}}, []int{2, 4}},
		{[]string{"bench", "--strategy", "deep,random-consistent", "--effort", "high", "--colors", "5", "--games", "400", "--seed", "3"}, [][]string{nil, {"--json"}}, []int{3}},
		{[]string{"bench", "--strategy", "deep", "--effort", "record", "--colors", "5"}, [][]string{{"--json"}}, []int{4}},
		// Every code a guess, walked from a given opening: the shards
		// walk only their own subtrees, and add up to the whole walk.
		{[]string{"bench", "--strategy", "entropy,knuth", "--colors", "6", "--pegs", "5", "--opening", "11223", "--near=false"}, [][]string{{"--csv"}}, []int{3, 16}},
		{[]string{"tree", "--strategy", "optimal"}, [][]string{nil, {"--json"}, {"--format", "dot"}}, []int{1, 4}},
		{[]string{"tree", "--strategy", "most-parts", "--rules", "bulls-cows"}, [][]string{nil}, []int{5}},
		{[]string{"tree", "--strategy", "deep", "--effort", "record", "--colors", "5", "--alphabet", "RGBYO"}, [][]string{{"--format", "json"}}, []int{3}},
		{[]string{"openings", "--strategy", "knuth"}, [][]string{nil, {"--json"}, {"--csv"}}, []int{2, 6}},
		{[]string{"openings", "--strategy", "random-consistent", "--games", "300", "--colors", "5", "--max-guesses", "5"}, [][]string{nil, {"--json"}}, []int{3}},
		{[]string{"grid", "--pegs", "2:4", "--colors", "3:6", "--games", "30", "--strategy", "knuth,random-consistent", "--max-guesses", "6"},
			[][]string{nil, {"--json"}, {"--csv"}}, []int{1, 4}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			// The whole run in each format, once for every number of
			// shards.
			wholes := make([]string, len(tt.formats))
			for i, format := range tt.formats {
				wholes[i] = mustRun(t, "", append(slices.Clone(tt.args), format...)...)
				if len(untimed(t, wholes[i])) < 100 {
					t.Fatalf("mastermind %s %v printed only %q", strings.Join(tt.args, " "), format, wholes[i])
				}
			}
			for _, n := range tt.shards {
				files := runShards(t, t.TempDir(), n, tt.args...)
				for i, format := range tt.formats {
					whole := wholes[i]
					merged := mustRun(t, "", append(append([]string{"merge"}, format...), files...)...)
					if g, w := untimed(t, merged), untimed(t, whole); g != w {
						t.Errorf("%d shards, %v: merge prints\n%s\nthe whole run\n%s", n, format, g, w)
					}
				}
			}
		})
	}
}

// TestShardErrors checks the errors of shards and of merge: each names the
// flag, file or shard at fault, and merge prints nothing then.
func TestShardErrors(t *testing.T) {
	dir := t.TempDir()
	files := runShards(t, dir, 3, "bench", "--strategy", "knuth", "--colors", "5")
	other := runShards(t, t.TempDir(), 3, "bench", "--strategy", "entropy", "--colors", "5")
	tree := runShards(t, t.TempDir(), 3, "tree", "--colors", "5")
	half := filepath.Join(dir, "half.json")
	b, err := os.ReadFile(files[2])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(half, b[:len(b)*2/3], 0o644)

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"merge", files[0], files[1]}, "shard 2 of 3 missing: rerun it with --shard 2/3"},
		{[]string{"merge", files[0], files[1], files[1], files[2]}, "are both shard 1/3"},
		{[]string{"merge", files[0], other[1], files[2]}, other[1] + " has --strategy entropy, and " + files[0] + " has knuth"},
		{[]string{"merge", files[0], tree[1], files[2]}, tree[1] + " is a shard of tree, and " + files[0] + " of bench"},
		{[]string{"merge", files[0], files[1], half}, "half.json: not a whole partial result"},
		{[]string{"merge"}, "expected the partial results"},
		{[]string{"merge", "--format", "dot", files[0], files[1], files[2]}, "--format does not apply to bench"},
		{[]string{"merge", "--csv", tree[0], tree[1], tree[2]}, "--csv does not apply to tree"},
		{[]string{"merge", "--colors", "7", files[0], files[1], files[2]}, "--colors: merge takes the rules the shards ran, from their partials; give it to the bench of every shard"},
		{[]string{"merge", "--rules", "super", tree[0], tree[1], tree[2]}, "--rules: merge takes the rules the shards ran"},
		{[]string{"bench", "--shard", "3/3"}, "--shard 3/3: shard 3 of 3: want 0 to 2"},
		{[]string{"bench", "--shard", "0/2", "--json"}, "--json: shard 0/2 writes a partial result; give --json to mastermind merge"},
		{[]string{"tree", "--shard", "0/2", "--format", "dot"}, "--format: shard 0/2 writes a partial result"},
		{[]string{"bench", "--shard", "0/2", "--out", filepath.Join(dir, "x-%d.json")}, "%d means nothing"},
		{[]string{"bench", "--shard-count", "4"}, "--shard-count needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"},
		{[]string{"tree", "--strategy", "random", "--shard", "0/2"}, "random is randomised and has no fixed decision tree"},
		{[]string{"bench", "--tree", filepath.Join(dir, "t.json"), "--shard", "0/2"}, "--tree: a tree file plays back in one run, not in shards"},
	}
	for _, tt := range tests {
		out, _, err := runCmd(t, "", tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("mastermind %s: %v; want an error with %q", strings.Join(tt.args, " "), err, tt.want)
		}
		if out != "" {
			t.Errorf("mastermind %s printed %q with its error", strings.Join(tt.args, " "), out)
		}
	}
}

// TestShardFromEnvironment checks that a Slurm array task and a Kubernetes
// Indexed Job's pod find their shard in the environment, that the partial
// goes to stdout without --out, and that merge takes the files in any
// order.
func TestShardFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--strategy", "expected-size", "--colors", "5"}
	var files []string
	for k := range 3 {
		t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(k))
		t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
		t.Setenv("SLURM_ARRAY_TASK_MIN", "0")
		t.Setenv("SLURM_ARRAY_TASK_MAX", "2")
		file := filepath.Join(dir, fmt.Sprintf("slurm-%d.json", 2-k))
		if err := os.WriteFile(file, []byte(mustRun(t, "", args...)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	want := untimed(t, mustRun(t, "", append(args, "--json")...))
	if got := untimed(t, mustRun(t, "", append([]string{"merge", "--json"}, files...)...)); got != want {
		t.Errorf("merge of the Slurm tasks' partials:\n%s\nwant\n%s", got, want)
	}
	files = files[:0]
	for k := range 2 {
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(k))
		mustRun(t, "", append(args, "--shard-count", "2", "--out", filepath.Join(dir, "k8s-%k-of-%n.json"))...)
		files = append(files, filepath.Join(dir, fmt.Sprintf("k8s-%d-of-2.json", k)))
	}
	if got := untimed(t, mustRun(t, "", append([]string{"merge", "--json"}, files...)...)); got != want {
		t.Errorf("merge of the Indexed Job's partials:\n%s\nwant\n%s", got, want)
	}
	// A directory stands for its partials; here those of both jobs, which
	// merge tells apart.
	if _, _, err := runCmd(t, "", "merge", dir); err == nil || !strings.Contains(err.Error(), "of 3 shards, and") {
		t.Errorf("merge of a directory of two jobs' partials: %v; want an error naming the counts of shards", err)
	}
	k8s := filepath.Join(dir, "k8s")
	os.Mkdir(k8s, 0o755)
	for _, f := range files {
		os.Rename(f, filepath.Join(k8s, filepath.Base(f)))
	}
	os.WriteFile(filepath.Join(k8s, ".k8s-0-of-2.json.123.tmp"), []byte("{"), 0o644)
	if got := untimed(t, mustRun(t, "", "merge", "--json", k8s)); got != want {
		t.Errorf("merge of a directory:\n%s\nwant\n%s", got, want)
	}
	if _, _, err := runCmd(t, "", "merge", t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no partial results") {
		t.Errorf("merge of an empty directory: %v", err)
	}
}

// TestShardProgress checks that a shard's progress line counts its games
// as they end, over every work of the job (bench's strategies, openings'
// first guesses), out of the games of its units, with the time left.
func TestShardProgress(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--strategy", "entropy", "--all"},
		{"bench", "--strategy", "knuth,entropy", "--all"},
		{"openings", "--strategy", "knuth"},
	} {
		var errOut syncBuffer
		var out strings.Builder
		e := newEnv(strings.NewReader(""), &out, &errOut, nil)
		e.StderrTTY = true
		part := filepath.Join(t.TempDir(), "part.json")
		if err := e.run(context.Background(), append(slices.Clone(args), "--shard", "1/3", "--out", part)); err != nil {
			t.Fatal(err)
		}
		p, err := shard.ReadFile(part)
		if err != nil {
			t.Fatal(err)
		}
		games := 0
		for _, r := range p.Results {
			var o shard.Outcome
			if err := json.Unmarshal(r.Data, &o); err != nil {
				t.Fatal(err)
			}
			for _, c := range o.Histogram {
				games += c
			}
		}
		lines := strings.Split(errOut.String(), "\r\033[K")
		last := fmt.Sprintf("shard 1/3: %d of %d games", games, games)
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, last) }) {
			t.Errorf("%s: no line %q among the shard's news:\n%q", strings.Join(args, " "), last, lines)
		}
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " left") }) {
			t.Errorf("%s: no line gives the time left:\n%q", strings.Join(args, " "), lines)
		}
	}
}
