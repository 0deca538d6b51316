package consist

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
)

// lit is a literal: variable v as 2v (true) or 2v+1 (negated).
type lit int32

// noLit stands for no literal.
const noLit lit = -1

func mkLit(v int32, neg bool) lit {
	l := lit(2 * v)
	if neg {
		l++
	}
	return l
}

func (l lit) v() int32   { return int32(l >> 1) }
func (l lit) neg() bool  { return l&1 == 1 }
func (l lit) not() lit   { return l ^ 1 }
func (l lit) sign() int8 { return 1 - 2*int8(l&1) } // +1 positive, −1 negated

// Values of a variable or literal.
const (
	lFalse int8 = -1
	lUndef int8 = 0
	lTrue  int8 = 1
)

// A clause is a disjunction, watched on its first two literals. Clauses
// live in one arena, s.ca, each a header of hdr entries (its length; its
// flags and LBD; its activity, a float32's bits) then its literals, and
// are named by the offset of their header: so that the watch lists hold
// no pointers and a clause's literals sit beside its header.
type cref int32

const (
	noRef cref = -1
	hdr        = 3
	// Flags of a clause's second header entry; the LBD is above them.
	fLearnt  = 1
	fDeleted = 2
)

// A card says that at least lo and at most hi of its literals are true,
// or, if guard is not noLit, that guard implies so: such a card forces
// nothing but guard's negation until guard is true. It propagates by
// counting: nTrue and nFalse count the literals of the trail up to the
// queue head that are true and false.
type card struct {
	lits          []lit
	lo, hi        int32
	nTrue, nFalse int32
	guard         lit
}

// watch is an entry of a watch list: a clause and a literal of it that,
// when true, satisfies it without a look at the clause.
type watch struct {
	c       cref
	blocker lit
}

// conflict names a falsified constraint: a clause, or a card whose upper
// bound (over) or lower bound is broken, or, if lits is not nil, the
// false literals of a clause a counter implies.
type conflict struct {
	cl   cref  // noRef if not a clause
	card int32 // −1 if cl
	over bool
	lits []lit
}

// A counter ties a colour's count to its order encoding: ys[t−1] is true
// exactly when at least t of xs are true. It propagates both ways: t true
// xs force ys[t−1], f false ones force ys[n−f]'s negation, and a count
// known from the ys forces the remaining xs once the others reach it.
// nTrue and nFalse count as a card's do.
type counter struct {
	xs, ys        []lit
	nTrue, nFalse int32
}

// cntOcc is an occurrence of a literal in a counter: what its being true
// means there, and for a y, its level t.
type cntOcc struct {
	ci, t int32
	kind  int8
}

// Kinds of counter occurrences.
const (
	xTrue int8 = iota
	xFalse
	yTrue
	yFalse
)

// status is the result of a search.
type status int

const (
	unknown status = iota
	sat
	unsatisfiable
	// failed: no assignment with s.assume true
	failed
)

// solver is a conflict-driven clause-learning solver over clauses and
// cardinality constraints: two watched literals for clauses, counters for
// cards, first-UIP learning with minimisation, VSIDS activities, phase
// saving, Luby restarts and reduction of the learnt clauses by LBD.
type solver struct {
	assign []int8  // by variable
	val    []int8  // by literal: its value, as assign gives it
	level  []int32 // decision level of an assigned variable
	pos    []int32 // its place on the trail
	rcl    []cref
	rcard  []int32 // reason card, or −1
	rcnt   []int32 // reason counter, or −1
	trail  []lit
	lim    []int32 // trail length at the start of each decision level
	qhead  int

	watches [][]watch // by literal p: clauses to visit when p is true
	occ     [][]int32 // by literal: the cards it occurs in
	gocc    [][]int32 // by literal: the cards it guards
	cards   []card
	cnts    []counter
	occCnt  [][]cntOcc // by literal: the counters it occurs in
	ca      []lit      // the clause arena
	clauses []cref     // problem clauses
	learnts []cref

	act    []float64
	varInc float64
	claInc float64
	heap   varHeap
	phase  []bool // saved phase: true assigns the variable true
	seen   []bool
	// expl caches the explanation of a variable that a card or counter
	// forced, while explained says it is valid: until the variable is
	// unassigned. Minimisation asks for the same ones again and again,
	// and a card's explanation scans all its literals.
	expl      [][]lit
	explained []bool

	// rephase, if set, gives the variables new random phases; solve
	// calls it every rephaseEvery restarts.
	rephase func()
	// posBelow: variables below it are decided true, whatever their phase.
	posBelow int32

	// assumps are assumed true, in order, below every decision: a
	// search under them fails, without making the problem
	// unsatisfiable, once one is false when its turn comes, and final
	// then holds the assumptions that made it false (analyzeFinal).
	assumps []lit
	final   []lit

	nextReduce int64 // conflicts at which to reduce the learnt clauses
	reduces    int64
	unsat      bool
	rng        *rand.Rand

	conflicts, decisions, propagations int64

	buf, buf2, buf3, toClear, stack []lit
	lvlSeen                         []int64 // by level: stamp of the last LBD count
	stamp                           int64
}

