// Package doctest checks the command examples of the project's Markdown
// documents: every line "$ mastermind ARGS" in a fenced code block is run,
// and what it prints must be the lines shown after it, times aside. Tests
// of README.md, the guides in docs/ and EXPERIMENTS.md use it, and
// rewrite the documents with the outputs under -update.
//
// An example may read its input from printf and write its output to a
// file, as a shell would:
//
//	$ printf '1 0\n0 1\n' | mastermind assist
//	$ mastermind tree --format dot > tree.dot
//
// A line "…" among the lines shown stands for any number of lines, and a
// line ending in " \" goes on on the next.
package doctest

import (
	"fmt"
	"regexp"
	"strings"
)

// An Example is one command of a document and the output it shows.
type Example struct {
	Line  int      // the line of the command in the document, from 1
	Args  []string // the arguments after "mastermind"
	Stdin string   // what printf writes into it, if anything
	File  string   // the file "> FILE" sends the output to, if any
	Want  []string // the lines shown after the command

	start, end int // the output's lines in the document, end exclusive
}

// String returns the command as written.
func (e *Example) String() string {
	s := "mastermind " + strings.Join(e.Args, " ")
	if e.File != "" {
		s += " > " + e.File
	}
	return s
}

// Parse returns the examples of doc's fenced code blocks between the
// lines from and to (0-based, to exclusive; to < 0 for the end).
func Parse(doc string, from, to int) ([]Example, error) {
	lines := strings.Split(doc, "\n")
	if to < 0 || to > len(lines) {
		to = len(lines)
	}
	var out []Example
	for i := from; i < to; i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		var cur *Example
		for j := i + 1; j < end; j++ {
			line := lines[j]
			if !strings.HasPrefix(line, "$ ") {
				if cur != nil {
					cur.Want = append(cur.Want, line)
					cur.end = j + 1
				}
				continue
			}
			cmd := strings.TrimPrefix(line, "$ ")
			first := j
			for strings.HasSuffix(cmd, `\`) && j+1 < end {
				j++
				cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[j])
			}
			ex, err := parseCommand(cmd)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", first+1, err)
			}
			ex.Line, ex.start, ex.end = first+1, j+1, j+1
			out = append(out, ex)
			cur = &out[len(out)-1]
		}
		i = end
	}
	return out, nil
}

// parseCommand reads "[printf 'IN' |] mastermind ARGS [> FILE]".
func parseCommand(cmd string) (Example, error) {
	words, err := split(cmd)
	if err != nil {
		return Example{}, err
	}
	var ex Example
	if len(words) >= 3 && words[0] == "printf" && words[2] == "|" {
		ex.Stdin = strings.ReplaceAll(words[1], `\n`, "\n")
		words = words[3:]
	}
	if len(words) >= 2 && words[len(words)-2] == ">" {
		ex.File = words[len(words)-1]
		words = words[:len(words)-2]
	}
	if len(words) == 0 || words[0] != "mastermind" {
		return Example{}, fmt.Errorf("%q is not a mastermind command", cmd)
	}
	for _, w := range words[1:] {
		if w == "|" || w == ">" {
			return Example{}, fmt.Errorf("%q: only printf | mastermind … > FILE is understood", cmd)
		}
	}
	ex.Args = words[1:]
	return ex, nil
}

// split splits a command line into words as a shell would, for plain
// words and single- or double-quoted ones.
func split(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unclosed quote in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

var timings = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?m)^(seconds|s/game|max s/game) .*$`), "$1 …"},                                                         // bench's and client's rows
	{regexp.MustCompile(`(?m)\s+[0-9.]+e[-+][0-9]+$`), "  …"},                                                                    // grid's seconds per game
	{regexp.MustCompile(`(?m)^(\d+\s+\S+\s+(?:[0-9.]+\s+)?\d+\s+[0-9.]+\s+\d+)\s+[0-9.]+$`), "$1  …"},                            // openings' seconds
	{regexp.MustCompile(`"(seconds|secondsPerGame|maxSecondsPerGame)":[0-9.e+-]+`), `"$1":…`},                                    // JSON
	{regexp.MustCompile(`(?m); [0-9.]+ s CPU, [0-9.]+ s$`), "; … s CPU, … s"},                                                    // optima's rows
	{regexp.MustCompile(`(?m); [0-9]+ sets, [0-9.]+ s, [0-9.]+ s CPU$`), "; … sets, … s, … s CPU"},                               // bound's line
	{regexp.MustCompile(`(?m)(; [0-9]+ sets), [0-9.]+ s (in [0-9]+ units? of [0-9]+ shards?)(, [0-9.]+ s CPU)?$`), "$1, … s $2"}, // its merge's
}

// Timeless blanks the figures that measure time, which no two runs share:
// bench's seconds row, grid's seconds per game, openings' seconds,
// seconds in JSON, the wall and CPU seconds of optima's rows, and bound's
// seconds and count of sets (its cutoffs depend on which core finishes
// first), and the seconds of its shards' units merged.
func Timeless(s string) string {
	for _, t := range timings {
		s = t.re.ReplaceAllString(s, t.with)
	}
	return s
}

// Match reports whether got, the output of a command, is what want shows,
// times aside; a line "…" of want stands for any number of lines. Where
// got has a time, a table's columns may be wider or narrower than want's
// (ten seconds instead of one widens bench's), so then runs of spaces
// match any run of spaces.
func Match(want []string, got string) bool {
	g := strings.Split(strings.TrimRight(Timeless(got), "\n"), "\n")
	w := strings.Split(strings.TrimRight(Timeless(strings.Join(want, "\n")), "\n"), "\n")
	if len(want) == 0 {
		w = nil
	}
	if strings.TrimRight(got, "\n") == "" {
		g = nil
	}
	if match(w, g) {
		return true
	}
	if Timeless(got) == got {
		return false
	}
	return match(collapse(w), collapse(g))
}

// collapse returns lines with each run of spaces made one space.
func collapse(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(strings.Fields(l), " ")
	}
	return out
}

func match(w, g []string) bool {
	for len(w) > 0 {
		if strings.TrimSpace(w[0]) == "…" {
			for k := 0; k <= len(g); k++ {
				if match(w[1:], g[k:]) {
					return true
				}
			}
			return false
		}
		if len(g) == 0 || strings.TrimRight(w[0], " ") != strings.TrimRight(g[0], " ") {
			return false
		}
		w, g = w[1:], g[1:]
	}
	return len(g) == 0
}

// Rewrite returns doc with the output shown after each example replaced
// by outs[i], the output the example printed, where it does not Match.
func Rewrite(doc string, examples []Example, outs []string) string {
	lines := strings.Split(doc, "\n")
	for i := len(examples) - 1; i >= 0; i-- {
		e := examples[i]
		if Match(e.Want, outs[i]) {
			continue
		}
		var repl []string
		if o := strings.TrimRight(outs[i], "\n"); o != "" {
			repl = strings.Split(o, "\n")
		}
		lines = append(lines[:e.start], append(repl, lines[e.end:]...)...)
	}
	return strings.Join(lines, "\n")
}
