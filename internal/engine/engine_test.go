package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

var objectives = []Objective{Largest, SumSquares, SumNLogN, NegParts}

// variantsUnderTest cover each path of the kernel: sliced sets of one and
// of several planes, packed codes of one word and of several, distinct
// colours, and more pegs than the sliced kernel takes.
var variantsUnderTest = []mm.Rules{
	{Colors: 6, Pegs: 4},
	{Colors: 8, Pegs: 5},
	{Colors: 6, Pegs: 4, Distinct: true},
	{Colors: 4, Pegs: 7},
	{Colors: 2, Pegs: 9},  // beyond the sliced kernel
	{Colors: 30, Pegs: 3}, // 90 bits: packed codes of two words
	{Colors: 44, Pegs: 3}, // 264 masks, more than a plane holds: no masks
	{Colors: 10, Pegs: 3}, // 30 masks of each kind
	{Colors: 3, Pegs: 6},  // many pegs, few colours
	{Colors: 9, Pegs: 4, Distinct: true},
	{Colors: 5, Pegs: 2}, // the fewest pegs the written-out code takes
	{Colors: 16, Pegs: 1},
}

// reference scores guess g against members the slow way, from mm's own
// partition.
func reference(t *testing.T, sp *mm.Space, members []uint32, g int, o Objective) (int64, bool) {
	t.Helper()
	counts := make([]uint32, sp.Keys())
	for _, c := range members {
		f := sp.Score(g, int(c))
		counts[sp.Key(f)]++
	}
	return o.Score(counts), counts[sp.SolvedKey()] != 0
}

// randomMembers draws n distinct codes of sp, ascending.
func randomMembers(rng *rand.Rand, sp *mm.Space, n int) []uint32 {
	n = min(n, sp.Len())
	out := make([]uint32, 0, n)
	for _, i := range rng.Perm(sp.Len())[:n] {
		out = append(out, uint32(i))
	}
	slices.Sort(out)
	return out
}

// TestScoreMatchesPartition checks the kernel's score of random guesses
// against random sets of every size class with the score of mm's
// partition, and that a guess it drops for a limit scores above it.
func TestScoreMatchesPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range variantsUnderTest {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		v := For(sp)
		// Sets under slicedMin are split with masks too where guess
		// families are bounded (famSlicedMin): a negative n is such a
		// set.
		for _, n := range []int{1, 3, slicedMin - 1, slicedMin, 40, 64, 65, 200, 300, 1000, -3, -famSlicedMin, -(slicedMin - 1)} {
			least := slicedMin
			if n < 0 {
				n, least = -n, 1
			}
			members := randomMembers(rng, sp, n)
			var s set
			var sc scratch
			s.loadMin(v, members, least)
			sc.ready(&s)
			for range 40 {
				g := rng.IntN(sp.Len())
				for _, o := range objectives {
					want, wantCons := reference(t, sp, members, g, o)
					got, cons, ok := sc.score(&s, g, o, math.MaxInt64)
					if !ok || got != want || cons != wantCons {
						t.Fatalf("%v, %d members, guess %v, %v: score %d, %t (ok %t); want %d, %t",
							r, len(members), sp.Code(g), o, got, cons, ok, want, wantCons)
					}
					limit := want - 1 - rng.Int64N(3)
					if _, _, ok := sc.score(&s, g, o, limit); !ok && want <= limit {
						t.Fatalf("%v, %d members, guess %v, %v: dropped under limit %d, but scores %d",
							r, len(members), sp.Code(g), o, limit, want)
					}
					if got, _, ok := sc.score(&s, g, o, want); !ok || got != want {
						t.Fatalf("%v, %d members, guess %v, %v: limit at its own score %d gave %d, %t",
							r, len(members), sp.Code(g), o, want, got, ok)
					}
				}
			}
		}
	}
}

