package consist

import (
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
