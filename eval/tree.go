package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A tree is the decision tree of a deterministic strategy, grown lazily:
// each node holds a history, the guess the strategy makes there, and the
// nodes that follow each feedback. It is safe for concurrent use; every
// node's guess is computed exactly once.
type tree struct {
	s    mm.Strategy
	root *node
	max  int // guess limit per game, 0 for none
}

type node struct {
	st *mm.State

	once  sync.Once
	guess mm.Code
	err   error

	// Where the candidates are enumerable, every child is made at once by
	// splitting them; otherwise children are made one feedback at a time.
	split     sync.Once
	feedbacks []mm.Feedback
	kids      []*node
	splitErr  error

	mu   sync.Mutex
	lazy map[mm.Feedback]*node
}

// expand computes the node's guess, once. A cancelled ctx leaves the node
// failed, which ends the run it belongs to.
func (n *node) expand(ctx context.Context, s mm.Strategy) (mm.Code, error) {
	n.once.Do(func() {
		g, err := mm.GuessContext(ctx, s, n.st)
		if err == nil {
			err = n.st.Rules().Check(g)
			if err != nil {
				err = fmt.Errorf("strategy returned an illegal guess: %w", err)
			}
		}
		n.guess, n.err = g, err
	})
	return n.guess, n.err
}

// child returns the node after the node's guess received f.
func (n *node) child(f mm.Feedback) (*node, error) {
	n.split.Do(func() {
		if !n.st.Known() {
			// Splitting would enumerate a large space; play feedbacks
			// one at a time instead.
			n.splitErr = mm.ErrTooLarge
			return
		}
		fs, states, err := n.st.Branch(n.guess)
		n.feedbacks, n.splitErr = fs, err
		for _, st := range states {
			n.kids = append(n.kids, &node{st: st})
		}
	})
	if n.splitErr == nil {
		for i, g := range n.feedbacks {
			if g == f {
				return n.kids[i], nil
			}
		}
		return nil, fmt.Errorf("%w: %s scored %s, which no candidate gives", mm.ErrInconsistent, n.guess, f)
	}
	if !errors.Is(n.splitErr, mm.ErrTooLarge) {
		return nil, n.splitErr
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if k := n.lazy[f]; k != nil {
		return k, nil
	}
	st, err := n.st.Play(n.guess, f)
	if err != nil {
		return nil, err
	}
	if n.lazy == nil {
		n.lazy = make(map[mm.Feedback]*node)
	}
	k := &node{st: st}
	n.lazy[f] = k
	return k, nil
}

// guessLimit is the guesses a game of r may take under the limit max: max
// itself, or with none, more than any strategy that learns from each guess
// needs.
func guessLimit(r mm.Rules, max int) int {
	if max > 0 {
		return max
	}
	limit := 1_000_000
	if n := r.Size(); n < uint64(limit) {
		limit = int(n)
	}
	return limit
}

// play walks the tree for secret and returns the number of guesses.
func (t *tree) play(ctx context.Context, secret mm.Code) (int, error) {
	pegs := t.root.st.Rules().Pegs
	limit := guessLimit(t.root.st.Rules(), t.max)
	n := t.root
	for depth := 1; depth <= limit; depth++ {
		g, err := n.expand(ctx, t.s)
		if err != nil {
			return 0, err
		}
		f := mm.Score(secret, g)
		if f.Solved(pegs) {
			return depth, nil
		}
		if n, err = n.child(f); err != nil {
			return 0, err
		}
	}
	return 0, fmt.Errorf("%w: %d guesses without finding it", ErrNotSolved, limit)
}

// checkGuesses reports the first illegal guess of a strategy's whole tree t
// for r, as the lazy tree reports a guess when the strategy makes it.
func checkGuesses(r mm.Rules, t *mm.Tree) error {
	if err := r.Check(t.Guess); err != nil {
		return fmt.Errorf("strategy returned an illegal guess: %w", err)
	}
	for _, b := range t.Branches {
		if err := checkGuesses(r, b.Next); err != nil {
			return err
		}
	}
	return nil
}

// playTree walks a strategy's whole tree t for secret and returns the
// number of guesses, as tree.play does for a tree grown by the games.
func playTree(t *mm.Tree, r mm.Rules, secret mm.Code, max int) (int, error) {
	limit := guessLimit(r, max)
	n := t
	for depth := 1; depth <= limit; depth++ {
		f := mm.Score(secret, n.Guess)
		if f.Solved(r.Pegs) {
			return depth, nil
		}
		next := n.Child(f)
		if next == nil {
			return 0, fmt.Errorf("%w: %s scored %s, which the strategy's tree has no branch for", mm.ErrInconsistent, n.Guess, f)
		}
		n = next
	}
	return 0, fmt.Errorf("%w: %d guesses without finding it", ErrNotSolved, limit)
}
