package large

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// ErrSearchLimit is wrapped by the errors of Constraints' searches that ran
// out of effort before they could answer.
var ErrSearchLimit = errors.New("mastermind: search effort exhausted")

// Constraints are what a game's history says about the secret, in a form a
// search can use to find codes consistent with every turn without
// enumerating the space. They are how strategies play variants far too large
// for a Space, such as 15 pegs × 15 colours (4·10¹⁷ codes).
//
// Each turn, guess g answered (b, w), says two things of a code x: exactly b
// positions j have x[j] = g[j], and Σₖ min(nₖ(x), nₖ(g)) = b + w, where nₖ
// counts the pegs of colour k. A search first fixes the colour counts, one
// colour at a time, then the colours of the positions, one at a time, and
// after each step propagates to a fixed point:
//
//   - per colour, bounds lo ≤ nₖ ≤ hi: from the positions that have or may
//     have the colour; from Σ nₖ = pegs; from each turn's total, whose terms
//     min(nₖ, nₖ(g)) each lie between what the others cannot supply and what
//     they leave; from the pegs a turn's guess leaves unmatched, Σ max(0,
//     nₖ − nₖ(g)) = pegs − (b + w); and from the difference of two turns'
//     totals, Σ min(nₖ, nₖ(g)) − min(nₖ, nₖ(g′)), whose terms are monotone
//     in nₖ. A colour at its upper bound leaves the open positions; one at
//     its lower bound fills every position that may have it;
//   - per position, the colours still possible: for each turn and colour,
//     the blacks the colour can still add (no more than its copies left, no
//     fewer than the copies the other positions cannot take) bound the
//     turn's blacks, and when the bound is met the colour is forced into or
//     taken out of the positions concerned; the blacks of all turns together
//     (a position of colour k adds one to every turn whose guess has k
//     there) and the differences of two turns' blacks (counted only where
//     their guesses differ) prune colours whose contribution cannot fit.
//
// Positions are taken in the order that settles the most: the one that
// could still be a black of the most turns, each weighted by the inverse of
// the turn's open positions. Every code the search reaches is consistent
// with the history. The effort of a search is counted in nodes, one
// propagation each, which costs O(turns·(pegs + colours)) plus the pairs of
// the last 24 turns, O(24²·(pegs + colours)), in a few passes; Cost tells
// how much.
//
// Constraints are immutable and safe for concurrent use; each search keeps
// its own scratch space.
type Constraints struct {
	rules  mm.Rules
	pegs   int
	colors int
	turns  int
	guess  []uint8   // turns × pegs: the colours of each guess
	count  []int16   // turns × colours: the pegs of each colour in each guess
	at     []pmask   // turns × colours: the positions of each colour in each guess
	hits   []int32   // pegs × colours: the turns whose guess has colour k at position j
	blacks int       // Σ black over the turns
	first  int       // the first of the last pairWindow turns, which are also taken in pairs
	differ []pmask   // pairWindow × pairWindow: where two of those turns' guesses differ
	used   [][]uint8 // per turn, the colours its guess uses, ascending
	black  []int16
	total  []int16 // black + white
	root   cnode   // the propagated root
	ok     bool    // propagation of the root found no contradiction
}

// pairWindow is how many of the last turns propagation also takes two at a
// time; pairs cost the square of their number, and late turns, whose
// guesses resemble one another, gain most from them.
const pairWindow = 24

// A cnode is a node of the search: the colours each position may still take
// and the bounds on each colour's count. Its slices are views of a
// searcher's stack or of a node's own arrays; copy copies their contents.
type cnode struct {
	dom    []uint64 // per position, a mask of colours
	lo, hi []int16  // per colour
}

// newNode returns a node with arrays of its own for pegs positions and
// colors colours.
func newNode(pegs, colors int) cnode {
	return cnode{dom: make([]uint64, pegs), lo: make([]int16, colors), hi: make([]int16, colors)}
}

// copyFrom makes n's contents those of m, which has the same shape.
func (n *cnode) copyFrom(m *cnode) {
	copy(n.dom, m.dom)
	copy(n.lo, m.lo)
	copy(n.hi, m.hi)
}

// clone returns a copy of n with arrays of its own.
func (n *cnode) clone() cnode {
	m := newNode(len(n.dom), len(n.lo))
	m.copyFrom(n)
	return m
}

// NewConstraints returns the constraints of a history of turns under r.
// Every guess must be a legal code of r and every feedback possible; the
// errors wrap mastermind.ErrInvalidRules, ErrInvalidCode and
// ErrInvalidFeedback. Building costs O(turns·(pegs + colours)) plus one
// propagation.
func NewConstraints(r mm.Rules, turns []mm.Turn) (*Constraints, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	p, nc := r.Pegs, r.Colors
	c := &Constraints{rules: r, pegs: p, colors: nc, turns: len(turns),
		guess: make([]uint8, 0, len(turns)*p),
		count: make([]int16, len(turns)*nc),
		at:    make([]pmask, len(turns)*nc),
		hits:  make([]int32, p*nc),
		used:  make([][]uint8, len(turns)),
		black: make([]int16, len(turns)),
		total: make([]int16, len(turns)),
	}
	for t, tu := range turns {
		if err := r.Check(tu.Guess); err != nil {
			return nil, err
		}
		if err := r.CheckFeedback(tu.Feedback); err != nil {
			return nil, err
		}
		c.guess = appendCode(c.guess, tu.Guess)
		for j, k := range c.guess[t*p:] {
			c.at[t*nc+int(k)].set(j)
			c.hits[j*nc+int(k)]++
			if c.count[t*nc+int(k)] == 0 {
				c.used[t] = append(c.used[t], k)
			}
			c.count[t*nc+int(k)]++
		}
		slices.Sort(c.used[t])
		c.black[t] = int16(tu.Feedback.Black)
		c.blacks += tu.Feedback.Black
		c.total[t] = int16(tu.Feedback.Black + tu.Feedback.White)
	}
	all := uint64(1)<<nc - 1
	if nc == 64 {
		all = ^uint64(0)
	}
	hi := int16(p)
	if r.Distinct {
		hi = 1
	}
	c.root = newNode(p, nc)
	for j := 0; j < p; j++ {
		c.root.dom[j] = all
	}
	for k := 0; k < nc; k++ {
		c.root.hi[k] = hi
	}
	c.first = max(0, len(turns)-pairWindow)
	c.differ = make([]pmask, pairWindow*pairWindow)
	for t := c.first; t < len(turns); t++ {
		for u := c.first; u < len(turns); u++ {
			for j := 0; j < p; j++ {
				if c.guess[t*p+j] != c.guess[u*p+j] {
					c.differ[(t-c.first)*pairWindow+u-c.first].set(j)
				}
			}
		}
	}
	c.ok = c.propagate(&c.root)
	return c, nil
}

