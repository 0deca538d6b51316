package main

// The tests build mastermind-full with go build (build, in main_test.go).
// Importing what it links makes go test compile those packages before
// this package's tests start, so that the go build inside them finds
// them in the build cache. Otherwise, on a cold cache, go test ./... runs
// these tests while it compiles SQLite for the packages that use it, and
// the go build here compiles SQLite a second time beside it: a minute of
// CPU. Only the test binary links them: TestLight checks that the
// command does not.
import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/mastermind-toolkit/mastermind"
	_ "github.com/mastermind-toolkit/mastermind/internal/chart/draw"
	_ "github.com/mastermind-toolkit/mastermind/internal/cli"
	_ "github.com/mastermind-toolkit/mastermind/internal/play"
	_ "github.com/mastermind-toolkit/mastermind/internal/server"
	_ "github.com/mastermind-toolkit/mastermind/internal/store"
	_ "github.com/mastermind-toolkit/mastermind/strategy"
)

// TestDepsImported checks that this file imports every package of the
// module that mastermind-full's own files import.
func TestDepsImported(t *testing.T) {
	imports := func(files ...string) map[string]bool {
		out := map[string]bool{}
		for _, name := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, "github.com/mastermind-toolkit/mastermind") {
					out[p] = true
				}
			}
		}
		return out
	}
	files, err := filepath.Glob(filepath.Join("..", "mastermind-full", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(name string) bool { return strings.HasSuffix(name, "_test.go") })
	if len(files) == 0 {
		t.Fatal("no file of mastermind-full found")
	}
	have := imports("deps_test.go")
	for p := range imports(files...) {
		if !have[p] {
			t.Errorf("mastermind-full imports %s; deps_test.go does not", p)
		}
	}
}
