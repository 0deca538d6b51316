package mastermind

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
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
// the last 24 turns, O(24²·(pegs + colours)), in a few passes.
//
// Constraints are immutable and safe for concurrent use; each search keeps
// its own scratch space.
type Constraints struct {
	rules  Rules
	pegs   int
	colors int
	turns  int
	guess  []uint8   // turns × pegs: the colours of each guess
	count  []int8    // turns × colours: the pegs of each colour in each guess
	at     []uint32  // turns × colours: the positions of each colour in each guess
	hits   []int32   // pegs × colours: the turns whose guess has colour k at position j
	blacks int       // Σ black over the turns
	first  int       // the first of the last pairWindow turns, which are also taken in pairs
	differ []uint32  // pairWindow × pairWindow: where two of those turns' guesses differ
	used   [][]uint8 // per turn, the colours its guess uses, ascending
	black  []int8
	total  []int8 // black + white
	root   cnode  // the propagated root
	ok     bool   // propagation of the root found no contradiction
}

// pairWindow is how many of the last turns propagation also takes two at a
// time; pairs cost the square of their number, and late turns, whose
// guesses resemble one another, gain most from them.
const pairWindow = 24

// A cnode is a node of the search: the colours each position may still take
// and the bounds on each colour's count.
type cnode struct {
	dom    [MaxPegs]uint64
	lo, hi [MaxColors]int8
}

// NewConstraints returns the constraints of a history of turns under r.
// Every guess must be a legal code of r and every feedback possible; the
// errors wrap ErrInvalidRules, ErrInvalidCode and ErrInvalidFeedback.
// Building costs O(turns·(pegs + colours)) plus one propagation.
func NewConstraints(r Rules, turns []Turn) (*Constraints, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	p, nc := r.Pegs, r.Colors
	c := &Constraints{rules: r, pegs: p, colors: nc, turns: len(turns),
		guess: make([]uint8, 0, len(turns)*p),
		count: make([]int8, len(turns)*nc),
		at:    make([]uint32, len(turns)*nc),
		hits:  make([]int32, p*nc),
		used:  make([][]uint8, len(turns)),
		black: make([]int8, len(turns)),
		total: make([]int8, len(turns)),
	}
	for t, tu := range turns {
		if err := r.Check(tu.Guess); err != nil {
			return nil, err
		}
		if err := r.CheckFeedback(tu.Feedback); err != nil {
			return nil, err
		}
		g := tu.Guess.bytes()
		c.guess = append(c.guess, g...)
		for j, k := range g {
			c.at[t*nc+int(k)] |= 1 << j
			c.hits[j*nc+int(k)]++
			if c.count[t*nc+int(k)] == 0 {
				c.used[t] = append(c.used[t], k)
			}
			c.count[t*nc+int(k)]++
		}
		slices.Sort(c.used[t])
		c.black[t] = int8(tu.Feedback.Black)
		c.blacks += tu.Feedback.Black
		c.total[t] = int8(tu.Feedback.Black + tu.Feedback.White)
	}
	all := uint64(1)<<nc - 1
	if nc == 64 {
		all = ^uint64(0)
	}
	hi := int8(p)
	if r.Distinct {
		hi = 1
	}
	for j := 0; j < p; j++ {
		c.root.dom[j] = all
	}
	for k := 0; k < nc; k++ {
		c.root.hi[k] = hi
	}
	c.first = max(0, len(turns)-pairWindow)
	c.differ = make([]uint32, pairWindow*pairWindow)
	for t := c.first; t < len(turns); t++ {
		for u := c.first; u < len(turns); u++ {
			for j := 0; j < p; j++ {
				if c.guess[t*p+j] != c.guess[u*p+j] {
					c.differ[(t-c.first)*pairWindow+u-c.first] |= 1 << j
				}
			}
		}
	}
	c.ok = c.propagate(&c.root)
	return c, nil
}

// Rules returns the variant, with defaults applied.
func (c *Constraints) Rules() Rules { return c.rules }

// Len returns the number of turns.
func (c *Constraints) Len() int { return c.turns }

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
// O(turns·pegs).
func (c *Constraints) Consistent(x Code) bool {
	if x.Len() != c.pegs {
		return false
	}
	for t := 0; t < c.turns; t++ {
		g := codeOf(c.guess[t*c.pegs : (t+1)*c.pegs])
		f := Score(x, g)
		if f.Black != int(c.black[t]) || f.Black+f.White != int(c.total[t]) {
			return false
		}
	}
	return true
}