func newSolver(nv int, rng *rand.Rand) *solver {
	s := &solver{varInc: 1, claInc: 1, rng: rng}
	s.heap.act = s.act
	for range nv {
		s.newVar()
	}
	return s
}

// newVar adds a variable, unassigned, and returns it; the caller gives it
// an activity and puts it in the heap.
func (s *solver) newVar() int32 {
	v := int32(len(s.assign))
	s.assign = append(s.assign, lUndef)
	s.val = append(s.val, lUndef, lUndef)
	s.expl = append(s.expl, nil)
	s.explained = append(s.explained, false)
	s.level = append(s.level, 0)
	s.pos = append(s.pos, 0)
	s.rcl = append(s.rcl, noRef)
	s.rcard = append(s.rcard, -1)
	s.rcnt = append(s.rcnt, -1)
	s.occCnt = append(s.occCnt, nil, nil)
	s.watches = append(s.watches, nil, nil)
	s.occ = append(s.occ, nil, nil)
	s.gocc = append(s.gocc, nil, nil)
	s.act = append(s.act, 0)
	s.phase = append(s.phase, false)
	s.seen = append(s.seen, false)
	s.heap.act = s.act
	s.heap.index = append(s.heap.index, -1)
	return v
}

func (s *solver) value(l lit) int8 {
	return s.val[l]
}

func (s *solver) decisionLevel() int32 { return int32(len(s.lim)) }

func (s *solver) enqueue(l lit, cl cref, cd int32) {
	v := l.v()
	s.assign[v] = l.sign()
	s.val[l], s.val[l.not()] = lTrue, lFalse
	s.level[v] = s.decisionLevel()
	s.pos[v] = int32(len(s.trail))
	s.rcl[v] = cl
	s.rcard[v] = cd
	s.rcnt[v] = -1
	s.trail = append(s.trail, l)
}

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

// resync makes the counters of the cards and counters count the level-0
// trail again, after constraints were added at level 0 between searches:
// the next propagation replays the trail from its start.
func (s *solver) resync() {
	s.cancelUntil(0)
	for i := range s.cards {
		s.cards[i].nTrue, s.cards[i].nFalse = 0, 0
	}
	for i := range s.cnts {
		s.cnts[i].nTrue, s.cnts[i].nFalse = 0, 0
	}
	s.qhead = 0
}

// simplify, at level 0 after propagation, deletes the clauses that are
// true at level 0: the blocks of an earlier draw once its activation
// literal is false, and what was learnt from them.
func (s *solver) simplify() {
	for _, l := range s.trail {
		s.rcl[l.v()] = noRef // level 0: no reason is read again
	}
	sat := func(c cref) bool {
		for _, l := range s.lits(c) {
			if s.value(l) == lTrue && s.level[l.v()] == 0 {
				return true
			}
		}
		return false
	}
	drop := func(cs []cref) []cref {
		keep := cs[:0]
		for _, c := range cs {
			if sat(c) {
				s.ca[c+1] |= fDeleted
			} else {
				keep = append(keep, c)
			}
		}
		return keep
	}
	s.clauses = drop(s.clauses)
	s.learnts = drop(s.learnts)
	s.compact()
}

// addUnit assigns l at level 0.
func (s *solver) addUnit(l lit) {
	switch s.value(l) {
	case lTrue:
	case lFalse:
		s.unsat = true
	default:
		s.enqueue(l, noRef, -1)
	}
}

