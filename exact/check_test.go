package exact_test

import (
	"errors"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// TestCheckRules checks that a space too large for the search's feedback
// table is refused at once, its size in a unit that reads: 256 TiB for
// 8 × 8, not 262144.0 GiB.
func TestCheckRules(t *testing.T) {
	for _, tt := range []struct {
		r    mm.Rules
		want string // "" for no error
	}{
		{mm.Rules{Colors: 8, Pegs: 4}, ""},
		{mm.Rules{Colors: 2, Pegs: 14}, ""},
		{mm.Rules{Colors: 2, Pegs: 15}, "its 32768 codes need a 1.0 GiB feedback table, more than the 256 MiB allowed, which holds at most 16384 codes"},
		{mm.Rules{Colors: 7, Pegs: 5}, "its 16807 codes need a 269 MiB feedback table"},
		{mm.Rules{Colors: 8, Pegs: 8}, "its 16777216 codes need a 256 TiB feedback table"},
		{mm.Rules{Colors: 20, Pegs: 100}, "its about 10^130 codes need a 10^260 bytes feedback table"},
		{mm.Rules{Colors: 64, Pegs: 100}, "its about 10^181 codes need a 10^361 bytes feedback table"},
	} {
		err := exact.CheckRules(tt.r)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckRules(%v) = %v; want nil", tt.r, err)
		case tt.want != "" && (!errors.Is(err, mm.ErrTooLarge) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckRules(%v) = %v; want ErrTooLarge saying %q", tt.r, err, tt.want)
		}
	}
	if err := exact.CheckRules(mm.Rules{Colors: 1, Pegs: 4}); !errors.Is(err, mm.ErrInvalidRules) {
		t.Errorf("CheckRules of one colour = %v; want ErrInvalidRules", err)
	}
}