// propagate narrows n to a fixed point of the rules in the type's comment.
// It reports false if it finds a contradiction.
func (c *Constraints) propagate(n *cnode) bool {
	p, nc := c.pegs, c.colors
	for {
		changed := false
		// Where each colour may go, and the positions already fixed.
		var where [MaxColors]uint32
		var fixedMask uint32
		for j := 0; j < p; j++ {
			d := n.dom[j]
			if d == 0 {
				return false
			}
			if d&(d-1) == 0 {
				fixedMask |= 1 << j
			}
			for ; d != 0; d &= d - 1 {
				where[bits.TrailingZeros64(d)] |= 1 << j
			}
		}
		var fixedN, possN [MaxColors]int8
		sumLo, sumHi := 0, 0
		for k := 0; k < nc; k++ {
			fixedN[k] = int8(bits.OnesCount32(where[k] & fixedMask))
			possN[k] = int8(bits.OnesCount32(where[k]))
			if n.lo[k] < fixedN[k] {
				n.lo[k], changed = fixedN[k], true
			}
			if n.hi[k] > possN[k] {
				n.hi[k], changed = possN[k], true
			}
			if n.lo[k] > n.hi[k] {
				return false
			}
			sumLo += int(n.lo[k])
			sumHi += int(n.hi[k])
		}
		if sumLo > p || sumHi < p {
			return false
		}
		// Σ nₖ = pegs; once the bounds meet, every count is fixed.
		countsOpen := sumLo < p || sumHi > p
		if countsOpen {
			for k := 0; k < nc; k++ {
				lo, hi := int(n.lo[k]), int(n.hi[k])
				if h := p - (sumLo - lo); h < hi {
					n.hi[k], changed = int8(h), true
				}
				if l := p - (sumHi - hi); l > lo {
					n.lo[k], changed = int8(l), true
				}
			}
		}
		// A turn's blacks, colour by colour: colour k matches at the fixed
		// positions where the guess has k, plus at most as many open ones
		// as copies of k may remain, plus at least the copies that the open
		// positions elsewhere cannot hold.
		for t := 0; t < c.turns; t++ {
			at := c.at[t*nc : (t+1)*nc]
			b := int(c.black[t])
			minB, maxB := 0, 0
			for _, k := range c.used[t] {
				w := where[k]
				fm := bits.OnesCount32(w & fixedMask & at[k])
				om := bits.OnesCount32(w &^ fixedMask & at[k])
				oo := bits.OnesCount32(w &^ fixedMask &^ at[k])
				free := int(n.hi[k]) - int(fixedN[k]) // copies of k not yet placed, at most
				need := int(n.lo[k]) - int(fixedN[k]) - oo
				maxB += fm + min(om, free)
				minB += fm + max(0, need)
			}
			if b < minB || b > maxB {
				return false
			}
			if b != minB && b != maxB {
				continue
			}
			for _, k := range c.used[t] {
				w := where[k]
				in := w &^ fixedMask & at[k]
				out := w &^ fixedMask &^ at[k]
				om, oo := bits.OnesCount32(in), bits.OnesCount32(out)
				free := int(n.hi[k]) - int(fixedN[k])
				need := int(n.lo[k]) - int(fixedN[k]) - oo
				if b == maxB && om > 0 && free > 0 {
					// Every copy that can match must.
					if om <= free {
						c.force(n, in, k)
						changed = true
					}
					if om >= free && out != 0 {
						c.remove(n, out, k)
						changed = true
					}
				}
				if b == minB && om > 0 {
					if need <= 0 {
						// No further match of k.
						c.remove(n, in, k)
						changed = true
					} else {
						// Exactly need more matches: the open positions
						// outside take k and the count is at its least.
						if out != 0 || n.hi[k] != n.lo[k] {
							c.force(n, out, k)
							n.hi[k] = n.lo[k]
							changed = true
						}
					}
				}
			}
		}
		// All blacks together: position j with colour k gives a black to
		// every turn whose guess has k there, and these sum to Σ black.
		if c.turns > 1 {
			var lo, hi [MaxPegs]int32
			sumLo, sumHi := 0, 0
			for j := 0; j < p; j++ {
				h := c.hits[j*nc : (j+1)*nc]
				l, u := int32(math.MaxInt32), int32(0)
				for d := n.dom[j]; d != 0; d &= d - 1 {
					v := h[bits.TrailingZeros64(d)]
					l, u = min(l, v), max(u, v)
				}
				lo[j], hi[j] = l, u
				sumLo += int(l)
				sumHi += int(u)
			}
			if c.blacks < sumLo || c.blacks > sumHi {
				return false
			}
			for j := 0; j < p; j++ {
				if lo[j] == hi[j] {
					continue
				}
				l := c.blacks - (sumHi - int(hi[j]))
				u := c.blacks - (sumLo - int(lo[j]))
				if l <= int(lo[j]) && u >= int(hi[j]) {
					continue
				}
				h := c.hits[j*nc : (j+1)*nc]
				for d := n.dom[j]; d != 0; d &= d - 1 {
					k := bits.TrailingZeros64(d)
					if v := int(h[k]); v < l || v > u {
						n.dom[j] &^= 1 << k
						changed = true
					}
				}
				if n.dom[j] == 0 {
					return false
				}
			}
		}
		// Two turns' blacks together: where their guesses differ, position
		// j adds one to the difference b_t − b_u if it has t's colour,
		// takes one if it has u's, and adds nothing otherwise.
		for t := c.first; t < c.turns; t++ {
			gt := c.guess[t*p : (t+1)*p]
			for u := t + 1; u < c.turns; u++ {
				gu := c.guess[u*p : (u+1)*p]
				mask := c.differ[(t-c.first)*pairWindow+u-c.first]
				if bits.OnesCount32(mask) > 2*p/3 {
					continue
				}
				d := int(c.black[t]) - int(c.black[u])
				lo, hi := 0, 0
				for m := mask; m != 0; m &= m - 1 {
					j := bits.TrailingZeros32(m)
					dom := n.dom[j]
					bt, bu := uint64(1)<<gt[j], uint64(1)<<gu[j]
					other := dom&^(bt|bu) != 0
					switch {
					case dom&bt != 0:
						hi++
					case !other:
						hi--
					}
					switch {
					case dom&bu != 0:
						lo--
					case !other:
						lo++
					}
				}
				if d < lo || d > hi {
					return false
				}
				if hi-lo <= 0 || (d-lo >= 2 && hi-d >= 2) {
					continue
				}
				for m := mask; m != 0; m &= m - 1 {
					j := bits.TrailingZeros32(m)
					dom := n.dom[j]
					bt, bu := uint64(1)<<gt[j], uint64(1)<<gu[j]
					other := dom&^(bt|bu) != 0
					mx, mn := -1, 1
					if dom&bt != 0 {
						mx = 1
					} else if other {
						mx = 0
					}
					if dom&bu != 0 {
						mn = -1
					} else if other {
						mn = 0
					}
					newMn := max(mn, d-(hi-mx))
					newMx := min(mx, d-(lo-mn))
					if newMn == mn && newMx == mx {
						continue
					}
					nd := dom
					if newMn > -1 {
						nd &^= bu
					}
					if newMn > 0 {
						nd &= bt
					}
					if newMx < 1 {
						nd &^= bt
					}
					if newMx < 0 {
						nd &= bu
					}
					if nd != dom {
						n.dom[j] = nd
						changed = true
						if nd == 0 {
							return false
						}
					}
				}
			}
		}
		// A turn's total: Σ min(nₖ, gₖ) over the guess's colours.
		for t := 0; t < c.turns; t++ {
			cnt := c.count[t*nc : (t+1)*nc]
			lo, hi := 0, 0
			for _, k := range c.used[t] {
				g := cnt[k]
				lo += int(min(n.lo[k], g))
				hi += int(min(n.hi[k], g))
			}
			tot := int(c.total[t])
			if tot < lo || tot > hi {
				return false
			}
			if lo == hi {
				continue
			}
			for _, k := range c.used[t] {
				g := cnt[k]
				a, b := int(min(n.lo[k], g)), int(min(n.hi[k], g))
				// This term is at least what the others cannot supply
				// and at most what they leave.
				if l := tot - (hi - b); l > a && l > int(n.lo[k]) {
					n.lo[k], changed = int8(l), true
				}
				if u := tot - (lo - a); u < b && u < int(n.hi[k]) {
					n.hi[k], changed = int8(u), true
				}
			}
		}
		// Two turns' totals: Σ min(nₖ, aₖ) − min(nₖ, bₖ) = total_t − total_u,
		// each term monotone in nₖ.
		if countsOpen {
			for t := c.first; t < c.turns; t++ {
				ca := c.count[t*nc : (t+1)*nc]
				for u := t + 1; u < c.turns; u++ {
					cb := c.count[u*nc : (u+1)*nc]
					d := int(c.total[t]) - int(c.total[u])
					f := func(k int, v int8) int {
						return int(min(v, ca[k])) - int(min(v, cb[k]))
					}
					lo, hi := 0, 0
					for k := 0; k < nc; k++ {
						if ca[k] == cb[k] {
							continue
						}
						a, b := f(k, n.lo[k]), f(k, n.hi[k])
						lo += min(a, b)
						hi += max(a, b)
					}
					if d < lo || d > hi {
						return false
					}
					if lo == hi {
						continue
					}
					for k := 0; k < nc; k++ {
						if ca[k] == cb[k] {
							continue
						}
						a, b := f(k, n.lo[k]), f(k, n.hi[k])
						mn, mx := min(a, b), max(a, b)
						L := d - (hi - mx)
						U := d - (lo - mn)
						if L <= mn && U >= mx {
							continue
						}
						for n.lo[k] < n.hi[k] {
							if v := f(k, n.lo[k]); v < L || v > U {
								n.lo[k]++
								changed = true
							} else {
								break
							}
						}
						for n.hi[k] > n.lo[k] {
							if v := f(k, n.hi[k]); v < L || v > U {
								n.hi[k]--
								changed = true
							} else {
								break
							}
						}
						if v := f(k, n.lo[k]); v < L || v > U {
							return false
						}
					}
				}
			}
		}
		// The pegs of the secret that a turn's guess does not match:
		// Σ max(0, nₖ − gₖ) = pegs − total over every colour. It follows
		// from the totals and Σ nₖ = pegs, but bounds on it prune more.
		for t := 0; countsOpen && t < c.turns; t++ {
			cnt := c.count[t*nc : (t+1)*nc]
			lo, hi := 0, 0
			for k := 0; k < nc; k++ {
				g := cnt[k]
				lo += int(max(0, n.lo[k]-g))
				hi += int(max(0, n.hi[k]-g))
			}
			ex := p - int(c.total[t])
			if ex < lo || ex > hi {
				return false
			}
			if lo == hi {
				continue
			}
			for k := 0; k < nc; k++ {
				g := int(cnt[k])
				a, b := max(0, int(n.lo[k])-g), max(0, int(n.hi[k])-g)
				if l := ex - (hi - b); l > a {
					n.lo[k], changed = int8(g+l), true
				}
				if u := ex - (lo - a); u < b {
					n.hi[k], changed = int8(g+u), true
				}
			}
		}
		// Counts back to positions.
		for k := 0; k < nc; k++ {
			open := where[k] &^ fixedMask
			if open == 0 {
				continue
			}
			switch {
			case n.hi[k] <= fixedN[k]:
				c.remove(n, open, uint8(k))
				changed = true
			case n.lo[k] >= possN[k]:
				c.force(n, open, uint8(k))
				changed = true
			}
		}
		if !changed {
			return true
		}
	}
}

