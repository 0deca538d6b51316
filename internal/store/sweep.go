package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

const (
	sweepBatch  = 128 // most games one step of a sweep records or deletes
	vacuumPages = 512 // most pages one step of a sweep gives back (2 MiB of 4 KiB pages)
	// sweepWork is the time that the work of one step of a sweep aims
	// for, in the writer's transaction: the guesses committed with it
	// wait for it. Steps start small (sweepFirst games, vacuumFirst
	// pages), double while their work takes less than half of it, and
	// halve while it takes more than twice it.
	sweepWork   = 2 * time.Millisecond
	sweepFirst  = 8
	vacuumFirst = 32
)

// Swept counts what a sweep did.
type Swept struct {
	Expired int // games in play past their deadline, recorded as lost
	Deleted int // games past the retention, deleted
	Pages   int // free pages given back to the file system
}

// A sweepStep is one transaction of a sweep, done by the writer: up to
// limit games recorded or deleted, or, with vacuum, up to limit pages
// given back.
type sweepStep struct {
	now       time.Time
	retention time.Duration
	vacuum    bool
	limit     int
	done      Swept         // set by the writer
	work      time.Duration // set by the writer: how long the step's own work took
	took      time.Duration // set by the writer: how long its transaction took
}

// last reports whether st was the last step of its kind: it did less
// than its limit.
func (st *sweepStep) last() bool {
	if st.vacuum {
		return st.done.Pages < st.limit
	}
	return st.done.Expired+st.done.Deleted < st.limit
}

// next returns the limit of the step after st, of up to most: twice
// st's if its work was short, half if it was long.
func (st *sweepStep) next(most int) int {
	switch {
	case st.work < sweepWork/2:
		return min(most, 2*st.limit)
	case st.work > 2*sweepWork:
		return max(1, st.limit/2)
	}
	return st.limit
}

// Sweep records as lost the games in play whose deadline has passed at
// time now, deletes the games whose last activity is older than now minus
// Options.Retention (none if it is 0), and gives the pages they held back
// to the file system. It stops early, with ctx's error, when ctx is done,
// and with ErrClosed when the store closes. The background sweep calls it
// every Options.SweepEvery.
//
// It yields to the guesses: it works in short steps of the writer, each
// of up to sweepBatch games whose work takes about sweepWork, so that the
// guesses committed with a step wait little for it, and after each waits
// sweepRest times as long as the writer's transaction with the step took,
// commit included, so that a sweep of many games is in at most about one
// transaction in sweepRest+1 and guesses go on near their usual rate. A
// sweep with few games to do is over in one step.
func (s *Store) Sweep(ctx context.Context, now time.Time) (Swept, error) {
	var total Swept
	for limit := sweepFirst; ; {
		st := &sweepStep{now: now, retention: s.opts.Retention, limit: limit}
		if err := s.sweepStep(ctx, st); err != nil {
			return total, err
		}
		total.Expired += st.done.Expired
		total.Deleted += st.done.Deleted
		if st.last() {
			break
		}
		limit = st.next(sweepBatch)
	}
	for limit := vacuumFirst; ; {
		st := &sweepStep{vacuum: true, limit: limit}
		if err := s.sweepStep(ctx, st); err != nil {
			return total, err
		}
		total.Pages += st.done.Pages
		if st.last() {
			return total, ctx.Err()
		}
		limit = st.next(vacuumPages)
	}
}

// sweepRest is how many times as long as the writer's transaction with a
// step of a sweep took the sweep waits before its next step.
const sweepRest = 4

// sweepStep has the writer do st, then rests sweepRest times as long as
// the writer's transaction with it took.
func (s *Store) sweepStep(ctx context.Context, st *sweepStep) error {
	if err := s.do(ctx, &op{sweep: st}).err; err != nil {
		return err
	}
	if st.last() {
		return nil // the last step of its kind: nothing to wait for
	}
	rest := time.NewTimer(sweepRest * st.took)
	defer rest.Stop()
	select {
	case <-rest.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.quit:
		return ErrClosed
	}
}