// addClause adds a problem clause at level 0: the caller has backtracked
// to level 0. It drops literals false at level 0, and may prove
// unsatisfiability.
func (s *solver) addClause(lits []lit) {
	if s.unsat {
		return
	}
	ls := make([]lit, 0, len(lits))
	for _, l := range lits {
		switch s.value(l) {
		case lTrue:
			return
		case lUndef:
			if !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
	}
	switch len(ls) {
	case 0:
		s.unsat = true
	case 1:
		s.enqueue(ls[0], noRef, -1)
	default:
		c := s.alloc(ls, false, 0)
		s.clauses = append(s.clauses, c)
		s.attach(c)
	}
}

// alloc stores a clause in the arena and returns its reference.
func (s *solver) alloc(lits []lit, learnt bool, lbd int32) cref {
	c := cref(len(s.ca))
	meta := lit(lbd << 2)
	if learnt {
		meta |= fLearnt
	}
	s.ca = append(s.ca, lit(len(lits)), meta, 0)
	s.ca = append(s.ca, lits...)
	return c
}

// lits returns the literals of clause c, in the arena.
func (s *solver) lits(c cref) []lit {
	return s.ca[c+hdr : c+hdr+cref(s.ca[c])]
}

func (s *solver) learnt(c cref) bool  { return s.ca[c+1]&fLearnt != 0 }
func (s *solver) deleted(c cref) bool { return s.ca[c+1]&fDeleted != 0 }
func (s *solver) lbd(c cref) int32    { return int32(s.ca[c+1] >> 2) }
func (s *solver) cact(c cref) float32 { return math.Float32frombits(uint32(s.ca[c+2])) }
func (s *solver) setAct(c cref, a float32) {
	s.ca[c+2] = lit(math.Float32bits(a))
}

func (s *solver) attach(c cref) {
	ls := s.lits(c)
	s.watches[ls[0].not()] = append(s.watches[ls[0].not()], watch{c, ls[1]})
	s.watches[ls[1].not()] = append(s.watches[ls[1].not()], watch{c, ls[0]})
}

// propagate runs unit propagation to a fixed point or a conflict.
func (s *solver) propagate() (conflict, bool) {
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		s.propagations++
		confl, bad := conflict{cl: noRef, card: -1}, false
		// Every counter of p is updated, even past a conflict, so that
		// backtracking can undo whole trail entries.
		for _, ci := range s.occ[p] {
			c := &s.cards[ci]
			c.nTrue++
			if bad {
				continue
			}
			if c.guard != noLit && s.val[c.guard] != lTrue {
				if c.nTrue > c.hi && s.val[c.guard] == lUndef {
					s.enqueue(c.guard.not(), noRef, ci)
				}
				continue
			}
			switch {
			case c.nTrue > c.hi:
				confl, bad = conflict{cl: noRef, card: ci, over: true}, true
			case c.nTrue == c.hi:
				for _, l := range c.lits {
					if s.value(l) == lUndef {
						s.enqueue(l.not(), noRef, ci)
					}
				}
			}
		}
		for _, ci := range s.occ[p.not()] {
			c := &s.cards[ci]
			c.nFalse++
			if bad {
				continue
			}
			free := int32(len(c.lits)) - c.nFalse
			if c.guard != noLit && s.val[c.guard] != lTrue {
				if free < c.lo && s.val[c.guard] == lUndef {
					s.enqueue(c.guard.not(), noRef, ci)
				}
				continue
			}
			switch {
			case free < c.lo:
				confl, bad = conflict{cl: noRef, card: ci}, true
			case free == c.lo:
				for _, l := range c.lits {
					if s.value(l) == lUndef {
						s.enqueue(l, noRef, ci)
					}
				}
			}
		}
		for _, ci := range s.gocc[p] {
			if bad {
				break
			}
			confl, bad = s.guardOn(ci)
		}
		if lits, bad2 := s.propagateCnt(p); bad2 && !bad {
			confl, bad = conflict{cl: noRef, card: -1, lits: lits}, true
		}
		if bad {
			return confl, true
		}
		if confl, bad := s.propagateClauses(p); bad {
			return confl, true
		}
	}
	return conflict{}, false
}

// guardOn makes card ci, whose guard just became true, force what its
// counts allow, or returns its conflict.
func (s *solver) guardOn(ci int32) (conflict, bool) {
	c := &s.cards[ci]
	free := int32(len(c.lits)) - c.nFalse
	switch {
	case c.nTrue > c.hi:
		return conflict{cl: noRef, card: ci, over: true}, true
	case free < c.lo:
		return conflict{cl: noRef, card: ci}, true
	case c.nTrue == c.hi:
		for _, l := range c.lits {
			if s.value(l) == lUndef {
				s.enqueue(l.not(), noRef, ci)
			}
		}
	case free == c.lo:
		for _, l := range c.lits {
			if s.value(l) == lUndef {
				s.enqueue(l, noRef, ci)
			}
		}
	}
	return conflict{}, false
}

