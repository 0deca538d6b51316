package engine

import (
	"bytes"
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
)

// familyRules are the variants the family tests take: the sliced kernel
// with few and many pegs, distinct colours, and sets of one plane and of
// several.
var familyRules = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 5, Pegs: 5},
	{Colors: 4, Pegs: 7},
	{Colors: 3, Pegs: 6},
	{Colors: 6, Pegs: 4, Distinct: true},
	{Colors: 7, Pegs: 5},
	{Colors: 5, Pegs: 2},  // a prefix of one peg
	{Colors: 16, Pegs: 1}, // no prefix: no families
}

// familySets returns candidate sets of v to test families on: random codes
// (one plane and several, and sets small enough to be split with masks
// only where families are bounded) and the nodes of random games, whose
// candidates share more and so split less. The tests load them with
// masks whatever their size.
func familySets(t *testing.T, rng *rand.Rand, r mm.Rules) (sets [][]uint32, histories [][]mm.Code) {
	t.Helper()
	sp, _ := mm.SpaceOf(r)
	for _, n := range []int{3, famSlicedMin, slicedMin - 1, slicedMin, 20, 40, 64, 65, 150, 600} {
		sets = append(sets, randomMembers(rng, sp, n))
		histories = append(histories, nil)
	}
	games := 6
	if !slow.Enabled {
		// TestFamiliesMatchFullScan took 2.2 s of CPU on six games'
		// nodes a variant: the slow tier (go test -tags slow, which CI
		// runs) takes the six.
		games = 3
	}
	members, hist, _ := gameNodes(t, rng, r, games, 4)
	for i, m := range members {
		if len(m) >= 3 && len(m) < 400 {
			sets = append(sets, m)
			histories = append(histories, hist[i])
		}
	}
	return sets, histories
}

// TestFamilyBound checks the bounds of the family of the last peg against
// the score of every guess of the family: none may score below the
// family's bound for its last peg, nor under Σ n·ln n below its own.
func TestFamilyBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	for _, r := range familyRules {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		P := v.P
		if P < 2 {
			continue // no families: the scan bounds none
		}
		sets, _ := familySets(t, rng, r)
		for _, members := range sets {
			var s set
			var sc scratch
			s.loadMin(v, members, 1)
			sc.ready(&s)
			for range 12 {
				g := rng.IntN(sp.Len())
				size := v.famSize()
				lo := g / size * size
				for _, o := range objectives {
					s.famReady(o)
					drop := sc.famDrop(&s, g, o, math.MaxInt64)
					if drop != 0 {
						t.Fatalf("%v, %d members, %v: the family of %v drops %b under no limit", r, len(members), o, sp.Code(g), drop)
					}
					// The bound for each place: the least limit
					// that keeps it.
					for i := range size {
						h := lo + i
						want, cons, _ := sc.score(&s, h, o, math.MaxInt64)
						// score starts from the family's sums
						// that famDrop kept.
						if ref, refCons := reference(t, sp, members, h, o); want != ref || cons != refCons {
							t.Fatalf("%v, %d members, %v: guess %v after its family's bound scores %d, %t; want %d, %t",
								r, len(members), o, sp.Code(h), want, cons, ref, refCons)
						}
						if sc.famDrop(&s, g, o, want)&(1<<i) != 0 {
							t.Fatalf("%v, %d members, %v: guess %v dropped for a limit of its own score %d",
								r, len(members), o, sp.Code(h), want)
						}
					}
				}
				// The class-split bounds against famBound's, from
				// the codes.
				for _, o := range []Objective{Largest, NegParts} {
					s.famReady(o)
					all, unused := s.famSplit(o, sc.famCounts(&s, (*[16]uint8)(v.off[g*2*P:])))
					wantAll, wantUnused := famBound(&s, o, g)
					if all != wantAll || unused != wantUnused {
						t.Fatalf("%v, %d members, %v: famSplit = %d, %d; famBound %d, %d", r, len(members), o, all, unused, wantAll, wantUnused)
					}
				}
			}
		}
	}
}

