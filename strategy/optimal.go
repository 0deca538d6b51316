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
	"github.com/mastermind-toolkit/mastermind/symmetry"
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
	limit := 0
	if o.MaxDepth > 0 {
		if limit = o.MaxDepth - st.Len(); limit <= 0 {
			return mm.Code{}, fmt.Errorf("mastermind: no guesses left within --max-depth %d", o.MaxDepth)
		}
	}
	sub, err := newOptimalSolver(s.Space()).best(st, s, limit)
	if err != nil {
		return mm.Code{}, err
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
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	s, err := candidates(st, "optimal", MaxOptimalSpace)
	if err != nil {
		return nil, err
	}
	if o.MaxDepth < 0 {
		return nil, fmt.Errorf("mastermind: --max-depth %d is negative", o.MaxDepth)
	}
	sv := newOptimalSolver(s.Space())
	sv.progress = o.Progress
	sv.start = time.Now()
	return sv.best(st, s, o.MaxDepth)
}

// inf is a cost no strategy reaches.
const inf = math.MaxInt

// best returns a tree for the candidates s of st with the least total
// number of guesses within limit guesses per game (0 for no limit) and,
// among those, the least depth. The search minimises the total alone; the
// depth is then lowered one guess at a time, each time asking for a tree of
// the same total within the smaller depth, which the cutoff of total+1
// refutes or confirms quickly.
func (sv *optimalSolver) best(st *mm.State, s *mm.Set, limit int) (*mm.Tree, error) {
	n := s.Len()
	depth := n
	if limit > 0 {
		depth = min(limit, n)
	}
	total, t := sv.solve(st, s, depth, inf)
	if t == nil {
		return nil, fmt.Errorf("mastermind: no strategy for %s finds every secret within %d guesses", sv.sp.Rules(), limit)
	}
	_, d := t.Cost()
	for d > sv.levels[n] {
		sv.report("optimal %s: %d guesses in all; trying a worst case of %d", sv.sp.Rules(), total, d-1)
		got, shallower := sv.solve(st, s, d-1, total+1)
		if shallower == nil || got != total {
			break
		}
		t = shallower
		_, d = t.Cost()
	}
	return t, nil
}

