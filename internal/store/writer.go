package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The writer goroutine: the only one that writes to the database, in
// transactions that carry every request waiting for it (group commit).

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
	start := time.Now()
	res, tx, err := s.commit(batch)
	for _, o := range batch {
		if o.sweep != nil {
			o.sweep.took = time.Since(start)
		}
	}
	if err != nil {
		if len(batch) > 1 {
			for i := range batch {
				s.apply(batch[i : i+1])
			}
			return
		}
		res[0] = result{err: fmt.Errorf("mastermind: storing the game: %w", err)}
		// Read the game afresh next time.
		s.cache.remove(batch[0].id)
	} else {
		s.batches.Add(1)
		s.committed.Add(int64(len(batch)))
		s.tally.apply(tx.stats, tx.timings)
		for id, c := range tx.games {
			if c != nil && c.g.Status == mm.Playing {
				s.cache.put(c)
			} else {
				s.cache.remove(id)
			}
		}
	}
	for i, o := range batch {
		o.res <- res[i]
	}
}

// A writeTx is what one transaction of the writer changes.
type writeTx struct {
	*sql.Tx
	// games are the games the transaction changed, at their state in it;
	// nil for a game that is over or deleted.
	games map[string]*cached
	// stats are the changes to the counters of each variant.
	stats map[mm.Rules]*mm.GameStats
	// timings are the games with a deadline that started or ended.
	timings []timing
}

// count adds to the counters of r.
func (tx *writeTx) count(r mm.Rules, played, won, lost, wonGuesses int) {
	d := tx.stats[r]
	if d == nil {
		d = &mm.GameStats{Rules: r}
		tx.stats[r] = d
	}
	d.Played += played
	d.Won += won
	d.Lost += lost
	d.WonGuesses += wonGuesses
}

// timed notes that a game of rules r with a deadline (Unix milliseconds)
// starts or, without add, ends.
func (tx *writeTx) timed(r mm.Rules, deadline int64, add bool) {
	tx.timings = append(tx.timings, timing{r: r, deadline: deadline, add: add})
}

// ended counts the end of game g, after played turns, if it is over.
func (tx *writeTx) ended(g *mm.Game, played int) {
	if d := g.Deadline(); !d.IsZero() && g.Status != mm.Playing {
		tx.timed(g.Rules, d.UnixMilli(), false)
	}
	switch g.Status {
	case mm.Won:
		tx.count(g.Rules, 0, 1, 0, played)
	case mm.Lost:
		tx.count(g.Rules, 0, 0, 1, 0)
	}
}

// commit applies batch in one transaction. It returns each request's
// result and what the transaction changed; on error nothing was committed.
func (s *Store) commit(batch []*op) ([]result, *writeTx, error) {
	res := make([]result, len(batch))
	ctx := context.Background()
	sqltx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return res, nil, err
	}
	defer sqltx.Rollback()
	tx := &writeTx{Tx: sqltx, games: make(map[string]*cached), stats: make(map[mm.Rules]*mm.GameStats)}
	for i, o := range batch {
		switch {
		case o.create != nil:
			res[i], err = s.create(ctx, tx, o)
		case o.sweep != nil:
			err = s.sweepOne(ctx, tx, o.sweep)
		default:
			res[i], err = s.guess(ctx, tx, o)
		}
		if err != nil {
			return res, nil, err
		}
	}
	for _, d := range tx.stats {
		if _, err := tx.StmtContext(ctx, s.addStats).ExecContext(ctx, d.Rules.Colors, d.Rules.Pegs, d.Rules.Distinct,
			d.Played, d.Won, d.Lost, d.WonGuesses); err != nil {
			return res, nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return res, nil, err
	}
	return res, tx, nil
}

// create inserts the game of o. The error is the transaction's: a failed
// insert fails the batch, which is then tried request by request.
func (s *Store) create(ctx context.Context, tx *writeTx, o *op) (result, error) {
	g := o.create
	var deadline any
	if d := g.Deadline(); !d.IsZero() {
		deadline = d.UnixMilli()
		tx.timed(g.Rules, d.UnixMilli(), true)
	}
	if _, err := tx.StmtContext(ctx, s.insGame).ExecContext(ctx, g.ID, g.Rules.Colors, g.Rules.Pegs, g.Rules.Distinct,
		g.MaxGuesses, g.TimeLimit.Milliseconds(), deadline, g.Secret.String(), g.Created.UnixMilli(), o.key, g.Adversary); err != nil {
		return result{}, err
	}
	tx.count(g.Rules, 1, 0, 0, 0)
	tx.games[g.ID] = &cached{g: g, key: o.key}
	return result{g: g.Clone()}, nil
}