// force fixes colour k at the positions of mask. Positions already fixed to
// another colour, which happens only on the way to a contradiction, are
// left to fail at the next pass.
func (c *Constraints) force(n *cnode, mask uint32, k uint8) {
	for ; mask != 0; mask &= mask - 1 {
		j := bits.TrailingZeros32(mask)
		if n.dom[j]&(1<<k) != 0 {
			n.dom[j] = 1 << k
		} else {
			n.dom[j] = 0
		}
	}
}

// remove takes colour k from the positions of mask.
func (c *Constraints) remove(n *cnode, mask uint32, k uint8) {
	for ; mask != 0; mask &= mask - 1 {
		j := bits.TrailingZeros32(mask)
		n.dom[j] &^= 1 << k
	}
}

// A searcher runs depth-first searches over the constraints.
type searcher struct {
	c     *Constraints
	stack []cnode
	nodes int // propagations done
	limit int // nodes allowed; stop when nodes reaches it
	rng   *rand.Rand
	cut   bool // the limit stopped a search
	visit func(Code) bool
	// countsOnly, if set, stops the search once every count is fixed and
	// is called with the node instead; it returns false to stop.
	countsOnly func(*cnode) bool
	open       []int32 // per turn, scratch for choosing a position
}

func (c *Constraints) newSearcher(rng *rand.Rand, limit int) *searcher {
	return &searcher{c: c, stack: make([]cnode, c.pegs+c.colors+1), limit: limit, rng: rng,
		open: make([]int32, c.turns)}
}