// optimalSolver searches strategy trees depth first, with branch and bound.
// A cost is the total number of guesses over the candidates of a node.
type optimalSolver struct {
	sp   *mm.Space
	win  int // key of the winning feedback
	b    int // feedbacks other than the win, the most classes a guess can leave
	fill []int
	grow []int // grow[c] = fill[c+1] − fill[c]
	// levels[n] is the fewest guesses that can find every one of n codes.
	levels []int
	memo   memo
	idle   chan struct{} // slots for workers beyond the caller's own
	// table[g·N+s] is the feedback key of guess g against code s, for
	// spaces of at most maxTable codes; nil otherwise.
	table []uint8

	progress   func(string) // news of a long search, or nil
	newsMu     sync.Mutex   // guards the root fields below
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
	sv.grow = make([]int, n)
	for c := range sv.grow {
		sv.grow[c] = sv.fill[c+1] - sv.fill[c]
	}
	sv.memo.init()
	sv.idle = make(chan struct{}, max(0, runtime.GOMAXPROCS(0)-1))
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

// candidate is a guess under consideration at a node, with its lower bound.
type candidate struct {
	index int32 // space index
	order int32 // position in the pool, for ties
	bound int   // lower bound of the strategy that starts with it
}

func (a candidate) before(b candidate) bool {
	return a.bound < b.bound || (a.bound == b.bound && a.order < b.order)
}

// A candList holds the guesses of a node with the lowest bounds, in order
// of bound then of the pool: every guess whose bound is below rest is in
// it. The memo keeps it, so that a node searched again with a higher cutoff
// starts from it instead of scoring every guess again.
type candList struct {
	top  []candidate
	rest int
}

// least returns the lowest bound of any guess of the node.
func (l *candList) least() int {
	if len(l.top) > 0 {
		return min(l.top[0].bound, l.rest)
	}
	return l.rest
}

// keptCands is how many guesses a candList keeps.
const keptCands = 24

// solve returns the cheapest strategy for the candidates s of st with at
// most depth guesses, if it costs less than cutoff; otherwise a cost of at
// least cutoff and a nil tree. Results are remembered by candidate set: the
// same set reached by another path is not searched again.
func (sv *optimalSolver) solve(st *mm.State, s *mm.Set, depth, cutoff int) (int, *mm.Tree) {
	n := s.Len()
	if sv.levels[n] > depth {
		return inf, nil
	}
	if lb := sv.fill[n]; lb >= cutoff {
		return lb, nil
	}
	switch n {
	case 1:
		return 1, &mm.Tree{Guess: s.Code(0), Size: 1}
	case 2:
		return 3, &mm.Tree{Guess: s.Code(0), Size: 2,
			Branches: []mm.TreeBranch{{Feedback: sv.sp.Score(s.Index(0), s.Index(1)), Next: &mm.Tree{Guess: s.Code(1), Size: 1}}}}
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
	c, t, list := sv.search(st, s, depth, cutoff, e.cands)
	if t != nil {
		sv.memo.store(s, depth, memoEntry{cost: c, tree: t})
	} else {
		sv.memo.store(s, depth, memoEntry{bound: max(c, cutoff, e.bound), cands: list})
	}
	return c, t
}

// shortcuts settles nodes of at most b+1 codes that a candidate splits
// into singletons (cost 2n−1, the least possible) or into singletons and
// one pair (2n, which nothing beats once no candidate splits perfectly),
// returning the cost and tree. Otherwise it returns a lower bound: 2n for
// such small nodes, the fill bound for others.
func (sv *optimalSolver) shortcuts(s *mm.Set, depth int, keys []uint16, counts []uint32) (int, *mm.Tree, int) {
	n := s.Len()
	if n > sv.b+1 {
		return 0, nil, sv.fill[n]
	}
	pair := -1
	for i := 0; i < n; i++ {
		switch sv.shape(s, s.Index(i), keys, counts) {
		case 1:
			// shape left i's keys in keys.
			return 2*n - 1, sv.smallTree(s, s.Index(i), keys), 2*n - 1
		case 2:
			if pair < 0 {
				pair = i
			}
		}
	}
	if pair >= 0 && depth >= 3 {
		s.Keys(s.Index(pair), keys)
		return 2 * n, sv.smallTree(s, s.Index(pair), keys), 2 * n
	}
	return 0, nil, 2 * n
}

// search is solve without the memo, for n ≥ 3. cached, if not nil, is the
// candList of an earlier scan of the same node; search returns the candList
// of this one when it fails, for the memo.
func (sv *optimalSolver) search(st *mm.State, s *mm.Set, depth, cutoff int, cached *candList) (int, *mm.Tree, *candList) {
	n := s.Len()
	keys := make([]uint16, n)
	counts := make([]uint32, sv.sp.Keys())
	c, t, lb := sv.shortcuts(s, depth, keys, counts)
	switch {
	case t != nil && c < cutoff:
		return c, t, nil
	case t != nil || lb >= cutoff:
		return max(c, lb), nil, cached
	}
	list := cached
	if list == nil || list.rest < cutoff {
		var perfect *mm.Tree
		if perfect, list = sv.scan(st, s, depth, cutoff, keptCands, keys, counts); perfect != nil {
			if 2*n >= cutoff {
				return 2 * n, nil, nil
			}
			return 2 * n, perfect, nil
		}
	}
	best, bestTree, list := sv.tryAll(st, s, list, depth, cutoff, keys, counts)
	if bestTree == nil {
		return max(cutoff, lb, list.least()), nil, list
	}
	return best, bestTree, nil
}

// scan scores every guess of the node's pool and returns its candList: the
// keep best guesses, and a lower bound on the bounds of the others. A guess
// is dropped as soon as its bound reaches stop or cannot enter the list
// (the bound only grows as codes join classes), and rest then counts the
// limit it reached, not its full bound. rest is a lower bound, not bounded
// by stop: a guess scored in full may leave it above stop, and it is inf
// when no guess is left out. If a guess splits a node of at most b+1 codes
// into singletons, scan returns its tree instead: with no candidate doing
// so (shortcuts checks that first), it is optimal.
func (sv *optimalSolver) scan(st *mm.State, s *mm.Set, depth, stop, keep int, keys []uint16, counts []uint32) (*mm.Tree, *candList) {
	n := s.Len()
	sy := symmetry.Of(st)
	pool := sy.Guesses(sv.sp)
	h := candHeap{rest: inf, keep: keep}
	var members []int32
	if sv.table != nil {
		members = make([]int32, n)
		for i := range members {
			members[i] = int32(s.Index(i))
		}
	}
	N := sv.sp.Len()
	// Locals, so that the loops below need not reload the solver's fields.
	win, grow, levels, table := sv.win, sv.grow, sv.levels, sv.table
	// Without a depth limit every split fits: no class needs n guesses.
	needLevels := depth < n
	useless := n + sv.fill[n] // the bound of a guess that leaves one class
	for order, g := range pool {
		limit := stop
		if len(h.c) == keep {
			limit = min(limit, h.c[0].bound+1)
		}
		total := n
		if members != nil {
			row := table[g*N : (g+1)*N]
			dropped := false
			for i, m := range members {
				k := row[m]
				keys[i] = uint16(k)
				c := counts[k]
				counts[k] = c + 1
				if int(k) != win {
					if total += grow[c]; total >= limit {
						for _, k := range keys[:i+1] {
							counts[k] = 0
						}
						dropped = true
						break
					}
				}
			}
			if dropped {
				h.rest = min(h.rest, limit)
				continue
			}
		} else {
			s.Keys(g, keys)
			for _, k := range keys {
				c := counts[k]
				counts[k] = c + 1
				if int(k) != win {
					total += grow[c]
				}
			}
		}
		member := counts[win] != 0
		lev := 0
		if needLevels {
			for _, k := range keys {
				if c := counts[k]; c != 0 && int(k) != win {
					lev = max(lev, levels[c])
				}
			}
		}
		for _, k := range keys {
			counts[k] = 0
		}
		if !member && total == 2*n && n <= sv.b+1 {
			// Classes of one code each, and no candidate does as well
			// (shortcuts checked), so 2n is the least possible. keys
			// holds g's keys, filled in full on either path above.
			return sv.smallTree(s, g, keys), nil
		}
		if total == useless {
			continue // one class, not the win: learns nothing
		}
		if lev+1 > depth {
			continue
		}
		if total >= limit {
			h.rest = min(h.rest, total)
			continue
		}
		h.offer(candidate{index: int32(g), order: int32(order), bound: total})
	}
	return nil, h.list()
}

// candHeap keeps the keep best candidates offered to it, worst on top, and
// the least bound of those it turned away.
type candHeap struct {
	c    []candidate
	rest int
	keep int
}

func (h *candHeap) offer(c candidate) {
	if len(h.c) < h.keep {
		h.c = append(h.c, c)
		for i := len(h.c) - 1; i > 0; {
			p := (i - 1) / 2
			if !h.c[p].before(h.c[i]) {
				break
			}
			h.c[p], h.c[i] = h.c[i], h.c[p]
			i = p
		}
		return
	}
	if !c.before(h.c[0]) {
		h.rest = min(h.rest, c.bound)
		return
	}
	h.rest = min(h.rest, h.c[0].bound)
	h.c[0] = c
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h.c) && h.c[m].before(h.c[l]) {
			m = l
		}
		if r < len(h.c) && h.c[m].before(h.c[r]) {
			m = r
		}
		if m == i {
			break
		}
		h.c[i], h.c[m] = h.c[m], h.c[i]
		i = m
	}
}

