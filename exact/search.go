package exact

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// inf is a cost no strategy reaches.
const inf = math.MaxInt32

// A search is one run of the solver over a problem: the table of what it
// learnt, the workers' shared counters.
type search struct {
	p        *problem
	tt       *table
	ttMin    int     // the smallest set the table remembers
	probeMin int     // the smallest set whose guesses' classes are probed
	hist0    []int32 // the guesses of the starting state, space indices

	nodes   atomic.Int64  // nodes searched, in batches from the workers
	idle    chan struct{} // slots for workers beyond the first
	spareMu sync.Mutex
	spare   []*worker // workers not in use, with their scratch memory
	news    news
	start   time.Time
}

// A worker searches depth first on its own scratch memory: one frame per
// level below the node it started from.
type worker struct {
	s      *search
	p      *problem
	hist   []int32 // the guesses from the start of the game to this node
	frames []*frame
	nodes  int64 // nodes not yet added to s.nodes
	// ctx is the context of the call the worker serves, and stop, shared
	// by the workers of the call, is set once it is done: every solve then
	// fails at once and nothing more is stored.
	ctx  context.Context
	stop *atomic.Bool
	news bool // the worker reports the first guesses it tries
	// spent counts the nodes the worker searched; past budget, if not 0,
	// it stops as if cancelled.
	spent, budget int64
}

// A frame is the scratch memory of one level of the search.
type frame struct {
	buf     []uint16    // the candidates of the node being tried, by class
	guesses []scored    // the guesses of the node to try, in order
	counts  [256]uint16 // per feedback
	start   []int32     // per feedback: where its class begins in buf
	cells   []cell
	masks   masks    // the set being scanned, when it is split with masks
	bounds  []int32  // the bound of each guess of the pool
	seen    []uint64 // scratch of boundsSmall
	counts2 []uint16 // scratch of boundsCounts
}

// scored is a guess under consideration at a node, with its lower bound.
type scored struct {
	bound int32
	order int32 // position in the pool, for ties
	guess int32 // space index
}

// cell is one class of a guess's split: buf[lo:hi], with a lower bound of
// its cost, exact once solved.
type cell struct {
	lo, hi int32
	bound  int32
	k      key
}

// getWorker returns a worker for a call with ctx, set at the node whose
// history is hist, reusing the scratch memory of a finished one.
func (s *search) getWorker(ctx context.Context, stop *atomic.Bool, hist []int32) *worker {
	s.spareMu.Lock()
	var w *worker
	if k := len(s.spare); k > 0 {
		w, s.spare = s.spare[k-1], s.spare[:k-1]
	}
	s.spareMu.Unlock()
	if w == nil {
		w = &worker{s: s, p: s.p}
	}
	w.hist = append(w.hist[:0], hist...)
	w.ctx, w.stop, w.news = ctx, stop, false
	w.spent, w.budget = 0, 0
	return w
}

// putWorker keeps a finished worker's scratch memory for another.
func (s *search) putWorker(w *worker) {
	w.flush()
	w.ctx, w.stop = nil, nil
	s.spareMu.Lock()
	s.spare = append(s.spare, w)
	s.spareMu.Unlock()
}

func (w *worker) frame(lvl int) *frame {
	for len(w.frames) <= lvl {
		fr, ok := frames.get(func(*frame) bool { return true })
		if !ok {
			fr = &frame{}
		}
		w.frames = append(w.frames, fr)
	}
	fr := w.frames[lvl]
	if cap(fr.buf) < w.p.stride {
		fr.buf = make([]uint16, w.p.stride)
	}
	fr.buf = fr.buf[:w.p.stride]
	if nf := len(w.p.fbs); len(fr.start) != nf+1 {
		fr.start = make([]int32, nf+1)
	}
	return fr
}

// frames keeps the scratch memory of finished searches for new ones.
var frames freeList[*frame]

// releaseFrames gives the worker's frames back for other searches.
func (w *worker) releaseFrames() {
	for _, fr := range w.frames {
		frames.put(fr)
	}
	w.frames = nil
}

