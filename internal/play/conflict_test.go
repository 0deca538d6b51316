package play

import (
	"context"
	"errors"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// bruteSmallest returns the size of a smallest conflicting subset of turns
// by trying every subset.
func bruteSmallest(sp *mm.Space, turns []mm.Turn) int {
	best := 0
	for mask := 1; mask < 1<<len(turns); mask++ {
		n := bits.OnesCount(uint(mask))
		if best != 0 && n >= best {
			continue
		}
		keep := make([]bool, len(turns))
		for i := range keep {
			keep[i] = mask&(1<<i) != 0
		}
		if !consistent(sp.All(), turns, keep) {
			best = n
		}
	}
	return best
}

// randomHistory returns turns answered truthfully for a secret, with some
// answers changed at random, as people mistype them.
func randomHistory(sp *mm.Space, rng *rand.Rand, n int) []mm.Turn {
	secret := sp.Code(rng.IntN(sp.Len()))
	fs := sp.Rules().Feedbacks()
	var turns []mm.Turn
	for range n {
		g := sp.Code(rng.IntN(sp.Len()))
		f := mm.Score(secret, g)
		if rng.IntN(3) == 0 {
			f = fs[rng.IntN(len(fs))]
		}
		turns = append(turns, mm.Turn{Guess: g, Feedback: f})
	}
	return turns
}

func TestSmallestConflict(t *testing.T) {
	sp, err := mm.SpaceOf(mm.Rules{Colors: 4, Pegs: 3})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for trial := 0; trial < 400; trial++ {
		turns := randomHistory(sp, rng, 1+rng.IntN(7))
		got, smallest := smallestConflict(sp.All(), turns)
		want := bruteSmallest(sp, turns)
		if want == 0 {
			if got != nil {
				t.Fatalf("smallestConflict(%v) = %v; want nil, the turns are consistent", turns, got)
			}
			continue
		}
		checked++
		if !smallest || len(got) != want {
			t.Fatalf("smallestConflict(%v) = %v (smallest %v); want a set of %d", turns, got, smallest, want)
		}
		keep := make([]bool, len(turns))
		for _, i := range got {
			keep[i] = true
		}
		if consistent(sp.All(), turns, keep) {
			t.Fatalf("smallestConflict(%v) = %v, which some code satisfies", turns, got)
		}
	}
	if checked < 50 {
		t.Errorf("only %d conflicting histories checked", checked)
	}
}

// TestSmallestConflictNewest checks that when all but the newest answer
// hold together, the set found holds the newest, the one people just typed.
func TestSmallestConflictNewest(t *testing.T) {
	sp, err := mm.SpaceOf(mm.Classic)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		turns := randomHistory(sp, rng, 2+rng.IntN(6))
		if !consistentWithout(sp.All(), turns, len(turns)-1) || consistentWithout(sp.All(), turns, -1) {
			continue
		}
		got, _ := smallestConflict(sp.All(), turns)
		if len(got) == 0 || got[len(got)-1] != len(turns)-1 {
			t.Fatalf("smallestConflict(%v) = %v; want a set holding the newest turn %d", turns, got, len(turns)-1)
		}
	}
}

func TestIrreducibleConflict(t *testing.T) {
	sp, err := mm.SpaceOf(mm.Rules{Colors: 4, Pegs: 3})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		turns := randomHistory(sp, rng, 1+rng.IntN(8))
		if consistentWithout(sp.All(), turns, -1) {
			continue
		}
		got := irreducibleConflict(sp.All(), turns)
		keep := make([]bool, len(turns))
		for _, i := range got {
			keep[i] = true
		}
		if consistent(sp.All(), turns, keep) {
			t.Fatalf("irreducibleConflict(%v) = %v, which some code satisfies", turns, got)
		}
		for _, i := range got {
			keep[i] = false
			if !consistent(sp.All(), turns, keep) {
				t.Fatalf("irreducibleConflict(%v) = %v still conflicts without %d", turns, got, i)
			}
			keep[i] = true
		}
	}
}

// TestLargeConflictDeep: consistent play on 20 × 20 against a planted
// secret, answer 3 mistyped, until no code fits; the constraint search
// of package large gives up on such a history, and the complete solver
// must name the answers at fault, answer 3 among them.
func TestLargeConflictDeep(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 20}
	rng := rand.New(rand.NewPCG(1, 11))
	secret := mm.RandomCode(r, rng)
	var turns []mm.Turn
	for len(turns) < 40 {
		g, err := consist.Find(context.Background(), r, turns, 0, rng)
		if errors.Is(err, mm.ErrInconsistent) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := mm.Score(secret, g)
		if len(turns) == 2 {
			f.Black, f.White = f.Black+1, f.White-1
			if r.CheckFeedback(f) != nil || f.White < 0 {
				t.Fatalf("cannot mistype %s", mm.Score(secret, g))
			}
		}
		turns = append(turns, mm.Turn{Guess: g, Feedback: f})
	}
	got := largeConflict(r, turns)
	t.Logf("%d turns: answers %v named", len(turns), got)
	if !slices.Contains(got, 2) {
		t.Fatalf("%d turns: answers %v named; want answer 3 among them", len(turns), got)
	}
	if _, err := consist.Find(context.Background(), r, pick(turns, got), 0, nil); !errors.Is(err, mm.ErrInconsistent) {
		t.Fatalf("answers %v named, but the solver on them says %v", got, err)
	}
}

func pick(turns []mm.Turn, set []int) []mm.Turn {
	out := make([]mm.Turn, len(set))
	for i, k := range set {
		out[i] = turns[k]
	}
	return out
}
