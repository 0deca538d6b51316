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
// # Owners
//
// A game is stored with its owner's key, a digest of a secret that only
// the player holds; a guess must come with the same key. The store never
// sees the secret itself.
//
// # One store per file
//
// The writer keeps the games in play in memory, so a database file must be
// used by one Store at a time. Open takes an exclusive lock on a file
// beside the database, PATH.lock (with symbolic links resolved), and on
// Linux on the database file itself, so that a second Open of the same
// database, in this process or another, by the same path or through a
// symbolic or hard link, fails with ErrLocked. The kernel drops the locks
// when the process ends, however it ends.
//
// # Retention and statistics
//
// The number of games played, won and lost for each variant is kept in a
// table of counters, updated in the transaction that creates or ends each
// game, so that the results of deleted games still count. The writer keeps
// a copy of the counters in memory, with the deadlines of the games in
// play, so that Stats reads no game: it costs microseconds however many
// games are stored, and however many wait for the sweep to record them
// lost to the clock. A background sweep records the games lost to the
// clock, deletes the games whose last activity is older than
// Options.Retention, and gives the freed pages back to the file system
// (incremental vacuum), so that the file stays bounded. It works in small
// steps and rests between them, so that guesses go on near their usual
// rate while it works through many games.
//
// # Integrity
//
// Open checks the file (PRAGMA quick_check) for up to Options.CheckTime,
// and refuses a damaged one with an error wrapping ErrDamaged that says
// what to do, rather than serving it until requests fail.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	mm "github.com/mastermind-toolkit/mastermind"
)

// Errors of a Store.
var (
	// ErrClosed is returned by the methods of a Store that has been closed.
	ErrClosed = errors.New("mastermind: store closed")
	// ErrLocked is returned by Open when another Store holds the database.
	ErrLocked = errors.New("mastermind: in use by another server")
)

const (
	maxBatch = 1024 // most requests in one transaction
	queueLen = 4096 // requests waiting for the writer
)

// Options configure a Store. The zero Options keep every game, sweep once
// a minute and cache up to DefaultCacheBytes of games in play.
type Options struct {
	// CacheBytes bounds the memory of the writer's cache of games in play;
	// 0 means DefaultCacheBytes. The writer keeps a game without its
	// turns, a few hundred bytes, and one not in the cache is read from
	// the file, still without its turns, when it is guessed on.
	CacheBytes int64
	// Retention is how long a game is kept after its last activity (its
	// creation, its last guess, or its end); 0 keeps every game. A game
	// still in play when it is deleted counts as lost.
	Retention time.Duration
	// SweepEvery is the period of the background sweep; 0 means a minute
	// and a negative value stops the background sweep (Sweep still runs
	// it by hand).
	SweepEvery time.Duration
	// Now is the clock of the background sweep; nil means time.Now.
	Now func() time.Time
	// Logf logs the errors of the background sweep, and an integrity
	// check that Open cut short; nil means log.Printf.
	Logf func(format string, args ...any)
	// CheckTime bounds the integrity check of Open (PRAGMA quick_check),
	// which reads the whole file; 0 means DefaultCheckTime and a negative
	// value skips the check. A check cut short is logged, and the file
	// used.
	CheckTime time.Duration
}

// DefaultCheckTime is the CheckTime of zero Options: time to check a file
// of a million games or so, and a bound on what a restart waits for.
const DefaultCheckTime = time.Second

// A Store holds games in an SQLite file. Its methods are safe for
// concurrent use.
type Store struct {
	opts   Options
	lock   *os.File // PATH.lock, held until Close
	dbLock *os.File // the database file, locked until Close; nil where lockDB locks nothing
	w      *sql.DB  // the writer's single connection
	r      *sql.DB  // readers

	ops     chan *op
	quit    chan struct{} // closed by Close
	stopped chan struct{} // closed when the writer has finished
	swept   chan struct{} // closed when the background sweep has finished
	once    sync.Once

	// Owned by the writer goroutine.
	cache                               *gameCache
	insGame, insGuess, upGame, addStats *sql.Stmt
	putCodes, moveCodes, delCodes       *sql.Stmt // of adversary_codes

	tally       *tally       // the statistics as committed, for Stats
	adversaries *adversaries // used by the callers of Guess

	batches, committed atomic.Int64
}

// An op is one request to the writer: a new game, a guess, or a step of a
// sweep.
type op struct {
	create *mm.Game // the game to create
	sweep  *sweepStep
	key    []byte // the owner's key of the game to create or guess on
	id     string
	code   mm.Code
	at     time.Time
	evade  *evasion    // an adversary's answer to code, if made
	res    chan result // buffered: the writer never waits for the caller
}

// A result is the writer's answer to an op. For a guess, g is the game
// as the guess left it, but without its turns (the writer keeps none):
// played is their number, and f the answer to the guess.
type result struct {
	g      *mm.Game
	played int
	f      mm.Feedback
	err    error
}

