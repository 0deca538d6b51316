//go:build experiments

package cli

import (
	"os"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/doctest"
)

// experimentsDoc is the document whose commands TestExperiments checks.
const experimentsDoc = "../../EXPERIMENTS.md"

// TestExperiments runs every command of EXPERIMENTS.md as printed and
// checks that it prints the figures shown, timings aside. With -update it
// rewrites the outputs in the document instead. The commands take minutes,
// so the test runs only under the experiments build tag:
//
//	go test -timeout 30m -tags experiments -run TestExperiments ./internal/cli
func TestExperiments(t *testing.T) {
	data, err := os.ReadFile(experimentsDoc)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := doctest.Parse(string(data), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) < 10 {
		t.Fatalf("%s has %d commands; want every report's experiment", experimentsDoc, len(examples))
	}
	outs := make([]string, len(examples))
	for i, e := range examples {
		outs[i] = mustRun(t, e.Stdin, e.Args...)
		if !*update && !doctest.Match(e.Want, outs[i]) {
			t.Errorf("line %d: %s printed\n%s\nEXPERIMENTS.md shows\n%s", e.Line, e.String(), outs[i], joinLines(e.Want))
		}
	}
	if *update {
		if err := os.WriteFile(experimentsDoc, []byte(doctest.Rewrite(string(data), examples, outs)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func joinLines(ls []string) string {
	s := ""
	for _, l := range ls {
		s += l + "\n"
	}
	return s
}
