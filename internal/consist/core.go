package consist

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A ConflictError reports answers that no code fits all together, as the
// solver's proof of it names them. It wraps mm.ErrInconsistent.
type ConflictError struct {
	// Turns are the answers, by their index in the history from 0, in
	// ascending order: no code fits them all.
	Turns []int
	// Irreducible says that each of Turns was shown to be needed: without
	// any one of them, some code fits the others.
	Irreducible bool
}

// Error says which answers cannot all be true, numbered from 1.
func (e *ConflictError) Error() string {
	rows := make([]string, len(e.Turns))
	for i, t := range e.Turns {
		rows[i] = strconv.Itoa(t + 1)
	}
	switch len(rows) {
	case 0:
		return mm.ErrInconsistent.Error()
	case 1:
		return fmt.Sprintf("%v: answer %s cannot be right", mm.ErrInconsistent, rows[0])
	case 2:
		return fmt.Sprintf("%v: answers %s and %s cannot both be true", mm.ErrInconsistent, rows[0], rows[1])
	}
	return fmt.Sprintf("%v: answers %s and %s cannot all be true together", mm.ErrInconsistent,
		strings.Join(rows[:len(rows)-1], ", "), rows[len(rows)-1])
}

// Unwrap returns mm.ErrInconsistent.
func (e *ConflictError) Unwrap() error { return mm.ErrInconsistent }

var debugCore = false

// Check returns a code of r that fits every turn, or, if none does, a
// *ConflictError naming answers that cannot all be true together: those
// the solver's proof used, then shrunk by taking out one at a time, oldest
// first, while the rest still provably conflict (so that the newest are
// named). The proof's search stops at limit conflicts (limit ≤ 0: no
// limit) with ErrLimit; the shrinking spends at most as much again, and
// says whether it finished (ConflictError.Irreducible). It fails with
// ctx.Err() if ctx ends first, and as New does for bad rules or turns.
//
// Each turn's constraints are guarded by a literal of their own, and the
// search assumes them all: a search that fails under its assumptions
// names, by the reasons that falsified one of them, the assumptions it
// depends on (MiniSat's analyzeFinal).
func Check(ctx context.Context, r mm.Rules, turns []mm.Turn, limit int64, rng *rand.Rand) (mm.Code, error) {
	sv, guards, err := build(r, turns, rng, true)
	if err != nil {
		return mm.Code{}, err
	}
	s := sv.s
	turnOf := make(map[lit]int, len(guards))
	for i, g := range guards {
		turnOf[g] = i
	}
	all := make([]int, len(turns))
	for i := range all {
		all[i] = i
	}
	// try searches under the guards of set: a code, or the turns of set
	// the failure depends on, or neither when it met its limit.
	try := func(set []int, limit int64) (mm.Code, []int, error) {
		s.cancelUntil(0)
		s.assumps = s.assumps[:0]
		for _, i := range set {
			s.assumps = append(s.assumps, guards[i])
		}
		for _, g := range guards {
			s.phase[g.v()] = false // a turn not assumed is left out
		}
		sv.randomizePhases()
		st, err := s.solve(ctx, limit)
		switch {
		case err != nil:
			return mm.Code{}, nil, err
		case st == sat:
			c, _ := sv.model()
			return c, nil, nil
		case st == unsatisfiable:
			// Without any turn: the rules have no code (not reached).
			return mm.Code{}, slices.Clone(set), nil
		case st == failed:
			core := make([]int, 0, len(s.final))
			for _, g := range s.final {
				core = append(core, turnOf[g])
			}
			slices.Sort(core)
			return mm.Code{}, core, nil
		}
		return mm.Code{}, nil, ErrLimit
	}
	start := s.conflicts
	c, core, err := try(all, limit)
	if err != nil || core == nil {
		s.cancelUntil(0)
		return c, err
	}
	// Shrink: take out each turn in turn, oldest first; a failure without
	// it gives a core, often smaller, that the next tries start from.
	proof := max(s.conflicts-start, 100)
	if debugCore {
		fmt.Println("proof", s.conflicts-start, "core", core)
	}
	left := limit
	needed := make(map[int]bool)
	irreducible := true
	for {
		i := slices.IndexFunc(core, func(t int) bool { return !needed[t] })
		if i < 0 {
			break
		}
		if limit > 0 && left <= 0 {
			irreducible = false
			break
		}
		step := 4 * proof
		if limit > 0 {
			step = min(step, left)
		}
		before := s.conflicts
		_, sub, err := try(slices.Delete(slices.Clone(core), i, i+1), step)
		left -= s.conflicts - before
		if debugCore {
			fmt.Println("try without", core[i], "step", step, "used", s.conflicts-before, "sub", len(sub), err)
		}
		switch {
		case err == ErrLimit:
			// Not known: keep the turn, and say so.
			needed[core[i]], irreducible = true, false
		case err != nil:
			s.cancelUntil(0)
			return mm.Code{}, err
		case sub == nil:
			needed[core[i]] = true
		default:
			core = sub
		}
	}
	s.cancelUntil(0)
	return mm.Code{}, &ConflictError{Turns: core, Irreducible: irreducible}
}
