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
}

var (
	_ mm.Strategy        = Optimal{}
	_ mm.ContextStrategy = Optimal{}
)

func (Optimal) String() string { return "optimal" }

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
		opts.Progress = func(p exact.Progress) { o.Progress(progressLine(r, p)) }
	}
	return opts
}

// progressLine writes a report of the search as one line.
func progressLine(r mm.Rules, p exact.Progress) string {
	line := fmt.Sprintf("optimal %v: %s sets searched", r, count(p.Nodes))
	if p.Guesses > 0 {
		line += fmt.Sprintf(", first guess %v (%d of %d)", p.Guess, p.Tried, p.Guesses)
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
