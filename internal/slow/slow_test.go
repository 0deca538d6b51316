package slow_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCIRunsSlowTier checks that .ci/run runs the slow tier of every test
// that has one: each Test function that reads slow.Enabled, or calls a
// function of its file's package that does, or sits in a file built only
// with the tag slow, must match the -run pattern of .ci/run's
// go test -tags slow line, in a package that line names. A check moved to
// the slow tier is then never dropped from CI.
func TestCIRunsSlowTier(t *testing.T) {
	root := filepath.Join("..", "..")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(string(ci), "\n") {
		if strings.HasPrefix(l, "go test ") && strings.Contains(l, "-tags slow") {
			line = l
		}
	}
	m := regexp.MustCompile(`-run '([^']+)'`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf(".ci/run has no line go test -tags slow -run '...' PACKAGES")
	}
	run := regexp.MustCompile(m[1])
	var pkgs []string
	for _, f := range strings.Fields(line) {
		if strings.HasPrefix(f, "./") || f == "." {
			pkgs = append(pkgs, filepath.Clean(f))
		}
	}

	// The test functions with a slow tier, by package directory.
	want := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "deploy" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		if dir == filepath.Join("internal", "slow") {
			return nil
		}
		for _, name := range slowTests(t, path) {
			want[dir] = append(want[dir], name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no test has a slow tier: this test finds nothing")
	}
	for dir, names := range want {
		if !slices.Contains(pkgs, dir) {
			t.Errorf(".ci/run's slow tier does not name ./%s, whose %v have one", dir, names)
		}
		for _, n := range names {
			if !run.MatchString(n) {
				t.Errorf(".ci/run's slow tier -run %q does not match %s of ./%s", m[1], n, dir)
			}
		}
	}
}

// slowTests returns the Test functions of a file that have a slow tier.
func slowTests(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	tagged := false
	for _, c := range f.Comments {
		for _, l := range c.List {
			if strings.HasPrefix(l.Text, "//go:build ") && strings.Contains(l.Text, "slow") {
				tagged = true
			}
		}
	}
	// The functions of the file that read slow.Enabled.
	reads := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && uses(fd.Body, func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := s.X.(*ast.Ident)
			return ok && x.Name == "slow" && s.Sel.Name == "Enabled"
		}) {
			reads[fd.Name.Name] = true
		}
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Recv != nil {
			continue
		}
		if tagged || reads[fd.Name.Name] || uses(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return false
			}
			id, ok := c.Fun.(*ast.Ident)
			return ok && reads[id.Name]
		}) {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}

// uses reports whether any node under n satisfies is.
func uses(n ast.Node, is func(ast.Node) bool) bool {
	found := false
	if n == nil {
		return false
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		found = is(n)
		return !found
	})
	return found
}
