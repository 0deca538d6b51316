package exact

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// A Bound is a lower bound, proved, of the least total number of guesses
// that finds every code of a variant.
type Bound struct {
	Total int     // no strategy finds every code in fewer guesses in all
	Depth int     // guesses tried in full before the counting bound takes over
	First mm.Code // the first guess whose bound is the least
	// Sets is the number of sets bounded, as a search of one core would
	// count them: the same on every run.
	Sets int64
}

// BoundProgress is a report on a running LowerBound.
type BoundProgress struct {
	Elapsed time.Duration
	Sets    int64
	// Guess is the first guess under trial, the Tried-th of Guesses, and
	// Best the least bound of the first guesses done so far (0 for none).
	Guess          mm.Code
	Tried, Guesses int
	Best           int
}

// BoundOptions control LowerBoundWith. A nil *BoundOptions gives the
// counting bound below the guesses tried and no news.
type BoundOptions struct {
	// Exact, if not 0, is the largest set whose bound is its exact
	// optimum, found by the exact search, in place of the counting bound
	// (or a search deeper): the least total number of guesses that finds
	// its codes, any code being a guess. A set that large or smaller is
	// solved wherever the search meets it, at the depth limit too.
	Exact int
	// Cutoff, if not 0, is a total at which the search stops: the bound
	// found is the least total's when that is below Cutoff, and at least
	// Cutoff otherwise, Cutoff itself with no First. The total of a known
	// strategy, above every bound, prunes what a split search
	// (PlanBound) cannot share, without changing what it proves.
	Cutoff int
	// Progress, if not nil, is called every second from another
	// goroutine.
	Progress func(BoundProgress)
}

// leafTable is the most memory the feedback table of an exact search of
// small sets may take: a search on every code where that fits, or else
// one per set of the bound's search that fits, shared by the sets below
// it.
const leafTable = MaxTable

// wholeTable is the largest table of a search of every code that
// LowerBoundWith builds: leafTable, but for tests of the searches by set.
var wholeTable int64 = leafTable

// LowerBound proves a lower bound of the least total number of guesses
// that finds every code of r, any code being a guess, where the space is
// too large to solve: it tries every guess, one per class of codes that
// the symmetries of the guesses before it map onto each other, depth
// guesses deep, and below them counts: a set of n codes needs at least the
// total of the best case, where each guess is one of the codes and splits
// the others into as many classes as there are answers but the win (one
// code found with the first guess, b with the second, b² with the third,
// and so on). The bound of a set is the least, over its guesses, of its
// size plus the bounds of the classes the guess makes; so every strategy
// needs at least the bound, and the deeper the search, the higher it is.
// Guesses are tried in order of their counting bound, and a guess whose
// bound already reaches the best found is not looked at further.
//
// Depth 1 is the counting bound of the best first guess. progress, if not
// nil, is called every second from another goroutine.
func LowerBound(ctx context.Context, r mm.Rules, depth int, progress func(BoundProgress)) (*Bound, error) {
	return LowerBoundWith(ctx, r, depth, &BoundOptions{Progress: progress})
}

// LowerBoundWith is LowerBound with options: opts.Exact puts the exact
// optimum of each set of up to that many codes in place of its counting
// bound, which raises the bound at the cost of the exact searches.
func LowerBoundWith(ctx context.Context, r mm.Rules, depth int, opts *BoundOptions) (*Bound, error) {
	if opts == nil {
		opts = &BoundOptions{}
	}
	progress := opts.Progress
	lb, err := newLower(r, depth, opts, true)
	if err != nil {
		return nil, err
	}
	if lb.whole != nil {
		defer lb.whole.release()
	}
	sp, root := lb.sp, lb.sp.All()
	var sets int64 // as a search in order counts them, the same every run
	firsts := lb.order(ctx, root, lb.firstPool(), &sets)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var (
		mu    sync.Mutex
		news  BoundProgress
		start = time.Now()
	)
	if progress != nil {
		stop, finished := make(chan struct{}), make(chan struct{})
		defer func() { close(stop); <-finished }() // no news after the return
		go func() {
			defer close(finished)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					mu.Lock()
					p := news
					mu.Unlock()
					p.Elapsed, p.Sets = time.Since(start), lb.sets.Load()
					progress(p)
				}
			}
		}()
	}
	best := &Bound{Total: math.MaxInt, Depth: depth}
	if c := opts.cutoff(); c > 0 {
		best.Total = c
	}
	for i, f := range firsts {
		mu.Lock()
		news.Guess, news.Tried, news.Guesses = sp.Code(f.guess), i+1, len(firsts)
		mu.Unlock()
		if f.static >= best.Total {
			break // in order: no later first guess can do better
		}
		total := f.static
		if depth > 1 {
			cutoff := 0
			if best.Total != math.MaxInt {
				cutoff = best.Total
			}
			var n int64
			if total, n, err = lb.split(ctx, root, []mm.Code{sp.Code(f.guess)}, f.guess, depth-1, cutoff, lb.whole); err != nil {
				return nil, err
			}
			sets += n
		}
		if total < best.Total {
			best.Total, best.First = total, sp.Code(f.guess)
			mu.Lock()
			news.Best = total
			mu.Unlock()
		}
	}
	best.Sets = sets
	return best, nil
}

