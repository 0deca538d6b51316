package play

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestRunLinesFits checks that line mode writes no line past the 79th
// column, so that a terminal of 80 columns wraps none (issue 45: the
// introduction, the coach's notes and a conflict's advice ran to 96 to
// 165 columns): a coached game, an adversary's, and an assistant's
// session with answers that cannot all be true.
func TestRunLinesFits(t *testing.T) {
	cfg := Config{Strategy: strategy.Knuth{}}
	secret, _ := mm.Classic.ParseCode("3632")
	coached, err := NewGameOptions(cfg, secret, 10, GameOptions{Coach: true})
	if err != nil {
		t.Fatal(err)
	}
	adversary, err := NewGameOptions(cfg, mm.Code{}, 10, GameOptions{Adversary: true})
	if err != nil {
		t.Fatal(err)
	}
	assist, err := NewAssist(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		sess  Session
		input string
	}{
		{"coach", coached, "1234\n1122\n3526\n3632\n"},
		{"adversary", adversary, "1122\nhelp\nhint\n1344\n"},
		{"assist", assist, "0 0\nguess 1111\n1 0\nhelp\n"},
	} {
		var out bytes.Buffer
		if err := RunLines(context.Background(), tc.sess, strings.NewReader(tc.input), &out, true); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 79 && strings.Contains(line, " ") {
				t.Errorf("%s: a line of %d columns: %q", tc.name, n, line)
			}
		}
	}
}