// result is what solve learns of a set: when cost is below the cutoff it
// asked for, the exact cost, the first guess (a space index) and the worst
// case of a best strategy; otherwise guess is -1 and cost a lower bound, at
// least the cutoff.
type result struct {
	cost  int32
	guess int32
	depth int8
}

func bound(c int32) result { return result{cost: c, guess: -1} }

// solve returns the best strategy for set with at most limit guesses in
// any game, if it costs less than cutoff. k is the set's key, or the zero
// key if not yet computed. lvl is the frame level to work in.
func (w *worker) solve(set []uint16, k key, limit int, cutoff int32, lvl int) result {
	return w.solveNode(set, k, limit, cutoff, lvl, true)
}

// solveNode is solve; without recall it does not ask the transposition
// table about set itself (its classes still do), so that the guess it
// returns is the first in order of bound that reaches the best cost.
func (w *worker) solveNode(set []uint16, k key, limit int, cutoff int32, lvl int, recall bool) result {
	p := w.p
	n := len(set)
	limit = min(limit, n)
	if int(p.levels[n]) > limit || w.stop.Load() {
		return bound(inf)
	}
	switch n {
	case 1:
		return w.accept(result{cost: 1, guess: p.cols[set[0]], depth: 1}, cutoff)
	case 2:
		if cutoff <= 3 {
			return bound(3)
		}
		return result{cost: 3, guess: p.cols[set[0]], depth: 2}
	}
	lb := p.fill[n]
	if lb >= cutoff {
		return bound(lb)
	}
	if w.nodes++; w.nodes&1023 == 0 {
		w.flush()
	}
	if n <= p.b+1 {
		perfect, pair := w.shortcut(set)
		switch {
		case perfect >= 0:
			return w.accept(result{cost: int32(2*n - 1), guess: perfect, depth: 2}, cutoff)
		case pair >= 0 && limit >= 3:
			// Nothing beats 2n once no candidate splits the rest into
			// single codes.
			return w.accept(result{cost: int32(2 * n), guess: pair, depth: 3}, cutoff)
		}
		lb = max(lb, int32(2*n))
		if lb >= cutoff {
			return bound(lb)
		}
	}
	useTable := n >= w.s.ttMin
	if useTable {
		if k.b == 0 {
			k = p.hash(set)
		}
		if recall {
			c, g, d := w.s.tt.lookup(k, limit)
			if g >= 0 {
				return w.accept(result{cost: c, guess: g, depth: d}, cutoff)
			}
			if lb = max(lb, c); lb >= cutoff {
				return bound(lb)
			}
		}
	}
	r := w.search(set, limit, cutoff, lb, lvl)
	if useTable && !w.stop.Load() {
		e := entry{cost: r.cost, guess: r.guess, limit: uint16(limit), depth: r.depth}
		if r.guess < 0 {
			e.depth = 0
		}
		w.s.tt.store(k, e)
	}
	return r
}

// accept returns r if it beats cutoff, else r's cost as a bound.
func (w *worker) accept(r result, cutoff int32) result {
	if r.cost >= cutoff {
		return bound(r.cost)
	}
	return r
}

// flush adds the worker's node count to the search's and notices a
// cancelled context.
func (w *worker) flush() {
	w.s.nodes.Add(w.nodes)
	w.spent += w.nodes
	w.nodes = 0
	if w.ctx.Err() != nil || (w.budget > 0 && w.spent > w.budget) {
		w.stop.Store(true)
	}
}

// shortcut looks, among the codes of a small set, for one that splits the
// others into classes of one code (the best possible, 2n−1 guesses) and for
// the first that splits them into single codes but for one pair (2n, the
// best possible once no code does the former). It returns their space
// indices, or -1.
func (w *worker) shortcut(set []uint16) (perfect, pair int32) {
	p := w.p
	pair = -1
	for _, c := range set {
		// c's code as a guess against d's is d's against c's.
		col := p.col(c)
		var seen, twice [2]uint64
		dup := 0
		for _, d := range set {
			f := col[p.cols[d]]
			word, bit := f>>6, uint64(1)<<(f&63)
			if seen[word]&bit == 0 {
				seen[word] |= bit
				continue
			}
			if twice[word]&bit != 0 {
				dup = 2
				break
			}
			twice[word] |= bit
			if dup++; dup > 1 {
				break
			}
		}
		switch {
		case dup == 0:
			return p.cols[c], -1
		case dup == 1 && pair < 0:
			pair = p.cols[c]
		}
	}
	return -1, pair
}

