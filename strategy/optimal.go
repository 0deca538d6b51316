package strategy

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// MaxOptimalSpace is the largest space Optimal searches.
const MaxOptimalSpace = 1 << 16

// Optimal plays a strategy that minimises the total number of guesses over
// all secrets, every secret equally likely; among those, one whose worst case
// is smallest. With MaxDepth it minimises the total among strategies that
// never need more than MaxDepth guesses, and fails if there is none.
//
// The strategy tree is computed on first use for each variant and kept; a
// history that leaves the tree (a guess the tree would not have made) is
// solved afresh from its candidates.
type Optimal struct {
	MaxDepth int // most guesses any game may take; 0 for no limit
	// Progress, if not nil, receives a line of news now and then during a
	// long search: the first guess being tried and the classes done.
	Progress func(line string)
}

var _ mm.Strategy = Optimal{}

func (Optimal) String() string { return "optimal" }

// Guess returns the guess of the optimal tree for st's history.
func (o Optimal) Guess(st *mm.State) (mm.Code, error) {
	t, err := o.Tree(st.Rules())
	if err != nil {
		return mm.Code{}, err
	}
	for i := 0; i < st.Len() && t != nil; i++ {
		turn := st.Turn(i)
		if t.Guess != turn.Guess {
			t = nil
			break
		}
		t = t.Child(turn.Feedback)
	}
	if t != nil {
		return t.Guess, nil
	}
	// Off the tree: solve what is left.
	s, err := candidates(st, "optimal", MaxOptimalSpace)
	if err != nil {
		return mm.Code{}, err
	}
	depth := 64
	if o.MaxDepth > 0 {
		depth = o.MaxDepth - st.Len()
	}
	sv := newOptimalSolver(s.Space())
	_, sub := sv.solve(st, s, depth, infCost)
	if sub == nil {
		return mm.Code{}, fmt.Errorf("mastermind: no strategy finds every candidate within %d guesses", o.MaxDepth)
	}
	return sub.Guess, nil
}

type optimalKey struct {
	rules    mm.Rules
	maxDepth int
}

type optimalEntry struct {
	once sync.Once
	tree *mm.Tree
	err  error
}

var optimalTrees sync.Map // optimalKey → *optimalEntry

// Tree returns the optimal strategy tree for r, computing it on first use.
func (o Optimal) Tree(r mm.Rules) (*mm.Tree, error) {
	r = r.WithDefaults()
	v, _ := optimalTrees.LoadOrStore(optimalKey{r, o.MaxDepth}, &optimalEntry{})
	e := v.(*optimalEntry)
	e.once.Do(func() { e.tree, e.err = o.Solve(r) })
	return e.tree, e.err
}

// SolveOptimal is Optimal{MaxDepth: maxDepth}.Solve(r).
func SolveOptimal(r mm.Rules, maxDepth int) (*mm.Tree, error) {
	return Optimal{MaxDepth: maxDepth}.Solve(r)
}

// Solve computes, without the cache of Tree, a strategy tree for r that
// minimises the total number of guesses over every secret, then the worst
// case, with at most o.MaxDepth guesses per game. It fails if the space has
// more than MaxOptimalSpace codes or no strategy meets the depth.
func (o Optimal) Solve(r mm.Rules) (*mm.Tree, error) {
	maxDepth := o.MaxDepth
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	s, err := candidates(st, "optimal", MaxOptimalSpace)
	if err != nil {
		return nil, err
	}
	depth := 64
	if maxDepth > 0 {
		depth = maxDepth
	}
	sv := newOptimalSolver(s.Space())
	sv.progress = o.Progress
	sv.start = time.Now()
	_, t := sv.solve(st, s, depth, infCost)
	if t == nil {
		return nil, fmt.Errorf("mastermind: no strategy for %s finds every secret within %d guesses", r, maxDepth)
	}
	return t, nil
}

// A cost orders strategies: the total number of guesses, then the depth,
// packed as total<<8 | depth so that lower is better.
type cost int64

const infCost = cost(math.MaxInt64)