// TestScoreMended checks the kernel's mended sums (a near pool's scoring)
// against mm's partition, on guesses as a near pool lists them: runs of
// the codes one and two pegs from a code, with other codes and a second
// set between them, so that the sums mended come from the guess before on
// the same set or from none.
func TestScoreMended(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range variantsUnderTest {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		v := For(sp)
		if v.off == nil {
			continue // no sliced kernel
		}
		for _, n := range []int{slicedMin, 64, 200} {
			var a, b set
			a.load(v, randomMembers(rng, sp, n))
			b.load(v, randomMembers(rng, sp, n+1))
			var sc scratch
			sc.ready(&a)
			sc.mend = true
			x := make([]int, r.Pegs)
			for range 30 {
				c := sp.Code(rng.IntN(sp.Len()))
				for j := range x {
					x[j] = c.Peg(j)
				}
				for range 12 {
					// One or two pegs changed, or another set now and
					// then.
					for range 1 + rng.IntN(2) {
						x[rng.IntN(r.Pegs)] = rng.IntN(r.Colors)
					}
					g, err := mm.NewCode(x...)
					if err != nil {
						continue // distinct colours broken
					}
					gi, ok := sp.Index(g)
					if !ok {
						continue
					}
					s := &a
					switch rng.IntN(16) {
					case 0, 1:
						s = &b
					case 2:
						// The same set, loaded with other members: the
						// sums kept are of the old ones.
						a.load(v, randomMembers(rng, sp, n))
					}
					want, wantCons := reference(t, sp, s.members, gi, SumNLogN)
					if got, cons, ok := sc.score(s, gi, SumNLogN, math.MaxInt64); !ok || got != want || cons != wantCons {
						t.Fatalf("%v, %d members, guess %v mended: score %d, %t (ok %t); want %d, %t", r, len(s.members), g, got, cons, ok, want, wantCons)
					}
				}
			}
		}
	}
}

// TestScoreLargeSets checks the packed kernel's score against mm's
// partition on sets larger than the table of n·ln n, whose classes pass
// it, on a variant beyond the sliced kernel.
func TestScoreLargeSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sp, err := mm.SpaceOf(mm.Rules{Colors: 2, Pegs: 15})
	if err != nil {
		t.Fatal(err)
	}
	v := For(sp)
	members := randomMembers(rng, sp, len(nlognTab)+100)
	var s set
	var sc scratch
	s.load(v, members)
	sc.ready(&s)
	if s.sliced {
		t.Fatalf("%v is scored by the sliced kernel; the test wants the packed one", sp.Rules())
	}
	for range 10 {
		g := rng.IntN(sp.Len())
		for _, o := range objectives {
			want, wantCons := reference(t, sp, members, g, o)
			if got, cons, ok := sc.score(&s, g, o, math.MaxInt64); !ok || got != want || cons != wantCons {
				t.Fatalf("%d members, guess %v, %v: score %d, %t (ok %t); want %d, %t",
					len(members), sp.Code(g), o, got, cons, ok, want, wantCons)
			}
		}
	}
}

// TestTies checks that partitions with equal Σ n·ln n score exactly alike.
func TestTies(t *testing.T) {
	buildTables()
	a := SumNLogN.Score([]uint32{4, 1, 1, 1, 1})
	b := SumNLogN.Score([]uint32{2, 2, 2, 2})
	if a != b {
		t.Errorf("Σ n·ln n of {4,1,1,1,1} = %d and of {2,2,2,2} = %d; want equal (4⁴ = 2⁸)", a, b)
	}
	if c := SumNLogN.Score([]uint32{3, 3, 2}); c == a {
		t.Errorf("Σ n·ln n of {3,3,2} = %d equals {2,2,2,2}'s", c)
	}
	for n := range nlognTab {
		if n >= 2 && nlognTab[n] != fixedNLogN(n) {
			t.Fatalf("nlognTab[%d] = %d; fixedNLogN = %d", n, nlognTab[n], fixedNLogN(n))
		}
	}
	if got := fixedNLogN(20000) - nlogn(20000); got != 0 {
		t.Errorf("fixedNLogN(20000) - nlogn(20000) = %d; want 0", got)
	}
}

