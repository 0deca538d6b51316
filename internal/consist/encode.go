package consist

import (
	"math/rand/v2"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Variables: x(p, c) = [position p has colour c] come first, p·colours +
// c; then y(c, t) = [colour c occurs at least t times], t = 1 … pegs.

func xVar(colors, p, c int) int32 { return int32(p*colors + c) }

func yVar(pegs, colors, c, t int) int32 { return int32(pegs*colors + c*pegs + t - 1) }

// encode builds the solver for the codes of r that fit turns. Its
// variables get small random activities, so that ties break at random.
func encode(r mm.Rules, turns []mm.Turn, rng *rand.Rand) *solver {
	s, _ := encodeGuarded(r, turns, rng, false)
	return s
}

// encodeGuarded is encode, and if guarded, each turn's constraints hold
// only when its guard, a variable of its own, is true: it returns the
// guards, by turn, for a search to assume.
func encodeGuarded(r mm.Rules, turns []mm.Turn, rng *rand.Rand, guarded bool) (*solver, []lit) {
	P, C := r.Pegs, r.Colors
	s := newSolver(P*C+C*P, rng)
	lits := make([]lit, 0, 2*P+C)
	// Exactly one colour per position.
	for p := range P {
		lits = lits[:0]
		for c := range C {
			lits = append(lits, mkLit(xVar(C, p, c), false))
		}
		s.addCard(lits, 1, 1)
	}
	// y(c, t) ⇔ at least t of the x(·, c), by a counter; with y(c, t+1)
	// → y(c, t) the y are the count in unary.
	ys := make([]lit, 0, P)
	for c := range C {
		lits, ys = lits[:0], ys[:0]
		for p := range P {
			lits = append(lits, mkLit(xVar(C, p, c), false))
			ys = append(ys, mkLit(yVar(P, C, c, p+1), false))
		}
		s.addCounter(lits, ys)
		for t := 1; t < P; t++ {
			s.addClause([]lit{mkLit(yVar(P, C, c, t+1), true), mkLit(yVar(P, C, c, t), false)})
		}
		if r.Distinct && P >= 2 {
			s.addUnit(mkLit(yVar(P, C, c, 2), true))
		}
	}
	// The counts sum to the pegs: implied, but it propagates sooner.
	lits = lits[:0]
	for c := range C {
		for t := 1; t <= P; t++ {
			lits = append(lits, mkLit(yVar(P, C, c, t), false))
		}
	}
	s.addCard(lits, int32(P), int32(P))
	var guards []lit
	for _, tn := range turns {
		g := noLit
		if guarded {
			g = mkLit(s.newVar(), false)
			guards = append(guards, g)
		}
		addTurn(s, P, C, tn, g)
	}
	initVars(s, 0)
	return s, guards
}

// initVars gives the variables from v on small random activities, so that
// ties break at random, and puts them in the heap.
func initVars(s *solver, v int32) {
	for ; v < int32(len(s.assign)); v++ {
		s.act[v] = s.rng.Float64() * 1e-3
		s.heap.insert(v)
	}
}

// addTurn adds the constraints of a turn at level 0, guarded by guard
// unless it is noLit: its blacks as a card over the guess's x, and its
// blacks plus whites over the count variables y(c, t) for t up to the
// guess's count of c. The caller calls resync if a search has run.
func addTurn(s *solver, P, C int, tn mm.Turn, guard lit) {
	g, f := tn.Guess, tn.Feedback
	var n [mm.MaxColors]int
	lits := make([]lit, 0, P)
	for p := range P {
		k := g.Peg(p)
		n[k]++
		lits = append(lits, mkLit(xVar(C, p, k), false))
	}
	s.addGuardedCard(lits, int32(f.Black), int32(f.Black), guard)
	lits = lits[:0]
	for c := range C {
		for t := 1; t <= n[c]; t++ {
			lits = append(lits, mkLit(yVar(P, C, c, t), false))
		}
	}
	s.addGuardedCard(lits, int32(f.Black+f.White), int32(f.Black+f.White), guard)
}

// randomizePhases gives every position a random colour as its phase, so
// that each search starts toward a different code.
func (sv *Solver) randomizePhases() {
	s, P, C := sv.s, sv.pegs, sv.colors
	for p := range P {
		k := s.rng.IntN(C)
		for c := range C {
			s.phase[xVar(C, p, c)] = c == k
		}
	}
	for c := range C {
		for t := 1; t <= P; t++ {
			s.phase[yVar(P, C, c, t)] = false
		}
	}
}

// posX makes the search decide the x true, a colour for a position, rather
// than by the saved phase, which for all but one colour of a position is
// false (a switch for measurements).
var posX = true
