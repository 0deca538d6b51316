// Package consist finds the codes that fit every answer of a Mastermind
// game so far: one, many distinct ones, or a proof that there is none.
//
// It is a conflict-driven clause-learning (CDCL) solver written for the
// problem. A code is a Boolean variable per (position, colour), exactly one
// true per position; the count of each colour is kept in order encoding,
// a variable [count of c ≥ t] per colour and level, tied to the colour's
// position variables by one cardinality constraint; each answer is two
// cardinality constraints: the blacks over the guess's (position, colour)
// variables, and blacks plus whites over the count variables, since a
// colour contributes min(count in the secret, count in the guess) =
// Σ_{t ≤ count in the guess} [count ≥ t]. Cardinality constraints
// propagate natively, by counters, and explain what they force with the
// literals that forced it (computed once per assignment); the search
// learns first-UIP clauses, kept in one arena, restarts on the Luby
// sequence with new random phases each time, and branches on VSIDS
// activity, deciding a (position, colour) variable true: a colour for a
// position, not one ruled out.
//
// A history may grow: Add gives a solver more answers and keeps what it
// learnt, which stays valid, and ForState keeps one solver on a game's
// states, so that each turn's search starts where the last one left off.
//
// Check decides a history once: a code that fits, or, when none does, a
// ConflictError naming answers that cannot all be true together, read
// from the proof: each turn's constraints hold under an assumption of
// their own, and a search that fails under its assumptions names those it
// used; taking out one turn at a time, while the rest still conflict,
// shrinks the set when the work allows.
//
// The search is sound and complete: a code it returns fits every answer,
// and it reports that no code fits only when none does. Hard histories may
// need more work than a caller can wait for, so every search takes a
// context and a limit on conflicts.
package consist

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	mm "github.com/mastermind-toolkit/mastermind"
)

// ErrLimit is returned when a search reached its limit on conflicts
// before it found a code or proved there is none.
var ErrLimit = errors.New("consist: work limit reached")

// A Solver draws codes that fit a history, each distinct from those it
// drew since the last turn was added. The history may grow (Add): what the
// solver learnt stays valid, so a game can keep one solver from turn to
// turn. It is not safe for concurrent use.
type Solver struct {
	rules   mm.Rules
	turns   []mm.Turn
	s       *solver
	drawn   int
	last    mm.Code // the last code drawn, if drawn > 0
	pegs    int
	colors  int
	blocked bool // no more codes: all were drawn
	// round, if not noLit, guards the clauses that block the codes drawn
	// since the last Add: each is (¬round ∨ some peg differs), and the
	// searches assume round; Add makes it false for good, which frees
	// those codes and retires the clauses.
	round lit
}

// Stats counts a solver's work so far.
type Stats struct {
	Conflicts    int64 // conflicts met, the unit of the work limit
	Decisions    int64 // branches taken
	Propagations int64 // literals propagated
	Learnts      int   // learnt clauses kept
	Drawn        int   // codes returned
}

// New returns a solver for the codes of r that fit every turn. rng draws
// the random phases that make successive codes differ; nil means a source
// seeded with 0. It fails, wrapping mm.ErrInvalidRules, mm.ErrInvalidCode
// or mm.ErrInvalidFeedback, if r or a turn is not valid; a history no code
// fits is not an error here, but the first call to Next reports it.
func New(r mm.Rules, turns []mm.Turn, rng *rand.Rand) (*Solver, error) {
	sv, _, err := build(r, turns, rng, false)
	return sv, err
}

