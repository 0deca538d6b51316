package play

import (
	"strings"
	"testing"
)

// TestGuessList checks that a summary lists a short game whole, a long one
// by its first guesses and its last, and a game of codes too long for
// even that not at all.
func TestGuessList(t *testing.T) {
	codes := func(n, pegs int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strings.Repeat(string(rune('A'+i%26)), pegs)
		}
		return out
	}
	tests := []struct {
		name string
		gs   []string
		want string
	}{
		{"classic", []string{"1122", "1344", "3632"}, "1122 1344 3632"},
		{"fits exactly", codes(40, 4), strings.Join(codes(40, 4), " ")},
		{"long game", codes(21, 20), "AAAAAAAAAAAAAAAAAAAA BBBBBBBBBBBBBBBBBBBB CCCCCCCCCCCCCCCCCCCC DDDDDDDDDDDDDDDDDDDD " +
			"EEEEEEEEEEEEEEEEEEEE FFFFFFFFFFFFFFFFFFFF GGGGGGGGGGGGGGGGGGGG HHHHHHHHHHHHHHHHHHHH … UUUUUUUUUUUUUUUUUUUU (12 more between)"},
		{"100 pegs", codes(268, 100), ""},
	}
	for _, tt := range tests {
		got := guessList(tt.gs)
		if got != tt.want {
			t.Errorf("%s: guessList = %q; want %q", tt.name, got, tt.want)
		}
		if len(got) > maxList+len(" (999 more between)") {
			t.Errorf("%s: guessList is %d characters; want about %d at most", tt.name, len(got), maxList)
		}
	}
}
