package records_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/records"
)

var (
	update        = flag.Bool("update", false, "rewrite bounds.csv: each row's tree and upper bound, and the lower bound of every row that proves in at most -bounds-seconds (or has none)")
	boundsSeconds = flag.Float64("bounds-seconds", 60,
		"with -update, prove again the rows whose command took at most this many CPU seconds; 0 for every row (hours)")
)

// boundsBeyond are the variants bounds.csv bounds besides those of the
// table of optima: too large for the exact search.
var boundsBeyond = []mm.Rules{{Colors: 8, Pegs: 5}, {Colors: 6, Pegs: 6}, {Colors: 7, Pegs: 7}}

// reproveSeconds is the most CPU a row's proof may have taken for
// TestBounds to prove it again on every run.
func reproveSeconds() float64 {
	if testing.Short() || race.Enabled || !slow.Enabled {
		// The proofs of up to 2 s took 7 s of CPU, half the
		// package's: the slow tier (go test -tags slow, which CI
		// runs) proves them again.
		return 0.3
	}
	return 2
}

// boundCommand is what TestBounds reads of a row's command.
type boundCommand struct {
	rules        mm.Rules
	depth, exact int
}

// parseBoundCommand reads "mastermind bound --colors C --pegs P
// [--distinct] --depth D [--exact N]".
func parseBoundCommand(s string) (boundCommand, error) {
	f := strings.Fields(s)
	if len(f) < 2 || f[0] != "mastermind" || f[1] != "bound" {
		return boundCommand{}, fmt.Errorf("command %q is not mastermind bound", s)
	}
	c := boundCommand{depth: 2}
	for i := 2; i < len(f); i++ {
		if f[i] == "--distinct" {
			c.rules.Distinct = true
			continue
		}
		if i+1 == len(f) {
			return c, fmt.Errorf("command %q: %s has no value", s, f[i])
		}
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return c, fmt.Errorf("command %q: %s %s is not a number", s, f[i], f[i+1])
		}
		switch f[i] {
		case "--colors":
			c.rules.Colors = v
		case "--pegs":
			c.rules.Pegs = v
		case "--depth":
			c.depth = v
		case "--exact":
			c.exact = v
		default:
			return c, fmt.Errorf("command %q: flag %s is not one TestBounds reads", s, f[i])
		}
		i++
	}
	return c, nil
}

// prove runs a row's command and returns its bound and CPU hours (0 if
// the CPU time is not known).
func (c boundCommand) prove(ctx context.Context) (int, float64, error) {
	cpu0, ok0 := cpuTime()
	b, err := exact.LowerBoundWith(ctx, c.rules, c.depth, &exact.BoundOptions{Exact: c.exact})
	if err != nil {
		return 0, 0, err
	}
	cpu1, ok1 := cpuTime()
	hours := 0.0
	if ok0 && ok1 {
		hours = (cpu1 - cpu0).Hours()
	}
	return b.Total, hours, nil
}