// search is solve for a set of at least three codes that no shortcut
// settled. It tries the guesses of the pool in order of the lower bound of
// their split, then of the pool, until the bound reaches the best cost
// found; lb is a lower bound of the set's cost.
//
// Scoring every guess in full would cost most of the search, so each round
// keeps only the keep best guesses not yet tried: a guess is dropped as
// soon as its bound, which only grows as codes join their classes, reaches
// the worst kept one. When the kept guesses are tried and some dropped
// guess might still beat the best cost, another round scores the pool
// again for the next ones.
func (w *worker) search(set []uint16, limit int, cutoff, lb int32, lvl int) result {
	p := w.p
	fr := w.frame(lvl)
	pool := p.pools.get(w, p.excluded(set))
	// The bounds stay in the frame while the node is searched: the tries
	// work at deeper levels, and at this one only partition.
	bounds := w.bounds(set, pool, fr)
	best := result{cost: cutoff, guess: -1}
	proven := int32(inf) // the least lower bound of a guess given up
	last := scored{bound: -1, order: -1}
	root := w.news && lvl == 0 && len(w.hist) == len(w.s.hist0) // the search's own start
	tried := 0
	for {
		rest, floor, done := w.scan(set, pool, bounds, limit, best.cost, lb, last, fr)
		if done.guess >= 0 {
			return done
		}
		for _, c := range fr.guesses {
			if c.bound >= best.cost {
				break
			}
			if root {
				tried++
				w.s.news.set(c.guess, tried, len(pool), best.cost)
			}
			cost, depth, ok := w.try(set, c.guess, limit, best.cost, lvl)
			if ok {
				best = result{cost: cost, guess: c.guess, depth: depth}
			} else {
				proven = min(proven, cost)
			}
			if w.stop.Load() {
				return bound(inf)
			}
		}
		if len(fr.guesses) > 0 {
			last = fr.guesses[len(fr.guesses)-1]
		}
		proven = min(proven, rest, floor)
		if rest >= best.cost || len(fr.guesses) == 0 {
			break
		}
	}
	if best.guess < 0 {
		best.cost = max(cutoff, proven)
	}
	return best
}

// probe returns a lower bound of the cost of set: the least bound of a
// split of it by any guess of its pool, or target if that is less. Each
// guess is scored only until its bound reaches the least so far.
func (w *worker) probe(set []uint16, target int32, lvl int) int32 {
	p := w.p
	fr := w.frame(lvl)
	pool := p.pools.get(w, p.excluded(set))
	n := int32(len(set))
	useless := n + p.fill[n]
	least := target
	for _, b := range w.bounds(set, pool, fr) {
		if b != useless {
			least = min(least, b)
		}
	}
	return least
}

// bounds returns the bound of every guess of pool for set, each computed
// the cheapest way the set's size allows. When the set is split with
// masks, they are loaded in fr.
func (w *worker) bounds(set []uint16, pool []int32, fr *frame) []int32 {
	p := w.p
	n := int32(len(set))
	if len(fr.bounds) < len(pool) {
		fr.bounds = make([]int32, len(pool))
	}
	out := fr.bounds[:len(pool)]
	sliced := len(set) <= maxBits && p.sliced()
	if sliced {
		p.load(&fr.masks, set)
	}
	switch {
	case len(set) <= p.b+1 && len(p.fbs) <= 64:
		if len(fr.seen) < len(pool) {
			fr.seen = make([]uint64, len(pool))
		}
		p.boundsSmall(set, pool, out, fr.seen)
	case sliced && p.gidx != nil && fr.masks.words == 1:
		p.bounds4(&fr.masks, pool, n, out)
	case sliced && p.gidx != nil:
		p.bounds4w(&fr.masks, pool, n, out)
	default:
		nf := len(p.fbs)
		if len(fr.counts2) < len(pool)*nf {
			fr.counts2 = make([]uint16, len(pool)*nf)
		}
		p.boundsCounts(set, pool, out, fr.counts2)
	}
	return out
}

