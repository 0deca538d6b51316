//go:build slow

package exact_test

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// TestSevenFour solves 7 × 4 from the start: 5 s of CPU, so it is in the
// slow tier (go test -tags slow, which CI runs); TestPublished solves 6 × 4
// in the plain run with the same search.
func TestSevenFour(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		// Minutes under the race detector, twenty times its plain
		// time; the slow tier solves it, and the search's goroutines
		// are the same as on 6 × 4 (TestPublished).
		t.Skip("a long search: go test -tags slow runs it without -race")
	}
	if testing.Short() {
		t.Skip("seconds of search: run without -short")
	}
	res, err := solve(t, start(t, mm.Rules{Colors: 7, Pegs: 4}), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("7x4: %d guesses, worst %d, %d sets searched", res.Total, res.Depth, res.Nodes)
	if res.Total != 11228 || res.Depth != 6 {
		t.Errorf("Solve(7x4) = %d, worst %d; want 11228, worst 6", res.Total, res.Depth)
	}
}