func mkCost(total, depth int) cost { return cost(total)<<8 | cost(depth) }
func (c cost) total() int          { return int(c >> 8) }
func (c cost) depth() int          { return int(c & 0xff) }

// optimalSolver searches strategy trees depth first, with branch and bound.
type optimalSolver struct {
	sp   *mm.Space
	win  int // key of the winning feedback
	b    int // feedbacks other than the win, the most classes a guess can leave
	fill []int
	// levels[n] is the fewest guesses that can find every one of n codes.
	levels []int
	memo   memo
	// table[g·N+s] is the feedback key of guess g against code s, for
	// spaces of at most maxTable codes; nil otherwise.
	table []uint8

	progress   func(string) // news of a long search, or nil
	rootGuess  mm.Code      // the first guess being tried, for news
	rootTried  int
	rootCount  int
	start      time.Time
	lastReport atomic.Int64 // when progress was last called, in ns since start
}

// report passes news to the progress function, at most a few times a
// second.
func (sv *optimalSolver) report(format string, args ...any) {
	if sv.progress == nil {
		return
	}
	now := int64(time.Since(sv.start))
	last := sv.lastReport.Load()
	if now-last < int64(200*time.Millisecond) || !sv.lastReport.CompareAndSwap(last, now) {
		return
	}
	sv.progress(fmt.Sprintf(format, args...) + fmt.Sprintf(", %.0f s", time.Duration(now).Seconds()))
}

// maxTable is the largest space whose feedback table the solver builds: the
// table has a byte per pair of codes.
const maxTable = 8192

func newOptimalSolver(sp *mm.Space) *optimalSolver {
	sv := &optimalSolver{sp: sp, win: sp.SolvedKey(), b: sp.Rules().NumFeedbacks() - 1}
	n := sp.Len()
	sv.fill = make([]int, n+1)
	sv.levels = make([]int, n+1)
	for m := 1; m <= n; m++ {
		// Best case for m codes: one found by the first guess, b by the
		// second, b² by the third, and so on.
		total, left, width, level := 0, m, 1, 1
		for left > 0 {
			k := min(left, width)
			total += k * level
			left -= k
			width *= sv.b
			level++
		}
		sv.fill[m], sv.levels[m] = total, level-1
	}
	sv.memo.init()
	if n <= maxTable && sp.Keys() <= 256 {
		sv.table = make([]uint8, n*n)
		var wg sync.WaitGroup
		var next atomic.Int64
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				keys := make([]uint16, n)
				for {
					g := int(next.Add(1)) - 1
					if g >= n {
						return
					}
					sp.All().Keys(g, keys)
					row := sv.table[g*n : (g+1)*n]
					for i, k := range keys {
						row[i] = uint8(k)
					}
				}
			})
		}
		wg.Wait()
	}
	return sv
}

// lowerBound returns the least cost of any strategy for n codes.
func (sv *optimalSolver) lowerBound(n int) cost { return mkCost(sv.fill[n], sv.levels[n]) }

// candidate is a guess under consideration at a node, with its lower bound.
type candidate struct {
	index int  // space index
	bound cost // lower bound of the strategy that starts with it
	order int  // position in the pool, for ties
}

// solve returns the cheapest strategy for the candidates s of st with at
// most depth guesses, if it costs less than cutoff; otherwise a cost of at
// least cutoff and a nil tree. Results are remembered by candidate set: the
// same set reached by another path is not searched again.
func (sv *optimalSolver) solve(st *mm.State, s *mm.Set, depth int, cutoff cost) (cost, *mm.Tree) {
	n := s.Len()
	if sv.levels[n] > depth {
		return infCost, nil
	}
	if lb := sv.lowerBound(n); lb >= cutoff {
		return lb, nil
	}
	if n <= 2 {
		return sv.search(st, s, depth, cutoff)
	}
	// Every guess worth playing splits the candidates, so n codes never
	// need more than n guesses: larger depths are all the same problem.
	depth = min(depth, n)
	e := sv.memo.find(s, depth)
	if e.tree != nil {
		if e.cost < cutoff {
			return e.cost, e.tree
		}
		return e.cost, nil
	}
	if e.bound >= cutoff {
		return e.bound, nil
	}
	c, t := sv.search(st, s, depth, cutoff)
	if t != nil {
		sv.memo.store(s, depth, memoEntry{cost: c, tree: t})
	} else {
		sv.memo.store(s, depth, memoEntry{bound: max(c, cutoff)})
	}
	return c, t
}