// bestByHand is the choice of Choose made the slow way: every code scored
// in full against the candidates, the lowest score, then a candidate,
// then the lowest code. (Ties within the tolerance do not occur in these
// small spaces.)
func bestByHand(cands *mm.Set, o Objective, consistentOnly bool, bonus int64) int {
	sp := cands.Space()
	key := nodeKeyOf(cands)
	rkey := fmt.Sprint(key, o, consistentOnly, bonus)
	hand.Lock()
	defer hand.Unlock()
	if g, ok := hand.best[rkey]; ok {
		return g
	}
	k := sp.Keys()
	if hand.key != key {
		// Each code's counts against the candidates, kept for the
		// node's other objectives and bonuses: the scan is the slow part.
		hand.key, hand.counts = key, make([]uint32, sp.Len()*k)
		for g := 0; g < sp.Len(); g++ {
			cands.Count(g, hand.counts[g*k:(g+1)*k])
		}
	}
	best := Pick{}
	for g := 0; g < sp.Len(); g++ {
		if consistentOnly && !cands.Contains(sp.Code(g)) {
			continue
		}
		counts := hand.counts[g*k : (g+1)*k]
		p := Pick{OK: true, Cons: counts[sp.SolvedKey()] != 0, Score: o.Score(counts), Index: g}
		if p.Cons {
			p.Score -= bonus
		}
		if p.Better(best, 0) {
			best = p
		}
	}
	if hand.best == nil {
		hand.best = map[string]int{}
	}
	hand.best[rkey] = best.Index
	return best.Index
}

// hand keeps bestByHand's answers, by node, objective and bonus, and the
// counts of the last node it scanned. The tests play several random games
// from the root of each variant, and the scan of every code against every
// other at the root took most of this package's time, once a game
// (TestSampleNoBetterThanFullScan, 28 s at load 8); the nodes and checks
// are the same.
var hand struct {
	sync.Mutex
	best   map[string]int
	key    string
	counts []uint32
}

// nodeKeyOf returns a key for the variant and candidates of cands.
func nodeKeyOf(cands *mm.Set) string {
	var b strings.Builder
	b.WriteString(cands.Space().Rules().String())
	for i := range cands.Len() {
		b.WriteString(",")
		b.WriteString(strconv.Itoa(cands.Index(i)))
	}
	return b.String()
}

// bonuses returns the bonuses for candidates to test o with: entropy's
// (half a nat to three), and none.
func bonuses(o Objective) []int64 {
	if o != SumNLogN {
		return []int64{0}
	}
	return []int64{0, 1 << 31, 3 << 31, 3 << 32}
}

// TestChooseMatchesFullScan checks Choose — its symmetries, excluded
// colours, obvious guesses and dropped guesses — against scoring every
// code, after random histories.
func TestChooseMatchesFullScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 5, Pegs: 5}, {Colors: 6, Pegs: 4, Distinct: true}, {Colors: 2, Pegs: 9}} {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		members, histories, sets := gameNodes(t, rng, r, 12, 4)
		for i := range members {
			for _, o := range objectives {
				for _, co := range []bool{false, true} {
					for _, bonus := range bonuses(o) {
						ch := &Chooser{V: v, Obj: o, ConsistentOnly: co, Bonus: bonus}
						got, err := ch.Choose(context.Background(), members[i], histories[i], 1+i%2)
						if err != nil {
							t.Fatal(err)
						}
						if want := bestByHand(sets[i], o, co, bonus); got != want {
							t.Fatalf("%v after %v, %d candidates, %v (consistent only %t, bonus %d): Choose = %v; want %v",
								r, histories[i], len(members[i]), o, co, bonus, sp.Code(got), sp.Code(want))
						}
					}
				}
			}
		}
	}
}

