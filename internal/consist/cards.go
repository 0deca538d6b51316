package consist

import "slices"

// Cardinality constraints and the counters of colours: adding them at
// level 0, and their propagation.

// addCounter adds a counter at level 0: ys[t−1] ⇔ at least t of xs.
func (s *solver) addCounter(xs, ys []lit) {
	ci := int32(len(s.cnts))
	s.cnts = append(s.cnts, counter{xs: slices.Clone(xs), ys: slices.Clone(ys)})
	for _, l := range xs {
		s.occCnt[l] = append(s.occCnt[l], cntOcc{ci, 0, xTrue})
		s.occCnt[l.not()] = append(s.occCnt[l.not()], cntOcc{ci, 0, xFalse})
	}
	for t, l := range ys {
		s.occCnt[l] = append(s.occCnt[l], cntOcc{ci, int32(t + 1), yTrue})
		s.occCnt[l.not()] = append(s.occCnt[l.not()], cntOcc{ci, int32(t + 1), yFalse})
	}
	for t := len(xs) + 1; t <= len(ys); t++ {
		s.addUnit(ys[t-1].not())
	}
}

// forceCnt assigns l for counter ci, or returns the conflict if l is false.
func (s *solver) forceCnt(ci int32, l lit) ([]lit, bool) {
	switch s.value(l) {
	case lTrue:
		return nil, false
	case lUndef:
		s.enqueue(l, noRef, -1)
		s.rcnt[l.v()] = ci
		return nil, false
	}
	out := s.explainCnt(ci, l, int32(len(s.trail)), nil)
	return append(out, l), true
}

// propagateCnt processes p, just true, in the counters it occurs in.
func (s *solver) propagateCnt(p lit) ([]lit, bool) {
	var confl []lit
	bad := false
	for _, o := range s.occCnt[p] {
		c := &s.cnts[o.ci]
		n := int32(len(c.xs))
		if o.kind <= xFalse {
			if o.kind == xTrue {
				c.nTrue++
				if bad {
					continue
				}
				k := c.nTrue
				if k <= int32(len(c.ys)) {
					confl, bad = s.forceCnt(o.ci, c.ys[k-1])
				}
				if !bad && k < int32(len(c.ys)) && s.value(c.ys[k]) == lFalse {
					confl, bad = s.fillCnt(o.ci, false)
				}
			} else {
				c.nFalse++
				if bad {
					continue
				}
				most := n - c.nFalse // the count is at most most
				if most < int32(len(c.ys)) {
					confl, bad = s.forceCnt(o.ci, c.ys[most].not())
				}
				if !bad && most >= 1 && most <= int32(len(c.ys)) && s.value(c.ys[most-1]) == lTrue {
					confl, bad = s.fillCnt(o.ci, true)
				}
			}
			continue
		}
		if bad {
			continue
		}
		t := o.t
		if o.kind == yTrue {
			// The count is at least t.
			if n-c.nFalse == t {
				confl, bad = s.fillCnt(o.ci, true)
			}
		} else if c.nTrue == t-1 {
			// The count is below t.
			confl, bad = s.fillCnt(o.ci, false)
		}
	}
	return confl, bad
}

// fillCnt assigns every unassigned x of counter ci to val.
func (s *solver) fillCnt(ci int32, val bool) ([]lit, bool) {
	c := &s.cnts[ci]
	for _, x := range c.xs {
		if s.value(x) == lUndef {
			l := x
			if !val {
				l = x.not()
			}
			s.enqueue(l, noRef, -1)
			s.rcnt[l.v()] = ci
		}
	}
	return nil, false
}

// explainCnt appends the false literals of the clause by which counter ci
// implies l, from literals before trail position at.
func (s *solver) explainCnt(ci int32, l lit, at int32, out []lit) []lit {
	c := &s.cnts[ci]
	n := int32(len(c.xs))
	trueXs := func(k int32) {
		for _, x := range c.xs {
			if k == 0 {
				return
			}
			if s.value(x) == lTrue && s.pos[x.v()] < at {
				out = append(out, x.not())
				k--
			}
		}
	}
	falseXs := func(k int32) {
		for _, x := range c.xs {
			if k == 0 {
				return
			}
			if s.value(x) == lFalse && s.pos[x.v()] < at {
				out = append(out, x)
				k--
			}
		}
	}
	for t, y := range c.ys {
		switch l {
		case y: // at least t+1 xs are true
			trueXs(int32(t + 1))
			return out
		case y.not(): // at most t xs are true: n−t are false
			falseXs(n - int32(t))
			return out
		}
	}
	// l is an x or its negation, forced by a count from the ys.
	positive := slices.Contains(c.xs, l)
	if positive {
		// Some ys[t−1] true, and n−t xs false: the rest are true.
		for t := int32(len(c.ys)); t >= 1; t-- {
			y := c.ys[t-1]
			if s.value(y) == lTrue && s.pos[y.v()] < at {
				out = append(out, y.not())
				falseXs(n - t)
				return out
			}
		}
	} else {
		// Some ys[u−1] false, and u−1 xs true: the rest are false.
		for u := int32(1); u <= int32(len(c.ys)); u++ {
			y := c.ys[u-1]
			if s.value(y) == lFalse && s.pos[y.v()] < at {
				out = append(out, y)
				trueXs(u - 1)
				return out
			}
		}
	}
	panic("consist: a counter's literal without a reason")
}

// addCard adds a cardinality constraint at level 0, before any search.
func (s *solver) addCard(lits []lit, lo, hi int32) {
	s.addGuardedCard(lits, lo, hi, noLit)
}

// addGuardedCard adds at level 0, before any search, a cardinality
// constraint that holds when guard is true (always, if guard is noLit).
func (s *solver) addGuardedCard(lits []lit, lo, hi int32, guard lit) {
	n := int32(len(lits))
	lo = max(lo, 0)
	hi = min(hi, n)
	if lo > hi {
		if guard != noLit {
			s.addUnit(guard.not())
			return
		}
		s.unsat = true
		return
	}
	if lo == 0 && hi == n {
		return
	}
	ci := int32(len(s.cards))
	s.cards = append(s.cards, card{lits: slices.Clone(lits), lo: lo, hi: hi, guard: guard})
	for _, l := range lits {
		s.occ[l] = append(s.occ[l], ci)
	}
	if guard != noLit {
		// Its guard, once true, makes it force what its counts allow.
		s.gocc[guard] = append(s.gocc[guard], ci)
		return
	}
	// Bounds that force at once; counting forces the rest.
	switch {
	case hi == 0:
		for _, l := range lits {
			s.addUnit(l.not())
		}
	case lo == n:
		for _, l := range lits {
			s.addUnit(l)
		}
	}
}
