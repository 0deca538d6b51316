package consist

import (
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

type keptKey struct{}

// Follow carries the solver to the next state.
func (k *kept) Follow(*mm.State) (mm.Follower, error) { return k, nil }

// ForState returns a solver for the codes that fit st's turns, and a
// function to call when done with it: the solver is kept on st and the
// states played from it, and added the turns since its last use. A new
// one draws its phases from a source seeded by st.Rand(), so a game stays
// reproducible from its seed. It fails as New does.
func ForState(st *mm.State) (*Solver, func(), error) {
	k := st.Attach(keptKey{}, &kept{}).(*kept)
	k.mu.Lock()
	turns := st.Turns()
	prefix := k.sv != nil && len(k.turns) <= len(turns)
	for i := 0; prefix && i < len(k.turns); i++ {
		prefix = k.turns[i] == turns[i]
	}
	switch {
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
