package eval

import (
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestDrawerMatchesAt checks that a drawer, which reuses one random source,
// gives the same secrets as at, which makes one a secret: sampled and
// distinct secrets, in order and out of it, and every secret of a space.
func TestDrawerMatchesAt(t *testing.T) {
	for _, tt := range []struct {
		r    mm.Rules
		opts Options
	}{
		{mm.Classic, Options{Games: 500, Seed: 7}},
		{mm.Rules{Colors: 10, Pegs: 4, Distinct: true}, Options{Games: 500, Seed: 3}},
		{mm.Rules{Colors: 20, Pegs: 30}, Options{Games: 50, Seed: 1}},
		{mm.Classic, Options{All: true}},
	} {
		src, err := secretsOf(tt.r, &tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		at := src.drawer()
		// Backwards, so that no secret follows its predecessor's state.
		for i := src.n - 1; i >= 0; i-- {
			if got, want := at(i), src.at(i); got != want {
				t.Fatalf("%v, %+v: secret %d drawn %v; want %v", tt.r, tt.opts, i, got, want)
			}
		}
	}
}