// newLower checks the options of a LowerBound search and returns what it
// shares; with whole, and opts.Exact, the exact search of every code if
// its table fits (the caller releases it).
func newLower(r mm.Rules, depth int, opts *BoundOptions, whole bool) (*lower, error) {
	if opts == nil {
		opts = &BoundOptions{}
	}
	if opts.Exact < 0 {
		return nil, fmt.Errorf("mastermind: lower bound of exact sets of %d codes; want 0 or more", opts.Exact)
	}
	if opts.Cutoff < 0 {
		return nil, fmt.Errorf("mastermind: lower bound cut off at %d; want 0 (none) or more", opts.Cutoff)
	}
	if depth < 1 {
		return nil, fmt.Errorf("mastermind: lower bound depth %d; want at least 1", depth)
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		return nil, err
	}
	lb := &lower{r: sp.Rules(), sp: sp, win: sp.SolvedKey(), fill: fillTable(sp.Len(), answers(sp.Rules())), exact: opts.Exact}
	if lb.exact > 0 {
		if err := checkFeedbacks(lb.r); err != nil {
			return nil, err
		}
		if whole && int64(sp.Len())*int64(sp.Len()) <= wholeTable {
			if lb.whole, err = newLeafSearch(sp, sp.All()); err != nil {
				return nil, err
			}
		}
	}
	return lb, nil
}

// cutoff returns o.Cutoff, 0 for a nil o.
func (o *BoundOptions) cutoff() int {
	if o == nil {
		return 0
	}
	return o.Cutoff
}

// lower holds what a LowerBound search shares.
type lower struct {
	r    mm.Rules
	sp   *mm.Space
	win  int
	fill []int        // fill[n]: the counting bound of n codes
	sets atomic.Int64 // bounded so far, for news
	// exact is BoundOptions.Exact, and whole the exact search of every
	// code that solves the sets of up to exact codes, if its table fits;
	// if not, each set that fits gets its own for the sets below it.
	exact int
	whole *leafSearch
}

// A leafSearch is an exact search whose candidates hold every set it is
// asked to solve.
type leafSearch struct{ s *search }

// newLeafSearch builds the exact search of the codes of set.
func newLeafSearch(sp *mm.Space, set *mm.Set) (*leafSearch, error) {
	p, err := newProblem(sp, set)
	if err != nil {
		return nil, err
	}
	n := int64(set.Len())
	mem := max(64<<10, min(DefaultMemory, 4*n*n))
	// One worker a call: the bound's search shares out the cores.
	return &leafSearch{&search{p: p, tt: newTable(mem), ttMin: ttMin, probeMin: probeMin, start: time.Now()}}, nil
}

func (ls *leafSearch) release() {
	s := ls.s
	s.p.release()
	s.tt.release()
	s.spareMu.Lock()
	for _, w := range s.spare {
		w.releaseFrames()
	}
	s.spare = nil
	s.spareMu.Unlock()
}

