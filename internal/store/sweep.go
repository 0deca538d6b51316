package store

import (
	"context"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

const (
	sweepBatch  = 256  // games one step of a sweep records or deletes
	vacuumPages = 2048 // pages one step of a sweep gives back (8 MiB of 4 KiB pages)
)

// Swept counts what a sweep did.
type Swept struct {
	Expired int // games in play past their deadline, recorded as lost
	Deleted int // games past the retention, deleted
	Pages   int // free pages given back to the file system
}

// A sweepStep is one transaction of a sweep, done by the writer: up to
// sweepBatch games recorded or deleted, or, with vacuum, up to vacuumPages
// pages given back.
type sweepStep struct {
	now       time.Time
	retention time.Duration
	vacuum    bool
	done      Swept // set by the writer
}

// Sweep records as lost the games in play whose deadline has passed at
// time now, deletes the games whose last activity is older than now minus
// Options.Retention (none if it is 0), and gives the pages they held back
// to the file system. It works in short transactions of the writer, so
// guesses go on meanwhile, and stops early, with ctx's error, when ctx is
// done. The background sweep calls it every Options.SweepEvery.
func (s *Store) Sweep(ctx context.Context, now time.Time) (Swept, error) {
	var total Swept
	for {
		st := &sweepStep{now: now, retention: s.opts.Retention}
		if _, err := s.do(ctx, &op{sweep: st}); err != nil {
			return total, err
		}
		total.Expired += st.done.Expired
		total.Deleted += st.done.Deleted
		if st.done.Expired+st.done.Deleted < sweepBatch {
			break
		}
	}
	for {
		st := &sweepStep{vacuum: true}
		if _, err := s.do(ctx, &op{sweep: st}); err != nil {
			return total, err
		}
		total.Pages += st.done.Pages
		if st.done.Pages < vacuumPages {
			return total, ctx.Err()
		}
	}
}

// sweepEvery runs Sweep every period until the store is closed.
func (s *Store) sweepEvery(period time.Duration) {
	defer close(s.swept)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx, s.opts.Now()); err != nil && ctx.Err() == nil {
			s.opts.Logf("mastermind: sweeping the database: %v", err)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// sweepOne does step st in tx.
func (s *Store) sweepOne(ctx context.Context, tx *writeTx, st *sweepStep) error {
	st.done = Swept{} // a step may be tried again after a failed batch
	if st.vacuum {
		return vacuum(ctx, tx, st)
	}
	// Games lost to the clock, recorded as a late guess would.
	ids, rules, err := selectGames(ctx, tx, expireQuery, st.now.UnixMilli(), sweepBatch)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET status = 'lost', ended_ms = deadline_ms,
			guesses = (SELECT COUNT(*) FROM guesses WHERE game_id = ?) WHERE id = ?`, id, id); err != nil {
			return err
		}
		tx.count(rules[i], 0, 0, 1, 0)
		tx.games[id] = nil
	}
	st.done.Expired = len(ids)
	if st.retention <= 0 || len(ids) == sweepBatch {
		return nil
	}
	cutoff := st.now.Add(-st.retention).UnixMilli()
	room := sweepBatch - len(ids)
	// Finished games, counted when they ended.
	ids, _, err = selectGames(ctx, tx, endedQuery, cutoff, room)
	if err != nil {
		return err
	}
	// Abandoned games, whose last guess, or creation, is older: they count
	// as lost.
	idle, rules, err := selectGames(ctx, tx, idleQuery, cutoff, room-len(ids))
	if err != nil {
		return err
	}
	for _, r := range rules {
		tx.count(r, 0, 0, 1, 0)
	}
	for _, id := range append(ids, idle...) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM guesses WHERE game_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, id); err != nil {
			return err
		}
		tx.games[id] = nil
	}
	st.done.Deleted = len(ids) + len(idle)
	return nil
}

// The queries of a sweep, each through an index on the games it looks for.
const (
	// Games in play past their deadline.
	expireQuery = `SELECT id, colors, pegs, distinct_ FROM games
		WHERE status = 'playing' AND deadline_ms IS NOT NULL AND deadline_ms < ?
		ORDER BY deadline_ms LIMIT ?`
	// Games that ended before a time.
	endedQuery = `SELECT id, colors, pegs, distinct_ FROM games
		WHERE status <> 'playing' AND ended_ms < ? LIMIT ?`
	// Games in play created before a time, whose last guess, if any, is
	// older too.
	idleQuery = `SELECT id, colors, pegs, distinct_ FROM games
		WHERE status = 'playing' AND created_ms < ?1
		AND coalesce((SELECT at_ms FROM guesses WHERE game_id = games.id ORDER BY n DESC LIMIT 1), created_ms) < ?1
		LIMIT ?2`
)

// selectGames returns the IDs and rules of the games that query finds.
func selectGames(ctx context.Context, tx *writeTx, query string, args ...any) ([]string, []mm.Rules, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var (
		ids   []string
		rules []mm.Rules
	)
	for rows.Next() {
		var (
			id string
			r  mm.Rules
		)
		if err := rows.Scan(&id, &r.Colors, &r.Pegs, &r.Distinct); err != nil {
			return nil, nil, err
		}
		ids = append(ids, id)
		rules = append(rules, r)
	}
	return ids, rules, rows.Err()
}

// vacuum gives up to vacuumPages free pages back to the file system.
func vacuum(ctx context.Context, tx *writeTx, st *sweepStep) error {
	var before, after int
	if err := tx.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&before); err != nil {
		return err
	}
	if before == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", vacuumPages))
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&after); err != nil {
		return err
	}
	st.done.Pages = before - after
	return nil
}
