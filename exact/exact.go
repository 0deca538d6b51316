// Package exact finds optimal Mastermind strategies: the decision tree that
// finds every secret of a variant (or every code left after some guesses)
// with the least total number of guesses and, among those, the smallest
// worst case.
//
// # The search
//
// Depth-first branch and bound over candidate sets. At each set every guess
// of its symmetry pool (one per class of equivalent codes, see package
// symmetry, with the colours no candidate holds merged) is scored by a lower
// bound of what follows it — the set's size plus, for each class it leaves,
// the least any strategy could spend on that many codes — and the guesses
// are tried in order of bound until the bound reaches the best cost found;
// each round scores the pool and keeps the few best not yet tried. A
// guess's classes are solved smallest first, each with what the others
// leave of the cutoff; at large nodes they are first bounded by the best
// split of each (a probe), which refutes most guesses cheaply. Whenever a
// worker is idle, the classes of a guess at a node of 64 codes or more are
// shared out, each worker taking the next class with the cutoff the others
// leave as they stand; the first class that proves the guess too costly
// halts the rest. Sets of at most b+1 codes (b
// feedbacks besides the win) that one of their codes splits into single
// codes, or single codes and one pair, are settled without a search.
//
// The search runs on compact data: candidates are uint16 columns of a
// feedback table with a byte per (candidate, guess) pair (so up to 21
// pegs, whose 252 feedbacks a byte tells apart), laid out by
// candidate so that a pool is scored one forward pass per candidate; sets
// of up to 256 codes on four pegs are scored by bit-parallel arithmetic on
// masks of the set; classes are partitioned in place in per-level buffers;
// and a set is known by a 128-bit key (the xor of random keys of its
// members). A transposition table of fixed size remembers exact costs and
// lower bounds by key, so a set reached along several paths is searched
// once, and a search cut off once restarts from its bound. The decision
// tree is rebuilt at the end from the costs, choosing at each node the
// first guess in order of bound that reaches the optimum, so the tree does
// not depend on the number of workers.
//
// # Whether a number of guesses suffices
//
// Fits asks only whether some strategy keeps every game within a number of
// guesses: the same search with no cutoff, taking at each set the first
// guess whose classes all fit, and solving a guess's classes largest first,
// as the largest is the likeliest not to fit. Under a depth limit the
// scan leaves out every guess with a class too large for the guesses left,
// reading its largest class from the counts of its bound, and a set to be
// found within two guesses asks only for a guess that gives each of its
// codes a feedback of its own. FitsOpenings is Fits step by step, each step
// kept in a journal, for questions of hours.
//
// # Memory
//
// The feedback table takes a byte per pair of codes (16 MiB on 8 × 4, 25 MiB
// on Bulls and Cows), the transposition table Options.Memory, and each
// worker a buffer per level of the tree; the pools of guesses, kept per
// variant for every search of it, take at most 64 MiB. Nothing else grows
// with the length of the search.
package exact

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// DefaultMemory is the size of the transposition table when Options.Memory
// is 0.
const DefaultMemory = 64 << 20

