package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// gameNodes returns, for random games of r, the candidates and history of
// each node met, up to turns guesses deep.
func gameNodes(t *testing.T, rng *rand.Rand, r mm.Rules, games, turns int) (members [][]uint32, histories [][]mm.Code, sets []*mm.Set) {
	t.Helper()
	sp, _ := mm.SpaceOf(r)
	for range games {
		secret := sp.Code(rng.IntN(sp.Len()))
		st, _ := mm.NewState(r, nil)
		for turn := 0; turn < turns && !st.Solved(); turn++ {
			m, h, cands := nodeOf(t, st)
			members, histories, sets = append(members, m), append(histories, h), append(sets, cands)
			g := sp.Code(rng.IntN(sp.Len()))
			var err error
			if st, err = st.Play(g, mm.Score(secret, g)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return members, histories, sets
}

// nodeOf returns the candidates of st, as space indices and as a set, and
// its guesses.
func nodeOf(t *testing.T, st *mm.State) (members []uint32, history []mm.Code, cands *mm.Set) {
	t.Helper()
	cands, err := st.Candidates()
	if err != nil {
		t.Fatal(err)
	}
	members = make([]uint32, cands.Len())
	for i := range members {
		members[i] = uint32(cands.Index(i))
	}
	for _, tn := range st.Turns() {
		history = append(history, tn.Guess)
	}
	return members, history, cands
}

// TestSampleWithinTwoPegs checks a Sample that takes every code within two
// pegs of a candidate against scoring every code, on variants of two pegs,
// where that is every code: the pool, its symmetries, the tie rule and the
// bonus are the full scan's.
func TestSampleWithinTwoPegs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	all := Sample{Work: 1 << 40, Top: 1, Mutate: 1 << 20, Near: 1 << 20, Climb: 2}
	for _, r := range []mm.Rules{{Colors: 5, Pegs: 2}, {Colors: 12, Pegs: 2}} {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		members, histories, sets := gameNodes(t, rng, r, 20, 3)
		for i := range members {
			for _, o := range objectives {
				for _, bonus := range bonuses(o) {
					ch := &Chooser{V: v, Obj: o, Bonus: bonus, Sample: all}
					got, err := ch.Choose(context.Background(), members[i], histories[i], 1+i%2)
					if err != nil {
						t.Fatal(err)
					}
					if want := bestByHand(sets[i], o, false, bonus); got != want {
						t.Fatalf("%v after %v, %d candidates, %v, bonus %d: Choose = %v; want %v",
							r, histories[i], len(members[i]), o, bonus, sp.Code(got), sp.Code(want))
					}
				}
			}
		}
	}
}

// TestSampleNoBetterThanFullScan checks that a Sample's guess never scores
// better than the full scan's, and that every rule of it — thinning, the
// codes near the best candidates, near every candidate, climbing — gives
// the same guess with one worker as with three.
func TestSampleNoBetterThanFullScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	samples := []Sample{
		{Work: 64},                  // candidates, thinned
		{Work: 1 << 12, Top: 3},     // near the best three
		{Work: 1 << 30, Mutate: 40}, // near every candidate of small nodes
		{Work: 1 << 30, Top: 4, Near: 0, Mutate: 20, Climb: 3},
		{Work: 1 << 30, Top: 8, Mutate: 1 << 20, Near: 30, Climb: 3},
	}
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 5}, {Colors: 4, Pegs: 7}, {Colors: 3, Pegs: 9}, {Colors: 7, Pegs: 4, Distinct: true}} {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		games := 6
		if !slow.Enabled {
			// 3 s of CPU at six games a variant: the slow tier
			// (go test -tags slow, which CI runs) plays the six.
			games = 3
		}
		members, histories, sets := gameNodes(t, rng, r, games, 3)
		for i := range members {
			o := SumNLogN
			bonus := int64(3 << 31)
			full := bestByHand(sets[i], o, false, bonus)
			fullScore, _ := reference(t, sp, members[i], full, o)
			for _, sm := range samples {
				ch := &Chooser{V: v, Obj: o, Bonus: bonus, Sample: sm}
				one, err := ch.Choose(context.Background(), members[i], histories[i], 1)
				if err != nil {
					t.Fatal(err)
				}
				three, err := ch.Choose(context.Background(), members[i], histories[i], 3)
				if err != nil {
					t.Fatal(err)
				}
				if one != three {
					t.Fatalf("%v after %v, %+v: %v with one worker, %v with three", r, histories[i], sm, sp.Code(one), sp.Code(three))
				}
				score, cons := reference(t, sp, members[i], one, o)
				if cons {
					score -= bonus
				}
				if fc := sets[i].Contains(sp.Code(full)); fc {
					fullScore -= bonus
				}
				if score < fullScore {
					t.Fatalf("%v after %v, %+v: %v scores %d, below the full scan's best %v at %d",
						r, histories[i], sm, sp.Code(one), score, sp.Code(full), fullScore)
				}
				fullScore, _ = reference(t, sp, members[i], full, o)
			}
		}
	}
}

// TestSampleWalk checks Walk under a Sample against playing each secret
// with Choose, guess by guess: a worker's memory, reused from node to node,
// must hold nothing of the last.
func TestSampleWalk(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 5, Pegs: 4}, {Colors: 3, Pegs: 6}} {
		sp, _ := mm.SpaceOf(r)
		ch := &Chooser{V: For(sp), Obj: SumNLogN, Bonus: 3 << 31, Sample: Sample{Work: 1 << 14, Top: 4, Mutate: 30, Near: 10, Climb: 3}}
		checkWalk(t, ch, sp, r.String())
	}
}

// TestSampleConsistentOnly checks that a ConsistentOnly chooser under a
// Sample that would add codes near the candidates guesses a candidate.
func TestSampleConsistentOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	r := mm.Rules{Colors: 6, Pegs: 5}
	sp, _ := mm.SpaceOf(r)
	ch := &Chooser{V: For(sp), Obj: SumNLogN, ConsistentOnly: true, Sample: Sample{Work: 1 << 30, Top: 8, Mutate: 1 << 20, Near: 50, Climb: 3}}
	members, histories, _ := gameNodes(t, rng, r, 8, 4)
	for i := range members {
		g, err := ch.Choose(context.Background(), members[i], histories[i], 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := slices.BinarySearch(members[i], uint32(g)); !ok {
			t.Fatalf("after %v, %d candidates: guess %v is not one of them", histories[i], len(members[i]), sp.Code(g))
		}
	}
}
