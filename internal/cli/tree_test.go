package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The JSON form of a tree, read here independently of package records.
type treeNodeJSON struct {
	Guess    string           `json:"guess"`
	Size     int              `json:"size"`
	Branches []treeBranchJSON `json:"branches,omitempty"`
}

type treeBranchJSON struct {
	Black int           `json:"black"`
	White int           `json:"white"`
	Next  *treeNodeJSON `json:"next"`
}

type treeJSON struct {
	Rules    rulesJSON     `json:"rules"`
	Strategy string        `json:"strategy"`
	Games    int           `json:"games"`
	Total    int           `json:"total"`
	Max      int           `json:"max"`
	Nodes    int           `json:"nodes"`
	Tree     *treeNodeJSON `json:"tree"`
}

// TestTreeReplaysBench writes the tree of each deterministic strategy as
// JSON, follows it for every secret, and checks that the guesses add up to
// exactly what bench reports for the same strategy.
func TestTreeReplaysBench(t *testing.T) {
	cases := []struct {
		rules    []string
		strategy string
		extra    []string
	}{
		{nil, "knuth", nil},
		{nil, "expected-size", nil},
		{nil, "entropy", nil},
		{nil, "most-parts", nil},
		{nil, "first-consistent", nil},
		{nil, "optimal", nil},
		{nil, "optimal", []string{"--max-depth", "5"}},
		{nil, "knuth", []string{"--consistent-only"}},
		{[]string{"--colors", "5", "--pegs", "3", "--distinct"}, "most-parts", nil},
		{[]string{"--colors", "4", "--pegs", "4"}, "optimal", nil},
	}
	for _, c := range cases {
		name := strings.Join(append(append(append([]string{}, c.rules...), c.strategy), c.extra...), " ")
		t.Run(name, func(t *testing.T) {
			args := append(append([]string{"tree", "--format", "json", "--strategy", c.strategy}, c.rules...), c.extra...)
			var tj treeJSON
			if err := json.Unmarshal([]byte(mustRun(t, "", args...)), &tj); err != nil {
				t.Fatalf("tree JSON: %v", err)
			}
			args = append(append([]string{"bench", "--json", "--strategy", c.strategy}, c.rules...), c.extra...)
			var bj struct {
				Results []struct {
					Games, Total, Max int
					Histogram         map[string]int
				}
			}
			if err := json.Unmarshal([]byte(mustRun(t, "", args...)), &bj); err != nil {
				t.Fatalf("bench JSON: %v", err)
			}
			want := bj.Results[0]

			r := mm.Rules{Colors: tj.Rules.Colors, Pegs: tj.Rules.Pegs, Distinct: tj.Rules.Distinct}
			sp, err := mm.SpaceOf(r)
			if err != nil {
				t.Fatal(err)
			}
			total, worst := 0, 0
			hist := map[string]int{}
			for _, secret := range sp.All().Codes() {
				n := follow(t, r, tj.Tree, secret)
				total += n
				worst = max(worst, n)
				hist[itoa(n)]++
			}
			if total != want.Total || worst != want.Max || sp.Len() != want.Games {
				t.Errorf("replaying the tree: %d games, total %d, worst %d; bench: %d, %d, %d",
					sp.Len(), total, worst, want.Games, want.Total, want.Max)
			}
			for k, v := range want.Histogram {
				if hist[k] != v {
					t.Errorf("replaying the tree: %s guesses %d times; bench says %d", k, hist[k], v)
				}
			}
			if tj.Total != total || tj.Max != worst {
				t.Errorf("tree header says total %d, max %d; replaying gives %d, %d", tj.Total, tj.Max, total, worst)
			}
		})
	}
}

