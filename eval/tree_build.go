package eval

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Treer is a strategy that can produce its whole decision tree directly,
// faster than asking it for one guess at a time. TreeContext stops soon
// after ctx is done.
type Treer interface {
	TreeContext(ctx context.Context, r mm.Rules) (*mm.Tree, error)
}

// BuildTree returns the decision tree of the deterministic strategy s under
// r: its guess at the start and after every feedback some secret gives. The
// space must be enumerable, and the tree must fit MemoryBudget
// (CheckTreeMemory). Subtrees near the root are built concurrently.
func BuildTree(ctx context.Context, r mm.Rules, s mm.Strategy) (*mm.Tree, error) {
	return BuildTreeProgress(ctx, r, s, nil)
}

// BuildTreeProgress is BuildTree, calling progress, if not nil, with the
// number of secrets the tree has found so far each time it grows (calls may
// come from several goroutines at once). A Treer reports nothing here.
func BuildTreeProgress(ctx context.Context, r mm.Rules, s mm.Strategy, progress func(found int)) (*mm.Tree, error) {
	if mm.IsRandomized(s) {
		return nil, fmt.Errorf("mastermind: %v is randomised and has no fixed decision tree", s)
	}
	if r.Size() <= mm.MaxSpace { // larger spaces are refused as too large to enumerate
		if err := CheckTreeMemory(r, int(r.Size())); err != nil {
			return nil, err
		}
	}
	if t, ok := s.(Treer); ok {
		return t.TreeContext(ctx, r)
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	return buildTreeFrom(ctx, st, s, progress)
}

// BuildTreeFrom returns the decision tree of the deterministic strategy s
// below st: its guess at st and after every feedback some candidate of st
// gives. st's candidates must be enumerable. A deterministic strategy's
// guess depends on the history alone, so the tree below a state is that
// part of BuildTree's tree: a tree can so be built in parts, by shards of a
// cluster job. Subtrees near st are built concurrently.
func BuildTreeFrom(ctx context.Context, st *mm.State, s mm.Strategy) (*mm.Tree, error) {
	return buildTreeFrom(ctx, st, s, nil)
}

func buildTreeFrom(ctx context.Context, st *mm.State, s mm.Strategy, progress func(int)) (*mm.Tree, error) {
	if mm.IsRandomized(s) {
		return nil, fmt.Errorf("mastermind: %v is randomised and has no fixed decision tree", s)
	}
	if _, err := st.Candidates(); err != nil {
		return nil, err
	}
	if err := CheckTreeMemory(st.Rules(), st.Remaining()); err != nil {
		return nil, err
	}
	b := &builder{ctx: ctx, s: s, sem: make(chan struct{}, runtime.GOMAXPROCS(0)), progress: progress}
	return b.build(st)
}

type builder struct {
	ctx      context.Context
	s        mm.Strategy
	sem      chan struct{} // slots for extra goroutines
	progress func(found int)
	found    atomic.Int64 // secrets found so far: nodes whose guess is one
}

func (b *builder) build(st *mm.State) (*mm.Tree, error) {
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	g, err := mm.GuessContext(b.ctx, b.s, st)
	if err != nil {
		return nil, err
	}
	if err := st.Rules().Check(g); err != nil {
		return nil, fmt.Errorf("strategy returned an illegal guess: %w", err)
	}
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return nil, err
	}
	t := &mm.Tree{Guess: g, Size: st.Remaining()}
	pegs := st.Rules().Pegs
	if b.progress != nil && slices.ContainsFunc(fbs, func(f mm.Feedback) bool { return f.Solved(pegs) }) {
		b.progress(int(b.found.Add(1)))
	}
	subs := make([]*mm.Tree, len(kids))
	errs := make([]error, len(kids))
	var wg sync.WaitGroup
	for i, k := range kids {
		if fbs[i].Solved(pegs) {
			continue
		}
		if k.Remaining() == st.Remaining() { // the only branch: nothing learnt
			return nil, fmt.Errorf("strategy repeats itself: %s after %d guesses learns nothing", g, st.Len())
		}
		select {
		case b.sem <- struct{}{}:
			wg.Go(func() {
				defer func() { <-b.sem }()
				subs[i], errs[i] = b.build(k)
			})
		default:
			subs[i], errs[i] = b.build(k)
		}
	}
	wg.Wait()
	for i := range kids {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if subs[i] != nil {
			t.Branches = append(t.Branches, mm.TreeBranch{Feedback: fbs[i], Next: subs[i]})
		}
	}
	return t, nil
}

// TreeStats returns the statistics of playing every secret through t.
func TreeStats(t *mm.Tree) Stats {
	var s Stats
	var walk func(t *mm.Tree, depth int)
	walk = func(t *mm.Tree, depth int) {
		below := 0
		for _, b := range t.Branches {
			walk(b.Next, depth+1)
			below += b.Next.Size
		}
		if t.Size > below {
			s.Add(depth) // the guess itself wins for one secret
		}
	}
	walk(t, 1)
	return s
}