// guess plays the guess of o. The result carries the errors of the
// request; the error returned is the transaction's.
func (s *Store) guess(ctx context.Context, tx *writeTx, o *op) (result, error) {
	// The game as this transaction left it, else as committed; a game that
	// ended or went earlier in the transaction is read again, as it is now.
	// The writer keeps no turns: only how many there are.
	c, seen := tx.games[o.id]
	if !seen {
		c = s.cache.get(o.id)
	}
	if c == nil {
		g, key, played, err := loadHead(ctx, tx.Tx, o.id)
		if errors.Is(err, mm.ErrUnknownGame) {
			return result{err: err}, nil
		} else if err != nil {
			return result{}, err
		}
		c = &cached{g: g, key: key, played: played}
	}
	if err := checkKey(o.id, c.key, o.key); err != nil {
		return result{err: err}, nil
	}
	g := c.g.Clone()
	// An adversary's answer is made by the guess's goroutine, not here
	// (guessAdversary): a guess without it, or with one made for other
	// turns, goes back for it with the game as it is.
	f, err := playOn(g, c.played, o.code, o.at, func() (mm.Feedback, error) {
		if o.evade == nil || o.evade.turns != c.played {
			return mm.Feedback{}, errAdversary
		}
		return o.evade.f, o.evade.err
	})
	switch {
	case errors.Is(err, errAdversary):
		if !seen {
			// Kept for the guess that comes back with the answer, as
			// committed.
			tx.games[o.id] = c
		}
		return result{g: c.g.Clone(), played: c.played, err: err}, nil
	case errors.Is(err, mm.ErrTimeUp):
		if _, err := tx.StmtContext(ctx, s.upGame).ExecContext(ctx, g.Status.String(), c.played, g.Ended.UnixMilli(), g.ID); err != nil {
			return result{}, err
		}
		if err := s.storeCodes(ctx, tx, g, c.played, nil); err != nil {
			return result{}, err
		}
		tx.ended(g, c.played)
		tx.games[g.ID] = nil
		return result{g: g, played: c.played, err: err}, nil
	case err != nil:
		return result{err: err}, nil
	}
	played := c.played + 1
	if _, err := tx.StmtContext(ctx, s.insGuess).ExecContext(ctx, g.ID, played, o.code.String(), f.Black, f.White, o.at.UnixMilli()); err != nil {
		return result{}, err
	}
	if err := s.storeCodes(ctx, tx, g, played, o.evade); err != nil {
		return result{}, err
	}
	if g.Status != mm.Playing {
		if _, err := tx.StmtContext(ctx, s.upGame).ExecContext(ctx, g.Status.String(), played, g.Ended.UnixMilli(), g.ID); err != nil {
			return result{}, err
		}
		tx.ended(g, played)
		tx.games[g.ID] = nil
	} else {
		tx.games[g.ID] = &cached{g: g, key: c.key, played: played}
	}
	return result{g: g.Clone(), played: played, f: f}, nil
}

// playOn plays guess c, made at time now, on game g, of which the turns
// are not at hand, only their number, played: it is g.GuessAnswer on the
// whole game, but leaves g without turns, its status and end moved on.
func playOn(g *mm.Game, played int, c mm.Code, now time.Time, answer func() (mm.Feedback, error)) (mm.Feedback, error) {
	switch g.Status {
	case mm.Won:
		return mm.Feedback{}, fmt.Errorf("%w: the code was found in %d guesses", mm.ErrGameOver, played)
	case mm.Lost:
		return mm.Feedback{}, fmt.Errorf("%w: the game was lost after %d guesses", mm.ErrGameOver, played)
	}
	// The guesses left are the limit of a game without turns; a game in
	// play has one at least.
	limit := g.MaxGuesses
	if limit > 0 {
		g.MaxGuesses = max(1, limit-played)
	}
	g.Turns = nil
	f, err := g.GuessAnswer(c, now, answer)
	g.MaxGuesses, g.Turns = limit, nil
	return f, err
}

// storeCodes keeps the codes of adversary game g, which has just had its
// turn played answered with ev, or has ended after played turns: beside
// its turns while it is in play, none once it is over.
func (s *Store) storeCodes(ctx context.Context, tx *writeTx, g *mm.Game, played int, ev *evasion) error {
	var err error
	switch {
	case !g.Adversary:
	case g.Status != mm.Playing:
		_, err = tx.StmtContext(ctx, s.delCodes).ExecContext(ctx, g.ID)
	case ev.codes != nil:
		_, err = tx.StmtContext(ctx, s.putCodes).ExecContext(ctx, g.ID, played, []byte(ev.codes))
	default:
		_, err = tx.StmtContext(ctx, s.moveCodes).ExecContext(ctx, played, g.ID)
	}
	return err
}

// checkKey checks that key opens game id, whose owner's key is owner: a
// nil key is not checked, and a nil owner takes any key.
func checkKey(id string, owner, key []byte) error {
	if key == nil || owner == nil || subtle.ConstantTimeCompare(owner, key) == 1 {
		return nil
	}
	return fmt.Errorf("%w: the token is not the one game %s was created with", mm.ErrNotPlayer, id)
}