// sweepEvery runs Sweep every period until the store is closed. A sweep
// cut short by Close is not an error.
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
		if _, err := s.Sweep(ctx, s.opts.Now()); err != nil && ctx.Err() == nil && !s.closing() {
			s.opts.Logf("mastermind: sweeping the database: %v", err)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// closing reports whether Close has been called.
func (s *Store) closing() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// sweepOne does step st in tx.
func (s *Store) sweepOne(ctx context.Context, tx *writeTx, st *sweepStep) error {
	st.done = Swept{} // a step may be tried again after a failed batch
	start := time.Now()
	defer func() { st.work = time.Since(start) }()
	if st.vacuum {
		return vacuum(ctx, tx, st)
	}
	// Games lost to the clock, recorded as a late guess would.
	expired, err := selectGames(ctx, tx, expireQuery, st.now.UnixMilli(), st.limit)
	if err != nil {
		return err
	}
	for _, g := range expired {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET status = 'lost', ended_ms = deadline_ms,
			guesses = (SELECT COUNT(*) FROM guesses WHERE game_id = ?) WHERE id = ?`, g.id, g.id); err != nil {
			return err
		}
		// An adversary game over keeps no codes.
		if _, err := tx.StmtContext(ctx, s.delCodes).ExecContext(ctx, g.id); err != nil {
			return err
		}
		tx.count(g.rules, 0, 0, 1, 0)
		tx.timed(g.rules, g.deadline.Int64, false)
		tx.games[g.id] = nil
	}
	st.done.Expired = len(expired)
	if st.retention <= 0 || len(expired) == st.limit {
		return nil
	}
	cutoff := st.now.Add(-st.retention).UnixMilli()
	room := st.limit - len(expired)
	// Finished games, counted when they ended.
	ended, err := selectGames(ctx, tx, endedQuery, cutoff, room)
	if err != nil {
		return err
	}
	// Abandoned games, whose last guess, or creation, is older: they count
	// as lost.
	idle, err := selectGames(ctx, tx, idleQuery, cutoff, room-len(ended))
	if err != nil {
		return err
	}
	for _, g := range idle {
		tx.count(g.rules, 0, 0, 1, 0)
		if g.deadline.Valid {
			tx.timed(g.rules, g.deadline.Int64, false)
		}
	}
	for _, g := range append(ended, idle...) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM guesses WHERE game_id = ?`, g.id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, g.id); err != nil {
			return err
		}
		tx.games[g.id] = nil
	}
	st.done.Deleted = len(ended) + len(idle)
	return nil
}

// The queries of a sweep, each through an index on the games it looks for.
const (
	// Games in play past their deadline.
	expireQuery = `SELECT id, colors, pegs, distinct_, deadline_ms FROM games
		WHERE status = 'playing' AND deadline_ms IS NOT NULL AND deadline_ms < ?
		ORDER BY deadline_ms LIMIT ?`
	// Games that ended before a time.
	endedQuery = `SELECT id, colors, pegs, distinct_, deadline_ms FROM games
		WHERE status <> 'playing' AND ended_ms < ? LIMIT ?`
	// Games in play created before a time, whose last guess, if any, is
	// older too.
	idleQuery = `SELECT id, colors, pegs, distinct_, deadline_ms FROM games
		WHERE status = 'playing' AND created_ms < ?1
		AND coalesce((SELECT at_ms FROM guesses WHERE game_id = games.id ORDER BY n DESC LIMIT 1), created_ms) < ?1
		LIMIT ?2`
)

// A sweptGame is a game that a sweep records or deletes.
type sweptGame struct {
	id       string
	rules    mm.Rules
	deadline sql.NullInt64 // Unix milliseconds; NULL without a time limit
}

// selectGames returns the games that query finds.
func selectGames(ctx context.Context, tx *writeTx, query string, args ...any) ([]sweptGame, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []sweptGame
	for rows.Next() {
		var g sweptGame
		if err := rows.Scan(&g.id, &g.rules.Colors, &g.rules.Pegs, &g.rules.Distinct, &g.deadline); err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, rows.Err()
}

// vacuum gives up to st.limit free pages back to the file system.
func vacuum(ctx context.Context, tx *writeTx, st *sweepStep) error {
	var before, after int
	if err := tx.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&before); err != nil {
		return err
	}
	if before == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", st.limit))
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
