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

const readme = "../../README.md"

// TestReadme runs every example of README.md's tour, from its start to
// the game server's section, and checks that each prints what the README
// shows, times aside; the examples run in a temporary directory, where
// files they write land. With -update it rewrites the outputs in the
// README instead.
func TestReadme(t *testing.T) {
	if race.Enabled {
		// Four minutes under the race detector (at load 14), for a
		// check of the README's text; the commands' goroutines meet the
		// detector in internal/cli's and eval's tests, and the plain
		// go test ./... runs this one.
		t.Skip("the README's examples take minutes under -race: the plain go test ./... runs them")
	}
	path, err := filepath.Abs(readme)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	lines := strings.Split(doc, "\n")
	end := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "## Game server") {
			end = i
		}
	}
	if end < 0 {
		t.Fatal("README.md has no game server section to end the tour")
	}
	examples, err := doctest.Parse(doc, 0, end)
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) < 20 {
		t.Fatalf("README.md's tour has %d examples; want every command shown", len(examples))
	}
	t.Chdir(t.TempDir())
	outs := make([]string, len(examples))
	for i, e := range examples {
		var out, errOut bytes.Buffer
		err := cli.Run(context.Background(), e.Args, strings.NewReader(e.Stdin), &out, &errOut, full())
		if err != nil && !cli.IsFailure(err) {
			t.Errorf("line %d: %s: %v", e.Line, e.String(), err)
			continue
		}
		outs[i] = out.String()
		if e.File != "" {
			if err := os.WriteFile(e.File, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			outs[i] = ""
		}
		if !*update && !doctest.Match(e.Want, outs[i]) {
			t.Errorf("line %d: %s printed\n%s\nREADME.md shows\n%s", e.Line, e.String(), outs[i], strings.Join(e.Want, "\n"))
		}
	}
	for _, f := range []string{"hist.png", "tree.dot"} {
		if fi, err := os.Stat(f); err != nil || fi.Size() < 100 {
			t.Errorf("the tour's %s was not written: %v", f, err)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(doctest.Rewrite(doc, examples, outs)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