// TestWalkMatchesGames checks Walk against playing each secret with
// Choose, guess by guess, with one worker and two, and with a filter;
// among every code and among the candidates alone, whose pool a worker
// reuses from node to node.
func TestWalkMatchesGames(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: 5, Pegs: 4}, {Colors: 4, Pegs: 3, Distinct: true}} {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		for _, oc := range []struct {
			o     Objective
			co    bool
			bonus int64
		}{{Largest, false, 0}, {SumSquares, false, 0}, {SumNLogN, false, 0}, {NegParts, false, 0}, {Largest, true, 0}, {NegParts, true, 0}, {SumNLogN, false, 3 << 31}} {
			o := oc.o
			ch := &Chooser{V: v, Obj: o, ConsistentOnly: oc.co, Bonus: oc.bonus}
			want := checkWalk(t, ch, sp, fmt.Sprint(r, " ", o))
			odd := func(i int) bool { return i%3 == 1 }
			done := 0
			got, err := ch.Walk(context.Background(), odd, func(d int) {
				if d != done+1 {
					t.Errorf("progress %d after %d", d, done)
				}
				done = d
			}, 2)
			if err != nil {
				t.Fatal(err)
			}
			wanted := 0
			for i := range got {
				if odd(i) {
					wanted++
					if got[i] != want[i] {
						t.Errorf("%v %v, filtered: secret %v took %d; want %d", r, o, sp.Code(i), got[i], want[i])
					}
				}
			}
			if done != wanted {
				t.Errorf("%v %v, filtered: progress reached %d; want %d", r, o, done, wanted)
			}
		}
	}
}

// TestFloor checks that no guess, candidate or not, scores below the
// Floor of its objective, on random sets of every size class.
func TestFloor(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range []mm.Rules{{Colors: 6, Pegs: 4}, {Colors: 4, Pegs: 5}, {Colors: 5, Pegs: 3, Distinct: true}} {
		sp, _ := mm.SpaceOf(r)
		v := For(sp)
		for _, n := range []int{3, 15, 40, 120} {
			members := randomMembers(rng, sp, n)
			for _, o := range objectives {
				floor, ok := o.Floor(len(members), v.pairs)
				if !ok {
					continue
				}
				for g := range sp.Len() {
					if score, _ := reference(t, sp, members, g, o); score < floor {
						t.Fatalf("%v, %d members, %v: %v scores %d, below the floor %d", r, n, o, sp.Code(g), score, floor)
					}
				}
				// Up to k members, a candidate at the floor tells them
				// all apart.
				if n <= v.pairs && floor != o.Perfect(n) {
					t.Errorf("%v: floor of %d in %d classes is %d; want %d", o, n, v.pairs, floor, o.Perfect(n))
				}
			}
		}
	}
	if _, ok := SumNLogN.Floor(10, 14); ok {
		t.Error("Σ n·ln n has a floor")
	}
}

// checkWalk checks ch's Walk, with one worker and two, against playing
// each secret with Choose, and returns the guesses of each game.
func checkWalk(t *testing.T, ch *Chooser, sp *mm.Space, what string) []uint8 {
	t.Helper()
	want := make([]uint8, sp.Len())
	for i := range want {
		want[i] = uint8(play(t, ch, sp, i))
	}
	for _, workers := range []int{1, 2} {
		got, err := ch.Walk(context.Background(), nil, nil, workers)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s, %d workers: Walk differs from playing each secret", what, workers)
		}
	}
	return want
}

