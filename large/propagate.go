package large

import (
	"math"
	"math/bits"

	mm "github.com/mastermind-toolkit/mastermind"
)

// propagate narrows n to a fixed point of the rules in the type's comment.
// It reports false if it finds a contradiction.
func (c *Constraints) propagate(n *cnode) bool {
	p, nc := c.pegs, c.colors
	for {
		changed := false
		// Where each colour may go, and the positions already fixed.
		var where [mm.MaxColors]pmask
		var fixedMask pmask
		for j := 0; j < p; j++ {
			d := n.dom[j]
			if d == 0 {
				return false
			}
			if d&(d-1) == 0 {
				fixedMask.set(j)
			}
			for ; d != 0; d &= d - 1 {
				where[bits.TrailingZeros64(d)].set(j)
			}
		}
		var fixedN, possN [mm.MaxColors]int16
		sumLo, sumHi := 0, 0
		for k := 0; k < nc; k++ {
			fixedN[k] = int16(where[k].and(fixedMask).count())
			possN[k] = int16(where[k].count())
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
					n.hi[k], changed = int16(h), true
				}
				if l := p - (sumHi - hi); l > lo {
					n.lo[k], changed = int16(l), true
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
				fm := w.and(fixedMask).and(at[k]).count()
				om := w.andNot(fixedMask).and(at[k]).count()
				oo := w.andNot(fixedMask).andNot(at[k]).count()
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
				in := w.andNot(fixedMask).and(at[k])
				out := w.andNot(fixedMask).andNot(at[k])
				om, oo := in.count(), out.count()
				free := int(n.hi[k]) - int(fixedN[k])
				need := int(n.lo[k]) - int(fixedN[k]) - oo
				if b == maxB && om > 0 && free > 0 {
					// Every copy that can match must.
					if om <= free {
						c.force(n, in, k)
						changed = true
					}
					if om >= free && !out.empty() {
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
						if !out.empty() || n.hi[k] != n.lo[k] {
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
			var lo, hi [mm.MaxPegs]int32
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
				if mask.count() > 2*p/3 {
					continue
				}
				d := int(c.black[t]) - int(c.black[u])
				lo, hi := 0, 0
				for m := mask; !m.empty(); {
					var j int
					j, m = m.next()
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
				for m := mask; !m.empty(); {
					var j int
					j, m = m.next()
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
					n.lo[k], changed = int16(l), true
				}
				if u := tot - (lo - a); u < b && u < int(n.hi[k]) {
					n.hi[k], changed = int16(u), true
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
					f := func(k int, v int16) int {
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
					n.lo[k], changed = int16(g+l), true
				}
				if u := ex - (lo - a); u < b {
					n.hi[k], changed = int16(g+u), true
				}
			}
		}
		// Counts back to positions.
		for k := 0; k < nc; k++ {
			open := where[k].andNot(fixedMask)
			if open.empty() {
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
func (c *Constraints) force(n *cnode, mask pmask, k uint8) {
	for !mask.empty() {
		var j int
		j, mask = mask.next()
		if n.dom[j]&(1<<k) != 0 {
			n.dom[j] = 1 << k
		} else {
			n.dom[j] = 0
		}
	}
}

// remove takes colour k from the positions of mask.
func (c *Constraints) remove(n *cnode, mask pmask, k uint8) {
	for !mask.empty() {
		var j int
		j, mask = mask.next()
		n.dom[j] &^= 1 << k
	}
}
