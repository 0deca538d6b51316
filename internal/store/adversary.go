package store

import (
	"container/list"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The guesses of adversary games. An adversary answers with the feedback
// that keeps the most codes consistent with the turns (Set.Evade): worked
// out from the turns each time, a guess cost O(codes × turns), about a
// second at turn 500 of 16 × 4. Instead each game's codes still possible
// are kept, in a compact form (codeSet), in the database beside its turns
// and in memory for the games guessed on last: the goroutine of a guess
// weighs them against its guess, O(codes) whatever the turns, and hands
// the writer the answer made and the codes it keeps; the writer checks
// that the answer was made for the turns the game has and stores both in
// the transaction of the guess. A game not in memory has its codes read
// back, 8 KiB at most, so that a guess costs the same however many
// adversary games are played at once.

// adversaryBytes bounds the memory of the codes kept in memory for
// adversary games: a game of MaxAdversaryCodes (2¹⁶) codes keeps 8 KiB at
// most, so thousands fit. A game forgotten has its codes read back from
// the database at its next guess.
const adversaryBytes = 16 << 20

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
// goroutine for a game of turns turns, with the codes it keeps.
type evasion struct {
	turns int
	f     mm.Feedback
	err   error
	// codes are the codes the answer keeps, to store with the turn; nil
	// if they are the ones stored already, whose turns alone move on.
	codes codeSet
}

// A codeSet is a set of codes of a space, by index, in a compact form:
// after a kind byte, the ascending indices as little-endian uint16 (or
// uint32 in a space of more than 2¹⁶ codes), or a bitmap of the space,
// lowest index first, whichever is shorter. Its capacity is all the
// allocator gave it (newCodeSet), so that its capacity is its memory.
type codeSet []byte

// newCodeSet returns a codeSet of n bytes, zero, whose capacity is the
// size class the allocator rounds n up to: 9,472 bytes for the 8,193 of
// a bitmap of 16 × 4, say.
func newCodeSet(n int) codeSet {
	return append(codeSet(nil), make(codeSet, n)...)
}

// Kinds of codeSet.
const (
	codeList16 = 1
	codeList32 = 2
	codeBitmap = 3
)

// listWidth returns the bytes of an index in a space of n codes.
func listWidth(n int) (width int, kind byte) {
	if n <= 1<<16 {
		return 2, codeList16
	}
	return 4, codeList32
}

// makeCodeSet returns the set of the count indices that each yields, in
// ascending order, in a space of n codes.
func makeCodeSet(n, count int, each func(yield func(i int))) codeSet {
	w, kind := listWidth(n)
	if listed := 1 + w*count; listed <= 1+(n+7)/8 {
		cs := newCodeSet(listed)[:1]
		cs[0] = kind
		each(func(i int) {
			if w == 2 {
				cs = binary.LittleEndian.AppendUint16(cs, uint16(i))
			} else {
				cs = binary.LittleEndian.AppendUint32(cs, uint32(i))
			}
		})
		return cs
	}
	cs := newCodeSet(1 + (n+7)/8)
	cs[0] = codeBitmap
	each(func(i int) { cs[1+i/8] |= 1 << (i % 8) })
	return cs
}

// allCodes returns the set of every code of a space of n codes.
func allCodes(n int) codeSet {
	return makeCodeSet(n, n, func(yield func(int)) {
		for i := range n {
			yield(i)
		}
	})
}

// valid reports whether cs is a well-formed set of a space of n codes.
func (cs codeSet) valid(n int) bool {
	if len(cs) == 0 {
		return false
	}
	switch w, kind := listWidth(n); cs[0] {
	case kind:
		if (len(cs)-1)%w != 0 {
			return false
		}
		last := -1
		for i := range cs.each {
			if i <= last || i >= n {
				return false
			}
			last = i
		}
		return true
	case codeBitmap:
		return len(cs) == 1+(n+7)/8 && (n%8 == 0 || cs[len(cs)-1]>>(n%8) == 0)
	}
	return false
}

// len returns the number of codes in cs.
func (cs codeSet) len() int {
	switch cs[0] {
	case codeList16:
		return (len(cs) - 1) / 2
	case codeList32:
		return (len(cs) - 1) / 4
	}
	n := 0
	for _, b := range cs[1:] {
		n += bits.OnesCount8(b)
	}
	return n
}

// each calls yield with each index of cs, in ascending order.
func (cs codeSet) each(yield func(i int) bool) {
	switch cs[0] {
	case codeList16:
		for j := 1; j+2 <= len(cs); j += 2 {
			if !yield(int(binary.LittleEndian.Uint16(cs[j:]))) {
				return
			}
		}
	case codeList32:
		for j := 1; j+4 <= len(cs); j += 4 {
			if !yield(int(binary.LittleEndian.Uint32(cs[j:]))) {
				return
			}
		}
	case codeBitmap:
		for j, b := range cs[1:] {
			for b != 0 {
				if !yield(j*8 + bits.TrailingZeros8(b)) {
					return
				}
				b &= b - 1
			}
		}
	}
}

// evade returns the adversary's answer to guess g, a code of sp, when cs
// are the codes it may claim to hold (Set.EvadePart): the feedback of g's
// largest class in cs, the first in (black, white) order on ties, a win
// only when g is the only code left. With it, the codes that give it, or
// nil if they are all of cs. It costs O(len(cs)) and allocates the codes
// kept, and two bytes a code of cs.
func (cs codeSet) evade(sp *mm.Space, g mm.Code) (mm.Feedback, codeSet, error) {
	gi, ok := sp.Index(g)
	if !ok {
		return mm.Feedback{}, nil, fmt.Errorf("%w: %s is not a code of %s", mm.ErrInvalidCode, g, sp.Rules())
	}
	counts := make([]int, sp.Keys())
	keys := make([]uint16, 0, cs.len())
	for i := range cs.each {
		k := sp.Key(sp.Score(gi, i))
		counts[k]++
		keys = append(keys, uint16(k))
	}
	if len(keys) == 0 {
		return mm.Feedback{}, nil, fmt.Errorf("%w: no code is left to answer %s", mm.ErrInconsistent, g)
	}
	solved := sp.SolvedKey()
	best := -1
	for k, n := range counts {
		if n == 0 || k == solved && n < len(keys) {
			continue
		}
		if best < 0 || n > counts[best] {
			best = k
		}
	}
	f := sp.KeyFeedback(best)
	if counts[best] == len(keys) {
		return f, nil, nil
	}
	kept := makeCodeSet(sp.Len(), counts[best], func(yield func(int)) {
		j := 0
		for i := range cs.each {
			if keys[j] == uint16(best) {
				yield(i)
			}
			j++
		}
	})
	return f, kept, nil
}

// codeSetOf returns set in the compact form.
func codeSetOf(set *mm.Set) codeSet {
	return makeCodeSet(set.Space().Len(), set.Len(), func(yield func(int)) {
		for i := range set.Len() {
			yield(set.Index(i))
		}
	})
}

// An adversary is what the store keeps in memory of an adversary game in
// play.
type adversary struct {
	id string
	// mu serialises the store's guesses on the game, and guards the rest.
	mu    sync.Mutex
	key   []byte // the key last accepted, to skip the work for another
	sp    *mm.Space
	turns int     // the turns that codes are consistent with
	codes codeSet // nil until known
	// stored says that the database holds codes, for some turns: a guess
	// that keeps them all need only move the turns on.
	stored bool
	size   int64 // the bytes counted for the adversary
}

// adversaryOverhead is the memory of an adversary beside its codes and
// ID: the struct, its list element, its map slot, its owner's key.
const adversaryOverhead = 256

// adversaries keeps the adversary games seen last, up to max bytes,
// forgetting the least recently used first. Its methods are safe for
// concurrent use.
type adversaries struct {
	mu    sync.Mutex
	max   int64
	bytes int64
	lru   *list.List // of *adversary, most recent first
	byID  map[string]*list.Element
}

func newAdversaries(max int64) *adversaries {
	return &adversaries{max: max, lru: list.New(), byID: make(map[string]*list.Element)}
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
	a := &adversary{id: id, size: adversaryOverhead + int64(len(id))}
	as.byID[id] = as.lru.PushFront(a)
	as.bytes += a.size
	as.fitLocked()
	return a
}

// resize counts the bytes of a, whose codes it has changed, and forgets
// the least recently used adversaries until the bytes fit (a itself, if it
// alone is larger).
func (as *adversaries) resize(a *adversary) {
	size := adversaryOverhead + int64(len(a.id)+cap(a.codes))
	as.mu.Lock()
	defer as.mu.Unlock()
	if e := as.byID[a.id]; e == nil || e.Value.(*adversary) != a {
		return // forgotten meanwhile
	}
	as.bytes += size - a.size
	a.size = size
	as.fitLocked()
}

func (as *adversaries) fitLocked() {
	for as.bytes > as.max {
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

// loadCodes sets the codes of a to those of game g after played turns, as
// the writer last answered it: as stored, if they are, or else worked out
// from its turns, read back, once (a game from before the codes were
// stored).
func (s *Store) loadCodes(ctx context.Context, a *adversary, g *mm.Game, played int) error {
	sp, err := mm.SpaceOf(g.Rules)
	if err != nil {
		return err
	}
	a.sp = sp
	var (
		turns int
		codes codeSet
	)
	err = s.r.QueryRowContext(ctx, `SELECT turns, codes FROM adversary_codes WHERE game_id = ?`, a.id).Scan(&turns, &codes)
	switch {
	case err == nil && turns >= played && codes.valid(sp.Len()):
		// Newer than g, if another guess came since: the writer checks.
		a.codes, a.turns, a.stored = append(newCodeSet(len(codes))[:0], codes...), turns, true
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	case played == 0:
		a.codes, a.turns, a.stored = allCodes(sp.Len()), 0, err == nil
	default:
		whole := g.Clone()
		if whole.Turns, err = loadTurns(ctx, s.r, g, played); err != nil {
			return err
		}
		left, err := whole.Possible()
		if err != nil {
			return err
		}
		a.codes, a.turns, a.stored = codeSetOf(left), played, false
	}
	s.adversaries.resize(a)
	return nil
}

// guessAdversary plays guess c on adversary game id, whose state is known
// as the writer last answered (r, nil if not known): it makes the
// adversary's answer here, from the codes a keeps, and has the writer
// record it.
func (s *Store) guessAdversary(ctx context.Context, a *adversary, id string, key []byte, c mm.Code, at time.Time, r *result) result {
	a.mu.Lock()
	defer a.mu.Unlock()
	for try := 0; ; try++ {
		if r != nil && (a.codes == nil || a.turns != r.played) {
			// Not known, or behind the game: read them back.
			if err := s.loadCodes(ctx, a, r.g, r.played); err != nil {
				return result{err: err}
			}
		}
		o := &op{id: id, key: key, code: c, at: at}
		var kept codeSet
		if a.codes != nil && (key == nil || a.key == nil || string(key) == string(a.key)) {
			f, k, err := a.codes.evade(a.sp, c)
			kept = k
			if k == nil && !a.stored {
				k = a.codes // unchanged, but not in the database yet
			}
			o.evade = &evasion{turns: a.turns, f: f, err: err, codes: k}
		}
		got := s.do(ctx, o)
		switch err := got.err; {
		case errors.Is(err, errAdversary) && try < 3:
			// The first guess seen, or another guess came first: the
			// writer sent the game as it is.
			r, a.key = &got, key
			continue
		case errors.Is(err, errAdversary):
			return result{err: &BusyError{fmt.Errorf("mastermind: game %s: too many guesses at once on an adversary game; try again", id), time.Second}}
		case err != nil || got.g.Status != mm.Playing:
			if err == nil || errors.Is(err, mm.ErrGameOver) || errors.Is(err, mm.ErrTimeUp) || errors.Is(err, mm.ErrUnknownGame) {
				s.adversaries.remove(a)
			}
			return got
		}
		a.key = key
		a.turns = got.played
		a.stored = true
		if kept != nil {
			a.codes = kept
			s.adversaries.resize(a)
		}
		return got
	}
}
