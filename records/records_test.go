package records_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/records"
)

// listed reads the first table of README.md: file → games, total, worst.
func listed(t *testing.T) map[string][3]int {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][3]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 9 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if _, dup := out[name]; dup {
			continue // the table of commands
		}
		var v [3]int
		for i, col := range []int{4, 5, 7} {
			n, err := strconv.Atoi(strings.TrimSpace(cells[col]))
			if err != nil {
				continue
			}
			v[i] = n
		}
		out[name] = v
	}
	return out
}

// TestShipped replays every shipped tree, and those of large/, against
// every secret of its rules and checks its totals against README.md, and
// that README.md lists no file that is not shipped. The trees of large/ are
// replayed in the slow tier (go test -tags slow); the plain run checks
// their headers' totals.
func TestShipped(t *testing.T) {
	t.Parallel()
	want := listed(t)
	names := records.Shipped()
	if len(names) == 0 {
		t.Fatal("no trees shipped")
	}
	// The trees too large to build into the binary are read from disk.
	large, err := filepath.Glob("large/*.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(names, large...) {
		var got [3]int
		if strings.HasPrefix(name, "large/") && !slow.Enabled {
			// 7 × 7's tree took 5 s of CPU to read and replay
			// over 823 543 secrets, half the package's: the slow
			// tier (go test -tags slow, which CI runs) replays
			// it, and the plain run checks its header.
			fh, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			h, err := records.ReadHeader(fh)
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = [3]int{h.Games, h.Total, h.Max}
		} else {
			f, err := open(name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			guesses, err := records.Replay(f)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			total, worst := 0, 0
			for _, g := range guesses {
				total += g
				worst = max(worst, g)
			}
			got = [3]int{len(guesses), total, worst}
		}
		w, ok := want[name]
		if !ok {
			t.Errorf("%s is shipped but README.md does not list it", name)
			continue
		}
		if got != w {
			t.Errorf("%s: replayed %d games, %d guesses, worst %d; README.md says %d, %d, %d", name, got[0], got[1], got[2], w[0], w[1], w[2])
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("README.md lists %s, which is not shipped", name)
	}
}

// open reads a shipped tree, or one of large/ from disk.
func open(name string) (*records.File, error) {
	if !strings.HasPrefix(name, "large/") {
		return records.Open(name)
	}
	r, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return records.Read(r, nil)
}

// TestRoundTrip writes a tree and reads it back, gzipped and plain.
func TestRoundTrip(t *testing.T) {
	f, err := records.Open("9x4-distinct-optimal.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := records.Write(&buf, f, nil); err != nil {
		t.Fatal(err)
	}
	g, err := records.Read(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rules != f.Rules || g.Total != f.Total || g.Tree.Nodes() != f.Tree.Nodes() {
		t.Errorf("read back %v %d guesses %d nodes; wrote %v %d %d", g.Rules, g.Total, g.Tree.Nodes(), f.Rules, f.Total, f.Tree.Nodes())
	}
}

// TestBadFiles checks that broken trees are errors that say where.
func TestBadFiles(t *testing.T) {
	tests := []struct{ json, want string }{
		{`{"rules":{"colors":6,"pegs":4},"strategy":"x","games":1,"total":1,"max":1,"nodes":1,"tree":{"guess":"1237","size":1}}`, `guess "1237"`},
		{`{"rules":{"colors":6,"pegs":4},"strategy":"x","tree":{"guess":"1234","size":2,"branches":[{"black":3,"white":1,"next":{"guess":"1235","size":1}}]}}`, "not a feedback"},
		{`{"rules":{"colors":6,"pegs":4},"strategy":"x"}`, "no tree"},
		{`[1,2]`, "tree file"},
		{`{"rules":{"colors":1,"pegs":4},"strategy":"x","tree":{"guess":"1111","size":1}}`, "colour"},
	}
	for _, tt := range tests {
		_, err := records.Read(strings.NewReader(tt.json), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%s) = %v; want an error about %q", tt.json, err, tt.want)
		}
	}
	// A tree that misses secrets.
	f := records.NewFile(mm.Classic, "x", nil, &mm.Tree{Guess: mustCode("1234"), Size: 1296})
	if _, err := records.Replay(f); err == nil || !strings.Contains(err.Error(), "does not find") {
		t.Errorf("Replay of a one-node tree = %v; want an error naming a secret", err)
	}
}

func mustCode(s string) mm.Code {
	c, err := mm.Classic.ParseCode(s)
	if err != nil {
		panic(fmt.Sprint(s, err))
	}
	return c
}