// search is solve without the memo.
func (sv *optimalSolver) search(st *mm.State, s *mm.Set, depth int, cutoff cost) (cost, *mm.Tree) {
	n := s.Len()
	switch n {
	case 1:
		return mkCost(1, 1), &mm.Tree{Guess: s.Code(0), Size: 1}
	case 2:
		return mkCost(3, 2), &mm.Tree{Guess: s.Code(0), Size: 2,
			Branches: []mm.TreeBranch{{Feedback: sv.sp.Score(s.Index(0), s.Index(1)), Next: &mm.Tree{Guess: s.Code(1), Size: 1}}}}
	}
	keys := make([]uint16, n)
	counts := make([]uint32, sv.sp.Keys())
	if n <= sv.b+1 {
		// A candidate that splits the rest into singletons is optimal:
		// 2n−1 guesses, the least possible.
		for i := 0; i < n; i++ {
			if sv.discrete(s, s.Index(i), keys, counts) {
				return mkCost(2*n-1, 2), sv.discreteTree(s, s.Index(i), keys)
			}
		}
		// Without such a candidate, 2n guesses is the least possible.
		if lb := mkCost(2*n, 2); lb >= cutoff {
			return lb, nil
		}
	}
	sy := NewSymmetry(st)
	pool := sy.Guesses(sv.sp)
	cands := make([]candidate, 0, len(pool))
	sparse := 2*n < len(counts)
	var members []int32
	if sv.table != nil {
		members = make([]int32, n)
		for i := range members {
			members[i] = int32(s.Index(i))
		}
	}
	N := sv.sp.Len()
	for order, g := range pool {
		total, lev, parts := n, 0, 0
		if sparse {
			if members != nil {
				row := sv.table[g*N : (g+1)*N]
				for i, m := range members {
					keys[i] = uint16(row[m])
				}
			} else {
				s.Keys(g, keys)
			}
			for _, k := range keys {
				counts[k]++
			}
			for _, k := range keys {
				c := counts[k]
				if c == 0 {
					continue
				}
				counts[k] = 0
				parts++
				if int(k) != sv.win {
					total += sv.fill[c]
					lev = max(lev, sv.levels[c])
				}
			}
		} else {
			clear(counts)
			if members != nil {
				row := sv.table[g*N : (g+1)*N]
				for _, m := range members {
					counts[row[m]]++
				}
			} else {
				s.Count(g, counts)
			}
			for k, c := range counts {
				if c == 0 {
					continue
				}
				parts++
				if k != sv.win {
					total += sv.fill[c]
					lev = max(lev, sv.levels[c])
				}
			}
		}
		if parts == n && n <= sv.b+1 {
			// No candidate splits perfectly (checked above), so 2n is the
			// least possible, and this guess achieves it.
			s.Keys(g, keys)
			return mkCost(2*n, 2), sv.discreteTree(s, g, keys)
		}
		if parts == 1 && total > n {
			continue // one class, not the win: learns nothing
		}
		if lev+1 > depth {
			continue
		}
		if b := mkCost(total, lev+1); b < cutoff {
			cands = append(cands, candidate{index: g, bound: b, order: order})
		}
	}
	// Try guesses in order of their bound, best first; each success lowers
	// the cutoff, which usually rules out the rest at once.
	best, bestTree := cutoff, (*mm.Tree)(nil)
	tried := 0
	for {
		next := -1
		for i, c := range cands {
			if c.bound < best && (next < 0 || c.bound < cands[next].bound) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		c := cands[next]
		cands[next].bound = infCost // tried
		if st.Len() == 0 {
			tried++
			sv.rootGuess, sv.rootTried, sv.rootCount = sv.sp.Code(c.index), tried, len(cands)
		}
		if t, ct := sv.try(st, s, c, depth, best); t != nil {
			best, bestTree = ct, t
		}
	}
	if bestTree == nil {
		return max(cutoff, sv.lowerBound(n)), nil
	}
	return best, bestTree
}

// parallelLevels is how many levels of the search, from the root, solve the
// classes of a guess concurrently.
const parallelLevels = 2

// try plays candidate c at the node and solves every class it leaves,
// smallest first; it returns the tree and its cost if that beats cutoff.
// Each class is searched with a cutoff refined by the costs found so far.
//
// Near the root, where no cutoff prunes anything yet, several workers solve
// classes at once. A class's result, when it beats its cutoff, does not
// depend on the cutoff, and a guess fails exactly when its cost reaches the
// node's cutoff, so the tree is the same whatever the number of workers.
func (sv *optimalSolver) try(st *mm.State, s *mm.Set, c candidate, depth int, cutoff cost) (*mm.Tree, cost) {
	g := sv.sp.Code(c.index)
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return nil, infCost
	}
	type cell struct {
		i     int
		n     int
		bound cost
	}
	cells := make([]cell, 0, len(kids))
	total := s.Len()
	for i, f := range fbs {
		if f.Solved(sv.sp.Rules().Pegs) {
			continue
		}
		m := kids[i].Remaining()
		b := sv.lowerBound(m)
		if m > 2 {
			// What an earlier search learnt of this class, if anything.
			set, _ := kids[i].Candidates()
			if e := sv.memo.find(set, min(depth-1, m)); e.tree != nil {
				b = e.cost
			} else {
				b = max(b, e.bound)
			}
		}
		cells = append(cells, cell{i: i, n: m, bound: b})
		total += b.total()
	}
	// cut returns what cell j may cost for the guess to beat the cutoff:
	// the cutoff's total less the other classes' costs or bounds; at an
	// equal total the depth decides.
	cut := func(j int, total int) cost {
		if cutoff == infCost {
			return infCost
		}
		rest := total - cells[j].bound.total()
		otherLev := 0
		for k, o := range cells {
			if k != j {
				otherLev = max(otherLev, o.bound.depth())
			}
		}
		if otherLev+1 >= cutoff.depth() {
			return mkCost(cutoff.total()-rest, 0)
		}
		return mkCost(cutoff.total()-rest, cutoff.depth()-1)
	}
	subs := make([]*mm.Tree, len(fbs))
	order := make([]int, len(cells))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cells[a].n, cells[b].n) })
	var (
		mu     sync.Mutex // guards total, cells, failed and done
		failed bool
		done   int
		next   atomic.Int64
	)
	work := func() {
		for {
			k := int(next.Add(1)) - 1
			mu.Lock()
			if k >= len(order) || failed {
				mu.Unlock()
				return
			}
			j := order[k]
			cl := cells[j]
			cellCut := cut(j, total)
			mu.Unlock()
			var got cost
			var t *mm.Tree
			if cellCut > cl.bound {
				set, _ := kids[cl.i].Candidates()
				got, t = sv.solve(kids[cl.i], set, depth-1, cellCut)
			}
			mu.Lock()
			if t == nil {
				failed = true
			} else {
				subs[cl.i] = t
				total += got.total() - cl.bound.total()
				cells[j].bound = got
				done++
				if st.Len() == 0 {
					sv.report("optimal %s: first guess %s (%d of %d), %d of %d classes solved, %d guesses so far at least",
						sv.sp.Rules(), g, sv.rootTried, sv.rootCount, done, len(cells), total)
				}
			}
			mu.Unlock()
		}
	}
	workers := 1
	if cutoff == infCost && st.Len() < parallelLevels && s.Len() >= 64 {
		workers = min(runtime.GOMAXPROCS(0), len(cells))
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if failed {
		return nil, infCost
	}
	lev := 0
	for _, cl := range cells {
		lev = max(lev, cl.bound.depth())
	}
	cst := mkCost(total, lev+1)
	if cst >= cutoff {
		return nil, infCost
	}
	tree := &mm.Tree{Guess: g, Size: s.Len()}
	for i, f := range fbs {
		if subs[i] != nil {
			tree.Branches = append(tree.Branches, mm.TreeBranch{Feedback: f, Next: subs[i]})
		}
	}
	return tree, cst
}