// dfs searches below s.stack[d], calling s.visit with every code it reaches
// until visit returns false; it reports whether the search is to stop. Values
// are tried in random order when s.rng is set, ascending otherwise.
func (s *searcher) dfs(d int) bool {
	n := &s.stack[d]
	p, nc := s.c.pegs, s.c.colors
	// First the colour counts: the colour whose count is least settled.
	colour, span := -1, 1<<30
	start := 0
	if s.rng != nil {
		start = s.rng.IntN(nc)
	}
	for kk := 0; kk < nc; kk++ {
		k := kk + start
		if k >= nc {
			k -= nc
		}
		if w := int(n.hi[k] - n.lo[k]); w > 0 && w < span {
			colour, span = k, w
		}
	}
	if colour >= 0 {
		var buf [MaxPegs + 1]int8
		var wbuf [MaxPegs + 1]float64
		vals := buf[:0]
		for v := n.lo[colour]; v <= n.hi[colour]; v++ {
			vals = append(vals, v)
		}
		weights := wbuf[:len(vals)]
		if s.rng != nil {
			s.countWeights(n, colour, weights)
		}
		for i := range vals {
			if s.rng != nil {
				// Draw the next value with probability proportional to its
				// weight, among those not yet tried; every weight is
				// positive.
				r := i + pickWeighted(s.rng, weights[i:])
				vals[i], vals[r] = vals[r], vals[i]
				weights[i], weights[r] = weights[r], weights[i]
			}
			child := s.child(d)
			if child == nil {
				return true
			}
			child.lo[colour], child.hi[colour] = vals[i], vals[i]
			if s.c.propagate(child) && s.dfs(d+1) {
				return true
			}
		}
		return false
	}
	if s.countsOnly != nil {
		return !s.countsOnly(n)
	}
	// Then a position: the one whose colour would settle the most, each
	// turn whose guess's colour it may still take counting 1/m when the
	// turn has m such open positions; ties go to fewer colours left, then
	// to the first after a random start, or the lowest. On late, tight
	// histories this searches several times fewer nodes than taking the
	// fewest colours first.
	open := s.open
	for t := range open {
		open[t] = 0
		for j, k := range s.c.guess[t*p : (t+1)*p] {
			if d := n.dom[j]; d&(1<<k) != 0 && d != 1<<k {
				open[t]++
			}
		}
	}
	best, bestScore, size := -1, int32(-1), 65
	if s.rng != nil {
		start = s.rng.IntN(p)
	}
	for jj := 0; jj < p; jj++ {
		j := jj + start
		if j >= p {
			j -= p
		}
		d := n.dom[j]
		m := bits.OnesCount64(d)
		if m <= 1 {
			continue
		}
		score := int32(0)
		for t, o := range open {
			if d&(1<<s.c.guess[t*p+j]) != 0 {
				score += (1 << 16) / o
			}
		}
		if score > bestScore || (score == bestScore && m < size) {
			best, bestScore, size = j, score, m
		}
	}
	if best < 0 {
		var x Code
		x.n = uint8(p)
		for j := 0; j < p; j++ {
			x.pegs[j] = uint8(bits.TrailingZeros64(n.dom[j]))
		}
		return !s.visit(x)
	}
	var buf [MaxColors]uint8
	vals := buf[:0]
	for m := n.dom[best]; m != 0; m &= m - 1 {
		vals = append(vals, uint8(bits.TrailingZeros64(m)))
	}
	for i := range vals {
		if s.rng != nil {
			r := i + s.rng.IntN(len(vals)-i)
			vals[i], vals[r] = vals[r], vals[i]
		}
		child := s.child(d)
		if child == nil {
			return true
		}
		child.dom[best] = 1 << vals[i]
		if s.c.propagate(child) && s.dfs(d+1) {
			return true
		}
	}
	return false
}

