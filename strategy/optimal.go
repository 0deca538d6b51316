package strategy

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
)

// Optimal plays a strategy that minimises the total number of guesses over
// all secrets, every secret equally likely; among those, one whose worst case
// is smallest. With MaxDepth it minimises the total among strategies that
// never need more than MaxDepth guesses, and fails if there is none. The
// search is package exact's.
//
// The strategy tree is computed on first use for each variant and kept; a
// history that leaves the tree (a guess the tree would not have made) is
// solved afresh from its candidates.
type Optimal struct {
	MaxDepth int   // most guesses any game may take; 0 for no limit
	Memory   int64 // bytes of the search's transposition table; 0 for exact's default
	// Progress, if not nil, receives a line of news every second during
	// a long search: sets searched, the first guess being tried, the best
	// total so far.
	Progress func(line string)
	// Alphabet writes the codes of Progress's lines; nil for the default.
	Alphabet *mm.Alphabet
}

var (
	_ mm.Strategy        = Optimal{}
	_ mm.ContextStrategy = Optimal{}
)

func (Optimal) String() string { return "optimal" }

// CheckRules returns, at once, the error a game of r would fail with on
// its first guess for want of room (exact.CheckRules): Optimal solves the
// whole tree of r first, which takes a feedback table of every code
// against every code. Callers ask it before they build the game, whose
// state alone costs 467 MB on 8 × 8.
func (Optimal) CheckRules(r mm.Rules) error { return exact.CheckRules(r) }

// Guess returns the guess of the optimal tree for st's history.
func (o Optimal) Guess(st *mm.State) (mm.Code, error) {
	return o.GuessContext(context.Background(), st)
}

// GuessContext is Guess; a search under way stops soon after ctx is done.
func (o Optimal) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	t, err := o.TreeContext(ctx, st.Rules())
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
	res, err := exact.Solve(ctx, st, o.options(st.Rules()))
	if err != nil {
		return mm.Code{}, err
	}
	return res.Tree.Guess, nil
}

func (o Optimal) options(r mm.Rules) *exact.Options {
	opts := &exact.Options{MaxDepth: o.MaxDepth, Memory: o.Memory}
	if o.Progress != nil {
		opts.Progress = func(p exact.Progress) { o.Progress(progressLine(r, o.Alphabet, p)) }
	}
	return opts
}

// progressLine writes a report of the search as one line, its codes in a.
func progressLine(r mm.Rules, a *mm.Alphabet, p exact.Progress) string {
	line := fmt.Sprintf("optimal %v: %s sets searched", r, count(p.Nodes))
	if p.Guesses > 0 {
		line += fmt.Sprintf(", first guess %s (%d of %d)", a.Format(p.Guess), p.Tried, p.Guesses)
	}
	if p.Best > 0 {
		line += fmt.Sprintf(", best %d guesses so far", p.Best)
	}
	if p.Depth > 0 {
		line += fmt.Sprintf(", trying a worst case of %d", p.Depth)
	}
	return line + fmt.Sprintf(", %s", p.Elapsed.Round(time.Second))
}

// count writes n with a metric suffix.
func count(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%.0fM", float64(n)/1e6)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

type optimalKey struct {
	rules    mm.Rules
	maxDepth int
}

// optimalTrees keeps the trees computed so far. A search stopped by its
// context is not kept, so a later call searches again.
var optimalTrees struct {
	sync.Mutex
	m map[optimalKey]*optimalEntry
}

type optimalEntry struct {
	mu   sync.Mutex // held while the tree is computed
	tree *mm.Tree
	err  error
}

// Tree returns the optimal strategy tree for r, computing it on first use.
func (o Optimal) Tree(r mm.Rules) (*mm.Tree, error) {
	return o.TreeContext(context.Background(), r)
}

// TreeContext is Tree; a search under way stops soon after ctx is done.
func (o Optimal) TreeContext(ctx context.Context, r mm.Rules) (*mm.Tree, error) {
	r = r.WithDefaults()
	k := optimalKey{r, o.MaxDepth}
	optimalTrees.Lock()
	if optimalTrees.m == nil {
		optimalTrees.m = make(map[optimalKey]*optimalEntry)
	}
	e := optimalTrees.m[k]
	if e == nil {
		e = &optimalEntry{}
		optimalTrees.m[k] = e
	}
	optimalTrees.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.tree != nil || e.err != nil {
		return e.tree, e.err
	}
	t, err := o.SolveContext(ctx, r)
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return nil, err
	}
	e.tree, e.err = t, err
	return t, err
}

