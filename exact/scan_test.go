package exact

import (
	"context"
	"fmt"
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
	return &search{p: p, tt: newTable(1 << 20), ttMin: ttMin, ctx: context.Background()}
}

// TestBoundsAgree checks the three ways of bounding a guess's split — by
// feedback table and counts, by masks (one word and several), and by
// which feedbacks occur for small sets — against each other on sets of
// many sizes.
func TestBoundsAgree(t *testing.T) {
	for _, r := range []mm.Rules{mm.Classic, {Colors: 8, Pegs: 4}, {Colors: 10, Pegs: 4, Distinct: true}, {Colors: 5, Pegs: 5}} {
		s := newTestSearch(t, r)
		p := s.p
		w := s.newWorker()
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
				p.bounds4(&fr.masks, pool, int32(n), false, bounds)
			}
			small := make([]int32, len(pool))
			if n <= p.b+1 {
				p.boundsSmall(set, pool, small)
			}
			for i, g := range pool {
				total, _ := count(set, p.row(g), &fr.counts, p.grow, int32(n), inf)
				total -= int32(fr.counts[p.win])
				clear(fr.counts[:len(p.fbs)])
				if got, _ := p.split(&fr.masks, g, int32(n), nil); got != total {
					t.Fatalf("%v, %d codes, guess %v: split bound %d; counting gives %d", r, n, p.sp.Code(int(g)), got, total)
				}
				if p.gidx != nil {
					if got := p.bound4(&fr.masks, g, int32(n), false); got != total {
						t.Fatalf("%v, %d codes, guess %v: bound4 %d; counting gives %d", r, n, p.sp.Code(int(g)), got, total)
					}
					if n <= 64 && bounds[i] != total {
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
	w := s.newWorker()
	w.hist = []int32{1, 100, 500}
	fr := w.frame(0)
	for _, n := range []int{8, 20, 60} {
		set := make([]uint16, n)
		for i := range set {
			set[i] = uint16(i * 1296 / n)
		}
		pool := s.pools.get(w, p.excluded(set))
		out := make([]int32, len(pool))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if n <= p.b+1 {
					p.boundsSmall(set, pool, out)
				} else {
					p.load(&fr.masks, set)
					p.bounds4(&fr.masks, pool, int32(n), false, out)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pool)), "ns/guess")
		})
	}
}
