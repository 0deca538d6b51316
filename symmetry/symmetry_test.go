package symmetry_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// signature is what a symmetry preserves: whether a guess is a candidate
// and the sorted sizes of the classes it splits the candidates into.
func signature(cands *mm.Set, g int, counts []uint32) string {
	clear(counts)
	cands.Count(g, counts)
	var sizes []int
	for _, n := range counts {
		if n > 0 {
			sizes = append(sizes, int(n))
		}
	}
	slices.Sort(sizes)
	return fmt.Sprint(counts[cands.Space().SolvedKey()] > 0, sizes)
}

// excluded returns the mask of colours no candidate holds.
func excluded(cands *mm.Set) uint64 {
	var held uint64
	for i := 0; i < cands.Len(); i++ {
		c := cands.Code(i)
		for j := 0; j < c.Len(); j++ {
			held |= 1 << c.Peg(j)
		}
	}
	return (1<<cands.Space().Rules().Colors - 1) &^ held
}

// checkGroup checks g.Guesses and g.Members against the candidates of st:
// the pool is ascending, and every code is equivalent (same signature) to a
// member of the pool that is not above it; likewise for the candidates.
func checkGroup(t *testing.T, st *mm.State, g *symmetry.Group, what string) {
	t.Helper()
	cands, err := st.Candidates()
	if err != nil {
		t.Fatal(err)
	}
	sp := cands.Space()
	pool := g.Guesses(sp)
	if !slices.IsSorted(pool) || len(slices.Compact(slices.Clone(pool))) != len(pool) {
		t.Fatalf("%v after %v (%s): Guesses is not ascending and unique", sp.Rules(), st.Turns(), what)
	}
	if len(pool) == 0 || pool[len(pool)-1] >= sp.Len() {
		t.Fatalf("%v after %v (%s): Guesses = %v...; want codes in range", sp.Rules(), st.Turns(), what, pool[:min(5, len(pool))])
	}
	checkMark(t, g, sp, pool, what)
	counts := make([]uint32, sp.Keys())
	have := map[string]bool{}
	next := 0
	for c := 0; c < sp.Len(); c++ {
		sig := signature(cands, c, counts)
		if next < len(pool) && pool[next] == c {
			have[sig] = true
			next++
		}
		if !have[sig] {
			t.Fatalf("%v after %v (%s): code %v (%s) has no equivalent in Guesses at or below it (pool of %d)",
				sp.Rules(), st.Turns(), what, sp.Code(c), sig, len(pool))
		}
	}
	members := g.Members(cands)
	if !slices.IsSorted(members) || len(members) == 0 || members[0] != 0 {
		t.Fatalf("%v after %v (%s): Members = %v...; want ascending from 0", sp.Rules(), st.Turns(), what, members[:min(5, len(members))])
	}
	clear(have)
	next = 0
	for i := 0; i < cands.Len(); i++ {
		sig := signature(cands, cands.Index(i), counts)
		if next < len(members) && members[next] == i {
			have[sig] = true
			next++
		}
		if !have[sig] {
			t.Fatalf("%v after %v (%s): candidate %v has no equivalent in Members at or below it", sp.Rules(), st.Turns(), what, cands.Code(i))
		}
	}
	if g.Trivial() && len(pool) != sp.Len() {
		t.Errorf("%v after %v (%s): Trivial() but Guesses has %d of %d codes", sp.Rules(), st.Turns(), what, len(pool), sp.Len())
	}
}

// randomGuess returns a random code of r: half the time uniform, half the
// time drawn from few colours so that histories keep many symmetries.
func randomGuess(rng *rand.Rand, r mm.Rules) mm.Code {
	colors := make([]int, r.Pegs)
	switch {
	case r.Distinct:
		perm := rng.Perm(r.Colors)
		if rng.IntN(2) == 0 {
			perm = rng.Perm(r.Pegs + rng.IntN(r.Colors-r.Pegs+1))
		}
		copy(colors, perm)
	case rng.IntN(2) == 0:
		for i := range colors {
			colors[i] = rng.IntN(r.Colors)
		}
	default:
		k := 1 + rng.IntN(3)
		for i := range colors {
			colors[i] = rng.IntN(min(k, r.Colors))
		}
		slices.Sort(colors)
		if rng.IntN(2) == 0 {
			rng.Shuffle(len(colors), func(i, j int) { colors[i], colors[j] = colors[j], colors[i] })
		}
	}
	c, err := mm.NewCode(colors...)
	if err != nil {
		panic(err)
	}
	return c
}

