package play

import (
	"context"
	"errors"
	"slices"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
	"github.com/mastermind-toolkit/mastermind/large"
)

// conflictBudget bounds the filters smallestConflict spends looking for a
// smallest set before it settles for an irreducible one.
const conflictBudget = 1 << 14

// smallestConflict returns the positions in turns of a smallest set of
// turns that no code of all satisfies, in ascending order, and whether it
// is a smallest one; nil if every turn can hold at once.
//
// It tries sets by increasing size, newest turns first, so that among sets
// of the smallest size it prefers the one with the most recent answers.
// When the search would take more than conflictBudget filters, it returns
// instead an irreducible set: one that conflicts, but no longer does
// without any one of its turns.
func smallestConflict(all *mm.Set, turns []mm.Turn) (set []int, smallest bool) {
	if consistentWithout(all, turns, -1) {
		return nil, true
	}
	n := len(turns)
	budget := conflictBudget
	var pick []int
	var search func(k, from int, s *mm.Set) (found, out bool)
	// search extends pick, of turns from the newest, to k turns taken
	// from position from on (counted from the newest); found reports a
	// conflict, out that the budget is spent.
	search = func(k, from int, s *mm.Set) (found, out bool) {
		for i := from; i <= n-(k-len(pick)); i++ {
			if budget--; budget < 0 {
				return false, true
			}
			t := turns[n-1-i]
			f, err := s.Filter(t.Guess, t.Feedback)
			if err != nil {
				continue
			}
			pick = append(pick, n-1-i)
			if f.Len() == 0 {
				return true, false
			}
			if len(pick) < k {
				if found, out := search(k, i+1, f); found || out {
					return found, out
				}
			}
			pick = pick[:len(pick)-1]
		}
		return false, false
	}
	for k := 1; k <= n; k++ {
		pick = pick[:0]
		found, out := search(k, 0, all)
		if found {
			slices.Sort(pick)
			return pick, true
		}
		if out {
			break
		}
	}
	return irreducibleConflict(all, turns), false
}

// irreducibleConflict returns, for turns that conflict, a subset that
// conflicts but no longer does without any one of its turns, in ascending
// order. It removes turns one at a time, oldest first, while the rest still
// conflict.
func irreducibleConflict(all *mm.Set, turns []mm.Turn) []int {
	return irreducible(len(turns), func(keep []bool) bool {
		return consistent(all, turns, keep)
	})
}

// irreducible returns, for n turns that conflict, the positions in
// ascending order of a subset that conflicts but no longer does without any
// one of its turns. It removes turns one at a time, oldest first, putting
// back each one without which fits reports that the turns whose keep is
// true can all hold.
func irreducible(n int, fits func(keep []bool) bool) []int {
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	for i := range keep {
		keep[i] = false
		if fits(keep) {
			keep[i] = true
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// consistent reports whether some code of all satisfies every turn whose
// keep is true.
func consistent(all *mm.Set, turns []mm.Turn, keep []bool) bool {
	return count(all, turns, func(i int) bool { return keep[i] }) > 0
}

// consistentWithout reports whether some code satisfies every turn except
// turns[skip] (skip −1 for none).
func consistentWithout(all *mm.Set, turns []mm.Turn, skip int) bool {
	return countWithout(all, turns, skip) > 0
}

// countWithout returns the number of codes of all that satisfy every turn
// except turns[skip].
func countWithout(all *mm.Set, turns []mm.Turn, skip int) int {
	return count(all, turns, func(i int) bool { return i != skip })
}

// count returns the number of codes of all that satisfy every turns[i] for
// which use(i) is true.
func count(all *mm.Set, turns []mm.Turn, use func(i int) bool) int {
	s := all
	for i, t := range turns {
		if !use(i) {
			continue
		}
		var err error
		if s, err = s.Filter(t.Guess, t.Feedback); err != nil || s.Len() == 0 {
			return 0
		}
	}
	return s.Len()
}

// largeEffort bounds each search for a code that largeConsistent runs, for
// largeConflict and the other checks on variants too large to enumerate;
// fitTime and conflictTime are about the most time the complete solver
// (package consist) gets, turned into conflicts, for such a check and for
// the proof that names the answers in conflict.
const (
	largeEffort  = large.PlayEffort
	fitTime      = 200 * time.Millisecond
	conflictTime = 2 * time.Second
)

// conflicts returns about d's worth of the complete solver's work on r.
func conflicts(r mm.Rules, d time.Duration) int64 {
	return int64(float64(d) / consist.ConflictNanos(r))
}

// largeFits reports whether some code of a variant too large to enumerate
// satisfies every turn whose keep is true, by a bounded search of the
// turns' constraints, then the complete solver's within fitTime; known is
// false when both gave up.
func largeFits(r mm.Rules, turns []mm.Turn, keep []bool) (fits, known bool) {
	var kept []mm.Turn
	for i, t := range turns {
		if keep[i] {
			kept = append(kept, t)
		}
	}
	c, err := large.NewConstraints(r, kept)
	if err != nil {
		return false, true
	}
	if _, err = c.Find(largeEffort); errors.Is(err, large.ErrSearchLimit) {
		_, err = consist.Find(context.Background(), r, kept, conflicts(r, fitTime), nil)
	}
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, mm.ErrInconsistent):
		return false, true
	}
	return false, false
}

// largeConsistent is largeFits where a search that gives up counts as a
// yes.
func largeConsistent(r mm.Rules, turns []mm.Turn, keep []bool) bool {
	fits, known := largeFits(r, turns, keep)
	return fits || !known
}

// largeConflict is irreducibleConflict for variants too large to enumerate:
// the answers the complete solver's proof names (consist.Check), shrunk
// while the rest still conflict, oldest first; if it finds no proof within
// conflictTime, it removes turns, oldest first, while the constraint search
// still proves that the rest conflict.
func largeConflict(r mm.Rules, turns []mm.Turn) []int {
	_, err := consist.Check(context.Background(), r, turns, conflicts(r, conflictTime), nil)
	if ce := (*consist.ConflictError)(nil); errors.As(err, &ce) && len(ce.Turns) > 0 {
		return ce.Turns
	}
	fits := func(keep []bool) bool { return largeConsistent(r, turns, keep) }
	if fits(allBut(len(turns), -1)) {
		return nil
	}
	return irreducible(len(turns), fits)
}