// Options control Solve. A nil *Options gives the defaults.
type Options struct {
	// MaxDepth is the most guesses any game may take, counting those the
	// state has played; 0 for no limit.
	MaxDepth int
	// Memory is the size of the transposition table in bytes; 0 means
	// DefaultMemory. The search allocates nothing else that grows with
	// its length: the feedback table (a byte per pair of codes) and a
	// buffer per level of the tree.
	Memory int64
	// Workers is the number of goroutines that search; 0 means GOMAXPROCS.
	Workers int
	// AnyWorstCase skips the second phase, which lowers the worst case
	// among the strategies of least total: the tree has the least total,
	// and a worst case that is not always the least. Much faster where
	// only totals matter.
	AnyWorstCase bool
	// WorstCaseBudget, if not 0, bounds the sets the second phase searches
	// for each worst case it tries; past it, the phase stops with the worst
	// case it has. With one worker the result is still the same from run to
	// run.
	WorstCaseBudget int64
	// Progress, if not nil, receives a report every ProgressEvery (a
	// second if 0) while the search runs, from another goroutine.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a report on a running search.
type Progress struct {
	Elapsed time.Duration
	Nodes   int64 // sets searched so far
	// Best is the least total found so far for the whole problem, 0 until
	// one is found.
	Best int
	// Guess is the first guess under trial, the Tried-th of Guesses.
	Guess          mm.Code
	Tried, Guesses int
	// Depth is the worst case being tried in the second phase, which
	// lowers the worst case at the least total; 0 in the first phase.
	Depth int
	// In a search part by part (SolveOpenings), Part is the answer to
	// Guess whose PartCodes candidates are being searched, and PartsDone
	// of Guess's Parts (its answers that leave codes to find) are solved,
	// in this run or in one before; Parts is 0 in other searches.
	Part             mm.Feedback
	PartCodes        int
	PartsDone, Parts int
	// In FitsOpenings, Next is the guess being tried on a part of
	// FitsSplit codes or more, the NextTried-th of NextGuesses; 0 in
	// other searches.
	Next                   mm.Code
	NextTried, NextGuesses int
}

// ErrDepth is wrapped by the error of a search that finds no strategy
// within Options.MaxDepth.
var ErrDepth = errors.New("mastermind: no strategy within the most guesses allowed")

// ErrInternal is wrapped by the error of a search that contradicts itself:
// a defect of the package, never of the input (the command line reports it
// as a failure, exit status 1, not as bad input).
var ErrInternal = errors.New("exact: internal error")

// depthError says which search found no strategy within the depth; it
// wraps ErrDepth.
type depthError struct{ msg string }

func (e *depthError) Error() string { return e.msg }
func (e *depthError) Unwrap() error { return ErrDepth }

// Result is an optimal strategy.
type Result struct {
	Tree  *mm.Tree
	Total int   // guesses over every candidate
	Depth int   // the most guesses any candidate needs
	Nodes int64 // sets searched
}

// Solve returns an optimal strategy for the candidates of st: the least
// total number of guesses over every candidate, and among the strategies
// reaching it the smallest worst case, with at most opts.MaxDepth guesses
// in a game when that is set. It fails with an error wrapping
// mm.ErrTooLarge when the feedback table of the candidates against every
// code would take more than MaxTable bytes, with an error wrapping ErrDepth
// when no strategy meets MaxDepth, and with ctx's error when ctx is done
// first.
func Solve(ctx context.Context, st *mm.State, opts *Options) (*Result, error) {
	sv, err := NewSolver(st, opts)
	if err != nil {
		return nil, err
	}
	defer sv.Close()
	return sv.Solve(ctx, st)
}

// Fits reports whether some strategy finds every candidate of st within
// depth guesses in all, counting those st has played: whether the fewest
// guesses that always suffice are at most depth. It minimises nothing, and
// stops at the first such strategy it finds, trying at each set the guesses
// in the order of Solve; where none exists it searches every guess, pruned
// by how many codes a number of guesses can tell apart. opts's MaxDepth is
// ignored; its Memory, Workers and Progress apply.
func Fits(ctx context.Context, st *mm.State, depth int, opts *Options) (bool, error) {
	sv, err := newFitter(st, depth, opts)
	if err != nil {
		return false, err
	}
	defer sv.Close()
	hist, root, limit, err := sv.node(st)
	if err != nil {
		return false, err
	}
	if p := sv.opts.Progress; p != nil {
		stop := sv.s.report(p, sv.opts.ProgressEvery)
		defer stop()
	}
	var stop halt
	w := sv.s.getWorker(ctx, &stop, hist)
	defer sv.s.putWorker(w)
	w.news = true
	r := w.solve(root, key{}, limit, inf, 0)
	w.flush()
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return r.guess >= 0, nil
}

// A Solver answers exact questions about the codes left by histories that
// extend one state's: its candidates, or those of any later state, share
// one feedback table (the state's candidates against every code) and one
// transposition table, so that what one question learns serves the next.
// A record strategy asks thousands of them. A Solver is safe for
// concurrent use.
type Solver struct {
	s    *search
	opts Options
	set  []int32 // the space indices of the state's guesses, for checks
}

// NewSolver builds a solver for the candidates of st and every later
// state. Its cost is the feedback table of the candidates against every
// code. It fails with an error wrapping mm.ErrTooLarge when that table
// would take more than MaxTable bytes.
func NewSolver(st *mm.State, opts *Options) (*Solver, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.MaxDepth < 0 {
		return nil, fmt.Errorf("mastermind: --max-depth %d is negative", opts.MaxDepth)
	}
	sp, err := st.Space()
	if err != nil {
		return nil, err
	}
	if st.Len() == 0 && int64(sp.Len())*int64(sp.Len()) > MaxTable {
		return nil, tooLarge(sp.Rules(), sp.Len(), sp.Len())
	}
	cands, err := st.Candidates()
	if err != nil {
		return nil, err
	}
	p, err := newProblem(sp, cands)
	if err != nil {
		return nil, err
	}
	n := cands.Len()
	mem := opts.Memory
	if mem <= 0 {
		// Small problems need a small table, and a large one costs its
		// clearing and its cache misses.
		mem = max(64<<10, min(DefaultMemory, 4*int64(n)*int64(n)))
	}
	s := &search{p: p, tt: newTable(mem), ttMin: ttMin, probeMin: probeMin, start: time.Now()}
	for i := 0; i < st.Len(); i++ {
		g, _ := sp.Index(st.Turn(i).Guess)
		s.hist0 = append(s.hist0, int32(g))
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s.extra = int32(workers - 1)
	return &Solver{s: s, opts: *opts}, nil
}

// Close gives back the solver's feedback table for other solvers to reuse.
// The solver must not be used after.
func (sv *Solver) Close() {
	sv.s.p.release()
	sv.s.tt.release()
	sv.s.spareMu.Lock()
	for _, w := range sv.s.spare {
		w.releaseFrames()
	}
	sv.s.spare = nil
	sv.s.spareMu.Unlock()
}

// node returns the search's view of st: its history as space indices, its
// candidates as columns, and the guesses left within MaxDepth (the set's
// size if no limit). st must extend the solver's state.
func (sv *Solver) node(st *mm.State) (hist []int32, set []uint16, limit int, err error) {
	p := sv.s.p
	if st.Len() < len(sv.s.hist0) {
		return nil, nil, 0, fmt.Errorf("exact: a state of %d guesses does not extend the solver's %d", st.Len(), len(sv.s.hist0))
	}
	for i := 0; i < st.Len(); i++ {
		g, _ := p.sp.Index(st.Turn(i).Guess)
		if i < len(sv.s.hist0) && int32(g) != sv.s.hist0[i] {
			return nil, nil, 0, fmt.Errorf("exact: guess %d of the state is not the solver's", i+1)
		}
		hist = append(hist, int32(g))
	}
	cands, err := st.Candidates()
	if err != nil {
		return nil, nil, 0, err
	}
	set = make([]uint16, cands.Len())
	for i := range set {
		c, ok := slices.BinarySearch(p.cols, int32(cands.Index(i)))
		if !ok {
			return nil, nil, 0, fmt.Errorf("exact: %v is not among the solver's candidates", cands.Code(i))
		}
		set[i] = uint16(c)
	}
	limit = len(set)
	if d := sv.opts.MaxDepth; d > 0 {
		if limit = d - st.Len(); limit <= 0 {
			return nil, nil, 0, fmt.Errorf("mastermind: no guesses left within --max-depth %d after %d", d, st.Len())
		}
	}
	return hist, set, limit, nil
}

// Cost returns the least total number of guesses that finds every
// candidate of st, a state that extends the solver's, and true, if that is
// below cutoff; otherwise a lower bound of it, at least cutoff, and false.
// The worst case is not minimised. A cutoff of 0 means none.
func (sv *Solver) Cost(ctx context.Context, st *mm.State, cutoff int) (int, bool, error) {
	hist, set, limit, err := sv.node(st)
	if err != nil {
		return 0, false, err
	}
	if cutoff <= 0 || cutoff > inf {
		cutoff = inf
	}
	var stop halt
	w := sv.s.getWorker(ctx, &stop, hist)
	r := w.solve(set, key{}, limit, int32(cutoff), 0)
	sv.s.putWorker(w)
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	return int(r.cost), r.guess >= 0, nil
}

// Solve is the package's Solve for st, a state that extends the solver's.
func (sv *Solver) Solve(ctx context.Context, st *mm.State) (*Result, error) {
	hist, root, limit, err := sv.node(st)
	if err != nil {
		return nil, err
	}
	s, p, opts := sv.s, sv.s.p, sv.opts
	if opts.Progress != nil && !s.byOpening {
		// (A search by first guess reports from its own start.)
		stop := s.report(opts.Progress, opts.ProgressEvery)
		defer stop()
	}
	var stop halt
	w := s.getWorker(ctx, &stop, hist)
	defer s.putWorker(w)
	w.news = len(hist) == len(s.hist0)
	n := len(root)
	r := w.solve(root, key{}, limit, inf, 0)
	w.flush()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.guess < 0 {
		if opts.MaxDepth > 0 {
			return nil, &depthError{fmt.Sprintf("mastermind: no strategy for %v finds every secret within %d guesses", p.rules, opts.MaxDepth)}
		}
		return nil, fmt.Errorf("mastermind: exact search of %v found no strategy", p.rules)
	}
	// Lower the worst case one guess at a time, keeping the total: a
	// cutoff of total+1 refutes or confirms each quickly.
	total, depth := r.cost, int(r.depth)
	first := r.guess // the root's guess, while the worst case stays
	for depth > int(p.levels[n]) && !opts.AnyWorstCase {
		s.setDepth(depth-1, total)
		w.spent, w.budget = 0, opts.WorstCaseBudget
		r := w.solve(root, key{}, depth-1, total+1, 0)
		w.flush()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if stop.Load() {
			// Over budget: keep the worst case found so far.
			stop.Store(false)
			break
		}
		if r.guess < 0 {
			break
		}
		depth, first = int(r.depth), -1
	}
	w.budget = 0
	// The tree is rebuilt node by node for the first guess, in order of
	// bound, that reaches each node's least cost, whatever the table
	// holds. At the root the first search found that guess already unless
	// the worst case was lowered: it searched the root afresh (the table
	// knew nothing of it); its guess reaches the least total within depth,
	// and no guess before it in order reaches that total within the
	// search's limit, let alone within depth. (Unless the limit and depth
	// differ in whether they bind: the search looks at the guesses
	// differently then.)
	var t *mm.Tree
	if first >= 0 && p.sameScan(n, limit, depth) {
		t = w.buildWith(root, first, depth, 0)
	} else {
		t = w.build(root, depth, 0)
	}
	w.flush()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gotTotal, gotDepth := t.Cost()
	if gotTotal != int(total) || gotDepth > depth {
		return nil, fmt.Errorf("%w: rebuilt tree costs %d guesses, depth %d; the search found %d, depth %d", ErrInternal, gotTotal, gotDepth, total, depth)
	}
	return &Result{Tree: t, Total: gotTotal, Depth: gotDepth, Nodes: s.nodes.Load()}, nil
}

// Openings returns the guesses a search of st tries first, one per class of
// equivalent codes, in the order it tries them: by the lower bound of what
// follows each, then by code. Guesses that split nothing are left out. A
// search restricted to some of them (Opening) gives, guess by guess, what
// the whole search weighs: the best of the results — the least total, then
// the least worst case, then the first in this order — is what Solve
// returns. Work can so be shared out by openings.
func (sv *Solver) Openings(st *mm.State) ([]mm.Code, error) {
	hist, set, _, err := sv.node(st)
	if err != nil {
		return nil, err
	}
	s, p := sv.s, sv.s.p
	var stop halt
	w := s.getWorker(context.Background(), &stop, hist)
	defer s.putWorker(w)
	pool := p.pools.get(w, p.excluded(set))
	bounds := w.bounds(set, pool, w.frame(0))
	n := int32(len(set))
	useless := n + p.fill[n]
	var order []scored
	for i, b := range bounds {
		if b != useless {
			order = append(order, scored{bound: b, order: int32(i), guess: pool[i]})
		}
	}
	slices.SortFunc(order, func(a, b scored) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	out := make([]mm.Code, len(order))
	for i, c := range order {
		out[i] = p.sp.Code(int(c.guess))
	}
	return out, nil
}

// Opening returns the best strategy for st that starts with g: the least
// total, then the least worst case (within MaxDepth), built as Solve builds
// its tree below its first guess. It fails if g splits nothing, and with
// an error wrapping ErrDepth if no strategy that opens with g meets
// MaxDepth.
func (sv *Solver) Opening(ctx context.Context, st *mm.State, g mm.Code) (*Result, error) {
	hist, root, limit, err := sv.node(st)
	if err != nil {
		return nil, err
	}
	s, p, opts := sv.s, sv.s.p, sv.opts
	gi, ok := p.sp.Index(g)
	if !ok {
		return nil, fmt.Errorf("%w: %v is not a code of %v", mm.ErrInvalidCode, g, p.rules)
	}
	counts := map[uint8]int{}
	for _, c := range root {
		counts[p.fb(c, int32(gi))]++
	}
	if len(counts) == 1 && counts[p.win] == 0 {
		return nil, fmt.Errorf("mastermind: %v splits nothing after %v", g, st.Turns())
	}
	var stop halt
	w := s.getWorker(ctx, &stop, hist)
	defer s.putWorker(w)
	total, depth, ok := w.try(root, int32(gi), limit, inf, 0)
	w.flush()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, &depthError{fmt.Sprintf("mastermind: no strategy for %v that opens with %v finds every secret within %d guesses", p.rules, g, opts.MaxDepth)}
	}
	d := int(depth)
	for !opts.AnyWorstCase {
		_, shallower, ok := w.try(root, int32(gi), d-1, total+1, 0)
		w.flush()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		d = int(shallower)
	}
	t := w.buildWith(root, int32(gi), d, 0)
	w.flush()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, fmt.Errorf("%w: no tree below %v", ErrInternal, g)
	}
	gotTotal, gotDepth := t.Cost()
	if gotTotal != int(total) || gotDepth > d {
		return nil, fmt.Errorf("%w: rebuilt tree costs %d guesses, depth %d; the search found %d, depth %d", ErrInternal, gotTotal, gotDepth, total, d)
	}
	return &Result{Tree: t, Total: gotTotal, Depth: gotDepth, Nodes: s.nodes.Load()}, nil
}

// ttMin is the smallest set the transposition table remembers: smaller
// ones are solved again faster than they are looked up, but a tree's
// rebuild takes the guesses of the sets it remembers (see build) and
// searches the others again. (6 × 4, whole process: 8, 459.7 M
// instructions; 5, 453.3 M; 4, 451.0 M; 3, 451.6 M. 7 × 4: 8, 40.07 G;
// 4, 39.16 G.)
const ttMin = 4

// probeMin is the smallest set whose guesses' classes are probed for a
// lower bound before they are searched: below it, probing costs more
// than the searches it saves.
const probeMin = 400