// maxLooks is how many guesses that reach the set's lower bound a scan
// looks at closely, for one whose classes of one or two codes prove it
// best at once; past them the tries settle it. (A bound from the
// transposition table can be reached by many guesses.)
const maxLooks = 8

// keep is how many guesses a round of search scores in full and tries.
const keep = 6

// scan goes through the guesses of pool, whose bounds are bounds, that come
// after last in order of bound then pool, and leaves in fr.guesses the keep
// best with a bound below
// cutoff, in order. It returns a lower bound of the guesses it left out
// for being worse than the kept ones (inf if none) and one of those it
// left out for reaching the cutoff (inf if none), and, if a guess is
// certainly best — its classes of one or two codes cost exactly its bound,
// and that bound is lb — that guess's result.
func (w *worker) scan(set []uint16, pool []int32, bounds []int32, limit int, cutoff, lb int32, last scored, fr *frame) (rest, floor int32, done result) {
	n := int32(len(set))
	// Under a depth limit a guess's classes must each fit in what is
	// left; they surely do when the whole set would.
	limited := limit < len(set) && int(w.p.levels[len(set)])+1 > limit
	sliced := len(set) <= maxBits && w.p.sliced()
	useless := n + w.p.fill[n] // the bound of a guess that leaves one class
	k := keeper{top: fr.guesses[:0], cutoff: cutoff, thr: cutoff, rest: inf, floor: inf}
	looks := 0 // guesses whose classes were looked at for a shortcut
	for order, total := range bounds {
		if total >= k.thr || total == useless {
			if total != useless {
				k.leftOut(total)
			}
			continue
		}
		// A guess worth keeping. The sizes of its classes matter only
		// under a depth limit, or if it may be the best possible.
		g := pool[order]
		most, deepest := n, int8(0)
		if limited || (total <= lb && looks < maxLooks) {
			most, deepest = w.p.classes(set, g, n, limited, sliced, fr)
			looks++
		}
		c := scored{bound: total, order: int32(order), guess: g}
		switch {
		case limited && int(deepest)+1 > limit:
			continue
		case !last.before(c):
			continue // tried in an earlier round
		case most <= 2 && total <= lb:
			// Classes of one or two codes cost exactly their bound, and
			// nothing beats the set's lower bound.
			d := int8(2)
			if most == 2 {
				d = 3
			}
			return k.rest, k.floor, result{cost: total, guess: g, depth: d}
		}
		k.offer(c)
	}
	fr.guesses = k.top
	return k.rest, k.floor, result{guess: -1}
}

// classes returns the size of the largest class guess g leaves of set
// other than the win's, and the most guesses any of them needs (when
// limited, else 0). If sliced, fr holds the masks of set.
func (p *problem) classes(set []uint16, g int32, n int32, limited, sliced bool, fr *frame) (most int32, deepest int8) {
	counts := &fr.counts
	if sliced {
		// The masks of set are loaded.
		_, most = p.split(&fr.masks, g, n, counts)
	} else {
		for _, c := range set {
			counts[p.fb(c, g)]++
		}
		for f, m := range counts[:len(p.fbs)] {
			if uint8(f) != p.win {
				most = max(most, int32(m))
			}
		}
	}
	if limited {
		for f, m := range counts[:len(p.fbs)] {
			if m != 0 && uint8(f) != p.win {
				deepest = max(deepest, p.levels[m])
			}
		}
	}
	clear(counts[:len(p.fbs)])
	return most, deepest
}