// randomHistory plays 1 to 4 random guesses against a random secret.
func randomHistory(t *testing.T, rng *rand.Rand, r mm.Rules) *mm.State {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatal(err)
	}
	secret := sp.Code(rng.IntN(sp.Len()))
	for n := 1 + rng.IntN(4); n > 0; n-- {
		g := randomGuess(rng, r)
		f := mm.Score(secret, g)
		if f.Solved(r.Pegs) {
			break
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatalf("Play(%v, %v): %v", g, f, err)
		}
	}
	return st
}

var rules = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 5, Pegs: 4},
	{Colors: 4, Pegs: 5},
	{Colors: 7, Pegs: 3},
	{Colors: 6, Pegs: 4, Distinct: true},
	{Colors: 3, Pegs: 6},
	{Colors: 8, Pegs: 4},
	{Colors: 10, Pegs: 4, Distinct: true},
	{Colors: 2, Pegs: 8},  // 8! position permutations: more than the cap
	{Colors: 12, Pegs: 3}, // many free colours
	{Colors: 9, Pegs: 3, Distinct: true},
}

// checkMark checks that Mark sets the bits of the codes of pool, the
// group's list, and no others, and counts them.
func checkMark(t *testing.T, g *symmetry.Group, sp *mm.Space, pool []int, what string) {
	t.Helper()
	bits := make([]uint64, (sp.Len()+63)/64)
	n := g.Mark(bits, sp)
	var got []int
	for c := range sp.Len() {
		if bits[c>>6]&(1<<(c&63)) != 0 {
			got = append(got, c)
		}
	}
	if n != len(got) || !slices.Equal(got, pool) {
		t.Fatalf("%v (%s): Mark set %d bits and returned %d; want the %d codes of List",
			sp.Rules(), what, len(got), n, len(pool))
	}
}

// TestGuesses checks the pools of random histories, with and without the
// colours the candidates exclude.
func TestGuesses(t *testing.T) {
	for i, r := range rules {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 12))
			st, _ := mm.NewState(r, nil)
			checkGroup(t, st, symmetry.Of(st), "history")
			excludedSeen := 0
			histories := 40
			switch {
			case race.Enabled:
				// The groups are built in one goroutine, where the race
				// detector, which made this test take 52 s, has nothing
				// to find; the slow tier checks the 40.
				histories = 10
			case !slow.Enabled:
				// 2.5 s of CPU at 40, most of the package's: the
				// slow tier (go test -tags slow, which CI runs)
				// checks the 40.
				histories = 15
			}
			for range histories {
				st := randomHistory(t, rng, r)
				g := symmetry.Of(st)
				checkGroup(t, st, g, "history")
				checkReduced(t, st, g, 0)
				cands, _ := st.Candidates()
				if ex := excluded(cands); ex != 0 {
					excludedSeen++
					checkGroup(t, st, g.Exclude(ex), fmt.Sprintf("excluding %b", ex))
					checkReduced(t, st, g.Exclude(ex), ex)
				}
			}
			if excludedSeen == 0 && r.Colors > 2 {
				t.Errorf("no history of %d excluded a colour: the exclusion went untested", histories)
			}
		})
	}
}

