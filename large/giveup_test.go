package large

import (
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestSamplerGivesUp plays 20 × 20 games at a budget too small for the
// search to find a consistent code late in a game: the sampler must then
// give up on the sample and play the code nearest to fitting that it met,
// legal and new, rather than search without a limit, and still solve the
// game.
func TestSamplerGivesUp(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 20}
	s := Sampler{Budget: 1}
	gaveUp := 0
	for seed := range uint64(2) {
		secret := mm.RandomCode(r, rand.New(rand.NewPCG(seed, 1)))
		st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; ; n++ {
			if n > 400 {
				t.Fatalf("secret %s not solved in 400 guesses", secret)
			}
			g, err := s.Guess(st)
			if err != nil {
				t.Fatalf("secret %s, guess %d: %v", secret, n, err)
			}
			if err := r.Check(g); err != nil || st.Guessed(g) {
				t.Fatalf("secret %s, guess %d: %s illegal or played before (%v)", secret, n, g, err)
			}
			if pl, ok := st.Attached(poolKey{}).(*pool); ok && pl.closest != nil {
				gaveUp++
				if ConstraintsOf(st).fits(appendCode(nil, g)) {
					t.Errorf("secret %s, guess %d: gave up on finding a consistent code, yet played one, %s", secret, n, g)
				}
			}
			f := mm.Score(secret, g)
			if f.Solved(r.Pegs) {
				break
			}
			if st, err = st.Play(g, f); err != nil {
				t.Fatal(err)
			}
		}
	}
	if gaveUp == 0 {
		t.Errorf("the sampler never gave up on finding a consistent code; want a test that makes it")
	}
}