// SolveOptimal is Optimal{MaxDepth: maxDepth}.Solve(r).
func SolveOptimal(r mm.Rules, maxDepth int) (*mm.Tree, error) {
	return Optimal{MaxDepth: maxDepth}.Solve(r)
}

// Solve computes, without the cache of Tree, a strategy tree for r that
// minimises the total number of guesses over every secret, then the worst
// case, with at most o.MaxDepth guesses per game. It fails if the space has
// too many codes for exact.MaxTable or no strategy meets the depth.
func (o Optimal) Solve(r mm.Rules) (*mm.Tree, error) {
	return o.SolveContext(context.Background(), r)
}

// SolveContext is Solve; the search stops soon after ctx is done.
func (o Optimal) SolveContext(ctx context.Context, r mm.Rules) (*mm.Tree, error) {
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	res, err := exact.Solve(ctx, st, o.options(st.Rules()))
	if err != nil {
		return nil, err
	}
	return res.Tree, nil
}

// Openings returns the first guesses the search of r weighs, one per class
// of equivalent codes, in the order it tries them (exact.Solver.Openings).
// The optimal tree is the best of the trees Opening returns for them: the
// least total, then the least worst case, then the first in this order. A
// search can so be shared out by first guess, among the shards of a
// cluster job.
func (o Optimal) Openings(r mm.Rules) ([]mm.Code, error) {
	var out []mm.Code
	err := o.withSolver(r, func(sv *exact.Solver, st *mm.State) error {
		var err error
		out, err = sv.Openings(st)
		return err
	})
	return out, err
}

// Opening returns the best tree for r that opens with g: the least total,
// then the least worst case, with at most MaxDepth guesses a game. It
// fails with an error wrapping exact.ErrDepth when no strategy that opens
// with g meets MaxDepth. Calls for one variant share the search's tables,
// so that a shard solving several openings learns from each for the next.
func (o Optimal) Opening(ctx context.Context, r mm.Rules, g mm.Code) (*mm.Tree, error) {
	var t *mm.Tree
	err := o.withSolver(r, func(sv *exact.Solver, st *mm.State) error {
		res, err := sv.Opening(ctx, st, g)
		if err == nil {
			t = res.Tree
		}
		return err
	})
	return t, err
}

// openingSolver is the solver of the last variant Openings or Opening was
// asked about, kept for the next call; one at a time, since it holds the
// variant's feedback table and transposition table.
var openingSolver struct {
	sync.Mutex
	key optimalKey
	mem int64
	sv  *exact.Solver
	st  *mm.State
}

// withSolver calls f with the solver of r and o's settings, and the start
// of a game of r, under the lock of openingSolver.
func (o Optimal) withSolver(r mm.Rules, f func(*exact.Solver, *mm.State) error) error {
	st, err := mm.NewState(r, nil)
	if err != nil {
		return err
	}
	k := optimalKey{st.Rules(), o.MaxDepth}
	openingSolver.Lock()
	defer openingSolver.Unlock()
	if openingSolver.sv == nil || openingSolver.key != k || openingSolver.mem != o.Memory {
		if openingSolver.sv != nil {
			openingSolver.sv.Close()
			openingSolver.sv = nil
		}
		sv, err := exact.NewSolver(st, &exact.Options{MaxDepth: o.MaxDepth, Memory: o.Memory})
		if err != nil {
			return err
		}
		openingSolver.key, openingSolver.mem, openingSolver.sv, openingSolver.st = k, o.Memory, sv, st
	}
	err = f(openingSolver.sv, openingSolver.st)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// What a search stopped midway leaves in the tables is not kept.
		openingSolver.sv.Close()
		openingSolver.sv = nil
	}
	return err
}
