package consist

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A kept solver follows a game from state to state (mm.Follower), so that
// each turn's search starts with what the earlier ones learnt: the states
// after a state share it, and it catches up with a state's turns when
// used. A state whose turns do not extend the solver's history (a branch
// from an earlier state) gets a new solver.
type kept struct {
	mu    sync.Mutex
	sv    *Solver
	turns []mm.Turn // sv's history
}

// Keys of the kept solvers: ForState's, and Witness's, which draws codes
// of its own so that they are not taken from ForState's draws.
type (
	keptKey    struct{}
	witnessKey struct{}
)

// Follow carries the solver to the next state.
func (k *kept) Follow(*mm.State) (mm.Follower, error) { return k, nil }

// ForState returns a solver for the codes that fit st's turns, and a
// function to call when done with it: the solver is kept on st and the
// states played from it, and added the turns since its last use. A new
// one draws its phases from a source seeded by st.Rand(), so a game stays
// reproducible from its seed. It fails as New does.
func ForState(st *mm.State) (*Solver, func(), error) {
	return forState(st, keptKey{}, true)
}

// forState is ForState, with the solver kept under key; a call with no
// new turns starts a new round of draws (Add) only if again.
func forState(st *mm.State, key any, again bool) (*Solver, func(), error) {
	k := st.Attach(key, &kept{}).(*kept)
	k.mu.Lock()
	turns := st.Turns()
	prefix := k.sv != nil && len(k.turns) <= len(turns)
	for i := 0; prefix && i < len(k.turns); i++ {
		prefix = k.turns[i] == turns[i]
	}
	switch {
	case prefix && !again && len(turns) == len(k.turns):
	case prefix:
		if err := k.sv.Add(turns[len(k.turns):]...); err != nil {
			k.mu.Unlock()
			return nil, nil, err
		}
	default:
		rng := st.Rand()
		sv, err := New(st.Rules(), turns, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
		if err != nil {
			k.mu.Unlock()
			return nil, nil, err
		}
		k.sv = sv
	}
	k.turns = turns
	return k.sv, k.mu.Unlock, nil
}

// ConflictNanos returns about what a conflict of a search on r costs, in
// nanoseconds on the project's 2-core machine, for callers that turn a
// time budget into a limit on conflicts (which keeps games reproducible):
// measured on the fixed games of 20 × 20 to 100 × 20 (testdata), 20 to
// 35 µs on 30 × 10 to 30 × 30 and about 100 µs on 100 × 20 with other work
// on both cores, about half that on a quiet machine.
func ConflictNanos(r mm.Rules) float64 {
	return 10000 + 25*float64(r.Pegs*r.Colors)
}

// DrawFor returns up to n codes that fit st's turns, drawn by the solver
// that follows the game (ForState), so that each search starts with what
// the earlier ones learnt, and the work they took: the searches'
// conflicts, and one more for the descent that finds each code. The work
// of all of them together stops at limit conflicts (at least one search
// is tried). It returns fewer codes, or none, when the limit comes first
// or every code that fits is drawn; an error only if ctx ended or no code
// fits (wrapping mm.ErrInconsistent).
func DrawFor(ctx context.Context, st *mm.State, n int, limit int64) (codes []mm.Code, work int64, err error) {
	sv, done, err := ForState(st)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	start, calls := sv.Stats().Conflicts, int64(0)
	used := func() int64 { return sv.Stats().Conflicts - start + calls }
	for range n {
		left := limit - used()
		if left <= 0 {
			break
		}
		calls++
		c, err := sv.Next(ctx, left)
		switch {
		case errors.Is(err, ErrLimit):
			return codes, used(), nil
		case errors.Is(err, mm.ErrInconsistent) && len(codes) > 0:
			return codes, used(), nil // all the codes that fit
		case err != nil:
			return codes, used(), err
		}
		codes = append(codes, c)
	}
	return codes, used(), nil
}

// Witness returns a code that fits st's turns, from a solver kept on the
// game as ForState's is, but of its own, so that checking each answer of
// a game (as assist does on variants too large to enumerate) costs a
// search a turn that starts with what the earlier ones learnt, and takes
// no code from the draws of ForState's solver. It fails with ErrLimit past
// limit conflicts (limit ≤ 0: no limit), with an error wrapping
// mm.ErrInconsistent if no code fits, with ctx.Err() if ctx ends first.
func Witness(ctx context.Context, st *mm.State, limit int64) (mm.Code, error) {
	sv, done, err := forState(st, witnessKey{}, false)
	if err != nil {
		return mm.Code{}, err
	}
	defer done()
	if sv.drawn > 0 {
		return sv.last, nil // asked again on the same turns
	}
	return sv.Next(ctx, limit)
}
