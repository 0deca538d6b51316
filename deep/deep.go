// Package deep is the record strategy: it plays the exact optimum wherever
// few candidates are left, and above that compares the best guesses of a
// cheap heuristic by what they lead to.
//
// # The policy
//
// At a node of n candidates:
//
//   - n ≤ Exact: the optimal strategy for the candidates (package exact),
//     solved once for the node and followed below it;
//   - otherwise the pool of guesses (one per symmetry class, impossible
//     codes included) is ranked by entropy; within the first Plies guesses
//     of the game the Top best are each played out in full — the whole
//     subtree the policy builds below them, exact tails included — and the
//     one with the least total is kept (ties to the better ranked); deeper,
//     the best ranked guess is played.
//
// A decision depends only on the node (its history and candidates), so a
// game played one guess at a time follows the tree TreeContext builds.
// Decisions, subtree totals and exact solutions are kept per variant and
// settings for the life of the process, up to a bound. When the toolkit
// ships a record tree of deep for the variant and settings (package
// records), deep plays it as its book instead of computing it again.
package deep

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Strategy is the record strategy. The zero Strategy is the Normal
// effort; the other fields, when set, override the effort's.
type Strategy struct {
	Effort Effort
	// Top is how many of the best ranked guesses are played out and
	// compared at the first Plies levels; 1 plays the best ranked.
	Top int
	// Plies is how many guesses from the start of the game are chosen by
	// playing out the Top best; past them the best ranked guess is played
	// everywhere above Exact.
	Plies int
	// Exact is the largest number of candidates played optimally
	// (DefaultExact sizes it to the variant).
	Exact int
	// WorstCase has the exact tails lower their worst case among their
	// strategies of least total, as the optimal strategy does; slower.
	WorstCase bool
	// NoBook has every decision computed, even where a shipped record
	// tree of the same settings could be read: for regenerating one.
	NoBook bool
	// Progress, if not nil, receives a line of news every second during
	// a long computation.
	Progress func(line string)
}

var (
	_ mm.Strategy        = Strategy{}
	_ mm.ContextStrategy = Strategy{}
)

// exactWork is the size, in candidates times codes of the variant, of the
// largest set DefaultExact lets the exact search take on by default: all of
// 6 × 4 (1296 × 1296), 64 codes of 8 × 5 (64 × 32768).
const exactWork = 1 << 21

// DefaultExact returns the default Exact for r: the candidates whose exact
// search takes well under a second, all the codes of small variants.
func DefaultExact(r mm.Rules) int {
	n := r.Size()
	return int(min(n, max(16, exactWork/n)))
}

// Effort names settings of the strategy, from quick to the record runs.
type Effort string

// The efforts.
const (
	Quick  Effort = "quick"  // the best ranked guess everywhere, small exact tails
	Normal Effort = "normal" // the default: the best ranked guess, exact tails sized to the variant
	High   Effort = "high"   // the first guess chosen among the best 4 by playing them out
	Record Effort = "record" // the first two guesses chosen among the best 4 by playing them out, exact tails twice as large, with their least worst case
)

// Efforts lists the efforts, quickest first.
var Efforts = []Effort{Quick, Normal, High, Record}

// settings returns the Top, Plies and Exact of effort e for rules r, or an
// error naming the efforts if e is not one.
func settings(e Effort, r mm.Rules) (c config, err error) {
	ex := DefaultExact(r)
	switch e {
	case Quick:
		return config{top: 1, exact: max(16, ex/4)}, nil
	case Normal, "":
		return config{top: 1, exact: ex}, nil
	case High:
		return config{top: 4, plies: 1, exact: ex}, nil
	case Record:
		return config{top: 4, plies: 2, exact: int(min(r.Size(), 2*uint64(ex))), worst: true}, nil
	}
	return config{}, fmt.Errorf("mastermind: unknown effort %q; known: quick, normal, high, record", e)
}

// config is what shapes the strategy's tree.
type config struct {
	top, plies, exact int
	worst             bool // tails lower their worst case
	noBook            bool // never read a shipped tree
}

// CheckEffort reports whether e names an effort.
func CheckEffort(e Effort) error {
	_, err := settings(e, mm.Classic)
	return err
}

func (Strategy) String() string { return "deep" }

// resolve returns s's settings for rules r: the effort's, with the fields
// s sets instead.
func (s Strategy) resolve(r mm.Rules) (config, error) {
	c, err := settings(s.Effort, r)
	if s.Top > 0 {
		c.top = s.Top
	}
	if s.Plies > 0 {
		c.plies = s.Plies
	}
	if s.Exact > 0 {
		c.exact = s.Exact
	}
	c.worst = c.worst || s.WorstCase
	c.noBook = s.NoBook
	return c, err
}

// Guess returns the policy's guess at st.
func (s Strategy) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; the computation stops soon after ctx is done.
func (s Strategy) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	p, err := s.player(st.Rules())
	if err != nil {
		return mm.Code{}, err
	}
	return p.guess(ctx, st)
}

// Settings returns what shapes the strategy's tree for r, as tree files
// record it: Top, Plies, Exact and WorstCase.
func (s Strategy) Settings(r mm.Rules) map[string]string {
	c, err := s.resolve(r.WithDefaults())
	if err != nil {
		return nil
	}
	return map[string]string{"top": strconv.Itoa(c.top), "plies": strconv.Itoa(c.plies),
		"exact": strconv.Itoa(c.exact), "worst": strconv.FormatBool(c.worst)}
}

// Check reports whether the strategy can play r: the variant is small
// enough and the effort is known.
func (s Strategy) Check(r mm.Rules) error {
	if err := check(r.WithDefaults()); err != nil {
		return err
	}
	_, err := s.resolve(r.WithDefaults())
	return err
}

// TreeContext returns the policy's whole decision tree for r.
func (s Strategy) TreeContext(ctx context.Context, r mm.Rules) (*mm.Tree, error) {
	p, err := s.player(r)
	if err != nil {
		return nil, err
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	return p.tree(ctx, st, s.Progress)
}

// Openings returns the first guesses the strategy weighs for r, best
// ranked first: the Top best by entropy when it plays them out (Plies ≥
// 1), else the one it plays. The tree of each (Opening) is independent of
// the others, and the strategy's tree is that of the opening with the least
// total, the first in this order among equals: work can so be shared out
// by openings.
func (s Strategy) Openings(r mm.Rules) ([]mm.Code, error) {
	p, err := s.player(r)
	if err != nil {
		return nil, err
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	return p.openings(st)
}

// Opening returns the strategy's tree for r when it opens with g.
func (s Strategy) Opening(ctx context.Context, r mm.Rules, g mm.Code) (*mm.Tree, error) {
	p, err := s.player(r)
	if err != nil {
		return nil, err
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	return p.opening(ctx, st, g)
}

// Tree is TreeContext without a context.
func (s Strategy) Tree(r mm.Rules) (*mm.Tree, error) {
	return s.TreeContext(context.Background(), r)
}

// MaxSpace is the largest variant deep plays: it ranks every code as a
// guess against the candidates.
const MaxSpace = 1 << 20

// check refuses variants the strategy cannot play.
func check(r mm.Rules) error {
	if n := r.Size(); n > MaxSpace {
		return fmt.Errorf("%w: deep ranks every code, and %v has %d, more than %d (2^%d)",
			mm.ErrTooLarge, r, n, MaxSpace, bits.Len(MaxSpace)-1)
	}
	return nil
}
