package huge

import (
	"context"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// solverShare is the most of its budget a guess spends in all when its
// walk found no code that fits and the complete solver looks for one;
// minConflicts is the least work the solver gets, in conflicts.
const (
	solverShare  = 2.0
	minConflicts = 200
)

// useSolver turns on solverCodes in Fit (off for measurements of play
// without it).
var useSolver = true

// solverCodes returns up to n codes that fit st's turns, drawn by the
// complete solver (package consist) that follows the game, so that each
// search starts with what the earlier ones learnt. Its work is counted in
// conflicts, all the codes' together at most left nanoseconds' worth (at
// least minConflicts), priced by consist.ConflictNanos: the same on every
// machine, so games stay reproducible from their seeds. It returns fewer codes, or none, when the
// limit comes first; an error only if ctx ended or no code fits.
func solverCodes(ctx context.Context, st *mm.State, left float64, n int) ([][]uint8, error) {
	limit := max(minConflicts, int64(left/consist.ConflictNanos(st.Rules())))
	codes, _, err := consist.DrawFor(ctx, st, n, limit)
	out := make([][]uint8, len(codes))
	for k, c := range codes {
		out[k] = make([]uint8, c.Len())
		for i := range out[k] {
			out[k][i] = uint8(c.Peg(i))
		}
	}
	return out, err
}