// child makes s.stack[d+1] a copy of s.stack[d] and returns it, counting
// one node; it returns nil, and sets s.cut, if the node limit is reached.
func (s *searcher) child(d int) *cnode {
	if s.limit > 0 && s.nodes >= s.limit {
		s.cut = true
		return nil
	}
	s.nodes++
	n := &s.stack[d+1]
	*n = s.stack[d]
	return n
}

// countWeights sets w[e] to the weight of count lo+e for colour k when
// sampling: the chance that a code drawn at random from those meeting the
// lower bounds has e more pegs of colour k, if the pegs beyond the lower
// bounds were shared at random among the colours whose counts are open — a
// binomial law. Drawing counts by these weights, rather than uniformly,
// keeps samples from piling pegs on one colour.
func (s *searcher) countWeights(n *cnode, k int, w []float64) {
	free, open := s.c.pegs, 0
	for j := 0; j < s.c.colors; j++ {
		free -= int(n.lo[j])
		if n.lo[j] < n.hi[j] {
			open++
		}
	}
	q := 1 / float64(max(open, 1))
	// C(free, e) qᵉ (1−q)^(free−e), by the ratio of successive terms.
	t := math.Pow(1-q, float64(free))
	for e := range w {
		w[e] = t + 1e-12
		if e < free {
			if q == 1 {
				t = 0
				if e+1 == free {
					t = 1
				}
			} else {
				t *= float64(free-e) / float64(e+1) * q / (1 - q)
			}
		} else {
			t = 0
		}
	}
}

