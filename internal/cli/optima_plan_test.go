package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestOptimaRefusesLong checks that optima guesses its searches' time by
// the shipped table before writing anything, and refuses a run past an
// hour: the whole table in a new directory (hours), while a few small
// rows run.
func TestOptimaRefusesLong(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "records")
	_, _, err := runCmd(t, "", "optima", "--dir", dir)
	if err == nil || !strings.Contains(err.Error(), "45 rows to solve, about ") || !strings.Contains(err.Error(), "pass --yes") ||
		!strings.Contains(err.Error(), "--only") || !strings.Contains(err.Error(), "--shard K/N") {
		t.Errorf("optima in a new directory = %v; want the whole table refused with its time", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("optima refused, yet made %s (%v)", dir, err)
	}
	if _, _, err := runCmd(t, "", "optima", "--dir", dir, "--max-codes", "30"); err != nil {
		t.Errorf("optima --max-codes 30 = %v; want the small rows solved", err)
	}
	if d, unknown := optimaGuess([]mm.Rules{{Colors: 10, Pegs: 4}, {Colors: 6, Pegs: 4}, {Colors: 11, Pegs: 4}}, time.Hour); unknown != 1 || d < 59*time.Minute || d > 62*time.Minute {
		t.Errorf("optimaGuess(10x4, 6x4, 11x4 within an hour a row) = %v, %d unknown; want about an hour (10x4 cut to the limit), 1 unknown", d, unknown)
	}
}