// bestTrees returns, for each variant with a tree in records/ (built in
// or under large/), the tree of least total and that total, read from the
// files' headers: TestShipped replays every tree and checks its header.
func bestTrees(t *testing.T) map[mm.Rules]records.BoundRow {
	t.Helper()
	large, err := filepath.Glob("large/*.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	best := map[mm.Rules]records.BoundRow{}
	for _, name := range append(records.Shipped(), large...) {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		h, err := records.ReadHeader(fh)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h.Total <= 0 {
			t.Fatalf("%s: its header states no total", name)
		}
		if b, ok := best[h.Rules]; !ok || h.Total < b.Upper {
			best[h.Rules] = records.BoundRow{Rules: h.Rules, Upper: h.Total, Tree: filepath.ToSlash(name)}
		}
	}
	return best
}

// TestBounds checks bounds.csv: a row for every variant of the table of
// optima and for 8 × 5, 6 × 6 and 7 × 7, each lower bound at most the
// optimum and the upper bound, each upper bound the total of the tree
// the row names (the optimum's, or the best shipped), and each command a
// proof of its lower bound: proved again here where it took at most
// reproveSeconds of CPU (0.3 s in the plain run, 2 s in the slow tier,
// go test -tags slow). The longer proofs (8 × 5, 6 × 6, 7 × 7 and the
// largest rows of the table) are rerun by their commands as shown in
// records/README.md, with their CPU time there.
//
// With -update it rewrites the file: every row's tree and upper bound,
// and the lower bound and CPU hours of the rows it proves again (those of
// at most -bounds-seconds, or with a lower bound of 0: a new command).
func TestBounds(t *testing.T) {
	data, err := os.ReadFile("bounds.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := records.ReadBounds(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var back bytes.Buffer
	if err := records.WriteBounds(&back, rows); err != nil {
		t.Fatal(err)
	}
	if !*update && !bytes.Equal(back.Bytes(), data) {
		t.Errorf("bounds.csv is not as WriteBounds writes its rows (go test ./records -run TestBounds -update rewrites it)")
	}
	opt := map[mm.Rules]records.Optimum{}
	var want []mm.Rules
	for _, o := range optima(t) {
		opt[o.Rules] = o
		want = append(want, o.Rules)
	}
	want = append(want, boundsBeyond...)
	trees := bestTrees(t)
	have := map[mm.Rules]bool{}
	reproved := 0
	for i := range rows {
		b := &rows[i]
		name := records.OptimumName(b.Rules)
		if have[b.Rules] {
			t.Errorf("%s: two rows", name)
		}
		have[b.Rules] = true
		if !slices.Contains(want, b.Rules) {
			t.Errorf("%s: a row for a variant neither of the table of optima nor one of %v", name, boundsBeyond)
			continue
		}
		wantTree := trees[b.Rules]
		if o, ok := opt[b.Rules]; ok {
			// TestOptima replays the optimum's tree against its row.
			wantTree = records.BoundRow{Upper: o.Total, Tree: o.File}
		}
		if *update {
			b.Upper, b.Tree = wantTree.Upper, wantTree.Tree
		}
		if wantTree.Tree == "" || b.Tree != wantTree.Tree || b.Upper != wantTree.Upper {
			t.Errorf("%s: upper %d, tree %s; want %d, %s", name, b.Upper, b.Tree, wantTree.Upper, wantTree.Tree)
		}
		c, err := parseBoundCommand(b.Command)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if c.rules.WithDefaults() != b.Rules.WithDefaults() {
			t.Errorf("%s: the command bounds %v", name, c.rules)
			continue
		}
		limit := reproveSeconds()
		if *update {
			limit = *boundsSeconds
		}
		if b.Lower == 0 || limit == 0 || b.CPUHours*3600 <= limit {
			got, hours, err := c.prove(t.Context())
			if err != nil {
				t.Fatalf("%s: %s: %v", name, b.Command, err)
			}
			reproved++
			if *update {
				b.Lower, b.CPUHours = got, hours
			} else if got != b.Lower {
				t.Errorf("%s: %s proves %d; the row says %d", name, b.Command, got, b.Lower)
			}
		}
		if o, ok := opt[b.Rules]; ok && b.Lower > o.Total {
			t.Errorf("%s: lower bound %d above the optimum %d", name, b.Lower, o.Total)
		}
		if b.Lower <= 0 || b.Lower > b.Upper {
			t.Errorf("%s: lower bound %d, upper %d", name, b.Lower, b.Upper)
		}
	}
	for _, r := range want {
		if !have[r] {
			t.Errorf("%s: no row", records.OptimumName(r))
		}
	}
	if reproved == 0 {
		t.Error("no row proved again")
	}
	if *update {
		var out bytes.Buffer
		if err := records.WriteBounds(&out, rows); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("bounds.csv", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBoundsCSV checks that ReadBounds turns down what is not bounds.csv,
// parseBoundCommand what is not a bound command, and ReadHeader what is
// not a tree file.
func TestBoundsCSV(t *testing.T) {
	head := "colors,pegs,distinct,lower,upper,tree,command,cpu_hours\n"
	for _, bad := range []string{"", "colors,pegs\n",
		head + "6,x,false,5625,5625,optimal/6x4.json.gz,mastermind bound,0.1\n",
		head + "6,4,maybe,5625,5625,optimal/6x4.json.gz,mastermind bound,0.1\n",
		head + "6,4,false,5625,5625,optimal/6x4.json.gz,mastermind bound,-1\n",
		head + "1,4,false,5625,5625,optimal/6x4.json.gz,mastermind bound,0.1\n",
	} {
		if _, err := records.ReadBounds(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadBounds(%q) took it", bad)
		}
	}
	for _, bad := range []string{"", "[]", "{\"rules\": 3}"} {
		if _, err := records.ReadHeader(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadHeader(%q) took it", bad)
		}
	}
	for _, bad := range []string{"", "mastermind bench --colors 6", "mastermind bound --colors x", "mastermind bound --pegs", "mastermind bound --rules logik"} {
		if _, err := parseBoundCommand(bad); err == nil {
			t.Errorf("parseBoundCommand(%q) took it", bad)
		}
	}
}
