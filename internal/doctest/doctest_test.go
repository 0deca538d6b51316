package doctest

import (
	"slices"
	"strings"
	"testing"
)

const doc = "# A doc\n\n```console\n$ mastermind score 1122 2211\n0 4\n$ printf '1 0\\n0 1\\n' | mastermind assist --alphabet \"RGB YOP\"\nGuess 1\n…\nSolved\n```\n\ntext\n\n```\n$ mastermind tree --format dot > tree.dot\n$ mastermind client --games 3 \\\n      --strategy knuth\nseconds    1.25\n```\n"

func TestParse(t *testing.T) {
	ex, err := Parse(doc, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 4 {
		t.Fatalf("%d examples; want 4", len(ex))
	}
	want := []struct {
		line  int
		args  []string
		stdin string
		file  string
		lines int
	}{
		{4, []string{"score", "1122", "2211"}, "", "", 1},
		{6, []string{"assist", "--alphabet", "RGB YOP"}, "1 0\n0 1\n", "", 3},
		{15, []string{"tree", "--format", "dot"}, "", "tree.dot", 0},
		{16, []string{"client", "--games", "3", "--strategy", "knuth"}, "", "", 1},
	}
	for i, w := range want {
		e := ex[i]
		if e.Line != w.line || !slices.Equal(e.Args, w.args) || e.Stdin != w.stdin || e.File != w.file || len(e.Want) != w.lines {
			t.Errorf("example %d = %+v; want %+v", i, e, w)
		}
	}
	if _, err := Parse("```\n$ ls | wc\n```\n", 0, -1); err == nil {
		t.Errorf("Parse accepted a command other than mastermind")
	}
	if _, err := Parse("```\n$ mastermind score 1122 2211 | cut -c1\n```\n", 0, -1); err == nil {
		t.Errorf("Parse accepted a pipe it cannot run")
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		want []string
		got  string
		ok   bool
	}{
		{[]string{"0 4"}, "0 4\n", true},
		{[]string{"0 4"}, "0 3\n", false},
		{[]string{"a", "…", "z"}, "a\nb\nc\nz\n", true},
		{[]string{"a", "…", "z"}, "a\nz\n", true},
		{[]string{"a", "…", "z"}, "a\nb\n", false},
		{[]string{"seconds    1.25"}, "seconds    0.003\n", true},
		{nil, "", true},
		{nil, "x\n", false},
		{[]string{`{"seconds":1.5,"mean":4.476}`}, `{"seconds":0.001,"mean":4.476}` + "\n", true},
		// A time of ten seconds widens bench's column (seen under the
		// race detector); without a time the spacing must match.
		{[]string{"            deep", "total       5625", "seconds    0.123"}, "             deep\ntotal        5625\nseconds    19.962\n", true},
		{[]string{"            deep", "total       5625"}, "             deep\ntotal        5625\n", false},
		{[]string{"total       5625", "seconds    0.123"}, "total        5626\nseconds    19.962\n", false},
	}
	for _, tt := range tests {
		if got := Match(tt.want, tt.got); got != tt.ok {
			t.Errorf("Match(%q, %q) = %v; want %v", tt.want, tt.got, got, tt.ok)
		}
	}
}

func TestRewrite(t *testing.T) {
	ex, _ := Parse(doc, 0, -1)
	outs := []string{"0 4\n", "Guess 1\nGuess 2\nSolved\n", "", "seconds 2\n"}
	if got := Rewrite(doc, ex, outs); got != doc {
		t.Errorf("Rewrite changed a document whose outputs match:\n%s", got)
	}
	outs[0] = "0 3\n"
	got := Rewrite(doc, ex, outs)
	if !strings.Contains(got, "$ mastermind score 1122 2211\n0 3\n$ printf") {
		t.Errorf("Rewrite did not replace the output:\n%s", got)
	}
}

func TestTimeless(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"seconds    0.006          0.005\n", "seconds …\n"},
		{"6            12   12   25  19.820      2.44e-05\n", "6            12   12   25  19.820  …\n"},
		{"1       11223  181834  5.5491    8    2.635\n", "1       11223  181834  5.5491    8  …\n"},
		{"1       11223  99.50  181834  5.5491    8    2.635\n", "1       11223  99.50  181834  5.5491    8  …\n"},
		{"mean       4.476          4.395\n", "mean       4.476          4.395\n"},
		{"s/game       0.031\n", "s/game …\n"},
		{"6 colours × 4 pegs: every strategy needs at least 5429 guesses; 47 sets, 0.1 s, 0.1 s CPU\n",
			"6 colours × 4 pegs: every strategy needs at least 5429 guesses; … sets, … s, … s CPU\n"},
		{"6x4: 1296 codes, total 5625 (mean 4.3403), worst 6; at most 5 guesses: total 5626; 0.4 s CPU, 12.3 s\n",
			"6x4: 1296 codes, total 5625 (mean 4.3403), worst 6; at most 5 guesses: total 5626; … s CPU, … s\n"},
		{"6 colours × 4 pegs: every strategy needs at least 5625 guesses; 284220 sets, 43.6 s in 52 units of 1 shard, 17.2 s CPU\n",
			"6 colours × 4 pegs: every strategy needs at least 5625 guesses; 284220 sets, … s in 52 units of 1 shard\n"},
		{"8 colours × 5 pegs: every strategy needs at least 172923 guesses; 5 sets, 3.0 s in 1 unit of 110 shards\n",
			"8 colours × 5 pegs: every strategy needs at least 172923 guesses; 5 sets, … s in 1 unit of 110 shards\n"},
	} {
		if got := Timeless(c.in); got != c.want {
			t.Errorf("Timeless(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