// appendCode appends the colours of x to dst.
func appendCode(dst []uint8, x mm.Code) []uint8 {
	for i := 0; i < x.Len(); i++ {
		dst = append(dst, uint8(x.Peg(i)))
	}
	return dst
}

// Rules returns the variant, with defaults applied.
func (c *Constraints) Rules() mm.Rules { return c.rules }

// Len returns the number of turns.
func (c *Constraints) Len() int { return c.turns }

// Cost returns the work of one node of a search, one propagation, in units
// of about one step of its loops: the turns' terms over pegs and colours,
// and the positions' colours.
func (c *Constraints) Cost() int {
	return c.turns*(c.pegs+c.colors) + c.pegs*c.colors
}

// Possible reports whether propagation at the root found no contradiction.
// It is false only for histories no code fits; true does not promise that
// some code does — Find and Sample tell.
func (c *Constraints) Possible() bool { return c.ok }

// Allowed reports the colours position i may still have, as a mask with bit
// k set for colour k, after propagation at the root; 0 if the history is
// contradictory.
func (c *Constraints) Allowed(i int) uint64 {
	if !c.ok {
		return 0
	}
	return c.root.dom[i]
}

// CountBounds returns the bounds that propagation at the root puts on the
// number of pegs of colour k in the secret; 0, 0 if the history is
// contradictory.
func (c *Constraints) CountBounds(k int) (lo, hi int) {
	if !c.ok {
		return 0, 0
	}
	return int(c.root.lo[k]), int(c.root.hi[k])
}

// Consistent reports whether code x is consistent with every turn. It costs
// O(turns·(pegs + colours)).
func (c *Constraints) Consistent(x mm.Code) bool {
	if x.Len() != c.pegs {
		return false
	}
	var buf [mm.MaxPegs]uint8
	return c.fits(appendCode(buf[:0], x))
}

// fits reports whether the code of colours x is consistent with every turn.
func (c *Constraints) fits(x []uint8) bool {
	var n [mm.MaxColors]int16
	for _, k := range x {
		n[k]++
	}
	for t := 0; t < c.turns; t++ {
		g := c.guess[t*c.pegs : (t+1)*c.pegs]
		b := 0
		for j, k := range g {
			if x[j] == k {
				b++
			}
		}
		if b != int(c.black[t]) {
			return false
		}
		tot := 0
		for _, k := range c.used[t] {
			tot += int(min(n[k], c.count[t*c.colors+int(k)]))
		}
		if tot != int(c.total[t]) {
			return false
		}
	}
	return true
}

// A pmask is a set of positions, bit j for position j.
type pmask [2]uint64

func (m *pmask) set(j int)           { m[j>>6] |= 1 << (j & 63) }
func (m pmask) and(o pmask) pmask    { return pmask{m[0] & o[0], m[1] & o[1]} }
func (m pmask) andNot(o pmask) pmask { return pmask{m[0] &^ o[0], m[1] &^ o[1]} }
func (m pmask) or(o pmask) pmask     { return pmask{m[0] | o[0], m[1] | o[1]} }
func (m pmask) empty() bool          { return m[0]|m[1] == 0 }
func (m pmask) count() int           { return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) }

// next returns the lowest position of m, which must not be empty, and m
// without it.
func (m pmask) next() (int, pmask) {
	if m[0] != 0 {
		return bits.TrailingZeros64(m[0]), pmask{m[0] & (m[0] - 1), m[1]}
	}
	return 64 + bits.TrailingZeros64(m[1]), pmask{0, m[1] & (m[1] - 1)}
}

func (c *Constraints) inconsistent() error {
	if c.turns == 0 {
		return fmt.Errorf("%w: no code fits", mm.ErrInconsistent)
	}
	t := c.turns - 1
	var x []int
	for _, k := range c.guess[t*c.pegs : (t+1)*c.pegs] {
		x = append(x, int(k))
	}
	g, _ := mm.NewCode(x...)
	f := mm.Feedback{Black: int(c.black[t]), White: int(c.total[t] - c.black[t])}
	return errNoCodeFits(g, f, c.turns)
}

// errNoCodeFits returns the error, wrapping ErrInconsistent, for a history
// of n turns, the last g scored f, that no code fits; the words are those
// of State.Play.
func errNoCodeFits(g mm.Code, f mm.Feedback, n int) error {
	return fmt.Errorf("%w: after %s scored %s, no code fits all %d answers", mm.ErrInconsistent, g, f, n)
}