// discrete reports whether guess g splits s into classes of one code.
func (sv *optimalSolver) discrete(s *mm.Set, g int, keys []uint16, counts []uint32) bool {
	s.Keys(g, keys)
	ok := true
	for _, k := range keys[:s.Len()] {
		counts[k]++
		if counts[k] > 1 {
			ok = false
		}
	}
	for _, k := range keys[:s.Len()] {
		counts[k] = 0
	}
	return ok
}

// discreteTree returns the tree that plays g, which splits s into classes of
// one, then the code each feedback names. keys must hold g's keys for s.
func (sv *optimalSolver) discreteTree(s *mm.Set, g int, keys []uint16) *mm.Tree {
	t := &mm.Tree{Guess: sv.sp.Code(g), Size: s.Len()}
	type leaf struct {
		key int
		i   int
	}
	var leaves []leaf
	for i, k := range keys[:s.Len()] {
		if int(k) != sv.win {
			leaves = append(leaves, leaf{int(k), i})
		}
	}
	slices.SortFunc(leaves, func(a, b leaf) int { return cmp.Compare(a.key, b.key) })
	for _, l := range leaves {
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: sv.sp.KeyFeedback(l.key), Next: &mm.Tree{Guess: s.Code(l.i), Size: 1}})
	}
	return t
}