// Find returns a code consistent with every turn, found by a deterministic
// search of at most effort nodes (effort <= 0: no limit). It fails with an
// error wrapping ErrInconsistent if no code fits the turns and
// ErrSearchLimit if the effort ran out first.
func (c *Constraints) Find(effort int) (Code, error) {
	codes, err := c.Sample(rand.New(rand.NewPCG(uint64(c.turns), 0xf1d)), 1, effort)
	if err != nil {
		return Code{}, err
	}
	return codes[0], nil
}

// Sample returns n codes consistent with every turn, drawn at random with
// rng by depth-first searches that try colour counts and colours in random
// order — counts by their chance among random codes, colours uniformly — so
// that the codes spread over the candidates (though not uniformly: codes in
// sparse parts of the search tree come up more often). A code may come up
// more than once.
//
// When drawing from the root proves slow and the colour counts that fit the
// turns are few, Sample lists them (at most maxVectors, in at most a quarter
// of the effort left) and then draws, for each code, one list entry,
// weighted by its number of arrangements, and an arrangement of it. A
// search that grows too large is restarted with other choices and a doubled
// limit; the searches share at most effort nodes in all (effort <= 0: no
// limit, which ends too, since limits double until a search is complete).
//
// Sample returns the codes found and, if fewer than n, an error wrapping
// ErrSearchLimit when the effort ran out or ErrInconsistent when a complete
// search found that no code fits. The same rng state gives the same codes.
func (c *Constraints) Sample(rng *rand.Rand, n, effort int) ([]Code, error) {
	if !c.ok {
		return nil, c.inconsistent()
	}
	out := make([]Code, 0, n)
	s := c.newSearcher(rng, 0)
	s.visit = func(x Code) bool {
		out = append(out, x)
		return false
	}
	var (
		vecs    []cnode
		listed  bool
		tried   bool
		weights []float64
		limits  = []int{4 * c.pegs}
	)
	for len(out) < n {
		if effort > 0 && s.nodes >= effort {
			return out, fmt.Errorf("%w: %d of %d codes found in %d nodes", ErrSearchLimit, len(out), n, s.nodes)
		}
		if len(out) == pilotCodes && !tried && c.turns > 0 && s.nodes > pilotCodes*pilotNodes*(c.pegs+c.colors) {
			tried = true
			// Drawing from the root is slow: list the colour counts,
			// if they are few, and draw from them.
			budget := 1 << 16
			if effort > 0 {
				budget = max(1, (effort-s.nodes)/4)
			}
			var used int
			vecs, listed, used = c.countVectors(maxVectors, budget)
			s.nodes += used
			if listed && len(vecs) == 0 {
				return out, c.inconsistent()
			}
			if listed {
				weights = make([]float64, len(vecs))
				limits = make([]int, len(vecs))
				for i := range vecs {
					weights[i] = arrangements(&vecs[i], c.pegs, c.colors)
					limits[i] = 4 * c.pegs
				}
			}
			continue
		}
		i := 0
		s.stack[0] = c.root
		if listed {
			if i = pickWeighted(rng, weights); i < 0 {
				return out, c.inconsistent()
			}
			s.stack[0] = vecs[i]
		}
		s.limit = s.nodes + limits[i]
		if effort > 0 {
			s.limit = min(s.limit, effort)
		}
		s.cut = false
		before := len(out)
		s.dfs(0)
		switch {
		case len(out) > before:
		case !s.cut && listed:
			weights[i] = 0 // no arrangement of these counts fits
		case !s.cut:
			return out, c.inconsistent()
		default:
			limits[i] *= 2
		}
	}
	return out, nil
}

