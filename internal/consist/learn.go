package consist

import "slices"

// Explanations of what the cards and counters imply, and conflict
// analysis: the learnt clause, its minimisation, activities, and the
// reduction of the learnt clauses.

// explainCard appends to out the false literals of the clause that the
// card ci implies for l, true at trail position at: the card's literals
// that made it force l, all before at.
func (s *solver) explainCard(ci int32, l lit, at int32, out []lit) []lit {
	c := &s.cards[ci]
	if c.guard != noLit {
		if l == c.guard.not() {
			return s.brokenCard(ci, at, out)
		}
		out = append(out, c.guard.not())
	}
	// l is the card's literal, or its negation.
	var inCard lit = -1
	for _, q := range c.lits {
		if q.v() == l.v() {
			inCard = q
			break
		}
	}
	if inCard == l {
		// Forced true by the lower bound: n − lo of the others are false.
		need := int32(len(c.lits)) - c.lo
		for _, q := range c.lits {
			if need == 0 {
				break
			}
			if s.value(q) == lFalse && s.pos[q.v()] < at {
				out = append(out, q)
				need--
			}
		}
		return out
	}
	// Forced false by the upper bound: hi of the others are true.
	need := c.hi
	for _, q := range c.lits {
		if need == 0 {
			break
		}
		if s.value(q) == lTrue && s.pos[q.v()] < at {
			out = append(out, q.not())
			need--
		}
	}
	return out
}

// brokenCard appends the literals, false, that break card ci's bounds
// before trail position at: hi+1 true ones, or n−lo+1 false ones.
func (s *solver) brokenCard(ci int32, at int32, out []lit) []lit {
	c := &s.cards[ci]
	nTrue := int32(0)
	for _, q := range c.lits {
		if s.value(q) == lTrue && s.pos[q.v()] < at {
			nTrue++
		}
	}
	over := nTrue > c.hi
	need := c.hi + 1
	if !over {
		need = int32(len(c.lits)) - c.lo + 1
	}
	for _, q := range c.lits {
		if need == 0 {
			break
		}
		if s.pos[q.v()] >= at {
			continue
		}
		switch v := s.value(q); {
		case over && v == lTrue:
			out = append(out, q.not())
			need--
		case !over && v == lFalse:
			out = append(out, q)
			need--
		}
	}
	return out
}

// conflictLits appends the false literals of the falsified constraint.
func (s *solver) conflictLits(cf conflict, out []lit) []lit {
	if cf.lits != nil {
		return append(out, cf.lits...)
	}
	if cf.card < 0 {
		return append(out, s.lits(cf.cl)...)
	}
	c := &s.cards[cf.card]
	if c.guard != noLit {
		out = append(out, c.guard.not())
	}
	if cf.over {
		need := c.hi + 1
		for _, q := range c.lits {
			if need == 0 {
				break
			}
			if s.value(q) == lTrue {
				out = append(out, q.not())
				need--
			}
		}
		return out
	}
	need := int32(len(c.lits)) - c.lo + 1
	for _, q := range c.lits {
		if need == 0 {
			break
		}
		if s.value(q) == lFalse {
			out = append(out, q)
			need--
		}
	}
	return out
}

// reasonLits appends the false literals of v's reason other than v's own.
func (s *solver) reasonLits(v int32, out []lit) []lit {
	if c := s.rcl[v]; c != noRef {
		for _, q := range s.lits(c) {
			if q.v() != v {
				out = append(out, q)
			}
		}
		return out
	}
	if !s.explained[v] {
		l := mkLit(v, s.assign[v] == lFalse)
		e := s.expl[v][:0]
		if ci := s.rcnt[v]; ci >= 0 {
			e = s.explainCnt(ci, l, s.pos[v], e)
		} else {
			e = s.explainCard(s.rcard[v], l, s.pos[v], e)
		}
		s.expl[v], s.explained[v] = e, true
	}
	return append(out, s.expl[v]...)
}

func (s *solver) hasReason(v int32) bool {
	return s.rcl[v] != noRef || s.rcard[v] >= 0 || s.rcnt[v] >= 0
}

