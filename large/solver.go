package large

import (
	"context"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// minConflicts is the least work solverCodes gives the solver, in
// conflicts, however little of the budget is left: on the seeded games of
// 20 × 20 to 30 × 30 most turns past the sampler's reach need a few
// hundred.
const minConflicts = 200

// useSolver turns on solverCodes in Sampler (off for measurements of play
// without it).
var useSolver = true

// solverCodes returns up to n codes that fit st's turns, flat, drawn by
// the complete solver (package consist) that follows the game, so that
// each search starts with what the earlier ones learnt. Its work is
// counted in conflicts, all the codes' together at most what is left of
// solverShare budgets (at least minConflicts), priced by consist.ConflictNanos, and
// spent on m. It returns fewer codes, or none, when the limit comes first;
// an error only if ctx ended or no code fits (wrapping mm.ErrInconsistent).
func solverCodes(ctx context.Context, st *mm.State, m *meter, n int) (out []uint8, err error) {
	cost := consist.ConflictNanos(st.Rules())
	limit := max(minConflicts, int64((m.budget*solverShare-m.spent)/cost))
	codes, work, err := consist.DrawFor(ctx, st, n, limit)
	m.spend(float64(work) * cost)
	for _, c := range codes {
		out = appendCode(out, c)
	}
	return out, err
}
