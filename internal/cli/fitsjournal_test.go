package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// TestFitsJournal checks the file journal of whether a row keeps to a
// number of guesses: a search stopped midway resumes from what it kept, to
// the answer of exact.Fits, without its steps written twice; the answer is
// kept; the parts a search of least totals solved within the limit count
// as fitting; and a journal of another row or limit, or not JSON, is
// refused.
func TestFitsJournal(t *testing.T) {
	dir := t.TempDir()
	r := mm.Rules{Colors: 6, Pegs: 4}
	st, _ := mm.NewState(r, nil)
	for _, depth := range []int{4, 5} {
		want, err := exact.Fits(context.Background(), st, depth, nil)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		var got bool
		for {
			j, err := openFitsJournal(dir, r, depth, nil)
			if err != nil {
				t.Fatal(err)
			}
			before := j.Steps()
			// Stopped as soon as it keeps a step, by a journal that
			// cancels the search on its first write.
			ctx, cancel := context.WithCancel(context.Background())
			got, err = exact.FitsOpenings(ctx, st, depth, nil, cancelling{j, cancel})
			cancel()
			runs++
			if errors.Is(err, context.Canceled) {
				if j.Steps() != before+1 {
					t.Fatalf("within %d, run %d: %d steps kept, %d before", depth, runs, j.Steps(), before)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Answered(got); err != nil {
				t.Fatal(err)
			}
			break
		}
		if got != want {
			t.Errorf("within %d, resumed over %d runs: %v; Fits says %v", depth, runs, got, want)
		}
		if runs < 2 {
			t.Errorf("within %d: answered in one run; the test stops it at its first step", depth)
		}
		j, _ := openFitsJournal(dir, r, depth, nil)
		if fits, ok := j.Answer(); !ok || fits != want {
			t.Errorf("within %d, the answer kept: %v, %v; want %v", depth, fits, ok, want)
		}
		seen := map[fitsEntry]bool{}
		for _, e := range append(j.list.Fit, j.list.Refuted...) {
			if seen[e] {
				t.Errorf("within %d: %+v kept twice", depth, e)
			}
			seen[e] = true
		}
	}

	// A part solved within the limit by the search of least totals fits.
	j0, _ := openJournal(dir, r, 0, -1)
	if _, err := exact.SolveOpenings(context.Background(), st, nil, j0); err != nil {
		t.Fatal(err)
	}
	j, _ := openFitsJournal(t.TempDir(), r, 5, []*fileJournal{j0})
	fitting, deep := 0, 0
	for _, u := range j0.list.Units {
		g, _ := r.ParseCode(u.Guess)
		f := mm.Feedback{Black: u.Black, White: u.White}
		if j.Fits(g, f) != (1+u.Depth <= 5) {
			t.Errorf("unit %s %v of depth %d: Fits within 5 says %v", u.Guess, f, u.Depth, j.Fits(g, f))
		}
		if 1+u.Depth <= 5 {
			fitting++
		} else {
			deep++
		}
	}
	if fitting == 0 || deep == 0 {
		t.Errorf("%d units within 5, %d deeper; want some of each", fitting, deep)
	}

	if _, err := openFitsJournal(dir, mm.Rules{Colors: 5, Pegs: 4}, 5, nil); err == nil {
		t.Error("the fits journal of 6x4 opened for 5x4")
	}
	os.Rename(filepath.Join(dir, "fits-4.json"), filepath.Join(dir, "fits-3.json"))
	if _, err := openFitsJournal(dir, r, 3, nil); err == nil {
		t.Error("the fits journal within 4 opened within 3")
	}
	os.WriteFile(filepath.Join(dir, "fits-5.json"), []byte("{\"rules\":"), 0o644)
	if _, err := openFitsJournal(dir, r, 5, nil); err == nil {
		t.Error("a fits journal cut short opened")
	}
}

// cancelling is a fits journal that cancels the search when it keeps a
// step.
type cancelling struct {
	*fitsJournal
	cancel context.CancelFunc
}

func (c cancelling) Fit(g mm.Code, f mm.Feedback) error {
	defer c.cancel()
	return c.fitsJournal.Fit(g, f)
}

func (c cancelling) Refute(g mm.Code, f mm.Feedback, g2 mm.Code) error {
	defer c.cancel()
	return c.fitsJournal.Refute(g, f, g2)
}

func (c cancelling) Beat(g mm.Code) error {
	defer c.cancel()
	return c.fitsJournal.Beat(g)
}

// TestOptimaFitsSeconds checks that a row settled by the search of
// whether fewer guesses suffice counts, in its CPU and wall seconds, the
// search of the least total within them that ran before it (3 × 3 needs
// 4 guesses: the earlier runs' search within 3 is the row's time too);
// and that an answer an earlier run kept is taken, with its seconds, by a
// whole run and by a merge.
func TestOptimaFitsSeconds(t *testing.T) {
	within3 := `{"rules": {"colors": 3, "pegs": 3, "distinct": false}, "limit": 3, "units": [], "beaten": [], "cpu_seconds": 1000, "wall_seconds": 2000}`
	answered := `{"rules": {"colors": 3, "pegs": 3, "distinct": false}, "limit": 3, "fits": false, "fit": [], "refuted": [], "beaten": ["112"], "cpu_seconds": 500, "wall_seconds": 700}`
	for _, c := range []struct {
		name    string
		files   map[string]string
		args    []string
		cpu     float64
		wall    float64
		message string
	}{
		{"searched", map[string]string{"journal-3.json": within3}, nil, 1000, 2000, "3x3: no strategy keeps to 3 guesses ("},
		{"kept", map[string]string{"journal-3.json": within3, "fits-3.json": answered}, nil, 1500, 2700, "3x3: no strategy keeps to 3 guesses (found before; 500 s CPU, 700 s, over every run)"},
		{"merged", map[string]string{"fits-3.json": answered}, []string{"--merge"}, 500, 700, "3x3: no strategy keeps to 3 guesses (found before; 500 s CPU, 700 s, over every run)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			partial := filepath.Join(dir, "optimal", "partial", "3x3")
			if err := os.MkdirAll(partial, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(partial, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.args != nil {
				// A merge writes a row whose searches the shards did.
				runCmd(t, "", "optima", "--dir", dir, "--only", "3x3", "--shard", "0/1")
			}
			_, errOut, err := runCmd(t, "", append([]string{"optima", "--dir", dir, "--only", "3x3"}, c.args...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			if !strings.Contains(errOut, c.message) {
				t.Errorf("stderr\n%s\nwant %q", errOut, c.message)
			}
			rows, err := readOptima(filepath.Join(dir, "optimal.csv"))
			if err != nil || len(rows) != 1 {
				t.Fatalf("optimal.csv: %v, %v", rows, err)
			}
			if o := rows[0]; o.MinWorst != 4 || o.CPUSeconds < c.cpu || o.WallSeconds < c.wall {
				t.Errorf("3x3: at most %d guesses, %.1f s CPU, %.1f s wall; want 4, and at least %.0f s CPU and %.0f s wall", o.MinWorst, o.CPUSeconds, o.WallSeconds, c.cpu, c.wall)
			}
			if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the row is done, and its partial directory is still there: %v", err)
			}
		})
	}
}

// TestOptimaHelpSplit checks that optima's help gives the size of the
// parts that the search of whether fewer guesses suffice splits by second
// guess as exact has it.
func TestOptimaHelpSplit(t *testing.T) {
	out := mustRun(t, "", "optima", "--help")
	if want := fmt.Sprintf("in parts of %d codes or more", exact.FitsSplit); !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("optima --help does not say %q:\n%s", want, out)
	}
}
