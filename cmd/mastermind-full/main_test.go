package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// run executes the command line args in this process, as mastermind-full.
func run(ctx context.Context, args []string, stdin *strings.Reader, stdout, stderr interface{ Write([]byte) (int, error) }) error {
	return cli.Run(ctx, args, stdin, stdout, stderr, full())
}

// runCmd runs the command line args with stdin and returns what it wrote.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("mastermind %s panicked: %v", strings.Join(args, " "), p)
		}
	}()
	err = cli.Run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, full())
	return out.String(), errOut.String(), err
}

// mustRun runs args and fails the test on error.
func mustRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, _, err := runCmd(t, stdin, args...)
	if err != nil {
		t.Fatalf("mastermind %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", file, got, want)
	}
}

// exitStatus returns the exit status err gives and the line it writes.
func exitStatus(err error) (int, string) {
	var stderr bytes.Buffer
	code := cli.Report(&stderr, err)
	return code, stderr.String()
}
