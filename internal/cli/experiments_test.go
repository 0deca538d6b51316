//go:build experiments

package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// experimentsDoc is the document whose commands TestExperiments checks.
const experimentsDoc = "../../EXPERIMENTS.md"

// A docBlock is one ```console block of the document: a command line
// starting "$ mastermind" and the output it printed.
type docBlock struct {
	start, end int // lines of the block's content, end exclusive
	args       []string
	output     string
}

func docBlocks(lines []string) []docBlock {
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```console" {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		if j > i+1 && strings.HasPrefix(lines[i+1], "$ mastermind ") {
			out = append(out, docBlock{start: i + 1, end: j,
				args:   strings.Fields(strings.TrimPrefix(lines[i+1], "$ mastermind ")),
				output: strings.Join(lines[i+2:j], "\n") + "\n"})
		}
		i = j
	}
	return out
}

var (
	secondsRow   = regexp.MustCompile(`(?m)^seconds .*$`)
	perGameCol   = regexp.MustCompile(`(?m)\s+[0-9.]+e[-+][0-9]+$`)
	openingsTime = regexp.MustCompile(`(?m)^(\d+\s+\S+\s+\d+\s+[0-9.]+\s+\d+)\s+[0-9.]+$`)
)

// timeless blanks the figures that measure time, which no two runs share:
// bench's seconds row, grid's seconds per game and openings' seconds.
func timeless(s string) string {
	s = secondsRow.ReplaceAllString(s, "seconds …")
	s = perGameCol.ReplaceAllString(s, "  …")
	s = openingsTime.ReplaceAllString(s, "$1  …")
	return s
}

// TestExperiments runs every command of EXPERIMENTS.md as printed and
// checks that it prints the figures shown; timings aside. With -update it
// rewrites the outputs in the document instead.
func TestExperiments(t *testing.T) {
	data, err := os.ReadFile(experimentsDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	blocks := docBlocks(lines)
	if len(blocks) < 10 {
		t.Fatalf("%s has %d command blocks; want every report's experiment", experimentsDoc, len(blocks))
	}
	for bi := len(blocks) - 1; bi >= 0; bi-- {
		b := blocks[bi]
		name := strings.Join(b.args, " ")
		got := mustRun(t, "", b.args...)
		if *update {
			repl := append([]string{lines[b.start]}, strings.Split(strings.TrimRight(got, "\n"), "\n")...)
			lines = append(lines[:b.start], append(repl, lines[b.end:]...)...)
			continue
		}
		if strings.TrimRight(timeless(got), "\n") != strings.TrimRight(timeless(b.output), "\n") {
			t.Errorf("mastermind %s printed\n%s\nEXPERIMENTS.md shows\n%s", name, got, b.output)
		}
	}
	if *update {
		if err := os.WriteFile(experimentsDoc, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTimeless(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"seconds    0.006          0.005\n", "seconds …\n"},
		{"6            12   12   25  19.820      2.44e-05\n", "6            12   12   25  19.820  …\n"},
		{"1       11223  181834  5.5491    8    2.635\n", "1       11223  181834  5.5491    8  …\n"},
		{"mean       4.476          4.395\n", "mean       4.476          4.395\n"},
	} {
		if got := timeless(c.in); got != c.want {
			t.Errorf("timeless(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
