package cli

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// TestGridAuto runs auto over sizes too large to enumerate, beside a
// strategy that refuses some of them, and checks that every auto cell has
// figures, as JSON and as CSV.
func TestGridAuto(t *testing.T) {
	switch {
	case testing.Short():
		t.Skip("plays auto on up to 9 × 12 three times over: run without -short")
	case race.Enabled:
		// Minutes under the race detector, in the sampler's one
		// goroutine; grid's workers meet the detector in the knuth grids
		// of features_test.go, and the plain run plays this one.
		t.Skip("plays auto on up to 9 × 12 for minutes under -race: the plain go test ./... runs it")
	}
	args := []string{"grid", "--pegs", "3,9", "--colors", "4,12", "--games", "3",
		"--strategy", "auto,random-consistent", "--budget", "50ms"}
	var got struct {
		Games int        `json:"games"`
		Cells []gridCell `json:"cells"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", append(args, "--json")...)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Games != 3 || len(got.Cells) != 8 {
		t.Fatalf("grid --json: %d games, %d cells; want 3 and 8", got.Games, len(got.Cells))
	}
	refused := 0
	for _, c := range got.Cells {
		switch {
		case c.Strategy == "auto" && (c.Error != "" || c.Games != 3 || c.Min < 1 || c.Max < c.Min || c.Mean < float64(c.Min) || c.Log10 <= 0):
			t.Errorf("auto cell %+v; want 3 games with figures", c)
		case c.Strategy == "random-consistent" && c.Error != "":
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("random-consistent refused %d cells; want 1, 9 pegs of 12 colours", refused)
	}
	// The other formats on a grid as large, 8 cells, of small variants:
	// the same code writes them, and auto's 50 ms guesses on 9 × 12 took
	// most of the seconds of each run.
	args = []string{"grid", "--pegs", "3,4", "--colors", "4,5", "--games", "3",
		"--strategy", "auto,random-consistent", "--budget", "50ms"}
	rows, err := csv.NewReader(strings.NewReader(mustRun(t, "", append(args, "--csv")...))).ReadAll()
	if err != nil || len(rows) != 9 || rows[0][0] != "strategy" {
		t.Fatalf("grid --csv: %d rows, %v", len(rows), err)
	}
	text := mustRun(t, "", args...)
	if strings.HasSuffix(text, "\n\n") || !strings.Contains(text, "\n\nrandom-consistent, 3 random secrets") {
		t.Errorf("grid tables should be separated by one blank line and end without one:\n%s", text)
	}
}