// cost returns the least total number of guesses that finds every code of
// set, the codes left after the guesses of hist, if that is below cutoff;
// otherwise a value of at least cutoff.
func (ls *leafSearch) cost(ctx context.Context, set *mm.Set, hist []mm.Code, cutoff int) (int, error) {
	p := ls.s.p
	cols := make([]uint16, set.Len())
	for i := range cols {
		c, ok := slices.BinarySearch(p.cols, int32(set.Index(i)))
		if !ok {
			return 0, fmt.Errorf("%w: bound: %v is not among the exact search's codes", ErrInternal, set.Code(i))
		}
		cols[i] = uint16(c)
	}
	h := make([]int32, len(hist))
	for i, g := range hist {
		x, ok := p.sp.Index(g)
		if !ok {
			return 0, fmt.Errorf("%w: bound: guess %v is not a code", ErrInternal, g)
		}
		h[i] = int32(x)
	}
	if cutoff <= 0 || cutoff > inf {
		cutoff = inf
	}
	var stop halt
	w := ls.s.getWorker(ctx, &stop, h)
	r := w.solve(cols, key{}, len(cols), int32(cutoff), 0)
	ls.s.putWorker(w)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return int(r.cost), nil
}

// answers returns the number of answers other than the win that a guess
// can get under r. More than occur is safe: the bound only falls.
func answers(r mm.Rules) int { return r.NumFeedbacks() - 1 }

// fillTable returns the counting bound of every set of up to n codes,
// where each guess splits the codes not found into at most b classes.
func fillTable(n, b int) []int {
	fill := make([]int, n+1)
	for m := 1; m <= n; m++ {
		fill[m], _ = bestCase(m, b)
	}
	return fill
}

// scoredGuess is a guess with its counting bound for a set.
type scoredGuess struct {
	guess  int
	static int
}

// order returns the guesses of pool that split set, each with the size of
// set plus the counting bounds of its classes, least first; or some of
// them, if ctx is done, which the caller checks.
func (lb *lower) order(ctx context.Context, set *mm.Set, pool []int, sets *int64) []scoredGuess {
	counts := make([]uint32, lb.sp.Keys())
	out := make([]scoredGuess, 0, len(pool))
	n := set.Len()
	for i, g := range pool {
		if i%ctxEvery == ctxEvery-1 && ctx.Err() != nil {
			break
		}
		clear(counts)
		set.Count(g, counts)
		total, useless := n, false
		for k, c := range counts {
			if k == lb.win || c == 0 {
				continue
			}
			if int(c) == n {
				useless = true // the guess splits nothing
				break
			}
			total += lb.fill[c]
		}
		if !useless {
			out = append(out, scoredGuess{g, total})
		}
	}
	lb.sets.Add(1)
	*sets++
	slices.SortStableFunc(out, func(a, b scoredGuess) int { return a.static - b.static })
	return out
}

// ctxEvery is how many guesses order and least try between looks at
// their context: a few milliseconds of work on the largest sets, so that
// a search stops well within a second of its context's end.
const ctxEvery = 64

// membersFirst is the largest set whose members least tries before the
// pool: a larger set seldom splits as well as the counting bound has it,
// and its members would cost a scan each for nothing.
const membersFirst = 64

// least returns the least, over the guesses of pool, of the size of set
// plus the counting bounds of the classes a guess makes. The members of a
// small set are tried first: one that splits the others into classes of one reaches the
// least any guess can, and ends the search. (A member stands for the class
// of pool it belongs to: both split set alike.) It returns early, with a
// value too high, if ctx is done, which the caller checks.
func (lb *lower) least(ctx context.Context, set *mm.Set, pool []int, sets *int64) int {
	lb.sets.Add(1)
	*sets++
	n := set.Len()
	floor := lb.fill[n]
	counts := make([]uint32, lb.sp.Keys())
	best := math.MaxInt
	try := func(g int) bool {
		clear(counts)
		set.Count(g, counts)
		total := n
		for k, c := range counts {
			if k == lb.win || c == 0 {
				continue
			}
			if int(c) == n {
				return false // splits nothing
			}
			total += lb.fill[c]
		}
		best = min(best, total)
		return best == floor
	}
	if n <= membersFirst {
		for i := range n {
			if try(set.Index(i)) {
				return floor
			}
		}
	}
	for i, g := range pool {
		if i%ctxEvery == ctxEvery-1 && ctx.Err() != nil {
			break
		}
		if try(g) {
			break
		}
	}
	return best
}

