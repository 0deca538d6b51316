package large

import (
	"errors"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A guess played already is replaced by the next legal code not played.
func TestUnplayed(t *testing.T) {
	for _, tt := range []struct {
		r           mm.Rules
		played      []string
		guess, want string
	}{
		{mm.Rules{Colors: 3, Pegs: 3}, nil, "123", "123"},
		{mm.Rules{Colors: 3, Pegs: 3}, []string{"123"}, "123", "131"},
		{mm.Rules{Colors: 3, Pegs: 3}, []string{"123", "131"}, "123", "132"},
		{mm.Rules{Colors: 3, Pegs: 3}, []string{"333"}, "333", "111"},
		{mm.Rules{Colors: 4, Pegs: 3, Distinct: true}, []string{"124"}, "124", "132"},
	} {
		st, err := mm.NewState(tt.r, nil)
		if err != nil {
			t.Fatal(err)
		}
		secret, _ := tt.r.ParseCode("213")
		for _, p := range tt.played {
			c, _ := tt.r.ParseCode(p)
			if st, err = st.Play(c, mm.Score(secret, c)); err != nil {
				t.Fatal(err)
			}
		}
		g, _ := tt.r.ParseCode(tt.guess)
		if got := toCode(unplayed(st, flatten([]mm.Code{g}, tt.r.Pegs))).String(); got != tt.want {
			t.Errorf("%v after %v: unplayed(%s) = %s; want %s", tt.r, tt.played, tt.guess, got, tt.want)
		}
	}
}

// Variants of more codes than 30 × 30 are refused at the first guess, saying how
// many codes the sampler plays.
func TestCheckSize(t *testing.T) {
	for _, tt := range []struct {
		r  mm.Rules
		ok bool
	}{
		{mm.Rules{Colors: 20, Pegs: 20}, true},
		{mm.Rules{Colors: 64, Pegs: 10}, true},
		{mm.Rules{Colors: 2, Pegs: 32}, true},
		{mm.Rules{Colors: 25, Pegs: 25}, true},
		{mm.Rules{Colors: 30, Pegs: 30}, true},
		{mm.Rules{Colors: 31, Pegs: 30}, false},
		{mm.Rules{Colors: 64, Pegs: 32}, false},
	} {
		err := CheckSize(tt.r)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, mm.ErrTooLarge)) {
			t.Errorf("CheckSize(%v) = %v; want ok %v, else ErrTooLarge", tt.r, err, tt.ok)
		}
	}
	st, _ := mm.NewState(mm.Rules{Colors: 64, Pegs: 32}, nil)
	if _, err := (Sampler{}).Guess(st); !errors.Is(err, mm.ErrTooLarge) {
		t.Errorf("Sampler on 64 × 32 = %v; want ErrTooLarge", err)
	}
}
