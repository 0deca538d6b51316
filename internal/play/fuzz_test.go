package play_test

import (
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// FuzzAssistDo feeds a few lines of any text to Assist: it must never
// panic, and while no answers conflict some code must remain possible.
func FuzzAssistDo(f *testing.F) {
	for _, s := range []string{
		"1 0\n0 1\n1 2\nBBB\nundo", "0 0\nguess 1111\n1 0\ndrop 1", "fix 1 2 0\nhint",
		"2b1w\nundo\nundo\nhistory", "1234\n4 0", "\x00\n\xff\n🙂", "drop -1\nfix 0 0 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		a := newAssist(t, mm.Classic)
		lines := strings.Split(script, "\n")
		if len(lines) > 12 {
			lines = lines[:12]
		}
		for _, l := range lines {
			a.Do(l)
			if a.Conflict() == nil && !a.Over() && a.Remaining() < 1 {
				t.Fatalf("after %q: %d codes left and no conflict", l, a.Remaining())
			}
			_ = a.Board()
			_ = a.Prompt()
		}
	})
}

// FuzzGameDo feeds lines of any text to Game: it must never panic, and the
// guess limit holds.
func FuzzGameDo(f *testing.F) {
	f.Add("1122\nhint\n3632")
	f.Add("guess\nguess 1\n\x00")
	f.Fuzz(func(t *testing.T, script string) {
		g := newGame(t, mm.Classic, "3632", 3)
		for _, l := range strings.Split(script, "\n") {
			g.Do(l)
			if n := len(g.Turns()); n > 3 {
				t.Fatalf("%d guesses played; the limit is 3", n)
			}
			_ = g.Board()
		}
	})
}
