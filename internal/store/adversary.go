package store

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The guesses of adversary games. An adversary answers with the feedback
// that keeps the most codes consistent with the turns (Set.Evade): worked
// out from the turns each time, in the writer, a guess cost O(codes ×
// turns) there, about a second at turn 500 of 16 × 4, while every other
// guess waited. Instead the goroutine of the guess keeps the codes still
// consistent, filters them by its own answer, O(codes) whatever the turns,
// and hands the writer the answer made: the writer only checks that it was
// made for the turns the game has.

// adversaryBytes bounds the memory of the codes kept for adversary games:
// a game of MaxAdversaryCodes (2¹⁶) codes keeps under a megabyte. A game
// forgotten has its codes worked out again from its turns at its next
// guess, once.
const adversaryBytes = 64 << 20

// A BusyError is the answer to a request that met too many others at once
// and may well go through if sent again after a while: not the server's
// fault, and not the client's. Its RetryAfter says how long to wait; the
// game server answers it 503 with Retry-After.
type BusyError struct {
	Err   error
	After time.Duration
}

func (e *BusyError) Error() string             { return e.Err.Error() }
func (e *BusyError) Unwrap() error             { return e.Err }
func (e *BusyError) RetryAfter() time.Duration { return e.After }

// errAdversary is the writer's answer to a guess on an adversary game in
// play that does not carry the adversary's answer for the game's turns:
// the result carries the game, for the caller to make the answer.
var errAdversary = errors.New("mastermind: the adversary's answer is to be made")

// An evasion is the adversary's answer to a guess, made by the guess's
// goroutine for a game of turns turns.
type evasion struct {
	turns int
	f     mm.Feedback
	err   error
}

// An adversary is what the store keeps of an adversary game in play.
type adversary struct {
	id string
	// mu serialises the store's guesses on the game, and guards the rest.
	mu    sync.Mutex
	key   []byte  // the key last accepted, to skip the work for another
	turns int     // the turns that left is consistent with
	left  *mm.Set // nil until known
	size  int64   // the bytes counted for left
}

// adversaries keeps the adversary games seen last, up to adversaryBytes,
// forgetting the least recently used first. Its methods are safe for
// concurrent use.
type adversaries struct {
	mu    sync.Mutex
	bytes int64
	lru   *list.List // of *adversary, most recent first
	byID  map[string]*list.Element
}

func newAdversaries() *adversaries {
	return &adversaries{lru: list.New(), byID: make(map[string]*list.Element)}
}

// get returns the adversary of game id, marked used; with add, one
// created if there is none, else nil.
func (as *adversaries) get(id string, add bool) *adversary {
	as.mu.Lock()
	defer as.mu.Unlock()
	if e := as.byID[id]; e != nil {
		as.lru.MoveToFront(e)
		return e.Value.(*adversary)
	}
	if !add {
		return nil
	}
	a := &adversary{id: id}
	as.byID[id] = as.lru.PushFront(a)
	return a
}

// resize counts size bytes for a, whose left it has changed, and forgets
// the least recently used adversaries until the bytes fit (a itself, if it
// alone is larger).
func (as *adversaries) resize(a *adversary, size int64) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.byID[a.id] == nil {
		return // forgotten meanwhile
	}
	as.bytes += size - a.size
	a.size = size
	for as.bytes > adversaryBytes {
		as.removeLocked(as.lru.Back().Value.(*adversary))
	}
}

// remove forgets a, if it is still kept.
func (as *adversaries) remove(a *adversary) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.removeLocked(a)
}

func (as *adversaries) removeLocked(a *adversary) {
	if e := as.byID[a.id]; e != nil && e.Value.(*adversary) == a {
		as.lru.Remove(e)
		delete(as.byID, a.id)
		as.bytes -= a.size
	}
}

// setBytes estimates the memory of set: a 4-byte index and an 8-byte
// packed word for each code, counted twice, since Set.Filter grows its
// slices by appending and may leave half their capacity unused (a review
// saw 12 to 24 bytes a code; 16 let the cache grow past adversaryBytes).
func setBytes(set *mm.Set) int64 { return int64(set.Len())*24 + 64 }

// guessAdversary plays guess c on adversary game id, whose game is g as
// the writer last answered (nil if not known): it makes the adversary's
// answer here, from the codes a keeps, and has the writer record it.
func (s *Store) guessAdversary(ctx context.Context, a *adversary, id string, key []byte, c mm.Code, at time.Time, g *mm.Game) (*mm.Game, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for try := 0; ; try++ {
		if g != nil && (a.left == nil || a.turns != len(g.Turns)) {
			// Not known, or behind the game: work it out from the turns,
			// once.
			left, err := g.Possible()
			if err != nil {
				return nil, err
			}
			a.left, a.turns = left, len(g.Turns)
			s.adversaries.resize(a, setBytes(left))
		}
		o := &op{id: id, key: key, code: c, at: at}
		kept := -1 // the codes the answer keeps
		if a.left != nil && (key == nil || a.key == nil || bytes.Equal(key, a.key)) {
			p, err := a.left.EvadePart(c)
			o.evade = &evasion{turns: a.turns, f: p.Feedback, err: err}
			kept = p.Count
		}
		got, err := s.do(ctx, o)
		switch {
		case errors.Is(err, errAdversary) && try < 3:
			// The first guess seen, or another guess came first: the
			// writer sent the game as it is.
			g, a.key = got, key
			continue
		case errors.Is(err, errAdversary):
			return nil, &BusyError{fmt.Errorf("mastermind: game %s: too many guesses at once on an adversary game; try again", id), time.Second}
		case err != nil || got.Status != mm.Playing:
			if err == nil || errors.Is(err, mm.ErrGameOver) || errors.Is(err, mm.ErrTimeUp) || errors.Is(err, mm.ErrUnknownGame) {
				s.adversaries.remove(a)
			}
			return got, err
		}
		a.key = key
		a.turns = len(got.Turns)
		if kept == a.left.Len() {
			return got, nil // the answer keeps every code, as a guess played again does
		}
		t := got.Turns[len(got.Turns)-1]
		left, err := a.left.Filter(t.Guess, t.Feedback)
		if err != nil {
			s.adversaries.remove(a)
			return got, nil
		}
		a.left = left
		s.adversaries.resize(a, setBytes(left))
		return got, nil
	}
}
