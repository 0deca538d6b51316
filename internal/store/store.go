// Package store keeps the games of a Mastermind game server in an SQLite
// database file (modernc.org/sqlite, pure Go: nothing to install or start).
//
// # Durability
//
// The database runs in WAL mode with synchronous=FULL, so a transaction that
// has committed survives a crash of the process or of the machine. Every
// change goes through one writer goroutine, which takes all the requests
// waiting for it, applies them in one transaction and answers each only
// after that transaction has committed (group commit): an fsync costs
// milliseconds, and sharing it among many guesses is what lets the store
// acknowledge thousands of durable guesses per second.
//
// # Fairness
//
// The writer applies the guesses of a game one after another, in the order
// they reach it, so concurrent guesses on one game are serialised: each is
// counted exactly once, with its own number. The time of a guess is the one
// its caller passes (the server's clock when the request arrived) and is
// checked against the deadline stored with the game.
//
// A database file must be used by one Store at a time: the writer keeps the
// games in play in memory.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	mm "github.com/mastermind-toolkit/mastermind"
)

// ErrClosed is returned by the methods of a Store that has been closed.
var ErrClosed = errors.New("mastermind: store closed")

const (
	maxBatch = 1024    // most requests in one transaction
	queueLen = 4096    // requests waiting for the writer
	maxCache = 100_000 // games in play kept in memory by the writer
)

// A Store holds games in an SQLite file. Its methods are safe for
// concurrent use.
type Store struct {
	w *sql.DB // the writer's single connection
	r *sql.DB // readers

	ops     chan *op
	quit    chan struct{} // closed by Close
	stopped chan struct{} // closed when the writer has finished
	once    sync.Once

	// Owned by the writer goroutine.
	cache                     map[string]*mm.Game // committed state of games in play
	insGame, insGuess, upGame *sql.Stmt

	batches, committed atomic.Int64
}

// An op is one request to the writer: a new game, or a guess.
type op struct {
	create *mm.Game // the game to create, or nil for a guess
	id     string
	code   mm.Code
	at     time.Time
	res    chan result // buffered: the writer never waits for the caller
}

type result struct {
	g   *mm.Game
	err error
}

