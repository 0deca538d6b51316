package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHelpFits checks that no line of any command's help reaches the 80th
// column, where a terminal of 80 columns wraps it (issue 45): the
// commands' one-line summaries, their texts and examples, and the flags'
// help, which cobra writes one flag a line, up to 200 columns, unless
// wrapped.
func TestHelpFits(t *testing.T) {
	root := newRoot(newEnv(strings.NewReader(""), nil, nil, nil))
	names := [][]string{{"--help"}, {"help"}}
	for _, c := range root.Commands() {
		names = append(names, []string{c.Name(), "--help"})
	}
	for _, args := range names {
		out, _, err := runCmd(t, "", args...)
		if err != nil {
			t.Errorf("mastermind %s: %v", strings.Join(args, " "), err)
			continue
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("mastermind %s: a line of %d columns: %q", strings.Join(args, " "), n, line)
			}
		}
	}
}