// Open opens the database at path, creating it and its schema if need be,
// and upgrading the schema of an older one; opts nil means the zero
// Options. It fails with an error wrapping ErrLocked if another Store has
// the database open.
//
// The first Open by a version with retention converts the file to
// incremental vacuum, which rewrites it once (VACUUM).
func Open(path string, opts *Options) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || path == ":memory:" {
		return nil, fmt.Errorf("mastermind: database file %q: want a file name without ? or #", path)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.SweepEvery == 0 {
		o.SweepEvery = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logf == nil {
		o.Logf = log.Printf
	}
	if o.CheckTime == 0 {
		o.CheckTime = DefaultCheckTime
	}
	// The lock beside the file, named after its real path, for the
	// holder's process ID and for older versions; then the file itself.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path // not there yet
	}
	_, statErr := os.Lstat(real + ".lock")
	lock, err := lockFile(real + ".lock")
	if err != nil {
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	dbLock, err := lockDB(path)
	if err != nil {
		if errors.Is(statErr, fs.ErrNotExist) {
			// Made for this start only, through a link to a file that
			// another Store holds: leave no stray lock beside the link.
			os.Remove(real + ".lock")
		}
		unlockFile(lock)
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	s, err := open(path, o)
	if err != nil {
		unlockDB(dbLock)
		unlockFile(lock)
		return nil, fmt.Errorf("mastermind: database %s: %w", path, err)
	}
	s.lock, s.dbLock = lock, dbLock
	go s.run()
	if o.SweepEvery > 0 {
		go s.sweepEvery(o.SweepEvery)
	} else {
		close(s.swept)
	}
	return s, nil
}

// Close stops the background sweep, waits for the requests already queued
// to be committed, then closes the database and releases its lock. Later
// calls do nothing and return nil.
func (s *Store) Close() error {
	err := ErrClosed
	s.once.Do(func() {
		close(s.quit)
		<-s.swept
		<-s.stopped
		s.tally.stop()
		err = errors.Join(s.closeDBs(), unlockDB(s.dbLock), unlockFile(s.lock))
	})
	if err == ErrClosed {
		return nil
	}
	return err
}

// unlockDB releases the lock of lockDB, if it took one.
func unlockDB(f *os.File) error {
	if f == nil {
		return nil
	}
	return f.Close()
}

func (s *Store) closeDBs() error {
	for _, st := range []*sql.Stmt{s.insGame, s.insGuess, s.upGame, s.addStats, s.putCodes, s.moveCodes, s.delCodes} {
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

// CreateGame stores a new game, owned by the holder of key, and returns
// once it is durable. g must have an ID, valid rules, a secret legal under
// them, and no turns; the store keeps its times to the millisecond. key is
// what Guess and Game compare the keys they are given with: a digest of the
// player's secret, such as a SHA-256; nil lets anyone play. It fails if a
// game with the same ID exists.
func (s *Store) CreateGame(ctx context.Context, g *mm.Game, key []byte) error {
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
	return s.do(ctx, &op{create: c, key: bytes.Clone(key)}).err
}

// Guess plays guess c, made at time at, in game id, and returns the game
// once the turn is durable. key must be the owner's key given to
// CreateGame, unless that was nil; a nil key skips the check, for callers
// that have made it themselves. The errors wrap mm.ErrUnknownGame,
// mm.ErrNotPlayer, mm.ErrInvalidCode (the guess is not counted),
// mm.ErrGameOver, or mm.ErrTimeUp; with ErrTimeUp the game, now lost, is
// returned too.
//
// Guess reads the game's turns back to return them, which costs O(turns);
// Play, which returns the answer alone, does not.
func (s *Store) Guess(ctx context.Context, id string, key []byte, c mm.Code, at time.Time) (*mm.Game, error) {
	r := s.play(ctx, id, key, c, at)
	if r.g == nil {
		return nil, r.err
	}
	// The turns are committed, and never change: read without ctx, so
	// that an error does not hide the turn played.
	turns, err := loadTurns(context.WithoutCancel(ctx), s.r, r.g, r.played)
	if err != nil {
		return nil, fmt.Errorf("mastermind: game %s: guess stored, but reading the game back: %w", id, err)
	}
	r.g.Turns = turns
	return r.g, r.err
}

// Play is Guess without the game: it returns the answer to c, the number
// of turns the game has with it, and the game's status after it. A guess
// on a game the store keeps in memory costs O(1), and on one it has
// forgotten O(log games): neither reads the game's turns. An adversary's
// guess costs O(codes) besides, however many turns it has, and its answer
// is worked out by the caller's goroutine, not the writer's.
func (s *Store) Play(ctx context.Context, id string, key []byte, c mm.Code, at time.Time) (f mm.Feedback, turns int, status mm.GameStatus, err error) {
	r := s.play(ctx, id, key, c, at)
	if r.g != nil {
		turns, status = r.played, r.g.Status
	}
	return r.f, turns, status, r.err
}

// play plays guess c in game id and returns the writer's result.
func (s *Store) play(ctx context.Context, id string, key []byte, c mm.Code, at time.Time) result {
	if a := s.adversaries.get(id, false); a != nil {
		return s.guessAdversary(ctx, a, id, key, c, at, nil)
	}
	r := s.do(ctx, &op{id: id, key: key, code: c, at: at})
	if errors.Is(r.err, errAdversary) {
		return s.guessAdversary(ctx, s.adversaries.get(id, true), id, key, c, at, &r)
	}
	return r
}

// do hands o to the writer and waits for its result. Once o is queued, it
// waits for the outcome whatever ctx says, so that an error never hides a
// committed change.
func (s *Store) do(ctx context.Context, o *op) result {
	o.res = make(chan result, 1)
	select {
	case <-s.quit:
		return result{err: ErrClosed}
	default:
	}
	select {
	case s.ops <- o:
	case <-s.quit:
		return result{err: ErrClosed}
	case <-ctx.Done():
		return result{err: ctx.Err()}
	}
	select {
	case r := <-o.res:
		return r
	case <-s.stopped:
		select {
		case r := <-o.res:
			return r
		default:
			return result{err: ErrClosed}
		}
	}
}

// Game returns game id as committed, or an error wrapping
// mm.ErrUnknownGame. With a key that is not the owner's key, it fails
// with mm.ErrNotPlayer; a nil key reads the game as anyone may (its
// secret too, which the caller shows only once the game is over).
func (s *Store) Game(ctx context.Context, id string, key []byte) (*mm.Game, error) {
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
	g, owner, err := loadGame(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if err := checkKey(id, owner, key); err != nil {
		return nil, err
	}
	return g, nil
}

// A querier reads the database: a transaction, or the pool of readers.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadGame reads game id with its turns and its owner's key.
func loadGame(ctx context.Context, q querier, id string) (*mm.Game, []byte, error) {
	g, key, played, err := loadHead(ctx, q, id)
	if err != nil {
		return nil, nil, err
	}
	if g.Turns, err = loadTurns(ctx, q, g, played); err != nil {
		return nil, nil, err
	}
	return g, key, nil
}

// loadHead reads game id without its turns, with its owner's key and the
// number of turns played: O(log games), however many turns it has.
func loadHead(ctx context.Context, q querier, id string) (g *mm.Game, key []byte, played int, err error) {
	var (
		limit, created             int64
		ended                      sql.NullInt64
		secret, status             string
		colors, pegs, distinct, mg int
		adversary                  int
	)
	g = &mm.Game{ID: id}
	err = q.QueryRowContext(ctx, `SELECT colors, pegs, distinct_, max_guesses, time_limit_ms, secret, created_ms, status, ended_ms, owner_key, adversary,
		coalesce((SELECT n FROM guesses WHERE game_id = games.id ORDER BY n DESC LIMIT 1), 0)
		FROM games WHERE id = ?`, id).Scan(&colors, &pegs, &distinct, &mg, &limit, &secret, &created, &status, &ended, &key, &adversary, &played)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, 0, fmt.Errorf("%w: %s", mm.ErrUnknownGame, quote(id))
	}
	if err != nil {
		return nil, nil, 0, err
	}
	g.Rules = mm.Rules{Colors: colors, Pegs: pegs, Distinct: distinct != 0}
	g.MaxGuesses = mg
	g.Adversary = adversary != 0
	g.TimeLimit = time.Duration(limit) * time.Millisecond
	g.Created = time.UnixMilli(created)
	if ended.Valid {
		g.Ended = time.UnixMilli(ended.Int64)
	}
	if err := g.Status.UnmarshalText([]byte(status)); err != nil {
		return nil, nil, 0, fmt.Errorf("mastermind: game %s: %w", id, err)
	}
	if g.Secret, err = g.Rules.ParseCode(secret); err != nil {
		return nil, nil, 0, fmt.Errorf("mastermind: game %s: stored secret: %w", id, err)
	}
	return g, key, played, nil
}

// loadTurns reads the first n turns of game g.
func loadTurns(ctx context.Context, q querier, g *mm.Game, n int) ([]mm.Turn, error) {
	rows, err := q.QueryContext(ctx, `SELECT n, guess, black, white FROM guesses WHERE game_id = ? AND n <= ? ORDER BY n`, g.ID, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	turns := make([]mm.Turn, 0, n)
	for rows.Next() {
		var (
			i    int
			code string
			t    mm.Turn
		)
		if err := rows.Scan(&i, &code, &t.Feedback.Black, &t.Feedback.White); err != nil {
			return nil, err
		}
		if i != len(turns)+1 {
			return nil, fmt.Errorf("mastermind: game %s: guess %d follows guess %d", g.ID, i, len(turns))
		}
		if t.Guess, err = g.Rules.ParseCode(code); err != nil {
			return nil, fmt.Errorf("mastermind: game %s: stored guess %d: %w", g.ID, i, err)
		}
		turns = append(turns, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(turns) != n {
		return nil, fmt.Errorf("mastermind: game %s: %d guesses stored; want %d", g.ID, len(turns), n)
	}
	return turns, nil
}

// quote quotes s, cut to its first 64 bytes: game IDs come from request
// paths, and an error need not repeat a long one.
func quote(s string) string {
	const most = 64
	if len(s) <= most {
		return fmt.Sprintf("%q", s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q…", s[:cut])
}