// memo remembers solved candidate sets: the exact cost and tree of the best
// strategy, or a lower bound when the search was cut off.
type memo struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[uint64][]memoItem
	size int
}

type memoItem struct {
	idx   []uint32
	depth int
	memoEntry
}

type memoEntry struct {
	cost  cost     // exact cost, when tree is set
	tree  *mm.Tree // the best strategy, or nil
	bound cost     // a lower bound of the cost, when tree is nil
}

// maxMemo bounds the number of candidate indices the memo holds.
const maxMemo = 1 << 25

func (m *memo) init() {
	m.seed = maphash.MakeSeed()
	m.m = make(map[uint64][]memoItem)
}

func (m *memo) hash(s *mm.Set, depth int) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	var buf [4]byte
	for i := 0; i < s.Len(); i++ {
		binary.LittleEndian.PutUint32(buf[:], uint32(s.Index(i)))
		h.Write(buf[:])
	}
	return h.Sum64() ^ uint64(depth)*0x9e3779b97f4a7c15
}

func sameSet(idx []uint32, s *mm.Set) bool {
	if len(idx) != s.Len() {
		return false
	}
	for i, v := range idx {
		if int(v) != s.Index(i) {
			return false
		}
	}
	return true
}

// find returns what is known of s at depth; the zero entry if nothing.
func (m *memo) find(s *mm.Set, depth int) memoEntry {
	h := m.hash(s, depth)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, it := range m.m[h] {
		if it.depth == depth && sameSet(it.idx, s) {
			return it.memoEntry
		}
	}
	return memoEntry{}
}

// store records what was learnt of s at depth, keeping the better of an
// old and a new lower bound.
func (m *memo) store(s *mm.Set, depth int, e memoEntry) {
	h := m.hash(s, depth)
	m.mu.Lock()
	defer m.mu.Unlock()
	items := m.m[h]
	for i, it := range items {
		if it.depth == depth && sameSet(it.idx, s) {
			if it.tree == nil && (e.tree != nil || e.bound > it.bound) {
				items[i].memoEntry = e
			}
			return
		}
	}
	if m.size+s.Len() > maxMemo {
		m.m, m.size = make(map[uint64][]memoItem), 0
	}
	idx := make([]uint32, s.Len())
	for i := range idx {
		idx[i] = uint32(s.Index(i))
	}
	m.m[h] = append(m.m[h], memoItem{idx: idx, depth: depth, memoEntry: e})
	m.size += len(idx)
}