// build is New, with each turn guarded if guarded (encodeGuarded);
// it returns the guards.
func build(r mm.Rules, turns []mm.Turn, rng *rand.Rand, guarded bool) (*Solver, []lit, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, nil, err
	}
	for i, t := range turns {
		if err := r.Check(t.Guess); err != nil {
			return nil, nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		if err := r.CheckFeedback(t.Feedback); err != nil {
			return nil, nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	sv := &Solver{rules: r, turns: append([]mm.Turn(nil), turns...), pegs: r.Pegs, colors: r.Colors, round: noLit}
	var guards []lit
	sv.s, guards = encodeGuarded(r, turns, rng, guarded)
	sv.s.rephase = sv.randomizePhases
	if posX {
		sv.s.posBelow = int32(r.Pegs * r.Colors)
	}
	return sv, guards, nil
}

// Add adds turns to the history. The codes drawn before may be drawn
// again (the answers may rule them out); what the solver learnt is kept.
// It fails, wrapping mm.ErrInvalidCode or mm.ErrInvalidFeedback, if a turn
// is not valid for the solver's rules, and then adds none.
func (sv *Solver) Add(turns ...mm.Turn) error {
	r := sv.rules
	for i, t := range turns {
		if err := r.Check(t.Guess); err != nil {
			return fmt.Errorf("turn %d: %w", len(sv.turns)+i+1, err)
		}
		if err := r.CheckFeedback(t.Feedback); err != nil {
			return fmt.Errorf("turn %d: %w", len(sv.turns)+i+1, err)
		}
	}
	s := sv.s
	s.cancelUntil(0)
	retire := sv.round != noLit
	if retire {
		s.addUnit(sv.round.not())
		sv.round, s.assumps = noLit, nil
	}
	sv.blocked, sv.drawn = false, 0
	nv := int32(len(s.assign))
	for _, t := range turns {
		addTurn(s, sv.pegs, sv.colors, t, noLit)
	}
	sv.turns = append(sv.turns, turns...)
	initVars(s, nv)
	if s.unsat {
		return nil
	}
	s.resync()
	if _, bad := s.propagate(); bad {
		s.unsat = true
		return nil
	}
	if retire {
		s.simplify()
	}
	return nil
}

// Next returns a code that fits every turn and differs from every code
// this solver returned before. If there is none, it returns an error
// wrapping mm.ErrInconsistent; if it met limit conflicts first (limit ≤ 0:
// no limit), ErrLimit; if ctx ended first, ctx.Err(). After an error other
// than these two, later calls may go on where the search stopped.
func (sv *Solver) Next(ctx context.Context, limit int64) (mm.Code, error) {
	s := sv.s
	if s.unsat || sv.blocked {
		return mm.Code{}, sv.none()
	}
	if err := ctx.Err(); err != nil {
		return mm.Code{}, err
	}
	sv.randomizePhases()
	st, err := s.solve(ctx, limit)
	switch {
	case err != nil:
		s.cancelUntil(0)
		return mm.Code{}, err
	case st == unsatisfiable:
		return mm.Code{}, sv.none()
	case st == failed:
		s.cancelUntil(0)
		sv.blocked = true
		return mm.Code{}, sv.none()
	case st == unknown:
		s.cancelUntil(0)
		return mm.Code{}, ErrLimit
	}
	code, colors := sv.model()
	sv.drawn++
	sv.last = code
	// Block the code so that the next one differs, under round.
	s.cancelUntil(0)
	if sv.round == noLit {
		sv.round = mkLit(s.newVar(), false)
		s.assumps = []lit{sv.round}
	}
	block := make([]lit, 0, sv.pegs+1)
	block = append(block, sv.round.not())
	for p, c := range colors {
		block = append(block, mkLit(xVar(sv.colors, p, c), true))
	}
	s.addClause(block)
	return code, nil
}

// model returns the code of the solver's assignment, and its colours.
func (sv *Solver) model() (mm.Code, []int) {
	colors := make([]int, sv.pegs)
	for p := range sv.pegs {
		colors[p] = -1
		for c := range sv.colors {
			if sv.s.assign[xVar(sv.colors, p, c)] == lTrue {
				colors[p] = c
				break
			}
		}
	}
	code, err := mm.NewCode(colors...)
	if err != nil {
		panic("consist: a model without a colour at some position")
	}
	return code, colors
}

// none returns the error for a history that no code, or no code not yet
// drawn, fits.
func (sv *Solver) none() error {
	if sv.drawn > 0 {
		return fmt.Errorf("%w: no code fits all %d answers but the %d drawn", mm.ErrInconsistent, len(sv.turns), sv.drawn)
	}
	if len(sv.turns) == 0 {
		return fmt.Errorf("%w: no code fits", mm.ErrInconsistent)
	}
	t := sv.turns[len(sv.turns)-1]
	return fmt.Errorf("%w: after %s scored %s, no code fits all %d answers", mm.ErrInconsistent, t.Guess, t.Feedback, len(sv.turns))
}

// Stats returns the work done so far.
func (sv *Solver) Stats() Stats {
	return Stats{
		Conflicts:    sv.s.conflicts,
		Decisions:    sv.s.decisions,
		Propagations: sv.s.propagations,
		Learnts:      len(sv.s.learnts),
		Drawn:        sv.drawn,
	}
}

// Find returns one code of r that fits every turn; its errors are those of
// New and Next.
func Find(ctx context.Context, r mm.Rules, turns []mm.Turn, limit int64, rng *rand.Rand) (mm.Code, error) {
	sv, err := New(r, turns, rng)
	if err != nil {
		return mm.Code{}, err
	}
	return sv.Next(ctx, limit)
}

// Sample returns up to n distinct codes of r that fit every turn, fewer
// only if fewer fit; limit bounds the conflicts of each code's search. If
// no code fits it returns an error wrapping mm.ErrInconsistent; if it
// stops at the limit or at the end of ctx, the codes found so far and
// ErrLimit or ctx.Err().
func Sample(ctx context.Context, r mm.Rules, turns []mm.Turn, n int, limit int64, rng *rand.Rand) ([]mm.Code, error) {
	sv, err := New(r, turns, rng)
	if err != nil {
		return nil, err
	}
	var out []mm.Code
	for len(out) < n {
		c, err := sv.Next(ctx, limit)
		if err != nil {
			if errors.Is(err, mm.ErrInconsistent) && len(out) > 0 {
				return out, nil
			}
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}
