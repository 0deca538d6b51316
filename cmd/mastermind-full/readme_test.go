package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/cli"
	"github.com/mastermind-toolkit/mastermind/internal/doctest"
	"github.com/mastermind-toolkit/mastermind/internal/race"
)

// documented lists the documents whose every "$ mastermind" example
// TestReadme runs, in order, relative to this directory: the README's
// own examples, then the tour and the guides that follow it. The game
// server's guide is left out: its examples need a server running.
var documented = []struct {
	path string
	min  int // the fewest examples it may have
}{
	{"../../README.md", 2},
	{"../../docs/tour.md", 20},
	{"../../docs/optimal.md", 2},
	{"../../docs/assist-and-play.md", 6},
	{"../../docs/cluster.md", 3},
}

// unrun are the guides whose examples no test runs: they need a server.
var unrun = map[string]bool{"server.md": true}

// TestReadme runs every example of the README and of the guides of
// documented, and checks that each prints what the document shows, times
// aside; the examples run in one temporary directory, in order, where
// files they write land (a later example may read them). With -update it
// rewrites the outputs in the documents instead.
func TestReadme(t *testing.T) {
	if race.Enabled {
		// Four minutes under the race detector (at load 14), for a
		// check of the documents' text; the commands' goroutines meet the
		// detector in internal/cli's and eval's tests, and the plain
		// go test ./... runs this one.
		t.Skip("the documents' examples take minutes under -race: the plain go test ./... runs them")
	}
	type doc struct {
		path     string
		text     string
		examples []doctest.Example
		outs     []string
	}
	var docs []*doc
	total := 0
	for _, d := range documented {
		path, err := filepath.Abs(d.path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		examples, err := doctest.Parse(string(data), 0, -1)
		if err != nil {
			t.Fatalf("%s: %v", d.path, err)
		}
		if len(examples) < d.min {
			t.Fatalf("%s has %d examples; want at least %d, every command shown", d.path, len(examples), d.min)
		}
		total += len(examples)
		docs = append(docs, &doc{path: path, text: string(data), examples: examples, outs: make([]string, len(examples))})
	}
	if total < 20 {
		t.Fatalf("the documents have %d examples in all; want every command shown", total)
	}
	// A guide added to docs/ with examples must be added above, or to
	// unrun if they need a server.
	guides, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range guides {
		known := unrun[filepath.Base(g)]
		for _, d := range documented {
			known = known || filepath.Clean(d.path) == filepath.Clean(g)
		}
		if data, err := os.ReadFile(g); !known && err == nil {
			if ex, err := doctest.Parse(string(data), 0, -1); err != nil || len(ex) > 0 {
				t.Errorf("%s has examples that no test runs: add it to documented", g)
			}
		}
	}
	t.Chdir(t.TempDir())
	for _, d := range docs {
		name := filepath.Base(d.path)
		for i, e := range d.examples {
			var out, errOut bytes.Buffer
			err := cli.Run(context.Background(), e.Args, strings.NewReader(e.Stdin), &out, &errOut, full())
			if err != nil && !cli.IsFailure(err) {
				t.Errorf("%s:%d: %s: %v", name, e.Line, e.String(), err)
				continue
			}
			d.outs[i] = out.String()
			if e.File != "" {
				if err := os.WriteFile(e.File, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				d.outs[i] = ""
			}
			if !*update && !doctest.Match(e.Want, d.outs[i]) {
				t.Errorf("%s:%d: %s printed\n%s\n%s shows\n%s", name, e.Line, e.String(), d.outs[i], name, strings.Join(e.Want, "\n"))
			}
		}
	}
	for _, f := range []string{"hist.png", "tree.dot"} {
		if fi, err := os.Stat(f); err != nil || fi.Size() < 100 {
			t.Errorf("the tour's %s was not written: %v", f, err)
		}
	}
	if *update {
		for _, d := range docs {
			if err := os.WriteFile(d.path, []byte(doctest.Rewrite(d.text, d.examples, d.outs)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