// Sample draws pilotCodes codes from the root first; if they cost more
// than pilotNodes nodes per peg and colour each, it lists the colour counts.
const (
	pilotCodes = 8
	pilotNodes = 3
)

// maxVectors is the most colour-count vectors Sample lists.
const maxVectors = 4096

// countVectors lists the colour counts that propagation admits, as nodes
// with every count fixed and propagated, if there are at most most of them
// and a search of at most effort nodes finds them all; listed is false
// otherwise, and the nodes searched.
func (c *Constraints) countVectors(most, effort int) (vecs []cnode, listed bool, nodes int) {
	s := c.newSearcher(nil, effort)
	s.countsOnly = func(n *cnode) bool {
		if len(vecs) == most {
			return false
		}
		vecs = append(vecs, *n)
		return true
	}
	s.stack[0] = c.root
	if s.dfs(0) {
		return nil, false, s.nodes
	}
	return vecs, true, s.nodes
}

// arrangements returns the number of ways to place the counts of n, which
// are fixed, in the pegs: pegs!/Π nₖ!.
func arrangements(n *cnode, pegs, colors int) float64 {
	lg, _ := math.Lgamma(float64(pegs + 1))
	for k := 0; k < colors; k++ {
		l, _ := math.Lgamma(float64(n.lo[k]) + 1)
		lg -= l
	}
	return math.Exp(lg)
}

// pickWeighted returns an index drawn with probability proportional to its
// weight, or -1 if every weight is 0.
func pickWeighted(rng *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	if total <= 0 {
		return -1
	}
	x := rng.Float64() * total
	last := -1
	for i, v := range w {
		if v <= 0 {
			continue
		}
		last = i
		if x -= v; x < 0 {
			return i
		}
	}
	return last
}

// Enumerate returns every code consistent with the turns, in lexicographic
// order, if there are at most most of them and a search of at most effort
// nodes finds them all (effort <= 0: no limit). Otherwise it returns the
// codes found and an error wrapping ErrTooLarge (more than most codes),
// ErrSearchLimit (effort ran out) or ErrInconsistent (no code fits).
//
// Enumerating costs about as many nodes as there are candidates times a
// small factor, plus the dead ends the propagation does not foresee.
func (c *Constraints) Enumerate(most, effort int) ([]Code, error) {
	if !c.ok {
		return nil, c.inconsistent()
	}
	var out []Code
	s := c.newSearcher(nil, effort)
	over := false
	s.visit = func(x Code) bool {
		if len(out) == most {
			over = true
			return false
		}
		out = append(out, x)
		return true
	}
	s.stack[0] = c.root
	s.dfs(0)
	slices.SortFunc(out, Code.Compare)
	switch {
	case over:
		return out, fmt.Errorf("%w: more than %d codes fit the %d turns", ErrTooLarge, most, c.turns)
	case s.cut:
		return out, fmt.Errorf("%w: %d codes found in %d nodes", ErrSearchLimit, len(out), s.nodes)
	case len(out) == 0:
		return nil, c.inconsistent()
	}
	return out, nil
}

func (c *Constraints) inconsistent() error {
	if c.turns == 0 {
		return fmt.Errorf("%w: no code fits", ErrInconsistent)
	}
	t := c.turns - 1
	g := codeOf(c.guess[t*c.pegs : (t+1)*c.pegs])
	f := Feedback{Black: int(c.black[t]), White: int(c.total[t] - c.black[t])}
	return errNoCodeFits(g, f, c.turns)
}
