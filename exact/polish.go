package exact

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	mm "github.com/mastermind-toolkit/mastermind"
)

// PolishOptions control Polish. A nil *PolishOptions gives the defaults.
type PolishOptions struct {
	// Workers is the number of subtrees solved at once; 0 means
	// GOMAXPROCS. Each search runs on one worker, so the tree is the same
	// whatever their number.
	Workers int
	// WorstCaseBudget bounds, as Options.WorstCaseBudget, the work each
	// subtree's search spends lowering its worst case; 0 means 10 000
	// sets.
	WorstCaseBudget int64
	// Progress, if not nil, is called after each subtree is solved, from
	// the goroutine that solved it, one call at a time.
	Progress func(PolishProgress)
}

// PolishProgress reports on a running Polish.
type PolishProgress struct {
	// Done of Subtrees subtrees of at most the size asked are solved.
	Done, Subtrees int
	// Gained is the number of guesses saved so far over every secret.
	Gained int
}

// PolishStats says what Polish did.
type PolishStats struct {
	// Subtrees is how many subtrees of at most the size asked were
	// solved; Replaced how many of them an optimal one replaced.
	Subtrees, Replaced int
	// Before and After are the tree's total guesses over every secret.
	Before, After int
}

// Polish returns t, a decision tree for the candidates of st, with every
// subtree that at most most secrets reach (and that is not inside another
// such subtree) replaced by an optimal one, Solve's, where that finds its
// secrets in fewer guesses in all, or in as many with a smaller worst
// case. A subtree is searched whole or not at all. t is
// not changed; the tree returned shares t's nodes where nothing changed.
// Every node of t must have its Size set, and t must find every candidate
// of st (as trees read from a file and checked by a replay do).
//
// Since an optimal subtree is never worse than the one it replaces, the
// result is never worse than t: a cheap way to improve a heuristic's tree
// near its leaves, where its choices matter least to it and cost the most
// guesses relative to the optimum. The cost is one exact search per
// subtree, each with a feedback table of its codes against every code.
func Polish(ctx context.Context, st *mm.State, t *mm.Tree, most int, opts *PolishOptions) (*mm.Tree, PolishStats, error) {
	if opts == nil {
		opts = &PolishOptions{}
	}
	if t == nil {
		return nil, PolishStats{}, fmt.Errorf("mastermind: polish: no tree")
	}
	if err := checkPolish(st.Rules(), most, st.Remaining()); err != nil {
		return nil, PolishStats{}, err
	}
	before, _ := t.Cost()

	// The subtrees to search, each with the state that reaches it and
	// where to put its replacement: a copy of the path down to it.
	type job struct {
		st   *mm.State
		old  *mm.Tree
		slot **mm.Tree
	}
	var jobs []job
	var walk func(t *mm.Tree, st *mm.State, slot **mm.Tree) error
	walk = func(t *mm.Tree, st *mm.State, slot **mm.Tree) error {
		if t.Size <= 2 {
			// One or two codes: a guess at one of them is optimal, and a
			// tree that finds both can do no better than that.
			return nil
		}
		if t.Size <= most {
			jobs = append(jobs, job{st, t, slot})
			return nil
		}
		cp := *t
		cp.Branches = append([]mm.TreeBranch(nil), t.Branches...)
		*slot = &cp
		for i := range cp.Branches {
			b := &cp.Branches[i]
			next, err := st.Play(t.Guess, b.Feedback)
			if err != nil {
				return fmt.Errorf("mastermind: polish: %w", err)
			}
			if err := walk(b.Next, next, &b.Next); err != nil {
				return err
			}
		}
		return nil
	}
	root := t
	if err := walk(t, st, &root); err != nil {
		return nil, PolishStats{}, err
	}

	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	budget := opts.WorstCaseBudget
	if budget == 0 {
		budget = 10_000
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		mu       sync.Mutex // guards what follows, and Progress
		done     int
		gained   int
		replaced int
		firstErr error
		wg       sync.WaitGroup
	)
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) || ctx.Err() != nil {
					return
				}
				j := jobs[i]
				res, err := Solve(ctx, j.st, &Options{Workers: 1, WorstCaseBudget: budget})
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				total, depth := j.old.Cost()
				if res.Total < total || res.Total == total && res.Depth < depth {
					*j.slot = res.Tree
					gained += total - res.Total
					replaced++
				}
				done++
				if opts.Progress != nil {
					opts.Progress(PolishProgress{Done: done, Subtrees: len(jobs), Gained: gained})
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, PolishStats{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, PolishStats{}, err
	}
	after, _ := root.Cost()
	if after != before-gained {
		return nil, PolishStats{}, fmt.Errorf("%w: polished tree costs %d guesses, %d less than %d expected", ErrInternal, after, gained, before)
	}
	return root, PolishStats{Subtrees: len(jobs), Replaced: replaced, Before: before, After: after}, nil
}

// CheckPolish returns, at once, the error Polish would fail with on a tree
// of every code of r for want of room: the feedback table of a subtree of
// most codes against every code of r must fit MaxTable.
func CheckPolish(r mm.Rules, most int) error {
	return checkPolish(r, most, -1)
}

// checkPolish is CheckPolish for subtrees of at most remaining codes (-1
// if not known).
func checkPolish(r mm.Rules, most, remaining int) error {
	if most < 0 {
		return fmt.Errorf("mastermind: polish subtrees of %d codes: want 0 or more", most)
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if err := checkFeedbacks(r); err != nil {
		return err
	}
	n := uint64(most)
	if remaining >= 0 {
		n = min(n, uint64(remaining))
	}
	if N := r.Size(); N > mm.MaxSpace || n*N > MaxTable {
		return fmt.Errorf("%w; subtrees of at most %d codes fit",
			tooLarge(r, int(n), int(min(N, 1<<62))), MaxTable/N)
	}
	return nil
}
