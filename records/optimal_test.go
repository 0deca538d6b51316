package records_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/records"
)

// optima reads the table of exact optima.
func optima(t *testing.T) []records.Optimum {
	t.Helper()
	f, err := os.Open("optimal.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := records.ReadOptima(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("optimal.csv has no rows")
	}
	return rows
}

// TestOptima replays the tree of every row of optimal.csv against every
// secret, checks the row's figures against it and against the values we
// found published, and that every tree under optimal/ has its row.
func TestOptima(t *testing.T) {
	rows := optima(t)
	listed := map[string]bool{}
	for _, o := range rows {
		name := records.OptimumName(o.Rules)
		listed[filepath.Base(o.File)] = true
		if o.File != records.OptimumFile(o.Rules) {
			t.Errorf("%s: file %s; want %s", name, o.File, records.OptimumFile(o.Rules))
		}
		fh, err := os.Open(filepath.FromSlash(o.File))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		f, err := records.Read(fh, nil)
		fh.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		guesses, err := records.Replay(f)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		total, worst := 0, 0
		for _, g := range guesses {
			total += g
			worst = max(worst, g)
		}
		if f.Rules != o.Rules.WithDefaults() || f.Strategy != "optimal" || len(guesses) != o.Codes || uint64(o.Codes) != o.Rules.Size() ||
			total != o.Total || worst != o.Worst {
			t.Errorf("%s: the tree is %s's for %v and finds %d secrets in %d guesses, worst %d; the row says %d codes, %d, worst %d",
				name, f.Strategy, f.Rules, len(guesses), total, worst, o.Codes, o.Total, o.Worst)
		}
		if o.MinWorst > o.Worst || o.MinWorstTotal < o.Total || (o.MinWorst == o.Worst) != (o.MinWorstTotal == o.Total) {
			t.Errorf("%s: at most %d guesses in %d against %d, worst %d: want no more guesses at most and no fewer in all, the same when the limit is the same",
				name, o.MinWorst, o.MinWorstTotal, o.Total, o.Worst)
		}
		want, text, ok := records.Published(o.Rules)
		if o.Published != text || (ok && o.Total != want) {
			t.Errorf("%s: total %d, published %q; want %q", name, o.Total, o.Published, text)
		}
	}
	files, _ := filepath.Glob(filepath.Join("optimal", "*.json.gz"))
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s has no row in optimal.csv", f)
		}
	}
}

// TestOptimaComplete checks that the table holds a row for each variant
// issue 28 asks for, and no other: 3 to 6 pegs with 2 to 10 colours
// (repeats allowed) and 3 to 5 pegs of distinct colours, each of at most
// 10 000 codes.
func TestOptimaComplete(t *testing.T) {
	have := map[mm.Rules]bool{}
	for _, o := range optima(t) {
		if have[o.Rules] {
			t.Errorf("%s: two rows", records.OptimumName(o.Rules))
		}
		have[o.Rules] = true
	}
	want := 0
	for _, distinct := range []bool{false, true} {
		for pegs := 3; pegs <= 6; pegs++ {
			for colors := 2; colors <= 10; colors++ {
				r := mm.Rules{Colors: colors, Pegs: pegs, Distinct: distinct}
				if (distinct && (pegs > 5 || colors < pegs)) || r.Size() > 10000 {
					continue
				}
				want++
				if !have[r] {
					t.Errorf("%s: no row", records.OptimumName(r))
				}
			}
		}
	}
	if len(have) != want {
		t.Errorf("%d rows; the table has %d variants", len(have), want)
	}
}

// TestOptimaReadme checks that README.md shows the table as optimal.csv
// has it (mastermind optima --list).
func TestOptimaReadme(t *testing.T) {
	var want bytes.Buffer
	if err := records.WriteOptimaMarkdown(&want, optima(t)); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), want.String()) {
		t.Errorf("README.md does not show optimal.csv's table; paste the output of mastermind optima --list:\n%s", want.String())
	}
}

// TestOptimaRegenerate solves the small rows again and checks that their
// tree files come out byte for byte the same, as mastermind optima --redo
// writes them.
func TestOptimaRegenerate(t *testing.T) {
	most := 1300
	if testing.Short() || race.Enabled {
		most = 300 // the plain run solves the larger ones
	}
	n := 0
	for _, o := range optima(t) {
		if o.Codes > most {
			continue
		}
		n++
		st, err := mm.NewState(o.Rules, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := exact.SolveOpenings(t.Context(), st, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := records.WriteOptimumTree(&got, records.NewFile(o.Rules, "optimal", nil, res.Tree)); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.FromSlash(o.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: solved again, the tree file differs from %s", records.OptimumName(o.Rules), o.File)
		}
	}
	if n == 0 {
		t.Fatal("no row small enough to solve again")
	}
}

// TestOptimaCSV checks that optimal.csv reads back as it was written.
func TestOptimaCSV(t *testing.T) {
	rows := optima(t)
	var buf bytes.Buffer
	if err := records.WriteOptima(&buf, rows); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile("optimal.csv")
	if !bytes.Equal(buf.Bytes(), file) {
		t.Errorf("optimal.csv is not as WriteOptima writes its rows")
	}
	back, err := records.ReadOptima(&buf)
	if err != nil || !slices.Equal(back, rows) {
		t.Errorf("optimal.csv read back differs: %v", err)
	}
	for _, bad := range []string{"", "colors,pegs\n", "colors,pegs,distinct,codes,total,mean,worst,min_worst,min_worst_total,file,cpu_seconds,wall_seconds,published\n6,x,false,1296,5625,4.3403,6,5,5626,optimal/6x4.json.gz,0.4,0.4,none\n"} {
		if _, err := records.ReadOptima(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadOptima(%q) took it", bad)
		}
	}
}

// TestShippedOptima checks that the table built into the toolkit is the
// one in the repository, with a cost for each row.
func TestShippedOptima(t *testing.T) {
	rows, err := records.ShippedOptima()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("optimal.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := records.ReadOptima(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) || len(rows) < 40 {
		t.Fatalf("ShippedOptima: %d rows; optimal.csv has %d", len(rows), len(want))
	}
	for i := range rows {
		if rows[i] != want[i] || rows[i].CPUSeconds < 0 {
			t.Errorf("ShippedOptima row %d = %+v; want %+v", i, rows[i], want[i])
		}
	}
}