func (s *solver) propagateClauses(p lit) (conflict, bool) {
	ws := s.watches[p]
	falseLit := p.not()
	i, j := 0, 0
	confl := noRef
	for i < len(ws) {
		w := ws[i]
		i++
		if s.value(w.blocker) == lTrue {
			ws[j] = w
			j++
			continue
		}
		c := w.c
		ls := s.ca[c+hdr : c+hdr+cref(s.ca[c])]
		if ls[0] == falseLit {
			ls[0], ls[1] = ls[1], falseLit
		}
		first := ls[0]
		nw := watch{c, first}
		if first != w.blocker && s.value(first) == lTrue {
			ws[j] = nw
			j++
			continue
		}
		found := false
		for k := 2; k < len(ls); k++ {
			if s.value(ls[k]) != lFalse {
				ls[1], ls[k] = ls[k], falseLit
				s.watches[ls[1].not()] = append(s.watches[ls[1].not()], nw)
				found = true
				break
			}
		}
		if found {
			continue
		}
		ws[j] = nw
		j++
		if s.value(first) == lFalse {
			confl = c
			for i < len(ws) {
				ws[j] = ws[i]
				i++
				j++
			}
		} else {
			s.enqueue(first, c, -1)
		}
	}
	s.watches[p] = ws[:j]
	if confl != noRef {
		return conflict{cl: confl, card: -1}, true
	}
	return conflict{}, false
}

// cancelUntil backtracks to decision level lv, undoing the counters of
// every trail entry propagation has seen and saving phases.
func (s *solver) cancelUntil(lv int32) {
	if s.decisionLevel() <= lv {
		return
	}
	start := int(s.lim[lv])
	for i := len(s.trail) - 1; i >= start; i-- {
		p := s.trail[i]
		if i < s.qhead {
			for _, ci := range s.occ[p] {
				s.cards[ci].nTrue--
			}
			for _, ci := range s.occ[p.not()] {
				s.cards[ci].nFalse--
			}
			for _, o := range s.occCnt[p] {
				switch o.kind {
				case xTrue:
					s.cnts[o.ci].nTrue--
				case xFalse:
					s.cnts[o.ci].nFalse--
				}
			}
		}
		v := p.v()
		s.assign[v] = lUndef
		s.val[p], s.val[p.not()] = lUndef, lUndef
		s.explained[v] = false
		s.rcl[v] = noRef
		s.rcard[v] = -1
		s.rcnt[v] = -1
		s.phase[v] = !p.neg()
		s.heap.insert(v)
	}
	s.trail = s.trail[:start]
	s.qhead = min(s.qhead, start)
	s.lim = s.lim[:lv]
}

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

// luby returns the i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 ….
func luby(i int) int {
	size, seq := 1, 0
	for size < i+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != i {
		size = (size - 1) / 2
		seq--
		i %= size
	}
	return 1 << seq
}

// Schedules: a restart after restartUnit times a Luby term conflicts; a
// reduction of the learnt clauses after reduceFirst conflicts, then
// reduceStep more each time (as glucose does).
var rephaseEvery = 1

var restartUnit = 100

const (
	reduceFirst = 2000
	reduceStep  = 300
)

// solve searches for an assignment of every variable, within limit
// conflicts (0: no limit); ctx is polled every 256 conflicts and every
// 4096 decisions.
func (s *solver) solve(ctx context.Context, limit int64) (status, error) {
	if s.unsat {
		return unsatisfiable, nil
	}
	if s.nextReduce == 0 {
		s.nextReduce = s.conflicts + reduceFirst
	}
	start := s.conflicts
	for i := 0; ; i++ {
		if i > 0 && rephaseEvery > 0 && i%rephaseEvery == 0 && s.rephase != nil {
			s.rephase()
		}
		budget := int64(luby(i) * restartUnit)
		st, err := s.search(ctx, budget, start, limit)
		if st != unknown || err != nil {
			return st, err
		}
		if limit > 0 && s.conflicts-start >= limit {
			return unknown, nil
		}
	}
}