// list returns the kept candidates in order.
func (h *candHeap) list() *candList {
	top := slices.Clone(h.c)
	slices.SortFunc(top, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.bound, b.bound), cmp.Compare(a.order, b.order))
	})
	return &candList{top: top, rest: h.rest}
}

// parallelCands is the least number of candidates at which a node tries
// its guesses on several workers.
const parallelCands = 128

// tryAll tries the guesses of list in order and returns the cheapest tree
// below cutoff; among equal costs, the earliest guess's. When the kept
// guesses run out while others might still beat the best, it scores every
// guess once more and goes on with them; it returns the list it ended with.
//
// The first guess is tried alone; after it, large nodes try the others on
// several workers when any are idle. Guess i is tried against the best
// cost found so far, or that cost plus one if the best is a later guess, so
// that the earliest of equals wins whatever the timing.
func (sv *optimalSolver) tryAll(st *mm.State, s *mm.Set, list *candList, depth, cutoff int, keys []uint16, counts []uint32) (int, *mm.Tree, *candList) {
	var (
		mu       sync.Mutex // guards all below and list
		best     = cutoff
		bestAt   = -1
		bestTree *mm.Tree
		next     int
		full     bool
	)
	work := func() {
		for {
			mu.Lock()
			i := next
			cut := best
			if bestAt > i {
				cut = best + 1
			}
			if i == len(list.top) && list.rest < cut && !full {
				_, list = sv.scan(st, s, depth, cut, math.MaxInt32, keys, counts)
				full = true
			}
			if i >= len(list.top) || list.top[i].bound >= cut {
				next = max(next, len(list.top))
				mu.Unlock()
				return
			}
			next++
			c := list.top[i]
			mu.Unlock()
			if st.Len() == 0 {
				sv.newsMu.Lock()
				sv.rootGuess, sv.rootTried, sv.rootCount = sv.sp.Code(int(c.index)), i+1, len(list.top)
				sv.newsMu.Unlock()
			}
			t, ct := sv.try(st, s, c, depth, cut)
			mu.Lock()
			if t != nil && (ct < best || (ct == best && i < bestAt)) {
				best, bestAt, bestTree = ct, i, t
			}
			mu.Unlock()
			if i == 0 && s.Len() >= parallelCands {
				return // the rest, possibly in parallel
			}
		}
	}
	work()
	mu.Lock()
	more := next < len(list.top) || (list.rest < best && !full)
	mu.Unlock()
	if more {
		var wg sync.WaitGroup
		for range sv.borrow(runtime.GOMAXPROCS(0) - 1) {
			wg.Go(func() {
				defer sv.giveBack()
				work()
			})
		}
		work()
		wg.Wait()
	}
	return best, bestTree, list
}