// keeper keeps the keep best guesses offered to it, in order, and the
// least bound of those it turned away that were below the cutoff. thr is
// the bound a guess must stay under to be kept.
type keeper struct {
	top         []scored
	cutoff, thr int32
	rest        int32 // the least bound turned away below the cutoff
	floor       int32 // the least bound turned away at or above it
}

// leftOut notes a guess turned away with a bound of at least b.
func (k *keeper) leftOut(b int32) {
	if b < k.cutoff {
		k.rest = min(k.rest, b)
	} else {
		k.floor = min(k.floor, b)
	}
}

func (k *keeper) offer(c scored) {
	top := k.top
	if len(top) == keep {
		k.leftOut(top[keep-1].bound)
		top = top[:keep-1]
	}
	i := len(top)
	top = append(top, c)
	for ; i > 0 && c.before(top[i-1]); i-- {
		top[i] = top[i-1]
	}
	top[i] = c
	if len(top) == keep {
		k.thr = min(k.cutoff, top[keep-1].bound)
	}
	k.top = top
}

func (a scored) before(b scored) bool {
	return a.bound < b.bound || (a.bound == b.bound && a.order < b.order)
}

// try plays guess g at set and solves every class it leaves, smallest
// first, each within what the others leave of cutoff. It returns the cost
// and worst case and true if the cost is below cutoff; otherwise a lower
// bound of the cost, at least cutoff, and false.
func (w *worker) try(set []uint16, g int32, limit int, cutoff int32, lvl int) (int32, int8, bool) {
	p := w.p
	fr := w.frame(lvl)
	counts, start := &fr.counts, fr.start
	nf := len(p.fbs)
	for _, c := range set {
		counts[p.fb(c, g)]++
	}
	pos := int32(0)
	for f, m := range counts[:nf] {
		start[f] = pos
		pos += int32(m)
	}
	start[nf] = pos
	buf := fr.buf
	for _, c := range set {
		f := p.fb(c, g)
		buf[start[f]] = c
		start[f]++
	}
	// start[f] now ends class f.
	total := int32(len(set))
	fr.cells = fr.cells[:0]
	for f, m := range counts[:nf] {
		if m == 0 || uint8(f) == p.win {
			continue
		}
		hi := start[f]
		fr.cells = append(fr.cells, cell{lo: hi - int32(m), hi: hi, bound: p.fill[m]})
		total += p.fill[m]
	}
	clear(counts[:nf])
	cells := fr.cells
	// Smallest first: their exact costs tighten the cutoff of the large.
	for i := 1; i < len(cells); i++ {
		for j := i; j > 0 && cells[j].hi-cells[j].lo < cells[j-1].hi-cells[j-1].lo; j-- {
			cells[j], cells[j-1] = cells[j-1], cells[j]
		}
	}
	// What earlier searches learnt of the classes may prove the guess
	// too costly before any is searched.
	for i := range cells {
		cl := &cells[i]
		if int(cl.hi-cl.lo) < w.s.ttMin {
			continue
		}
		cl.k = p.hash(buf[cl.lo:cl.hi])
		if c, _, _ := w.s.tt.lookup(cl.k, limit-1); c > cl.bound {
			total += c - cl.bound
			cl.bound = c
		}
	}
	if total >= cutoff {
		return total, 0, false
	}
	w.hist = append(w.hist, g)
	defer func() { w.hist = w.hist[:len(w.hist)-1] }()
	if len(set) >= w.s.probeMin && cutoff < inf {
		// Most guesses tried at a large node fail. Before solving any
		// class exactly, bound each by the best split any guess makes of
		// it, one scan each: that often proves the guess too costly at a
		// fraction of the price.
		for i := range cells {
			cl := &cells[i]
			m := cl.hi - cl.lo
			if int(m) <= p.b+1 || cl.bound > p.fill[m] {
				continue
			}
			c := w.probe(buf[cl.lo:cl.hi], cutoff-(total-cl.bound), lvl+1)
			if c > cl.bound {
				total += c - cl.bound
				cl.bound = c
				if cl.k.b != 0 {
					w.s.tt.store(cl.k, entry{cost: c, guess: -1, limit: uint16(min(limit-1, int(m)))})
				}
			}
			if total >= cutoff {
				return total, 0, false
			}
		}
	}
	if len(set) >= parallelMin && len(w.hist)-len(w.s.hist0) <= parallelDepth {
		if n := w.s.borrow(len(cells) - 1); n > 0 {
			return w.solveParallel(buf, cells, total, limit, cutoff, lvl, n)
		}
	}
	deepest := int8(0)
	for i := range cells {
		cl := cells[i]
		cut := cutoff - (total - cl.bound)
		r := w.solve(buf[cl.lo:cl.hi], cl.k, limit-1, cut, lvl+1)
		if r.guess < 0 {
			return sat(total - cl.bound + r.cost), 0, false
		}
		total += r.cost - cl.bound
		deepest = max(deepest, r.depth)
	}
	return total, deepest + 1, true
}

