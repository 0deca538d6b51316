package exact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// newTestSearch returns a search of every code of r.
func newTestSearch(t testing.TB, r mm.Rules) *search {
	t.Helper()
	st, err := mm.NewState(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := st.Space()
	cands, _ := st.Candidates()
	p, err := newProblem(sp, cands)
	if err != nil {
		t.Fatal(err)
	}
	return &search{p: p, tt: newTable(1 << 20), ttMin: ttMin}
}

// testWorker returns a worker of s for a call that is never cancelled.
func testWorker(s *search) *worker {
	return s.getWorker(context.Background(), new(halt), s.hist0)
}

// TestBoundsAgree checks the ways of bounding a guess's split — by
// counting classes from the table a candidate at a time, by masks (one
// word and several), and by which feedbacks occur for small sets —
// against plain counting on sets of many sizes.
func TestBoundsAgree(t *testing.T) {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 8, Pegs: 4}, {Colors: 10, Pegs: 4, Distinct: true}, {Colors: 5, Pegs: 5}} {
		s := newTestSearch(t, r)
		p := s.p
		w := testWorker(s)
		fr := w.frame(0)
		N := len(p.cols)
		for _, n := range []int{3, 7, p.b + 1, 20, 64, 65, 130, 256} {
			set := make([]uint16, n)
			for i := range set {
				set[i] = uint16((i*7919 + n) % N)
			}
			// Ascending and distinct, as sets are.
			for i := 1; i < n; i++ {
				for j := i; j > 0 && set[j] < set[j-1]; j-- {
					set[j], set[j-1] = set[j-1], set[j]
				}
			}
			pool := make([]int32, 0, 200)
			for g := 0; g < p.sp.Len(); g += 1 + p.sp.Len()/200 {
				pool = append(pool, int32(g))
			}
			bounds := make([]int32, len(pool))
			p.load(&fr.masks, set)
			if p.gidx != nil && n <= 64 {
				p.bounds4(&fr.masks, pool, int32(n), bounds)
			} else if p.gidx != nil {
				p.bounds4w(&fr.masks, pool, int32(n), bounds)
			}
			small := make([]int32, len(pool))
			if n <= p.b+1 {
				p.boundsSmall(set, pool, small, make([]uint64, len(pool)))
			}
			counted := make([]int32, len(pool))
			p.boundsCounts(set, pool, counted, make([]uint16, len(pool)*len(p.fbs)))
			for i, g := range pool {
				// The plain way: count each class from the table.
				total := int32(n)
				var sizes [64]int32
				for _, c := range set {
					sizes[p.fb(c, g)]++
				}
				for f, m := range sizes[:len(p.fbs)] {
					if uint8(f) != p.win {
						total += p.fill[m]
					}
				}
				if counted[i] != total {
					t.Fatalf("%v, %d codes, guess %v: boundsCounts %d; counting gives %d", r, n, p.sp.Code(int(g)), counted[i], total)
				}
				if got, _ := p.split(&fr.masks, g, int32(n), nil); got != total {
					t.Fatalf("%v, %d codes, guess %v: split bound %d; counting gives %d", r, n, p.sp.Code(int(g)), got, total)
				}
				if p.gidx != nil {
					if bounds[i] != total {
						t.Fatalf("%v, %d codes, guess %v: bounds4 %d; counting gives %d", r, n, p.sp.Code(int(g)), bounds[i], total)
					}
				}
				if n <= p.b+1 && small[i] != total {
					t.Fatalf("%v, %d codes, guess %v: boundsSmall %d; counting gives %d", r, n, p.sp.Code(int(g)), small[i], total)
				}
			}
		}
	}
}

// BenchmarkBounds measures the bound of one guess's split, the hot loop of
// the search, for sets of a few sizes.
func BenchmarkBounds(b *testing.B) {
	s := newTestSearch(b, mm.Classic)
	p := s.p
	w := testWorker(s)
	w.hist = []int32{1, 100, 500}
	fr := w.frame(0)
	for _, n := range []int{8, 20, 60} {
		set := make([]uint16, n)
		for i := range set {
			set[i] = uint16(i * 1296 / n)
		}
		pool := p.pools.get(w, p.excluded(set))
		out := make([]int32, len(pool))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if n <= p.b+1 {
					p.boundsSmall(set, pool, out, make([]uint64, len(pool)))
				} else {
					p.load(&fr.masks, set)
					p.bounds4(&fr.masks, pool, int32(n), out)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pool)), "ns/guess")
		})
	}
}

