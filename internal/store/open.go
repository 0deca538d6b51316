package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"
)

// Opening a database: its connections, its integrity, its schema.

// open opens the connections, brings the schema up to date and prepares
// the writer's statements.
func open(path string, o Options) (*Store, error) {
	const pragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)" +
		"&_pragma=journal_size_limit(67108864)"
	// auto_vacuum comes first: a new file takes it only before WAL mode
	// writes its header.
	w, err := sql.Open("sqlite", path+"?_pragma=auto_vacuum(2)&"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	ctx := context.Background()
	if err := checkIntegrity(ctx, w, path, o); err != nil {
		w.Close()
		return nil, err
	}
	if err := incrementalVacuum(ctx, w); err != nil {
		w.Close()
		return nil, err
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", path+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(2 * runtime.GOMAXPROCS(0))
	r.SetMaxIdleConns(2 * runtime.GOMAXPROCS(0))
	s := &Store{opts: o, w: w, r: r,
		ops: make(chan *op, queueLen), quit: make(chan struct{}), stopped: make(chan struct{}), swept: make(chan struct{}),
		cache: newGameCache(o.CacheBytes), adversaries: newAdversaries(adversaryBytes),
	}
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&s.insGame, `INSERT INTO games (id, colors, pegs, distinct_, max_guesses, time_limit_ms, deadline_ms, secret, created_ms, owner_key, adversary)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&s.insGuess, `INSERT INTO guesses (game_id, n, guess, black, white, at_ms) VALUES (?, ?, ?, ?, ?, ?)`},
		{&s.upGame, `UPDATE games SET status = ?, guesses = ?, ended_ms = ? WHERE id = ?`},
		{&s.addStats, `INSERT INTO stats (colors, pegs, distinct_, played, won, lost, won_guesses) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO UPDATE SET played = played + excluded.played, won = won + excluded.won,
				lost = lost + excluded.lost, won_guesses = won_guesses + excluded.won_guesses`},
		{&s.putCodes, `INSERT INTO adversary_codes (game_id, turns, codes) VALUES (?, ?, ?)
			ON CONFLICT DO UPDATE SET turns = excluded.turns, codes = excluded.codes`},
		{&s.moveCodes, `UPDATE adversary_codes SET turns = ? WHERE game_id = ?`},
		{&s.delCodes, `DELETE FROM adversary_codes WHERE game_id = ?`},
	} {
		if *p.st, err = w.PrepareContext(ctx, p.sql); err != nil {
			s.closeDBs()
			return nil, err
		}
	}
	// Before the writer starts, so that the tally's snapshot precedes
	// every change it is told of.
	if s.tally, err = startTally(s.r); err != nil {
		s.closeDBs()
		return nil, err
	}
	return s, nil
}

// incrementalVacuum makes the database give freed pages back to the file
// system on request (PRAGMA incremental_vacuum), converting a database
// that does not: a new one at once, an older one by rewriting it.
func incrementalVacuum(ctx context.Context, db *sql.DB) error {
	const incremental = 2
	var mode int
	if err := db.QueryRowContext(ctx, "PRAGMA auto_vacuum").Scan(&mode); err != nil {
		return err
	}
	if mode == incremental {
		return nil
	}
	if _, err := db.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return err
	}
	// A database with tables takes the new mode only once rewritten.
	var tables int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return err
	}
	if tables > 0 {
		if _, err := db.ExecContext(ctx, "VACUUM"); err != nil {
			return fmt.Errorf("converting to incremental vacuum: %w", err)
		}
	}
	return nil
}

// ErrDamaged is wrapped by the error of Open on a database file that
// fails its integrity check.
var ErrDamaged = errors.New("mastermind: the database file is damaged")

// checkIntegrity runs PRAGMA quick_check on db, the database at path, for
// up to o.CheckTime, so that a damaged file is refused at once rather than
// answering requests with errors later. The check reads every page but
// does not compare the indexes with their tables (PRAGMA integrity_check
// does, slower). It fails with an error wrapping ErrDamaged, saying what
// to do, if the file is damaged; a check cut short is logged.
func checkIntegrity(ctx context.Context, db *sql.DB, path string, o Options) error {
	if o.CheckTime < 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, o.CheckTime)
	defer cancel()
	const most = 5 // problems reported
	var problems []string
	rows, err := db.QueryContext(ctx, fmt.Sprintf("PRAGMA quick_check(%d)", most))
	if err == nil {
		for rows.Next() {
			var p string
			if err = rows.Scan(&p); err != nil {
				break
			}
			// One line each, without the headers of multi-line reports.
			for line := range strings.Lines(p) {
				line = strings.TrimSpace(line)
				if line != "" && !strings.HasPrefix(line, "***") && !slices.Contains(problems, line) {
					problems = append(problems, line)
				}
			}
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
	}
	switch {
	case ctx.Err() != nil:
		o.Logf("mastermind: database %s: the integrity check did not finish within %v; starting without it (sqlite3 %s 'PRAGMA quick_check' checks it all)",
			path, o.CheckTime, path)
		return nil
	case err != nil:
		problems = []string{err.Error()}
	case len(problems) == 1 && problems[0] == "ok":
		return nil
	}
	return fmt.Errorf("%w (%s): keep a copy, then restore the file from a backup, "+
		"or save what it holds with: sqlite3 %s .recover | sqlite3 recovered.db, and serve recovered.db",
		ErrDamaged, clip(strings.Join(problems, "; "), 200), path)
}

// clip returns s cut to at most n bytes, on a character boundary, with an
// ellipsis if it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