// parallelMin is the smallest set whose guesses' classes are solved on
// several workers, and parallelDepth the deepest level (from the start of
// the search) where they are.
const (
	parallelMin   = 64
	parallelDepth = 1
)

// solveParallel is the end of try for a large node: the classes are solved
// by this worker and extra more, each taking the next class and a cutoff
// from the costs and bounds of the others as they stand. A class's result
// below its cutoff does not depend on the cutoff, and the guess fails
// exactly when its cost reaches cutoff, so the outcome is the same as
// solving the classes one by one.
func (w *worker) solveParallel(buf []uint16, cells []cell, total int32, limit int, cutoff int32, lvl, extra int) (int32, int8, bool) {
	var (
		mu      sync.Mutex // guards all below and cells
		next    int
		failed  bool
		proven  int32
		deepest int8
	)
	work := func(cw *worker, lvl int) {
		for {
			mu.Lock()
			i := next
			next++
			if i >= len(cells) || failed {
				mu.Unlock()
				return
			}
			cl := cells[i]
			cut := cutoff - (total - cl.bound)
			mu.Unlock()
			r := cw.solve(buf[cl.lo:cl.hi], cl.k, limit-1, cut, lvl)
			mu.Lock()
			if r.guess < 0 {
				if !failed {
					failed, proven = true, sat(total-cl.bound+r.cost)
				}
			} else {
				total += r.cost - cl.bound
				cells[i].bound = r.cost
				deepest = max(deepest, r.depth)
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range extra {
		cw := w.s.getWorker(w.ctx, w.stop, w.hist)
		wg.Go(func() {
			defer w.s.giveBack(cw)
			work(cw, 0)
		})
	}
	work(w, lvl+1)
	wg.Wait()
	if failed || total >= cutoff {
		return max(proven, total), 0, false
	}
	return total, deepest + 1, true
}

// borrow takes up to n idle worker slots and returns how many it got.
func (s *search) borrow(n int) int {
	got := 0
	for ; got < n; got++ {
		select {
		case s.idle <- struct{}{}:
		default:
			return got
		}
	}
	return got
}

// giveBack returns a helper worker and its slot.
func (s *search) giveBack(cw *worker) {
	s.putWorker(cw)
	<-s.idle
}

// set records that the tried-th of count first guesses, g, is being tried,
// with best the least total so far.
func (n *news) set(g int32, tried, count int, best int32) {
	n.mu.Lock()
	n.guess, n.tried, n.count = g, tried, count
	if n.depth == 0 {
		n.best = best // in the second phase, the best is the first's
	}
	n.mu.Unlock()
}

// news is what the progress reports show of the search at its start.
type news struct {
	mu    sync.Mutex
	guess int32 // first guess being tried
	tried int   // its rank among the first guesses
	count int   // how many first guesses there are
	best  int32 // the least total found so far, inf if none
	depth int   // the worst case tried in the second phase
}

var dupHook func(p *problem, m *masks, pool []int32, n int, set []uint16)

// sat returns x, or inf if x overflowed past it: a sum with an infeasible
// class's cost (inf) stays infeasible.
func sat(x int32) int32 {
	if x < 0 {
		return inf
	}
	return x
}