func (s *solver) search(ctx context.Context, budget, start, limit int64) (status, error) {
	local := int64(0)
	for {
		cf, bad := s.propagate()
		if bad {
			s.conflicts++
			local++
			if s.decisionLevel() == 0 {
				s.unsat = true
				return unsatisfiable, nil
			}
			learnt, bt, lbd := s.analyze(cf)
			s.cancelUntil(bt)
			if len(learnt) == 1 {
				s.enqueue(learnt[0], noRef, -1)
			} else {
				c := s.alloc(learnt, true, lbd)
				s.learnts = append(s.learnts, c)
				s.attach(c)
				s.bumpClause(c)
				s.enqueue(learnt[0], c, -1)
			}
			s.varInc /= 0.95
			s.claInc /= 0.999
			if s.conflicts%256 == 0 {
				if err := ctx.Err(); err != nil {
					return unknown, err
				}
			}
			if limit > 0 && s.conflicts-start >= limit {
				return unknown, nil
			}
			continue
		}
		if local >= budget {
			s.cancelUntil(0)
			return unknown, nil
		}
		if s.conflicts >= s.nextReduce {
			s.reduces++
			s.nextReduce = s.conflicts + reduceFirst + reduceStep*s.reduces
			s.reduce()
		}
		if lv := s.decisionLevel(); lv < int32(len(s.assumps)) {
			p := s.assumps[lv]
			switch s.value(p) {
			case lFalse:
				s.analyzeFinal(p)
				return failed, nil
			case lTrue:
				// Already true: a level of its own, with nothing on it.
				s.lim = append(s.lim, int32(len(s.trail)))
			default:
				s.lim = append(s.lim, int32(len(s.trail)))
				s.enqueue(p, noRef, -1)
			}
			continue
		}
		v := s.pick()
		if v < 0 {
			return sat, nil
		}
		s.decisions++
		if s.decisions%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return unknown, err
			}
		}
		s.lim = append(s.lim, int32(len(s.trail)))
		d := mkLit(v, !s.phase[v])
		if v < s.posBelow {
			d = mkLit(v, false)
		}
		s.enqueue(d, noRef, -1)
	}
}

// analyzeFinal sets s.final to the assumptions that made assumption p
// false: p, and those the reasons of ¬p lead back to (none if ¬p holds at
// level 0). No code satisfies them all.
func (s *solver) analyzeFinal(p lit) {
	s.final = append(s.final[:0], p)
	if s.level[p.v()] == 0 {
		return
	}
	s.seen[p.v()] = true
	buf := s.buf3
	for i := len(s.trail) - 1; i >= int(s.lim[0]); i-- {
		q := s.trail[i]
		v := q.v()
		if !s.seen[v] {
			continue
		}
		s.seen[v] = false
		if !s.hasReason(v) {
			// Below the assumptions' levels every decision is one.
			if q != p.not() {
				s.final = append(s.final, q)
			}
			continue
		}
		buf = s.reasonLits(v, buf[:0])
		for _, r := range buf {
			if s.level[r.v()] > 0 {
				s.seen[r.v()] = true
			}
		}
	}
	s.buf3 = buf
}

// pick returns the unassigned variable of highest activity, or −1.
func (s *solver) pick() int32 {
	for !s.heap.empty() {
		v := s.heap.pop()
		if s.assign[v] == lUndef {
			return v
		}
	}
	return -1
}

// varHeap is a binary max-heap of variables by activity.
type varHeap struct {
	act   []float64
	heap  []int32
	index []int32 // place in heap, or −1
}

func (h *varHeap) empty() bool { return len(h.heap) == 0 }

func (h *varHeap) less(a, b int32) bool { return h.act[a] > h.act[b] }

func (h *varHeap) insert(v int32) {
	if h.index[v] >= 0 {
		return
	}
	h.index[v] = int32(len(h.heap))
	h.heap = append(h.heap, v)
	h.up(int(h.index[v]))
}

func (h *varHeap) update(v int32) {
	if i := h.index[v]; i >= 0 {
		h.up(int(i))
	}
}

func (h *varHeap) pop() int32 {
	v := h.heap[0]
	last := h.heap[len(h.heap)-1]
	h.heap = h.heap[:len(h.heap)-1]
	h.index[v] = -1
	if len(h.heap) > 0 {
		h.heap[0] = last
		h.index[last] = 0
		h.down(0)
	}
	return v
}

func (h *varHeap) up(i int) {
	v := h.heap[i]
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(v, h.heap[p]) {
			break
		}
		h.heap[i] = h.heap[p]
		h.index[h.heap[i]] = int32(i)
		i = p
	}
	h.heap[i] = v
	h.index[v] = int32(i)
}

func (h *varHeap) down(i int) {
	v := h.heap[i]
	n := len(h.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h.less(h.heap[c+1], h.heap[c]) {
			c++
		}
		if !h.less(h.heap[c], v) {
			break
		}
		h.heap[i] = h.heap[c]
		h.index[h.heap[i]] = int32(i)
		i = c
	}
	h.heap[i] = v
	h.index[v] = int32(i)
}
