package mastermind

import "fmt"

// A Tree is the decision tree of a deterministic strategy: the guess to
// play at its root and, for each feedback that guess can receive (other
// than the win), the tree that follows. A leaf is a guess that wins for
// every candidate left, which is exactly one.
//
// Trees are plain data. They are built by the harness for any deterministic
// strategy and directly by the optimal solver.
type Tree struct {
	Guess    Code
	Branches []TreeBranch // in (black, white) order, without the winning feedback
	// Size is the number of secrets that reach this node.
	Size int
}

// A TreeBranch is one edge of a Tree: a feedback and the subtree after it.
type TreeBranch struct {
	Feedback Feedback
	Next     *Tree
}

// Child returns the subtree after feedback f, or nil.
func (t *Tree) Child(f Feedback) *Tree {
	for _, b := range t.Branches {
		if b.Feedback == f {
			return b.Next
		}
	}
	return nil
}

// Play follows the tree for secret and returns the guesses made, the last
// being the secret. It fails if the tree has no branch for a feedback the
// secret gives.
func (t *Tree) Play(secret Code) ([]Code, error) {
	var guesses []Code
	pegs := secret.Len()
	for n := t; n != nil; {
		guesses = append(guesses, n.Guess)
		f := Score(secret, n.Guess)
		if f.Solved(pegs) {
			return guesses, nil
		}
		next := n.Child(f)
		if next == nil {
			return guesses, fmt.Errorf("mastermind: tree has no branch for %s after %s while finding %s", f, n.Guess, secret)
		}
		n = next
	}
	return guesses, fmt.Errorf("mastermind: empty tree")
}

// Cost returns the total number of guesses over the secrets that reach t,
// found at the depth of their winning guess, and the largest such depth.
// Size must be set on every node.
func (t *Tree) Cost() (total, depth int) {
	if t == nil {
		return 0, 0
	}
	for _, b := range t.Branches {
		bt, bd := b.Next.Cost()
		total += bt
		depth = max(depth, bd)
	}
	// Everyone reaching this node plays its guess once.
	total += t.Size
	return total, depth + 1
}

// Nodes returns the number of nodes of t.
func (t *Tree) Nodes() int {
	if t == nil {
		return 0
	}
	n := 1
	for _, b := range t.Branches {
		n += b.Next.Nodes()
	}
	return n
}
