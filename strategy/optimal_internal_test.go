package strategy

import (
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// The search's news writes its guess in the user's alphabet: Bulls and
// Cows's 0123 once came out as 1234.
func TestProgressLineAlphabet(t *testing.T) {
	r := mm.Rules{Colors: 10, Pegs: 4, Distinct: true}
	digits, err := mm.NewAlphabet("0123456789")
	if err != nil {
		t.Fatal(err)
	}
	g, err := digits.Parse(r, "0123")
	if err != nil {
		t.Fatal(err)
	}
	p := exact.Progress{Elapsed: 3 * time.Second, Nodes: 12345, Guess: g, Tried: 2, Guesses: 19}
	for _, tc := range []struct {
		a    *mm.Alphabet
		want string
	}{
		{digits, "first guess 0123 (2 of 19)"},
		{nil, "first guess 1234 (2 of 19)"},
	} {
		if line := progressLine(r, tc.a, p); !strings.Contains(line, tc.want) {
			t.Errorf("progressLine(%v) = %q; want it to say %q", tc.a, line, tc.want)
		}
	}
}
