package mastermind

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFilterTurns checks the one-pass filter of a state's candidates
// against Filter turn by turn, on a space large enough to be shared out
// among goroutines, and that the space's parallel listing matches CodeAt.
func TestFilterTurns(t *testing.T) {
	r := Rules{Colors: 8, Pegs: 6}
	sp, err := SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sp.Len() {
		want, err := r.CodeAt(uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.Code(i); got != want {
			t.Fatalf("Code(%d) = %v; CodeAt gives %v", i, got, want)
		}
		if got := sp.packed(i); !slices.Equal(got, packOf(sp, want)) {
			t.Fatalf("packed(%d) = %x; want %x", i, got, packOf(sp, want))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	code := func() Code {
		c, _ := r.CodeAt(rng.Uint64N(r.Size()))
		return c
	}
	for range 5 {
		secret := code()
		var turns []Turn
		for range 3 {
			g := code()
			turns = append(turns, Turn{g, Score(secret, g)})
		}
		got, err := sp.All().filterTurns(turns)
		if err != nil {
			t.Fatal(err)
		}
		want := sp.All()
		for _, turn := range turns {
			if want, err = want.Filter(turn.Guess, turn.Feedback); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(got.idx, want.idx) || !slices.Equal(got.data, want.data) {
			t.Errorf("after %v: filterTurns keeps %d codes, Filter turn by turn %d", turns, got.Len(), want.Len())
		}
	}
}

func packOf(sp *Space, c Code) []uint64 {
	out := make([]uint64, sp.pk.stride())
	cs := make([]uint8, c.Len())
	for i := range cs {
		cs[i] = uint8(c.Peg(i))
	}
	sp.pk.pack(out, cs)
	return out
}
