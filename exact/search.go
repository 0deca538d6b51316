package exact

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
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

	nodes atomic.Int64 // nodes searched, in batches from the workers
	// busy counts the helpers at work less the workers waiting on theirs:
	// a call's own worker and up to extra more compute at once (but for a
	// moment when one that waited goes on).
	busy    atomic.Int32
	extra   int32
	spareMu sync.Mutex
	spare   []*worker // workers not in use, with their scratch memory
	news    news
	// byOpening: the search is SolveOpenings', whose news is of its first
	// guesses alone.
	byOpening bool
	// firstFit: the search is Fits', which takes at each set the first
	// strategy it finds within the limit, of whatever cost; its table's
	// costs are those strategies', not the least. That is sound because
	// every cutoff in it stays within a finite sum of inf, so only bounds
	// of sets that fit nowhere within the limit can prune (and probes,
	// whose bounds cannot, are skipped).
	firstFit bool
	start    time.Time
}

// A worker searches depth first on its own scratch memory: one frame per
// level below the node it started from.
type worker struct {
	s      *search
	p      *problem
	hist   []int32 // the guesses from the start of the game to this node
	frames []*frame
	// scratch is where pools are made before they are kept.
	scratch []int32
	nodes   int64 // nodes not yet added to s.nodes
	// ctx is the context of the call the worker serves, and stop, shared
	// by the workers of the call, is set once it is done: every solve then
	// fails at once and nothing more is stored.
	ctx  context.Context
	stop *halt
	news bool // the worker reports the first guesses it tries
	// spent counts the nodes the worker searched; past budget, if not 0,
	// it stops as if cancelled.
	spent, budget int64
	// fresh has build search every node again for its guess, never
	// taking it from the table (for tests).
	fresh bool
}

// A halt tells the workers of a call to stop: once it or one above it is
// set, every solve fails at once and nothing more is stored. A parallel
// split gives its workers a halt of their own below the caller's, so that
// the first class to prove a guess too costly stops the others' classes.
type halt struct {
	set atomic.Bool
	up  *halt
}

// Load reports whether h or a halt above it is set.
func (h *halt) Load() bool {
	for ; h != nil; h = h.up {
		if h.set.Load() {
			return true
		}
	}
	return false
}

// Store sets or clears h alone.
func (h *halt) Store(v bool) { h.set.Store(v) }

// A frame is the scratch memory of one level of the search.
type frame struct {
	buf     []uint16    // the candidates of the node being tried, by class
	guesses []scored    // the guesses of the node to try, in order
	counts  [256]uint16 // per feedback
	start   []int32     // per feedback: where its class begins in buf
	cells   []cell
	masks   masks    // the set being scanned, when it is split with masks
	bounds  []int32  // the bound of each guess of the pool
	seen    []uint64 // scratch of boundsSmall and perfectSplit
	alive   []int32  // scratch of perfectSplit
	counts2 []uint16 // scratch of boundsCounts
	// counted: bounds scored the pool with boundsCounts, and counts2
	// holds the size of each class of each guess, for the scan.
	counted bool
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
func (s *search) getWorker(ctx context.Context, stop *halt, hist []int32) *worker {
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
	w.spent, w.budget, w.fresh = 0, 0, false
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
	raised := false // whether the table raised lb
	if useTable {
		if k.b == 0 {
			k = p.hash(set)
		}
		if recall {
			c, g, d := w.s.tt.lookup(k, limit)
			if g >= 0 {
				return w.accept(result{cost: c, guess: g, depth: d}, cutoff)
			}
			raised = c > lb
			if lb = max(lb, c); lb >= cutoff {
				return bound(lb)
			}
		}
	}
	r := w.search(set, limit, cutoff, lb, lvl)
	if useTable && !w.stop.Load() {
		e := entry{cost: r.cost, guess: r.guess, limit: uint16(limit), depth: r.depth, canon: !raised}
		if r.guess < 0 {
			e.depth, e.canon = 0, false
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
		var seen, twice [4]uint64 // by dense feedback, up to 255
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
	if limit == 2 && len(set) <= p.b+1 && len(p.fbs) <= 64 {
		// Within two guesses, no code of the set splitting it into single
		// codes (the shortcut): the first guess of the pool that does,
		// at 2n, as the scan would find; most sets of a search within a
		// limit that none keeps to are these. Where none does, no
		// strategy exists, and the bound says so (inf), where the scan
		// gave the cutoff.
		if g := p.perfectSplit(set, pool, fr); g >= 0 {
			return w.accept(result{cost: int32(2 * len(set)), guess: g, depth: 2}, cutoff)
		}
		return bound(inf)
	}
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
				if w.s.firstFit {
					return best
				}
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

// set records that the tried-th of count first guesses, g, is being tried,
// with best the least total so far.
func (n *news) set(g int32, tried, count int, best int32) {
	n.mu.Lock()
	n.guess, n.tried, n.count = g, tried, count
	n.parts = 0 // until setPart names one of g's parts
	n.nextCount = 0
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
	// the part of the first guess being searched, in a search part by
	// part: see Progress
	part             mm.Feedback
	partCodes        int
	partsDone, parts int
	// the guess tried on the part, in FitsOpenings
	next                 int32
	nextTried, nextCount int
}

// setPart records that the part of the first guess's answer f, of codes
// candidates, is being searched, done of its parts being solved.
func (n *news) setPart(f mm.Feedback, codes, done, parts int) {
	n.mu.Lock()
	n.part, n.partCodes, n.partsDone, n.parts = f, codes, done, parts
	n.nextCount = 0
	n.mu.Unlock()
}

// setNext records that the tried-th of count guesses, g, is being tried
// on the part being searched.
func (n *news) setNext(g int32, tried, count int) {
	n.mu.Lock()
	n.next, n.nextTried, n.nextCount = g, tried, count
	n.mu.Unlock()
}

// sat returns x, or inf if x overflowed past it: a sum with an infeasible
// class's cost (inf) stays infeasible.
func sat(x int32) int32 {
	if x < 0 {
		return inf
	}
	return x
}