// play plays the game against secret i with ch and returns its guesses.
// Under ch.ConsistentOnly it fails if a guess could not be the secret.
func play(t *testing.T, ch *Chooser, sp *mm.Space, i int) int {
	t.Helper()
	st, _ := mm.NewState(sp.Rules(), nil)
	for n := 1; ; n++ {
		members, history, cands := nodeOf(t, st)
		g, err := ch.Choose(context.Background(), members, history, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ch.ConsistentOnly && !cands.Contains(sp.Code(g)) {
			t.Fatalf("after %v: %v could not be the secret", history, sp.Code(g))
		}
		if g == i {
			return n
		}
		f := mm.Score(sp.Code(i), sp.Code(g))
		if st, err = st.Play(sp.Code(g), f); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWalkStops checks that a cancelled walk returns the context's error.
func TestWalkStops(t *testing.T) {
	sp, _ := mm.SpaceOf(mm.Rules{Colors: 8, Pegs: 5})
	ch := &Chooser{V: For(sp), Obj: SumNLogN}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := ch.Walk(ctx, nil, func(int) {
		if n++; n == 100 {
			cancel()
		}
	}, 2)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Walk after cancel = %v; want context.Canceled", err)
	}
}

// TestPoolCache checks that the cache keeps what fits and drops the pool
// used longest ago first.
func TestPoolCache(t *testing.T) {
	var pc poolCache
	words := maxPoolBytes / 8 / 4 // four pools fill the cache
	for i := range 4 {
		pc.put(strconv.Itoa(i), pool{bits: make([]uint64, words), n: i})
	}
	if _, ok := pc.get("0"); !ok { // 0 is now the last used
		t.Fatal("pool 0 dropped before the cache was full")
	}
	pc.put("4", pool{bits: make([]uint64, words)})
	if _, ok := pc.get("1"); ok {
		t.Error("pool 1, used longest ago, kept")
	}
	for _, k := range []string{"0", "2", "3", "4"} {
		if _, ok := pc.get(k); !ok {
			t.Errorf("pool %s dropped", k)
		}
	}
	// Two workers that list the same pool put it twice: it counts once.
	for range 8 {
		pc.put("4", pool{bits: make([]uint64, words)})
	}
	if len(pc.m) != 4 || pc.bytes != 4*8*words {
		t.Errorf("after putting a kept pool again: %d pools, %d bytes; want 4, %d", len(pc.m), pc.bytes, 4*8*words)
	}
	// Many small pools: a full cache drops the oldest quarter at once,
	// never a pool used since.
	var small poolCache
	words = maxPoolBytes / 8 / 64
	for i := range 64 {
		small.put(strconv.Itoa(i), pool{bits: make([]uint64, words)})
	}
	small.get("0")
	small.put("64", pool{bits: make([]uint64, words)})
	for i, want := range map[int]bool{0: true, 1: false, 16: false, 17: true, 63: true, 64: true} {
		if _, ok := small.get(strconv.Itoa(i)); ok != want {
			t.Errorf("small pool %d kept = %v; want %v", i, ok, want)
		}
	}
	if small.bytes > maxPoolBytes*3/4+8*words {
		t.Errorf("after an eviction the cache holds %d bytes; want at most %d", small.bytes, maxPoolBytes*3/4+8*words)
	}
	pc.put("big", pool{bits: make([]uint64, maxPoolBytes/8+1)})
	if _, ok := pc.get("big"); ok || pc.bytes > maxPoolBytes {
		t.Errorf("a pool larger than the cache kept; %d bytes", pc.bytes)
	}
}

// TestPairsGenerated checks that pairs.go is what gen_pairs.go writes.
func TestPairsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator")
	}
	out := filepath.Join(t.TempDir(), "pairs.go")
	cmd := exec.Command("go", "run", "gen_pairs.go", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_pairs.go: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("pairs.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("pairs.go is stale: run go generate ./internal/engine")
	}
}

// TestDigits checks the colours the near pools read from the variant's
// tables against the space's codes.
func TestDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, r := range variantsUnderTest {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		v := For(sp)
		x := make([]uint8, r.Pegs)
		for range 100 {
			i := rng.IntN(sp.Len())
			v.digits(i, x)
			for j, k := range x {
				if c := sp.Code(i); int(k) != c.Peg(j) {
					t.Fatalf("%v: digits of %v = %v", r, c, x)
				}
			}
		}
	}
}
