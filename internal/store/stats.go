package store

import (
	"context"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Stats returns the number of games played, won and lost for each variant,
// with the guesses of the won games, in the order of colours, pegs and
// distinct; a game still in play past its deadline at time now counts as
// lost. Deleted games count as they ended.
//
// Stats reads the counters of each variant and the games past their
// deadline that the sweep has not recorded yet, through indexes: its cost
// grows with the number of variants and of those games, not with the games
// stored.
func (s *Store) Stats(ctx context.Context, now time.Time) ([]mm.GameStats, error) {
	select {
	case <-s.quit:
		return nil, ErrClosed
	default:
	}
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for both queries
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, statsQuery)
	if err != nil {
		return nil, err
	}
	var out []mm.GameStats
	for rows.Next() {
		var st mm.GameStats
		if err := rows.Scan(&st.Rules.Colors, &st.Rules.Pegs, &st.Rules.Distinct, &st.Played, &st.Won, &st.Lost, &st.WonGuesses); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, st)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, expiredQuery, now.UnixMilli())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r mm.Rules
			n int
		)
		if err := rows.Scan(&r.Colors, &r.Pegs, &r.Distinct, &n); err != nil {
			return nil, err
		}
		for i := range out {
			if out[i].Rules == r {
				out[i].Lost += n
			}
		}
	}
	return out, rows.Err()
}

// The queries of Stats: the counters, and the games in play past their
// deadline, by variant (through the partial index games_expiring).
const (
	statsQuery   = `SELECT colors, pegs, distinct_, played, won, lost, won_guesses FROM stats ORDER BY colors, pegs, distinct_`
	expiredQuery = `SELECT colors, pegs, distinct_, COUNT(*) FROM games
		WHERE status = 'playing' AND deadline_ms IS NOT NULL AND deadline_ms < ?
		GROUP BY colors, pegs, distinct_`
)
