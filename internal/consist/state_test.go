package consist

import (
	"context"
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestForState plays games with the solver kept on the states: each turn's
// code must fit that state's turns, also when a state is asked again after
// later ones (a branch, which needs a new solver), and the solver must be
// the same one from turn to turn otherwise.
func TestForState(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 9))
		r := randomSmallRules(rng)
		if seed%3 == 0 {
			r = mm.Rules{Pegs: 12, Colors: 8}
		}
		secret := mm.RandomCode(r, rng)
		st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var states []*mm.State
		var last *Solver
		for range 12 {
			states = append(states, st)
			sv, done, err := ForState(st)
			if err != nil {
				t.Fatal(err)
			}
			if last != nil && sv != last {
				t.Fatalf("%s, seed %d, turn %d: a new solver, want the one kept", r, seed, st.Len()+1)
			}
			last = sv
			c, err := sv.Next(context.Background(), 0)
			done()
			if err != nil {
				t.Fatalf("%s, seed %d, turn %d: %v", r, seed, st.Len()+1, err)
			}
			if i := misfit(c, st.Turns()); i >= 0 {
				t.Fatalf("%s, seed %d, turn %d: %s does not fit turn %d", r, seed, st.Len()+1, c, i+1)
			}
			f := mm.Score(secret, c)
			if f.Solved(r.Pegs) {
				break
			}
			if st, err = st.Play(c, f); err != nil {
				t.Fatal(err)
			}
		}
		// Back to an earlier state: a branch of the kept history.
		early := states[len(states)/2]
		sv, done, err := ForState(early)
		if err != nil {
			t.Fatal(err)
		}
		n, most := 0, 20
		if r.Size() <= 1296 {
			most = 2000
		}
		for ; n < most; n++ {
			c, err := sv.Next(context.Background(), 0)
			if err != nil {
				break
			}
			if i := misfit(c, early.Turns()); i >= 0 {
				t.Fatalf("%s, seed %d, back at turn %d: %s does not fit turn %d", r, seed, early.Len()+1, c, i+1)
			}
		}
		if r.Size() <= 1296 {
			if all := enumerate(r, early.Turns(), 2001); len(all) != n {
				t.Fatalf("%s, seed %d, back at turn %d: drew %d codes, %d fit", r, seed, early.Len()+1, n, len(all))
			}
		}
		done()
	}
}

// TestWitness checks Witness along small games, each state asked twice, a
// state with one code left among them: each code fits, the same one comes
// back, and ForState's draws are not taken from.
func TestWitness(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 19))
		r := randomSmallRules(rng)
		secret := mm.RandomCode(r, rng)
		st, err := mm.NewState(r, rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			c, err := Witness(context.Background(), st, 0)
			if err != nil {
				t.Fatalf("%s, seed %d, turn %d: %v", r, seed, st.Len()+1, err)
			}
			if i := misfit(c, st.Turns()); i >= 0 {
				t.Fatalf("%s, seed %d, turn %d: %s does not fit turn %d", r, seed, st.Len()+1, c, i+1)
			}
			if again, err := Witness(context.Background(), st, 0); err != nil || again != c {
				t.Fatalf("%s, seed %d, turn %d: asked again, %s, %v; want %s", r, seed, st.Len()+1, again, err, c)
			}
			if all := enumerate(r, st.Turns(), 201); len(all) <= 200 {
				codes, _, err := DrawFor(context.Background(), st, len(all)+1, 1<<40)
				if err != nil || len(codes) != len(all) {
					t.Fatalf("%s, seed %d, turn %d: DrawFor gave %d codes, %v; want all %d", r, seed, st.Len()+1, len(codes), err, len(all))
				}
			}
			if st.Solved() {
				break
			}
			g := mm.RandomCode(r, rng)
			if rng.IntN(2) == 0 {
				g = c
			}
			if st, err = st.Play(g, mm.Score(secret, g)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
