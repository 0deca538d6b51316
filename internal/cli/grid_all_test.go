package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestGridAll checks grid --all: every secret of each size, a column per
// strategy of mean and most guesses, the published figures of 6 × 4, and
// lines that fit 80 columns.
func TestGridAll(t *testing.T) {
	out := mustRun(t, "", "grid", "--all", "--pegs", "3:4", "--colors", "5:6")
	for _, want := range []string{
		"every secret of each size: mean guesses (most)\n",
		"pegs  colours  codes      knuth  expected-size    entropy  most-parts\n",
		"4           6   1296  4.476 (5)      4.395 (6)  4.415 (6)   4.373 (6)\n",
		"3           5    125  3.704 (5)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("grid --all:\n%s\nwant %q", out, want)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	// Five strategies make two tables, the fifth in the second.
	out = mustRun(t, "", "grid", "--all", "--pegs", "2", "--colors", "3", "--strategy", "knuth,entropy,most-parts,expected-size,first-consistent")
	if strings.Count(out, "every secret of each size") != 2 || !strings.Contains(out, "first-consistent\n") {
		t.Errorf("grid --all with five strategies:\n%s\nwant two tables", out)
	}
	var doc struct {
		All   bool       `json:"all"`
		Cells []gridCell `json:"cells"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", "grid", "--all", "--pegs", "4", "--colors", "6", "--strategy", "knuth", "--json")), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.All || len(doc.Cells) != 1 || doc.Cells[0].Games != 1296 || doc.Cells[0].Mean != 4.476 || doc.Cells[0].Max != 5 {
		t.Errorf("grid --all --json = %+v; want all, one cell of 1296 games, mean 4.476, most 5", doc)
	}
}

// TestGridAllRefuses checks that grid --all refuses, up front and without
// playing them, the cells whose guessed time passes its budget, says so on
// stderr and in the table, and that the rest are played.
func TestGridAllRefuses(t *testing.T) {
	start := time.Now()
	out, stderr, err := runCmd(t, "", "grid", "--all", "--pegs", "2,8", "--colors", "2,8", "--strategy", "knuth")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "8           8  16777216    refused\n") || !strings.Contains(out, "2           8        64  4.453 (6)\n") ||
		!strings.Contains(out, "refused: past 10m0s in all, by the guess made before playing; --yes plays them.") {
		t.Errorf("grid --all over 2,8 × 2,8:\n%s\nwant 8 × 8 refused and the rest played", out)
	}
	// knuth scores the near pool on 8 x 8: about half an hour on two
	// cores (the near pool's 1.61 CPU hours with entropy).
	if !strings.Contains(stderr, "grid --all: 1 cell refused, past 10m0s in all (the largest, knuth on 8 × 8, about ") ||
		!strings.Contains(stderr, "s); --yes plays them") {
		t.Errorf("stderr %q; want the refused cell named, with its time", stderr)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("grid --all took %v: the refused cell was played", d)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"grid", "--yes"}, "--yes plays every size of grid --all, however long; without --all it does not apply"},
		{[]string{"grid", "--all", "--games", "5"}, "--all and --games exclude each other"},
	} {
		if _, _, err := runCmd(t, "", tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("mastermind %s = %v; want %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
}

// TestRefuseLong checks the choice of cells: the cheapest first, while
// the sum stays within the budget, and every dearer one refused.
func TestRefuseLong(t *testing.T) {
	plan := []gridUnit{
		{"knuth", 8, 8, false},  // days
		{"knuth", 4, 6, false},  // milliseconds
		{"knuth", 6, 9, false},  // 531441 codes: about 7 minutes on 2 cores
		{"knuth", 6, 10, false}, // 10^6: about 25 minutes
		{"optimal", 5, 5, false},
		{"knuth", 30, 30, false}, // not enumerable: kept, it fails at once
	}
	refused, kept := refuseLong(plan, 2)
	for _, k := range []int{0, 3} {
		if _, ok := refused[k]; !ok {
			t.Errorf("unit %v kept; want it refused", plan[k])
		}
	}
	for _, k := range []int{1, 2, 4, 5} {
		if _, ok := refused[k]; ok {
			t.Errorf("unit %v refused; want it kept", plan[k])
		}
	}
	if kept > gridAllBudget || kept < 5*time.Minute {
		t.Errorf("kept %v in all; want 5 to 10 minutes", kept)
	}
}