// analyze derives the first-UIP clause of a conflict; its first literal
// is the one to assert, its second one of the highest level of the rest.
func (s *solver) analyze(cf conflict) (learnt []lit, bt int32, lbd int32) {
	learnt = append(s.buf2[:0], 0)
	pathC := 0
	var p lit = -1
	lits := s.conflictLits(cf, s.buf[:0])
	if cf.cl != noRef && s.learnt(cf.cl) {
		s.bumpClause(cf.cl)
	}
	idx := len(s.trail) - 1
	cur := s.decisionLevel()
	for {
		for _, q := range lits {
			v := q.v()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.bumpVar(v)
			s.seen[v] = true
			if s.level[v] >= cur {
				pathC++
			} else {
				learnt = append(learnt, q)
			}
		}
		for !s.seen[s.trail[idx].v()] {
			idx--
		}
		p = s.trail[idx]
		idx--
		s.seen[p.v()] = false
		pathC--
		if pathC == 0 {
			break
		}
		if c := s.rcl[p.v()]; c != noRef && s.learnt(c) {
			s.bumpClause(c)
		}
		lits = s.reasonLits(p.v(), lits[:0])
	}
	learnt[0] = p.not()
	s.buf = lits

	// Minimise: drop literals implied by the others (recursively).
	toClear := append(s.toClear[:0], learnt...)
	var abstract uint32
	for _, q := range learnt[1:] {
		abstract |= 1 << (s.level[q.v()] & 31)
	}
	j := 1
	for i := 1; i < len(learnt); i++ {
		q := learnt[i]
		if !s.hasReason(q.v()) || !s.redundant(q, abstract, &toClear) {
			learnt[j] = q
			j++
		}
	}
	learnt = learnt[:j]
	for _, q := range toClear {
		s.seen[q.v()] = false
	}
	s.toClear = toClear

	bt = 0
	if len(learnt) > 1 {
		mi := 1
		for i := 2; i < len(learnt); i++ {
			if s.level[learnt[i].v()] > s.level[learnt[mi].v()] {
				mi = i
			}
		}
		learnt[1], learnt[mi] = learnt[mi], learnt[1]
		bt = s.level[learnt[1].v()]
	}
	// LBD: distinct levels.
	s.stamp++
	for len(s.lvlSeen) <= int(s.decisionLevel()) {
		s.lvlSeen = append(s.lvlSeen, 0)
	}
	lbd = 0
	for _, q := range learnt {
		if lv := s.level[q.v()]; s.lvlSeen[lv] != s.stamp {
			s.lvlSeen[lv] = s.stamp
			lbd++
		}
	}
	s.buf2 = learnt
	return learnt, bt, lbd
}

// redundant reports whether q, false, follows from literals already seen
// (those of the learnt clause and ones shown redundant before).
func (s *solver) redundant(q lit, abstract uint32, toClear *[]lit) bool {
	stack := append(s.stack[:0], q)
	top := len(*toClear)
	buf := s.buf3
	defer func() { s.stack, s.buf3 = stack, buf }()
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		buf = s.reasonLits(p.v(), buf[:0])
		for _, r := range buf {
			v := r.v()
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			if s.hasReason(v) && abstract&(1<<(s.level[v]&31)) != 0 {
				s.seen[v] = true
				stack = append(stack, r)
				*toClear = append(*toClear, r)
				continue
			}
			for _, c := range (*toClear)[top:] {
				s.seen[c.v()] = false
			}
			*toClear = (*toClear)[:top]
			return false
		}
	}
	return true
}

func (s *solver) bumpVar(v int32) {
	s.act[v] += s.varInc
	if s.act[v] > 1e100 {
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	s.heap.update(v)
}

func (s *solver) bumpClause(c cref) {
	a := s.cact(c) + float32(s.claInc)
	s.setAct(c, a)
	if a > 1e20 {
		for _, d := range s.learnts {
			s.setAct(d, s.cact(d)*1e-20)
		}
		s.claInc *= 1e-20
	}
}

// reduce deletes about half the learnt clauses, those of highest LBD and
// least activity, keeping those that are reasons and those of LBD 2, and
// compacts the arena.
func (s *solver) reduce() {
	slices.SortFunc(s.learnts, func(a, b cref) int {
		if la, lb := s.lbd(a), s.lbd(b); la != lb {
			return int(la - lb)
		}
		switch aa, ab := s.cact(a), s.cact(b); {
		case aa > ab:
			return -1
		case aa < ab:
			return 1
		}
		return 0
	})
	keep := s.learnts[:0]
	half := len(s.learnts) / 2
	for i, c := range s.learnts {
		l0 := s.lits(c)[0]
		locked := s.rcl[l0.v()] == c && s.value(l0) == lTrue
		if i < half || s.lbd(c) <= 2 || locked {
			keep = append(keep, c)
		} else {
			s.ca[c+1] |= fDeleted
		}
	}
	s.learnts = keep
	s.compact()
}

// compact drops the deleted clauses from the arena and the watch lists,
// and moves the others, renaming them in the watch lists and reasons.
func (s *solver) compact() {
	old := s.ca
	s.ca = make([]lit, 0, len(old))
	// The new reference of a live clause replaces its activity in the
	// old arena, which is not read again.
	move := func(c cref) cref {
		n := cref(len(s.ca))
		s.ca = append(s.ca, old[c:c+hdr+cref(old[c])]...)
		old[c+2] = lit(n)
		return n
	}
	for i, c := range s.clauses {
		s.clauses[i] = move(c)
	}
	for i, c := range s.learnts {
		s.learnts[i] = move(c)
	}
	for i, ws := range s.watches {
		j := 0
		for _, w := range ws {
			if old[w.c+1]&fDeleted == 0 {
				ws[j] = watch{cref(old[w.c+2]), w.blocker}
				j++
			}
		}
		s.watches[i] = ws[:j]
	}
	for _, l := range s.trail {
		if c := s.rcl[l.v()]; c != noRef {
			s.rcl[l.v()] = cref(old[c+2])
		}
	}
}