// follow plays secret through the JSON tree and returns the guesses made.
func follow(t *testing.T, r mm.Rules, n *treeNodeJSON, secret mm.Code) int {
	t.Helper()
	for depth := 1; n != nil; depth++ {
		g, err := r.ParseCode(n.Guess)
		if err != nil {
			t.Fatalf("tree guess %q: %v", n.Guess, err)
		}
		f := mm.Score(secret, g)
		if f.Solved(r.Pegs) {
			return depth
		}
		var next *treeNodeJSON
		for _, b := range n.Branches {
			if b.Black == f.Black && b.White == f.White {
				next = b.Next
			}
		}
		if next == nil {
			t.Fatalf("tree has no branch %s after %s for secret %s", f, g, secret)
		}
		n = next
	}
	t.Fatalf("tree ran out for secret %s", secret)
	return 0
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestTreeFormats checks the text and DOT forms on a small variant.
func TestTreeFormats(t *testing.T) {
	text := mustRun(t, "", "tree", "--colors", "3", "--pegs", "2")
	if !strings.HasPrefix(text, "# knuth on 3x2: 9 secrets") || !strings.Contains(text, "\n  ") {
		t.Errorf("tree text =\n%s", text)
	}
	dot := mustRun(t, "", "tree", "--colors", "3", "--pegs", "2", "--format", "dot")
	if !strings.HasPrefix(dot, "digraph ") || !strings.Contains(dot, "->") || !strings.HasSuffix(dot, "}\n") {
		t.Errorf("tree dot =\n%s", dot)
	}
	irving := mustRun(t, "", "tree", "--colors", "3", "--pegs", "2", "--format", "irving")
	if want := "# mastermind tree colors=3 pegs=2 distinct=false strategy=knuth\n" +
		"{11:{00:{22:{00:33,10:{23:{02:32}}}},10:{12:{01:31,02:21,10:13}}}}\n"; irving != want {
		t.Errorf("tree --format irving =\n%s\nwant\n%s", irving, want)
	}
	if _, _, err := runCmd(t, "", "tree", "--format", "svg"); err == nil {
		t.Errorf("tree --format svg = nil error")
	}
	if _, _, err := runCmd(t, "", "tree", "--strategy", "random-consistent"); err == nil {
		t.Errorf("tree --strategy random-consistent = nil error; a randomised strategy has no tree")
	}
}

// TestBenchTree writes trees with tree --format json and plays them back
// with bench --tree: the figures are bench's for the same strategies,
// gzipped files read too, and broken trees are errors that name the
// secret or the rules.
func TestBenchTree(t *testing.T) {
	dir := t.TempDir()
	knuth := filepath.Join(dir, "knuth.json")
	if err := os.WriteFile(knuth, []byte(mustRun(t, "", "tree", "--json", "--strategy", "knuth")), 0o644); err != nil {
		t.Fatal(err)
	}
	optimal := filepath.Join(dir, "optimal.json.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(mustRun(t, "", "tree", "--json", "--strategy", "optimal")))
	zw.Close()
	if err := os.WriteFile(optimal, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := func(s string) string { // the table without its seconds row
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "seconds") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	got := cut(mustRun(t, "", "bench", "--tree", knuth, "--tree", optimal))
	want := cut(mustRun(t, "", "bench", "--strategy", "knuth,optimal"))
	if got != want {
		t.Errorf("bench --tree =\n%s\nbench --strategy knuth,optimal =\n%s", got, want)
	}

	// The compact notation plays back the same, with its rules or under
	// the flags.
	irving := filepath.Join(dir, "knuth.txt")
	os.WriteFile(irving, []byte(mustRun(t, "", "tree", "--format", "irving", "--strategy", "knuth")), 0o644)
	if got, want := cut(mustRun(t, "", "bench", "--tree", irving)), cut(mustRun(t, "", "bench", "--strategy", "knuth")); got != want {
		t.Errorf("bench --tree of an irving file =\n%s\nwant\n%s", got, want)
	}
	published := filepath.Join(dir, "published.txt")
	os.WriteFile(published, []byte("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}\n"), 0o644)
	if out := mustRun(t, "", "bench", "--tree", published, "--colors", "3", "--pegs", "2", "--alphabet", "ABC"); !regexp.MustCompile(`(?m)^total +21$`).MatchString(out) {
		t.Errorf("bench --tree of a published 3x2 strategy =\n%s\nwant 21 guesses in all", out)
	}
	if _, _, err := runCmd(t, "", "bench", "--tree", published); err == nil || !strings.Contains(err.Error(), "does not name its rules") {
		t.Errorf("bench --tree of a published 3x2 strategy without rules = %v; want the missing rules named", err)
	}

	// A tree that misses secrets: only its first guess.
	partial := filepath.Join(dir, "partial.json")
	os.WriteFile(partial, []byte(`{"rules":{"colors":6,"pegs":4},"strategy":"x","tree":{"guess":"1122","size":1296}}`), 0o644)
	if _, _, err := runCmd(t, "", "bench", "--tree", partial); err == nil || !strings.Contains(err.Error(), "does not find") {
		t.Errorf("bench --tree of a one-node tree = %v; want an error naming a secret it misses", err)
	}
	if _, _, err := runCmd(t, "", "bench", "--tree", knuth, "--colors", "5"); err == nil || !strings.Contains(err.Error(), "not 5x4") {
		t.Errorf("bench --tree of a 6x4 tree with --colors 5 = %v; want the rules named", err)
	}
	if _, _, err := runCmd(t, "", "bench", "--tree", filepath.Join(dir, "none.json")); err == nil {
		t.Errorf("bench --tree of a missing file = nil error")
	}
}

// TestTreeLongRefused checks that tree refuses a tree guessed past an hour
// before it grows any of it, naming shards and --yes but not --games,
// which tree does not take.
func TestTreeLongRefused(t *testing.T) {
	_, _, err := runCmd(t, "", "tree", "--colors", "9", "--pegs", "6", "--strategy", "entropy", "--rollout", "64", "--format", "json")
	if err == nil || !strings.Contains(err.Error(), "every secret with entropy of 9 colours × 6 pegs: about ") ||
		!strings.Contains(err.Error(), "--yes") || !strings.Contains(err.Error(), "--shard K/N") || strings.Contains(err.Error(), "--games") {
		t.Errorf("tree of 9 x 6 with 64 play-outs = %v; want a refusal naming --yes and --shard", err)
	}
}

// TestTreeExactTails checks --exact for strategies other than deep: the
// tree's small subtrees replaced by optimal ones, what was saved on
// stderr, the setting in the file's header, and the refusals.
func TestTreeExactTails(t *testing.T) {
	out, errOut, err := runCmd(t, "", "tree", "--strategy", "knuth", "--exact", "50", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var tj struct {
		treeJSON
		Settings map[string]string `json:"settings"`
	}
	if err := json.Unmarshal([]byte(out), &tj); err != nil {
		t.Fatal(err)
	}
	// Knuth's 5801 with its subtrees of at most 50 codes made optimal:
	// between it and the optimum, 5625.
	if tj.Total >= 5801 || tj.Total < 5625 || tj.Settings["exact"] != "50" {
		t.Errorf("knuth --exact 50: total %d, settings %v; want under 5801, exact 50", tj.Total, tj.Settings)
	}
	r := mm.Rules{Colors: 6, Pegs: 4}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, secret := range sp.All().Codes() {
		total += follow(t, r, tj.Tree, secret)
	}
	if total != tj.Total {
		t.Errorf("replaying the tree: %d guesses; its header says %d", total, tj.Total)
	}
	if want := "-> " + itoa(tj.Total) + " guesses"; !strings.Contains(errOut, want) || !strings.Contains(errOut, "5801 ->") {
		t.Errorf("stderr %q; want a line with 5801 %s", errOut, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--strategy", "optimal", "--exact", "50"}, "optimal already"},
		{[]string{"--strategy", "knuth", "--exact", "0"}, "--exact 0: want 1 or more"},
		{[]string{"--colors", "8", "--pegs", "8", "--strategy", "entropy", "--exact", "100"}, "at most 16 codes fit"},
		// Up front, not after the tree's two minutes.
		{[]string{"--rules", "logik", "--strategy", "entropy", "--rollout", "64", "--no-book", "--exact", "9000"}, "at most 8192 codes fit"},
	} {
		_, _, err := runCmd(t, "", append([]string{"tree"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tree %v: %v; want an error with %q", c.args, err, c.want)
		}
	}
}