// famBound is famSplit from the codes: each member's feedback against the
// first P−1 pegs of guess g, and for each such class the feedbacks it can
// end in.
func famBound(s *set, o Objective, g int) (all, unused int64) {
	v := s.v
	P := v.P
	sp := v.sp
	guess := sp.Code(g).Colors()[:P-1]
	var gc [mm.MaxColors]int
	for _, k := range guess {
		gc[k]++
	}
	size := map[[2]int]int{}
	counted := s.members[:min(len(s.members), 64*famPlanes)]
	for _, c := range counted {
		code := sp.Code(int(c)).Colors()
		var cc [mm.MaxColors]int
		for _, k := range code {
			cc[k]++
		}
		b, t := 0, 0
		for i, k := range guess {
			if code[i] == k {
				b++
			}
		}
		for k := range gc {
			t += min(gc[k], cc[k])
		}
		size[[2]int{b, t}]++
	}
	var reach uint64
	for bt, n := range size {
		b, t := bt[0], bt[1]
		k, ku := 0, 0
		var rc uint64
		for b2 := b; b2 <= b+1; b2++ {
			for t2 := t; t2 <= t+1 && t2 <= P; t2++ {
				if b2 > t2 || b2 == P-1 && t2 == P {
					continue
				}
				k++
				rc |= 1 << (b2<<v.shift | t2)
				if t2-t >= b2-b {
					ku++
				}
			}
		}
		switch o {
		case Largest:
			all = max(all, int64((n+k-1)/k))
			unused = max(unused, int64((n+ku-1)/ku))
		case SumSquares:
			all += evenSquares(int64(n), int64(k))
			unused += evenSquares(int64(n), int64(ku))
		case NegParts:
			all -= int64(min(n, k))
			unused -= int64(min(n, ku))
			reach |= rc
		}
	}
	if o == NegParts {
		all = max(all, -int64(bits.OnesCount64(reach)))
		unused = max(unused, all)
	}
	rest := len(s.members) - len(counted)
	if rest == 0 {
		return all, unused
	}
	if o == NegParts {
		p := -int64(v.pairs)
		return max(all-int64(rest), p), max(unused-int64(rest), p)
	}
	return o.bound(all, 0, rest, v.pairs), o.bound(unused, 0, rest, v.pairs)
}

// evenSquares returns Σ n² of n codes split as evenly as can be into k
// classes.
func evenSquares(n, k int64) int64 {
	q, r := n/k, n%k
	return r*(q+1)*(q+1) + (k-r)*q*q
}

// TestFamiliesMatchFullScan checks scans that drop guesses by their
// families against scoring every code in full: the same guess for each
// objective and bonus, with one worker and two; and Choose, with its
// pools and stops, the same with families as without.
func TestFamiliesMatchFullScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 2))
	var dropped int64
	for _, r := range familyRules {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		sets, histories := familySets(t, rng, r)
		for i, members := range sets {
			for _, o := range objectives {
				ch := &Chooser{V: v, Obj: o}
				all, err := ch.ScoreAll(context.Background(), members, allCodes(sp.Len()).list(sp.Len()))
				if err != nil {
					t.Fatal(err)
				}
				for _, bonus := range bonuses(o) {
					var want Pick
					for _, p := range all {
						if p.Cons {
							p.Score -= bonus
						}
						if p.Better(want, o.Tol()) {
							want = p
						}
					}
					for _, workers := range []int{1, 2} {
						var s set
						var sc scratch
						s.loadMin(v, members, 1)
						got, err := s.scan(context.Background(), allCodes(sp.Len()), o, bonus, stopRule{}, workers, true, &sc)
						if err != nil {
							t.Fatal(err)
						}
						dropped += sc.famDropped
						if got.Index != want.Index {
							t.Fatalf("%v, %d members, %v, bonus %d, %d workers: scan = %v (%d); want %v (%d)",
								r, len(members), o, bonus, workers, sp.Code(got.Index), got.Score, sp.Code(want.Index), want.Score)
						}
					}
					ch := &Chooser{V: v, Obj: o, Bonus: bonus, NoFamilies: true}
					plain, err := ch.Choose(context.Background(), members, histories[i], 1)
					if err != nil {
						t.Fatal(err)
					}
					ch.NoFamilies = false
					fam, err := ch.Choose(context.Background(), members, histories[i], 1+i%2)
					if err != nil {
						t.Fatal(err)
					}
					if fam != plain {
						t.Fatalf("%v after %v, %d members, %v, bonus %d: Choose = %v; without families %v",
							r, histories[i], len(members), o, bonus, sp.Code(fam), sp.Code(plain))
					}
				}
			}
		}
	}
	if dropped == 0 {
		t.Errorf("no family was dropped: the test shows nothing")
	}
}

// TestFamilyGenerated checks that family_gen.go is what gen_family.go
// writes.
func TestFamilyGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator")
	}
	out := filepath.Join(t.TempDir(), "family_gen.go")
	cmd := exec.Command("go", "run", "gen_family.go", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_family.go: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("family_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("family_gen.go is stale: run go generate ./internal/engine")
	}
}