// TestCutoffsThenExact checks that what a search learns under a cutoff it
// fails does not spoil a later search of the same set under a looser one
// (a bound once stored as "no strategy at all" made sets infeasible), nor
// under another depth limit: on random sets of 6x4, a search cut off
// below the cost, then searched in full, must agree with a fresh search.
func TestCutoffsThenExact(t *testing.T) {
	s := newTestSearch(t, mm.Classic)
	p := s.p
	fresh := newTestSearch(t, mm.Classic)
	fresh.p = p
	rng := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		n := 3 + rng.IntN(60)
		seen := map[uint16]bool{}
		var set []uint16
		for len(set) < n {
			c := uint16(rng.IntN(len(p.cols)))
			if !seen[c] {
				seen[c] = true
				set = append(set, c)
			}
		}
		slices.Sort(set)
		limit := len(set)
		if rng.IntN(2) == 0 {
			limit = 3 + rng.IntN(3)
		}
		want := testWorker(fresh).solve(set, key{}, limit, inf, 0)
		fresh.tt = newTable(1 << 20)
		w := testWorker(s)
		for _, cut := range []int32{p.fill[n] + 1, want.cost - 1, want.cost, want.cost + 1} {
			if cut <= 0 {
				continue
			}
			r := w.solve(set, key{}, limit, cut, 0)
			if want.guess >= 0 && want.cost < cut && r.cost != want.cost {
				t.Fatalf("set of %d, limit %d: cutoff %d gives %d; a fresh search gives %d", n, limit, cut, r.cost, want.cost)
			}
			if (want.guess < 0 || want.cost >= cut) && (r.guess >= 0 || r.cost < cut) {
				t.Fatalf("set of %d, limit %d: cutoff %d gives %+v; a fresh search gives %+v", n, limit, cut, r, want)
			}
		}
		if r := w.solve(set, key{}, limit, inf, 0); r.cost != want.cost || (r.guess < 0) != (want.guess < 0) {
			t.Fatalf("set of %d, limit %d: after cut-off searches, %+v; a fresh search gives %+v", n, limit, r, want)
		}
	}
}

// TestPerfectSplit checks perfectSplit, and scoredClasses on the scan's
// two ways of reading a pool's bounds, against plain counting: on random
// sets of every size up to b+1 (perfect splits) and of a few larger sizes
// (classes), the first guess of the pool whose feedbacks against the set
// are all different, and each guess's largest class and its levels.
func TestPerfectSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, r := range []mm.Rules{mm.Classic, {Colors: 8, Pegs: 5, Distinct: true}, {Colors: 4, Pegs: 5}} {
		s := newTestSearch(t, r)
		p := s.p
		w := testWorker(s)
		fr := w.frame(0)
		found, counted := 0, 0
		for trial := 0; trial < 400; trial++ {
			n := 3 + trial%(p.b-1)
			if trial%5 == 4 {
				n = p.b + 2 + rng.IntN(60)
			}
			set := make([]uint16, 0, n)
			for _, c := range rng.Perm(p.N)[:n] {
				set = append(set, uint16(c))
			}
			slices.Sort(set)
			pool := p.pools.get(w, p.excluded(set))
			want := int32(-1)
			mosts := make([]int32, len(pool))
			for j, g := range pool {
				var counts [256]int
				for _, c := range set {
					counts[p.fb(c, g)]++
				}
				distinct := 0
				for f, m := range counts {
					if m > 0 {
						distinct++
					}
					if uint8(f) != p.win {
						mosts[j] = max(mosts[j], int32(m))
					}
				}
				if distinct == n && want < 0 {
					want = g
				}
			}
			if n <= p.b+1 {
				if got := p.perfectSplit(set, pool, fr); got != want {
					t.Fatalf("%v, set %v: perfectSplit %d, want %d", r, set, got, want)
				}
				if want >= 0 {
					found++
				}
			}
			w.bounds(set, pool, fr)
			limit := 2
			if n > p.b+1 {
				limit = int(p.levels[n])
			}
			limited := p.limited(n, limit)
			for j, g := range pool {
				most, deepest := p.scoredClasses(set, g, j, int32(n), limited, false, fr)
				switch {
				case n > p.b+1 && limited && (most != mosts[j] || deepest != p.levels[mosts[j]]):
					t.Fatalf("%v, %d codes, guess %d: classes %d, levels %d; want %d, %d", r, n, g, most, deepest, mosts[j], p.levels[mosts[j]])
				case n <= p.b+1 && limited && (deepest == 1) != perfectAt(p, set, g):
					t.Fatalf("%v, %d codes, guess %d: levels %d, largest class %d", r, n, g, deepest, mosts[j])
				}
				if fr.counted {
					counted++
				}
			}
		}
		if found == 0 {
			t.Errorf("%v: no set had a perfect split; the test checks only -1", r)
		}
		if counted == 0 && r.Pegs == 5 {
			t.Errorf("%v: no pool was scored by counting; its classes went untested", r)
		}
	}
}

// perfectAt reports whether g gives each code of set a feedback of its own.
func perfectAt(p *problem, set []uint16, g int32) bool {
	seen := map[uint8]bool{}
	for _, c := range set {
		if seen[p.fb(c, g)] {
			return false
		}
		seen[p.fb(c, g)] = true
	}
	return true
}