// Open opens the database at path, creating it and its schema if need be,
// and upgrading the schema of an older one.
func Open(path string) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || path == ":memory:" {
		return nil, fmt.Errorf("mastermind: database file %q: want a file name without ? or #", path)
	}
	const pragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)"
	w, err := sql.Open("sqlite", path+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	ctx := context.Background()
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", path+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	r.SetMaxOpenConns(2 * runtime.GOMAXPROCS(0))
	r.SetMaxIdleConns(2 * runtime.GOMAXPROCS(0))
	s := &Store{w: w, r: r,
		ops: make(chan *op, queueLen), quit: make(chan struct{}), stopped: make(chan struct{}),
		cache: make(map[string]*mm.Game),
	}
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&s.insGame, `INSERT INTO games (id, colors, pegs, distinct_, max_guesses, time_limit_ms, deadline_ms, secret, created_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&s.insGuess, `INSERT INTO guesses (game_id, n, guess, black, white, at_ms) VALUES (?, ?, ?, ?, ?, ?)`},
		{&s.upGame, `UPDATE games SET status = ?, guesses = ?, ended_ms = ? WHERE id = ?`},
	} {
		if *p.st, err = w.PrepareContext(ctx, p.sql); err != nil {
			s.closeDBs()
			return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
		}
	}
	go s.run()
	return s, nil
}

// Close waits for the requests already queued to be committed, then closes
// the database. Later calls do nothing and return nil.
func (s *Store) Close() error {
	err := ErrClosed
	s.once.Do(func() {
		close(s.quit)
		<-s.stopped
		err = s.closeDBs()
	})
	if err == ErrClosed {
		return nil
	}
	return err
}

func (s *Store) closeDBs() error {
	for _, st := range []*sql.Stmt{s.insGame, s.insGuess, s.upGame} {
		if st != nil {
			st.Close()
		}
	}
	return errors.Join(s.r.Close(), s.w.Close())
}

// GroupCommits returns the number of transactions the writer has committed
// and the number of requests they carried, to show how well group commit
// shares fsyncs.
func (s *Store) GroupCommits() (transactions, requests int64) {
	return s.batches.Load(), s.committed.Load()
}

// CreateGame stores a new game and returns once it is durable. g must have
// an ID, valid rules, a secret legal under them, and no turns; the store
// keeps its times to the millisecond. It fails if a game with the same ID
// exists.
func (s *Store) CreateGame(ctx context.Context, g *mm.Game) error {
	switch {
	case g.ID == "":
		return fmt.Errorf("mastermind: a new game needs an ID")
	case len(g.Turns) > 0 || g.Status != mm.Playing:
		return fmt.Errorf("mastermind: game %s is not new", g.ID)
	case g.MaxGuesses < 0 || g.TimeLimit < 0:
		return fmt.Errorf("mastermind: game %s has negative limits", g.ID)
	}
	if err := g.Rules.Validate(); err != nil {
		return err
	}
	if err := g.Rules.Check(g.Secret); err != nil {
		return err
	}
	c := g.Clone()
	c.Rules = c.Rules.WithDefaults()
	c.Created = time.UnixMilli(g.Created.UnixMilli())
	c.TimeLimit = g.TimeLimit.Truncate(time.Millisecond)
	_, err := s.do(ctx, &op{create: c})
	return err
}

// Guess plays guess c, made at time at, in game id, and returns the game
// once the turn is durable. The errors wrap mm.ErrUnknownGame,
// mm.ErrInvalidCode (the guess is not counted), mm.ErrGameOver, or
// mm.ErrTimeUp; with ErrTimeUp the game, now lost, is returned too.
//
// The returned Game is the caller's: it shares the turns, which never
// change, with the store.
func (s *Store) Guess(ctx context.Context, id string, c mm.Code, at time.Time) (*mm.Game, error) {
	return s.do(ctx, &op{id: id, code: c, at: at})
}

// do hands o to the writer and waits for its result. Once o is queued, it
// waits for the outcome whatever ctx says, so that an error never hides a
// committed change.
func (s *Store) do(ctx context.Context, o *op) (*mm.Game, error) {
	o.res = make(chan result, 1)
	select {
	case <-s.quit:
		return nil, ErrClosed
	default:
	}
	select {
	case s.ops <- o:
	case <-s.quit:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-o.res:
		return r.g, r.err
	case <-s.stopped:
		select {
		case r := <-o.res:
			return r.g, r.err
		default:
			return nil, ErrClosed
		}
	}
}

// run is the writer goroutine.
func (s *Store) run() {
	defer close(s.stopped)
	batch := make([]*op, 0, maxBatch)
	for {
		select {
		case o := <-s.ops:
			batch = append(batch[:0], o)
		case <-s.quit:
			// Commit what is already queued, then stop.
			for {
				if batch = s.fill(batch[:0]); len(batch) == 0 {
					return
				}
				s.apply(batch)
			}
		}
		batch = s.fill(batch)
		s.apply(batch)
	}
}

// fill appends to batch the requests already waiting, without blocking, up
// to maxBatch in all.
func (s *Store) fill(batch []*op) []*op {
	for len(batch) < maxBatch {
		select {
		case o := <-s.ops:
			batch = append(batch, o)
		default:
			return batch
		}
	}
	return batch
}

// apply commits batch in one transaction and answers every request in it.
// If the transaction fails, it tries each request on its own, so that one
// bad request does not fail the others.
func (s *Store) apply(batch []*op) {
	res, changed, err := s.commit(batch)
	if err != nil {
		if len(batch) > 1 {
			for i := range batch {
				s.apply(batch[i : i+1])
			}
			return
		}
		res[0] = result{err: fmt.Errorf("mastermind: storing the game: %w", err)}
		// The game may have changed under us (another program writing the
		// file): read it afresh next time.
		delete(s.cache, batch[0].id)
	} else {
		s.batches.Add(1)
		s.committed.Add(int64(len(batch)))
		if len(s.cache)+len(changed) > maxCache {
			clear(s.cache)
		}
		for id, g := range changed {
			if g.Status == mm.Playing {
				s.cache[id] = g
			} else {
				delete(s.cache, id)
			}
		}
	}
	for i, o := range batch {
		o.res <- res[i]
	}
}

// commit applies batch in one transaction. It returns each request's
// result and the games it changed; on error nothing was committed.
func (s *Store) commit(batch []*op) ([]result, map[string]*mm.Game, error) {
	res := make([]result, len(batch))
	changed := make(map[string]*mm.Game)
	ctx := context.Background()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return res, nil, err
	}
	defer tx.Rollback()
	for i, o := range batch {
		if g := o.create; g != nil {
			var deadline any
			if d := g.Deadline(); !d.IsZero() {
				deadline = d.UnixMilli()
			}
			if _, err := tx.StmtContext(ctx, s.insGame).ExecContext(ctx, g.ID, g.Rules.Colors, g.Rules.Pegs, g.Rules.Distinct,
				g.MaxGuesses, g.TimeLimit.Milliseconds(), deadline, g.Secret.String(), g.Created.UnixMilli()); err != nil {
				return res, nil, err
			}
			changed[g.ID] = g
			res[i] = result{g: g.Clone()}
			continue
		}
		g := changed[o.id]
		if g == nil {
			g = s.cache[o.id]
		}
		if g == nil {
			if g, err = loadGame(ctx, tx, o.id); errors.Is(err, mm.ErrUnknownGame) {
				res[i] = result{err: err}
				continue
			} else if err != nil {
				return res, nil, err
			}
		}
		g = g.Clone()
		f, err := g.Guess(o.code, o.at)
		switch {
		case errors.Is(err, mm.ErrTimeUp):
			if _, err := tx.StmtContext(ctx, s.upGame).ExecContext(ctx, g.Status.String(), len(g.Turns), g.Ended.UnixMilli(), g.ID); err != nil {
				return res, nil, err
			}
			changed[g.ID] = g
			res[i] = result{g: g.Clone(), err: err}
			continue
		case err != nil:
			res[i] = result{err: err}
			continue
		}
		if _, err := tx.StmtContext(ctx, s.insGuess).ExecContext(ctx, g.ID, len(g.Turns), o.code.String(), f.Black, f.White, o.at.UnixMilli()); err != nil {
			return res, nil, err
		}
		if g.Status != mm.Playing {
			if _, err := tx.StmtContext(ctx, s.upGame).ExecContext(ctx, g.Status.String(), len(g.Turns), g.Ended.UnixMilli(), g.ID); err != nil {
				return res, nil, err
			}
		}
		changed[g.ID] = g
		res[i] = result{g: g.Clone()}
	}
	if err := tx.Commit(); err != nil {
		return res, nil, err
	}
	return res, changed, nil
}

// Game returns game id as committed, or an error wrapping
// mm.ErrUnknownGame.
func (s *Store) Game(ctx context.Context, id string) (*mm.Game, error) {
	select {
	case <-s.quit:
		return nil, ErrClosed
	default:
	}
	// One transaction, so that the game and its turns are one snapshot.
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadGame(ctx, tx, id)
}

// loadGame reads game id with its turns.
func loadGame(ctx context.Context, tx *sql.Tx, id string) (*mm.Game, error) {
	var (
		g                          = &mm.Game{ID: id}
		limit, created             int64
		ended                      sql.NullInt64
		secret, status             string
		colors, pegs, distinct, mg int
	)
	err := tx.QueryRowContext(ctx, `SELECT colors, pegs, distinct_, max_guesses, time_limit_ms, secret, created_ms, status, ended_ms
		FROM games WHERE id = ?`, id).Scan(&colors, &pegs, &distinct, &mg, &limit, &secret, &created, &status, &ended)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", mm.ErrUnknownGame, id)
	}
	if err != nil {
		return nil, err
	}
	g.Rules = mm.Rules{Colors: colors, Pegs: pegs, Distinct: distinct != 0}
	g.MaxGuesses = mg
	g.TimeLimit = time.Duration(limit) * time.Millisecond
	g.Created = time.UnixMilli(created)
	if ended.Valid {
		g.Ended = time.UnixMilli(ended.Int64)
	}
	if err := g.Status.UnmarshalText([]byte(status)); err != nil {
		return nil, fmt.Errorf("mastermind: game %s: %w", id, err)
	}
	if g.Secret, err = g.Rules.ParseCode(secret); err != nil {
		return nil, fmt.Errorf("mastermind: game %s: stored secret: %w", id, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT n, guess, black, white FROM guesses WHERE game_id = ? ORDER BY n`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			n    int
			code string
			t    mm.Turn
		)
		if err := rows.Scan(&n, &code, &t.Feedback.Black, &t.Feedback.White); err != nil {
			return nil, err
		}
		if n != len(g.Turns)+1 {
			return nil, fmt.Errorf("mastermind: game %s: guess %d follows guess %d", id, n, len(g.Turns))
		}
		if t.Guess, err = g.Rules.ParseCode(code); err != nil {
			return nil, fmt.Errorf("mastermind: game %s: stored guess %d: %w", id, n, err)
		}
		g.Turns = append(g.Turns, t)
	}
	return g, rows.Err()
}

// Stats returns the number of games played, won and lost for each variant,
// with the guesses of the won games; a game still playing past its deadline
// at time now counts as lost.
func (s *Store) Stats(ctx context.Context, now time.Time) ([]mm.GameStats, error) {
	select {
	case <-s.quit:
		return nil, ErrClosed
	default:
	}
	rows, err := s.r.QueryContext(ctx, `SELECT colors, pegs, distinct_, COUNT(*),
			SUM(CASE WHEN status = 'won' THEN 1 ELSE 0 END),
			SUM(CASE WHEN status = 'lost' OR (status = 'playing' AND deadline_ms < ?) THEN 1 ELSE 0 END),
			SUM(CASE WHEN status = 'won' THEN guesses ELSE 0 END)
		FROM games GROUP BY colors, pegs, distinct_ ORDER BY colors, pegs, distinct_`, now.UnixMilli())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []mm.GameStats
	for rows.Next() {
		var st mm.GameStats
		if err := rows.Scan(&st.Rules.Colors, &st.Rules.Pegs, &st.Rules.Distinct, &st.Played, &st.Won, &st.Lost, &st.WonGuesses); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