// borrow takes up to n idle worker slots and returns how many it got.
func (sv *optimalSolver) borrow(n int) int {
	got := 0
	for ; got < n; got++ {
		select {
		case sv.idle <- struct{}{}:
		default:
			return got
		}
	}
	return got
}

// giveBack returns a slot taken by borrow.
func (sv *optimalSolver) giveBack() { <-sv.idle }

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
func (sv *optimalSolver) try(st *mm.State, s *mm.Set, c candidate, depth, cutoff int) (*mm.Tree, int) {
	g := sv.sp.Code(int(c.index))
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return nil, inf
	}
	type cell struct {
		i     int
		n     int
		bound int
	}
	cells := make([]cell, 0, len(kids))
	total := s.Len()
	for i, f := range fbs {
		if f.Solved(sv.sp.Rules().Pegs) {
			continue
		}
		m := kids[i].Remaining()
		b := sv.fill[m]
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
		total += b
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
			if k >= len(order) || failed || total >= cutoff {
				failed = failed || total >= cutoff
				mu.Unlock()
				return
			}
			j := order[k]
			cl := cells[j]
			// What this class may cost for the guess to beat the cutoff:
			// the cutoff less the costs or bounds of the other classes.
			cellCut := inf
			if cutoff != inf {
				cellCut = cutoff - (total - cl.bound)
			}
			mu.Unlock()
			got, t := inf, (*mm.Tree)(nil)
			if cellCut > cl.bound {
				set, _ := kids[cl.i].Candidates()
				got, t = sv.solve(kids[cl.i], set, depth-1, cellCut)
			}
			mu.Lock()
			if t == nil {
				failed = true
			} else {
				subs[cl.i] = t
				total += got - cl.bound
				cells[j].bound = got
				done++
				if st.Len() == 0 {
					sv.newsMu.Lock()
					tried, count := sv.rootTried, sv.rootCount
					sv.newsMu.Unlock()
					sv.report("optimal %s: first guess %s (%d of %d), %d of %d classes solved, %d guesses so far at least",
						sv.sp.Rules(), g, tried, count, done, len(cells), total)
				}
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	if cutoff == inf && st.Len() < parallelLevels && s.Len() >= 64 {
		for range sv.borrow(min(runtime.GOMAXPROCS(0), len(cells)) - 1) {
			wg.Go(func() {
				defer sv.giveBack()
				work()
			})
		}
	}
	work()
	wg.Wait()
	if failed || total >= cutoff {
		return nil, inf
	}
	tree := &mm.Tree{Guess: g, Size: s.Len()}
	for i, f := range fbs {
		if subs[i] != nil {
			tree.Branches = append(tree.Branches, mm.TreeBranch{Feedback: f, Next: subs[i]})
		}
	}
	return tree, total
}

// shape returns 1 if guess g splits s into classes of one code, 2 if into
// classes of one but for a single pair, and 0 otherwise.
func (sv *optimalSolver) shape(s *mm.Set, g int, keys []uint16, counts []uint32) int {
	s.Keys(g, keys)
	pairs, big := 0, false
	for _, k := range keys[:s.Len()] {
		counts[k]++
		switch counts[k] {
		case 2:
			pairs++
		case 3:
			big = true
		}
	}
	for _, k := range keys[:s.Len()] {
		counts[k] = 0
	}
	switch {
	case big:
		return 0
	case pairs == 0:
		return 1
	case pairs == 1:
		return 2
	}
	return 0
}

// smallTree returns the tree that plays g, which splits s into classes of
// one or two codes, then finds each class: a single code is guessed, a pair
// takes its first code then, if need be, its second. keys must hold g's keys
// for s.
func (sv *optimalSolver) smallTree(s *mm.Set, g int, keys []uint16) *mm.Tree {
	t := &mm.Tree{Guess: sv.sp.Code(g), Size: s.Len()}
	byKey := map[int][]int{}
	var order []int
	for i, k := range keys[:s.Len()] {
		if int(k) == sv.win {
			continue
		}
		if byKey[int(k)] == nil {
			order = append(order, int(k))
		}
		byKey[int(k)] = append(byKey[int(k)], i)
	}
	slices.Sort(order)
	for _, k := range order {
		ms := byKey[k]
		sub := &mm.Tree{Guess: s.Code(ms[0]), Size: len(ms)}
		if len(ms) == 2 {
			sub.Branches = []mm.TreeBranch{{Feedback: sv.sp.Score(s.Index(ms[0]), s.Index(ms[1])), Next: &mm.Tree{Guess: s.Code(ms[1]), Size: 1}}}
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: sv.sp.KeyFeedback(k), Next: sub})
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
	cost  int       // exact cost, when tree is set
	tree  *mm.Tree  // the best strategy, or nil
	bound int       // a lower bound of the cost, when tree is nil
	cands *candList // the best guesses of the last scan, when tree is nil
}

// maxMemo bounds the number of candidate indices the memo holds.
const maxMemo = 1 << 25

func (m *memo) init() {
	m.seed = maphash.MakeSeed()
	m.m = make(map[uint64][]memoItem)
}

// hash returns the hash of s's members; all depths of a set share it.
func (m *memo) hash(s *mm.Set) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	var buf [4]byte
	for i := 0; i < s.Len(); i++ {
		binary.LittleEndian.PutUint32(buf[:], uint32(s.Index(i)))
		h.Write(buf[:])
	}
	return h.Sum64()
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

// find returns what is known of s at depth; the zero entry if nothing. A
// search of s without a depth limit (depth = n) also bounds every limited
// one: its exact cost is a lower bound of theirs.
func (m *memo) find(s *mm.Set, depth int) memoEntry {
	h := m.hash(s)
	m.mu.Lock()
	defer m.mu.Unlock()
	var free memoEntry
	for _, it := range m.m[h] {
		if !sameSet(it.idx, s) {
			continue
		}
		if it.depth == depth {
			if it.tree == nil {
				it.bound = max(it.bound, free.bound, free.cost)
			}
			return it.memoEntry
		}
		if it.depth == s.Len() {
			free = it.memoEntry
		}
	}
	return memoEntry{bound: max(free.bound, free.cost)}
}

// store records what was learnt of s at depth, keeping the better of an
// old and a new lower bound.
func (m *memo) store(s *mm.Set, depth int, e memoEntry) {
	h := m.hash(s)
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
