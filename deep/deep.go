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
//
// Past MaxSpace codes, up to 8 × 8, deep plays Large: entropy with a win
// bonus over the near pool, from the book the toolkit ships for 8 × 8, so
// that one game takes under a second and every secret is walked as entropy
// walks them (Walk).
package deep

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
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
	if large(st.Rules()) {
		if err := s.Check(st.Rules()); err != nil {
			return mm.Code{}, err
		}
		return s.big().GuessContext(ctx, st)
	}
	p, err := s.player(st.Rules())
	if err != nil {
		return mm.Code{}, err
	}
	return p.guess(ctx, st)
}

// Settings returns what shapes the strategy's tree for r, as tree files
// record it: Top, Plies, Exact and WorstCase.
func (s Strategy) Settings(r mm.Rules) map[string]string {
	if large(r) {
		return s.big().Settings(r)
	}
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
	if large(r) && check(r.WithDefaults()) == nil {
		return nil, errLargeTree(r.WithDefaults())
	}
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
	if large(r) && check(r.WithDefaults()) == nil {
		st, err := mm.NewState(r, nil)
		if err != nil {
			return nil, err
		}
		g, err := s.big().Guess(st)
		if err != nil {
			return nil, err
		}
		return []mm.Code{g}, nil
	}
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

// MaxSpace is the largest variant where deep ranks every code as a guess
// against the candidates. Past it, up to strategy.MaxNearSpace (8 × 8), it
// plays Large.
const MaxSpace = 1 << 20

// Large is what deep plays past MaxSpace codes: entropy with a win bonus of
// 1.5 nats over the near pool, the strategy of the 8 × 8 record (a mean of
// 7.0215 over every secret, records/README.md), read from its shipped book
// (strategy.Books) at the top of the tree, so that a game of 8 × 8 takes
// under a second. Its effort and settings do not apply there.
var Large = strategy.Entropy{WinBonus: 1.5}

// large reports whether deep plays Large on r.
func large(r mm.Rules) bool { return r.WithDefaults().Size() > MaxSpace }

// big returns Large, with s's NoBook.
func (s Strategy) big() strategy.Entropy {
	e := Large
	e.NoBook = s.NoBook
	return e
}

// check refuses variants the strategy cannot play.
func check(r mm.Rules) error {
	if n := r.Size(); n > strategy.MaxNearSpace {
		return fmt.Errorf("%w: deep plays entropy over the near pool past 2^%d codes, up to %d (2^%d), and %v has %d",
			mm.ErrTooLarge, bits.Len(MaxSpace)-1, strategy.MaxNearSpace, bits.Len(strategy.MaxNearSpace)-1, r, n)
	}
	return nil
}

// errLargeTree refuses to build a whole tree past MaxSpace codes.
func errLargeTree(r mm.Rules) error {
	return fmt.Errorf("%w: deep builds whole trees of up to %d codes (2^%d), and %v has %d; bench --all plays every secret of it without one",
		mm.ErrTooLarge, MaxSpace, bits.Len(MaxSpace)-1, r, r.Size())
}

// Walks reports whether Walk takes r: the variants past MaxSpace, where
// deep is Large, which plays every secret depth first (eval.Walker).
func (s Strategy) Walks(r mm.Rules) bool {
	r = r.WithDefaults()
	return r.Validate() == nil && large(r) && s.big().Walks(r)
}

// Walk plays Large against every secret of r that want accepts (see
// eval.Walker); r must be past MaxSpace.
func (s Strategy) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	if !large(r) {
		return nil, fmt.Errorf("mastermind: deep walks only variants past %d codes, and %v has %d", MaxSpace, r, r.WithDefaults().Size())
	}
	return s.big().Walk(ctx, r, want, progress, workers)
}
