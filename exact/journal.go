package exact

import (
	"context"
	"errors"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Unit is a piece of a search by first guess (SolveOpenings): the codes
// that give one feedback to one first guess, solved on their own.
type Unit struct {
	Guess    mm.Code
	Feedback mm.Feedback
	Total    int      // guesses after the first, over the unit's codes
	Depth    int      // the most guesses any of them needs after the first
	Tree     *mm.Tree // the unit's tree, from its first guess after Guess
}

// A Journal keeps what a search by first guess has done, so that a search
// stopped midway resumes without doing it again: the units solved, and the
// first guesses found unable to beat the best before them. A journal
// belongs to one state and one Options.MaxDepth.
type Journal interface {
	// Unit returns the unit of the codes that give f to first guess g,
	// if it was solved.
	Unit(g mm.Code, f mm.Feedback) (Unit, bool)
	// Solved keeps a unit just solved.
	Solved(u Unit) error
	// Beaten reports whether first guess g was given up: found unable
	// to beat the best before it (SolveOpenings), or to reach a known
	// strategy's total or the depth limit (SolveShare).
	Beaten(g mm.Code) bool
	// Beat keeps that first guess g was given up.
	Beat(g mm.Code) error
}

// A Floorer is a Journal that knows, of units it has not solved, the least
// they can cost: for a search within a depth limit, the totals a looser
// search (a higher limit, or none) found for the same units, as a limit
// never makes a unit cheaper. SolveOpenings and SolveShare give a first
// guess up on these floors, where they beat the counting bound, before
// searching its units.
type Floorer interface {
	Journal
	// Floor returns the least total the unit of the codes that give f to
	// first guess g can have, if known.
	Floor(g mm.Code, f mm.Feedback) (int, bool)
}

// floor returns the least the unit of the size codes that give f to g can
// cost: j's floor, if it knows one above the counting bound fill.
func floor(j Journal, g mm.Code, f mm.Feedback, fill int) int {
	if fl, ok := j.(Floorer); ok {
		if v, ok := fl.Floor(g, f); ok && v > fill {
			return v
		}
	}
	return fill
}

// memJournal keeps nothing past the search: a search that is not resumed.
type memJournal struct{}

func (memJournal) Unit(mm.Code, mm.Feedback) (Unit, bool) { return Unit{}, false }
func (memJournal) Solved(Unit) error                      { return nil }
func (memJournal) Beaten(mm.Code) bool                    { return false }
func (memJournal) Beat(mm.Code) error                     { return nil }

// SolveOpenings is Solve, done first guess by first guess and, under each,
// feedback by feedback, each unit solved on its own and kept in j (nil for
// none): a search of hours can so be stopped and resumed from j, losing
// only the unit under way. It returns what Solve does but the tree's
// choices, which may differ where several guesses reach the same least
// total and worst case: under each first guess, each unit's tree has its
// own least worst case, and among strategies of the least total, the first
// guess with the least worst case, then the first in the order of Openings.
//
// The first guesses are tried in that order; before a unit is solved, a
// search bounded by what the best first guess so far leaves it (Cost)
// shows whether its first guess can still beat the best, and if not, the
// first guess is given up and j keeps that. What the other units leave
// counts their totals if solved, else their floors if j is a Floorer, else
// their counting bounds.
func SolveOpenings(ctx context.Context, st *mm.State, opts *Options, j Journal) (*Result, error) {
	if j == nil {
		j = memJournal{}
	}
	sv, err := NewSolver(st, opts)
	if err != nil {
		return nil, err
	}
	defer sv.Close()
	sv.s.byOpening = true
	if sv.opts.Progress != nil {
		stop := sv.s.report(sv.opts.Progress, sv.opts.ProgressEvery)
		defer stop()
	}
	openings, err := sv.Openings(st)
	if err != nil {
		return nil, err
	}
	n := st.Remaining()
	pegs := st.Rules().Pegs
	type choice struct {
		guess        mm.Code
		total, depth int
		units        []Unit
	}
	var best *choice
	for k, g := range openings {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if j.Beaten(g) {
			continue
		}
		gi, _ := sv.s.p.sp.Index(g)
		shown := int32(inf)
		if best != nil {
			shown = int32(best.total)
		}
		sv.s.news.set(int32(gi), k+1, len(openings), shown)
		fs, kids, err := st.Branch(g)
		if err != nil {
			return nil, err
		}
		// The units solved before, and for the bounded searches, the
		// least the units from each on can cost: what they cost if
		// solved, their counting bound if not.
		kept := make([]Unit, len(kids))
		have := make([]bool, len(kids))
		lower := make([]int, len(kids)+1)
		for i := len(kids) - 1; i >= 0; i-- {
			lower[i] = lower[i+1]
			if fs[i].Solved(pegs) {
				continue
			}
			if kept[i], have[i] = j.Unit(g, fs[i]); have[i] {
				lower[i] += kept[i].Total
			} else {
				lower[i] += floor(j, g, fs[i], int(sv.s.p.fill[kids[i].Remaining()]))
			}
		}
		c := &choice{guess: g, total: n, depth: 1}
		beaten := false
		parts, done := 0, 0
		for i := range kids {
			if !fs[i].Solved(pegs) {
				parts++
				if have[i] {
					done++
				}
			}
		}
		for i, kid := range kids {
			if fs[i].Solved(pegs) {
				continue
			}
			if d := sv.opts.MaxDepth; d > 0 && st.Len()+1 >= d {
				beaten = true // codes left after g, and no guess left within MaxDepth
				break
			}
			u, ok := kept[i], have[i]
			if !ok {
				sv.s.news.setPart(fs[i], kid.Remaining(), done, parts)
				if best != nil {
					// The most this unit may cost for g to reach the
					// best's total.
					room := best.total - c.total - lower[i+1]
					if room < floor(j, g, fs[i], int(sv.s.p.fill[kid.Remaining()])) {
						beaten = true
						break
					}
					_, below, err := sv.Cost(ctx, kid, room+1)
					if err != nil {
						return nil, err
					}
					if !below {
						beaten = true
						break
					}
				}
				res, err := sv.Solve(ctx, kid)
				if errors.Is(err, ErrDepth) {
					beaten = true // no strategy after g within MaxDepth
					break
				}
				if err != nil {
					return nil, err
				}
				u = Unit{Guess: g, Feedback: fs[i], Total: res.Total, Depth: res.Depth, Tree: res.Tree}
				if err := j.Solved(u); err != nil {
					return nil, err
				}
				done++
			}
			c.total += u.Total
			c.depth = max(c.depth, 1+u.Depth)
			c.units = append(c.units, u)
		}
		if !beaten && best != nil && c.total > best.total {
			beaten = true // units from the journal, solved before a better best
		}
		if beaten {
			if err := j.Beat(g); err != nil {
				return nil, err
			}
			continue
		}
		if best == nil || c.total < best.total || (c.total == best.total && c.depth < best.depth) {
			best = c
		}
	}
	if best == nil {
		if sv.opts.MaxDepth > 0 {
			return nil, &depthError{fmt.Sprintf("mastermind: no strategy for %v finds every secret within %d guesses", st.Rules(), sv.opts.MaxDepth)}
		}
		return nil, fmt.Errorf("mastermind: exact search of %v found no strategy", st.Rules())
	}
	t := &mm.Tree{Guess: best.guess, Size: n}
	for _, u := range best.units {
		if u.Tree == nil {
			return nil, fmt.Errorf("mastermind: the journal has no tree for %v after %v", u.Feedback, u.Guess)
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: u.Feedback, Next: u.Tree})
	}
	gotTotal, gotDepth := t.Cost()
	if gotTotal != best.total || gotDepth != best.depth {
		return nil, fmt.Errorf("%w: the tree by first guess costs %d guesses, depth %d; its units add up to %d, depth %d", ErrInternal, gotTotal, gotDepth, best.total, best.depth)
	}
	return &Result{Tree: t, Total: best.total, Depth: best.depth, Nodes: sv.s.nodes.Load()}, nil
}