// TestCanonical checks Canonical, the near pools' test of one code, against
// the pool listed whole: a code passes if and only if the pool holds it,
// after random histories, with and without the colours they exclude.
func TestCanonical(t *testing.T) {
	for i, r := range rules {
		if r.Pegs >= 7 {
			// More position permutations than the cap: the list and
			// Canonical may keep different subsets of them, each a
			// correct reduction.
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		sp, _ := mm.SpaceOf(r)
		x := make([]uint8, r.Pegs)
		for range 10 {
			st := randomHistory(t, rng, r)
			g := symmetry.Of(st)
			cands, _ := st.Candidates()
			for _, h := range []*symmetry.Group{g, g.Exclude(excluded(cands))} {
				in := map[int]bool{}
				for _, c := range h.Guesses(sp) {
					in[c] = true
				}
				for c := range sp.Len() {
					code := sp.Code(c)
					for j := range x {
						x[j] = uint8(code.Peg(j))
					}
					if got := h.Canonical(x); got != in[c] {
						t.Fatalf("%v after %v: Canonical(%v) = %v; the pool holds it: %v", r, st.Turns(), code, got, in[c])
					}
				}
			}
		}
	}
}

// checkReduced checks that AppendReduced, given the pool of the history's
// relabellings alone, leaves the group's pool: what List makes of the
// whole space.
func checkReduced(t *testing.T, st *mm.State, g *symmetry.Group, excl uint64) {
	t.Helper()
	sp, _ := mm.SpaceOf(st.Rules())
	var used uint64
	for i := range st.Len() {
		c := st.Turn(i).Guess
		for j := range c.Len() {
			used |= 1 << c.Peg(j)
		}
	}
	normal := symmetry.Relabel(st.Rules(), used, excl).AppendList(nil, sp)
	got := g.AppendReduced([]int32{-1}, sp, normal)
	want := append([]int32{-1}, g.AppendList(nil, sp)...)
	if !slices.Equal(got, want) {
		t.Errorf("%v after %v, excluding %b: AppendReduced kept %d guesses of %d; List gives %d",
			st.Rules(), st.Turns(), excl, len(got)-1, len(normal), len(want)-1)
	}
}

// TestExcludeShrinks checks that excluding colours removes guesses: after
// 1111 scored 0 0 and 2222 scored 0 0 on 6x4, colours 1 and 2 are
// interchangeable, so no pool member holds a 2 unless it holds no 1.
func TestExcludeShrinks(t *testing.T) {
	r := mm.Classic
	st, _ := mm.NewState(r, nil)
	for _, g := range []string{"1111", "2222"} {
		c, _ := r.ParseCode(g)
		st, _ = st.Play(c, mm.Feedback{})
	}
	sp, _ := mm.SpaceOf(r)
	g := symmetry.Of(st)
	before := len(g.Guesses(sp))
	after := g.Exclude(0b11).Guesses(sp)
	if len(after) >= before {
		t.Fatalf("Exclude(1 and 2) kept %d guesses of %d; want fewer", len(after), before)
	}
	for _, i := range after {
		if s := sp.Code(i).String(); slices.Contains([]byte(s), '2') {
			t.Errorf("pool after excluding 1 and 2 holds %s; want only colour 1 of the two", s)
		}
	}
}

// TestRoot checks the opening pools: at the start every permutation of
// colours and positions is a symmetry, so the pool is one code per pattern
// of colour counts.
func TestRoot(t *testing.T) {
	tests := []struct {
		r    mm.Rules
		want []string
	}{
		{mm.Classic, []string{"1111", "1112", "1122", "1123", "1234"}},
		{mm.Rules{Colors: 3, Pegs: 4}, []string{"1111", "1112", "1122", "1123"}},
		{mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, []string{"1234"}},
		{mm.Rules{Colors: 8, Pegs: 5}, []string{"11111", "11112", "11122", "11123", "11223", "11234", "12345"}},
	}
	for _, tt := range tests {
		st, _ := mm.NewState(tt.r, nil)
		sp, _ := mm.SpaceOf(tt.r)
		var got []string
		for _, i := range symmetry.Of(st).Guesses(sp) {
			got = append(got, sp.Code(i).String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: root Guesses = %v; want %v", tt.r, got, tt.want)
		}
	}
}

// ExampleGroup_Guesses shows the pool after one guess on classic
// Mastermind: 1122 leaves the swaps of its two halves and of its two
// colours, and colours 3 to 6 unused, so far fewer than 1296 codes need
// scoring.
func ExampleGroup_Guesses() {
	r := mm.Classic
	st, _ := mm.NewState(r, nil)
	g, _ := r.ParseCode("1122")
	st, _ = st.Play(g, mm.Feedback{Black: 1})
	sp, _ := mm.SpaceOf(r)
	pool := symmetry.Of(st).Guesses(sp)
	fmt.Println(len(pool), "guesses, the first", sp.Code(pool[0]), sp.Code(pool[1]), sp.Code(pool[2]))
	// Output:
	// 39 guesses, the first 1111 1112 1113
}