// split returns the size of set plus the bounds, depth guesses deep, of
// the classes that guess g, the last of hist, makes of it, the classes
// bounded on every core; or a value of at least cutoff if it is that high
// (0: no cutoff). Each class is bounded with the room the counting bounds
// of the others leave it (cutoff less the size and their counting
// bounds); once one has no room, g is given up.
//
// It also returns the sets bounded, counted as a search of the classes in
// order would count them: the classes up to the first with no room. The
// cores may have bounded later classes by then; they are not counted, so
// that the count, as the bound, is the same on every run. (A room that
// shrank with the bounds of the classes done would prune more, but by an
// amount that depends on which core finished first.)
//
// ex, if not nil, is an exact search whose codes hold set's.
func (lb *lower) split(ctx context.Context, set *mm.Set, hist []mm.Code, g int, depth int, cutoff int, ex *leafSearch) (int, int64, error) {
	if cutoff <= 0 {
		cutoff = math.MaxInt
	}
	branches := set.Split(g)
	n := set.Len()
	counting := n // the size and the counting bounds of the classes
	for _, b := range branches {
		if lb.sp.Key(b.Feedback) != lb.win {
			counting += lb.fill[b.Set.Len()]
		}
	}
	if cutoff != math.MaxInt && counting >= cutoff {
		return cutoff, 0, nil
	}
	var (
		wg     sync.WaitGroup
		next   atomic.Int64
		overAt atomic.Int64 // the first class with no room, or len(branches)
		mu     sync.Mutex
		first  error
		values = make([]int, len(branches))
		sets   = make([]int64, len(branches))
	)
	overAt.Store(int64(len(branches)))
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(branches) || int64(i) > overAt.Load() {
					return
				}
				b := branches[i]
				if lb.sp.Key(b.Feedback) == lb.win {
					continue
				}
				own := lb.fill[b.Set.Len()]
				room := math.MaxInt
				if cutoff != math.MaxInt {
					room = cutoff - (counting - own)
				}
				v, err := lb.bound(ctx, b.Set, hist, depth, room, &sets[i], ex)
				if err != nil {
					mu.Lock()
					first = cmpErr(first, err)
					mu.Unlock()
					overAt.Store(-1) // stop the others
					return
				}
				values[i] = v
				if v >= room {
					for { // g cannot come under cutoff
						at := overAt.Load()
						if int64(i) >= at || overAt.CompareAndSwap(at, int64(i)) {
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		return 0, 0, first
	}
	at := int(overAt.Load())
	var counted int64
	for _, c := range sets[:min(at+1, len(sets))] {
		counted += c
	}
	if at < len(branches) {
		return cutoff, counted, nil
	}
	total := n
	for _, v := range values {
		total += v
	}
	return total, counted, nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// bound returns the bound of set, the codes left after the guesses of
// hist, depth guesses deep, or a value of at least cutoff if it is that
// high. A set of up to lb.exact codes is bounded by its exact optimum,
// with ex, an exact search whose codes hold set's, or one built for it.
//
// It adds the sets it bounds to *sets as well as to lb.sets.
func (lb *lower) bound(ctx context.Context, set *mm.Set, hist []mm.Code, depth int, cutoff int, sets *int64, ex *leafSearch) (int, error) {
	n := set.Len()
	if n <= 2 {
		return lb.fill[n], nil // one code takes one guess, two take three
	}
	if n > lb.exact && depth == 0 {
		return lb.fill[n], nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if lb.exact > 0 && ex == nil && int64(n)*int64(lb.sp.Len()) <= leafTable {
		var err error
		if ex, err = newLeafSearch(lb.sp, set); err != nil {
			return 0, err
		}
		defer ex.release()
	}
	if n <= lb.exact {
		lb.sets.Add(1)
		*sets++
		return ex.cost(ctx, set, hist, cutoff)
	}
	pool := symmetry.New(lb.r, hist).Guesses(lb.sp)
	if depth == 1 && lb.exact == 0 {
		v := lb.least(ctx, set, pool, sets)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		return min(cutoff, v), nil
	}
	order := lb.order(ctx, set, pool, sets)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	best := cutoff
	for _, sg := range order {
		if sg.static >= best {
			break
		}
		total := n
		next := append(hist[:len(hist):len(hist)], lb.sp.Code(sg.guess))
		for _, b := range set.Split(sg.guess) {
			if lb.sp.Key(b.Feedback) == lb.win {
				continue
			}
			v, err := lb.bound(ctx, b.Set, next, depth-1, best-total, sets, ex)
			if err != nil {
				return 0, err
			}
			if total += v; total >= best {
				break
			}
		}
		best = min(best, total)
	}
	return best, nil
}
