package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// hintCache is the number of hints a hinter remembers after computing
// them: a few hundred kilobytes.
const hintCache = 4096

// hintQueue is the number of computations that may wait in each lane of
// the scheduler for each of its slots, its workers' and the cheap lane's:
// more are refused at once, as busy, rather than left to wait until their
// timeout; those of the clients that had the most of the solver first
// (see scheduler).
const hintQueue = 8

// cheapCost is the solver time of a computation taken as cheap, for the
// cheap lane, on a board of at most cheapCodes codes: a hint on 6 × 4
// takes a few milliseconds. Until one has been timed, it is taken as
// cheap.
const (
	cheapCost  = 50 * time.Millisecond
	cheapCodes = 1 << 12
)

// hintWall bounds the time a hint, an assist or the coach may take by the
// clock, queue and pauses of its pace included, where its timeout counts
// only the time it waited and ran: safely below WriteTimeout, so that its
// answer still reaches the client.
const hintWall = 25 * time.Second

// A hinter computes hints: at most once for each state of a game, with its
// scheduler's slots shared fairly among the clients, each computation
// within timeout of waiting and running (its pauses not counted) and wall
// by the clock, and each client within its share of the solver's time,
// one computation at a time. Its methods are safe for concurrent use.
type hinter struct {
	strategy mm.Strategy
	timeout  time.Duration
	wall     time.Duration
	sched    *scheduler
	costs    costs // of the computations of each kind, for the cheap lane
	// budget holds each client's share of the solver, in milliseconds of
	// its time; nil for no limit. It is not the rate limit of requests: a
	// client whose share is spent may still guess.
	budget *limiter
	pace   *pacer // slows the solvers while guesses come in

	// busy holds the clients with a computation waiting or at work, where
	// there is a budget: one at a time each, so that no client holds
	// every place in the queue.
	busyMu sync.Mutex
	busy   map[string]bool

	mu   sync.Mutex
	byID map[hintKey]*hintEntry
	done *list.List // of *hintEntry with a result, most recent first
}

// hintKey names a state of a game: the turns of a game only grow, so its
// ID and its number of turns say what the solver sees.
type hintKey struct {
	id    string
	turns int
}

// A hintEntry is one computation of a hint, under way or finished.
type hintEntry struct {
	key     hintKey
	created time.Time
	ctx     context.Context // done at the wall, or when every waiter left
	cancel  context.CancelFunc
	ready   chan struct{} // closed once code and err are set
	waiters int           // requests waiting for it
	started atomic.Bool   // a solver took it on
	code    mm.Code
	err     error
	elem    *list.Element // in done, once finished with a result kept
}

func newHinter(s mm.Strategy, timeout time.Duration, workers int, budget *limiter) *hinter {
	return &hinter{strategy: s, timeout: timeout, wall: max(timeout, hintWall),
		sched: newScheduler(workers, hintQueue*(workers+cheapSlots)), budget: budget, pace: newPacer(),
		busy: make(map[string]bool), byID: make(map[hintKey]*hintEntry), done: list.New()}
}

// errBusy is the answer to a request for the solver when more already
// wait for it than it serves soon.
var errBusy = &retryError{&statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver is busy; try again")}, time.Second}

// errUnderWay is the answer to a client that asks for the solver while
// a computation of its own waits or runs.
var errUnderWay = &retryError{&statusError{http.StatusTooManyRequests, errors.New(
	"mastermind: a hint, an assist or the coach of yours is under way; ask again once it is answered (guesses are not limited by it)")}, time.Second}

// admit takes a place in the queue for a computation of kind k on behalf
// of client, if the client has none waiting or at work, some share of the
// solver left, and the queue has room for it; the caller gives the place
// back with release, and the ticket's slot, once it has one, with h.ran.
func (h *hinter) admit(client string, k costKey) (*ticket, error) {
	est, cheap := h.costs.estimate(k)
	if h.budget == nil {
		return h.sched.enqueue(client, cheap, est)
	}
	h.busyMu.Lock()
	defer h.busyMu.Unlock()
	if h.busy[client] {
		return nil, errUnderWay
	}
	if wait := h.budget.reserve(client); wait > 0 {
		return nil, &retryError{&statusError{http.StatusTooManyRequests, fmt.Errorf(
			"mastermind: your share of the solver is spent; hints come again in %d s (guesses are not limited by it)", seconds(wait))}, wait}
	}
	t, err := h.sched.enqueue(client, cheap, est)
	if err != nil {
		return nil, err
	}
	h.busy[client] = true
	return t, nil
}

// release ends client's computation admitted by admit.
func (h *hinter) release(client string) {
	if h.budget != nil {
		h.busyMu.Lock()
		delete(h.busy, client)
		h.busyMu.Unlock()
	}
}

// charge bills client for d of a solver's time, to its share of the solver.
func (h *hinter) charge(client string, d time.Duration) {
	if h.budget != nil {
		h.budget.charge(client, int(d.Milliseconds()))
	}
}

// guess returns the hint for game g, on behalf of client, waiting at most
// until the hint's timeout or ctx is done. The first request for a state
// of the game starts the computation and pays for it; the others wait for
// it, or take the result remembered.
func (h *hinter) guess(ctx context.Context, client string, g *mm.Game) (mm.Code, error) {
	k := hintKey{g.ID, len(g.Turns)}
	h.mu.Lock()
	e := h.byID[k]
	if e != nil && e.elem != nil {
		h.done.MoveToFront(e.elem)
		h.mu.Unlock()
		return e.code, e.err
	}
	if e == nil || e.ctx.Err() != nil {
		// Nothing known, or a computation that timed out or was given up
		// and runs on only until its solver notices: start afresh, if
		// the client may.
		ck := costKey{"hint", g.Rules}
		t, err := h.admit(client, ck)
		if err != nil {
			h.mu.Unlock()
			return mm.Code{}, err
		}
		e = &hintEntry{key: k, created: time.Now(), ready: make(chan struct{})}
		e.ctx, e.cancel = context.WithTimeout(context.Background(), h.wall)
		h.byID[k] = e
		go h.compute(e, t, ck, g.Rules, g.Turns)
	}
	e.waiters++
	h.mu.Unlock()

	select {
	case <-e.ready:
		return e.code, e.err
	case <-ctx.Done():
	case <-e.ctx.Done():
	}
	h.mu.Lock()
	e.waiters--
	if e.waiters == 0 {
		e.cancel() // nobody waits for it any more
	}
	h.mu.Unlock()
	select {
	case <-e.ready: // it finished meanwhile after all
		return e.code, e.err
	default:
	}
	return mm.Code{}, unavailable(e)
}

// unavailable returns the error of a hint given up before its end: busy
// if no solver took it on, too long if one did.
func unavailable(e *hintEntry) error {
	if !e.started.Load() {
		return errBusy
	}
	return &statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver took too long")}
}

// compute runs the solver for e, of kind k, once t has a slot, within
// what is left of the timeout after its wait, bills t's client for its
// time, and keeps the result if it is one for every later request. It
// gives back the place in the queue that admit took before it answers, so
// that a client whose hint is answered may ask again at once.
func (h *hinter) compute(e *hintEntry, t *ticket, k costKey, r mm.Rules, turns []mm.Turn) {
	client := t.client
	code, err := func() (mm.Code, error) {
		ctx, err := h.slot(e.ctx, t, e.created)
		if err != nil {
			return mm.Code{}, err
		}
		e.started.Store(true)
		// Its waiters give up when the solver has run its time out.
		context.AfterFunc(ctx, e.cancel)
		lowerPriority() // this goroutine ends with the computation
		// Billed for the time it ran, not for the pauses of its pace.
		defer func() { h.ran(t, k, ctx.ran()) }()
		// The solver sees the rules and the history, never the secret.
		st, err := mm.NewState(r, rand.New(cryptoSource{}))
		if err != nil {
			return mm.Code{}, err
		}
		for _, t := range turns {
			// Each turn may filter a million codes.
			if err := ctx.Err(); err != nil {
				return mm.Code{}, err
			}
			if st, err = st.Play(t.Guess, t.Feedback); err != nil {
				return mm.Code{}, err
			}
		}
		return mm.GuessContext(ctx, h.strategy, st)
	}()
	switch {
	case err == nil, errors.Is(err, mm.ErrTooLarge), err == errBusy:
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		err = unavailable(e)
	default:
		err = noHint(err)
	}
	e.code, e.err = code, err
	keep := err == nil || errors.Is(err, mm.ErrTooLarge)
	h.release(client)
	h.mu.Lock()
	defer h.mu.Unlock()
	close(e.ready)
	e.cancel()
	if h.byID[e.key] != e {
		return // given up and replaced
	}
	if !keep {
		delete(h.byID, e.key)
		return
	}
	h.keepLocked(e)
}

// keepLocked remembers e, finished with a result for every later request.
// h.mu must be held.
func (h *hinter) keepLocked(e *hintEntry) {
	e.elem = h.done.PushFront(e)
	for h.done.Len() > hintCache {
		old := h.done.Remove(h.done.Back()).(*hintEntry)
		delete(h.byID, old.key)
	}
}

// noHint wraps an error of the solver that is neither its timeout nor
// mm.ErrTooLarge.
func noHint(err error) error { return fmt.Errorf("mastermind: no hint: %w", err) }

// slot waits for t's slot, within the timeout from since and ctx, and
// returns the solver's context: ctx paced, with what is left of the
// timeout as its limit of running time. The caller gives the slot back
// with h.ran. A ticket dropped from a full queue gets errBusy.
func (h *hinter) slot(ctx context.Context, t *ticket, since time.Time) (*pacedContext, error) {
	timer := time.NewTimer(h.timeout - time.Since(since))
	defer timer.Stop()
	if err := h.sched.wait(ctx, t, timer.C); err != nil {
		return nil, err
	}
	left := h.timeout - time.Since(since)
	if left <= 0 {
		h.sched.done(t, 0)
		return nil, context.DeadlineExceeded
	}
	return h.pace.paced(ctx, left), nil
}

// ran gives back t's slot, its computation of kind k having run for d,
// its pauses not counted, and bills its client for d.
func (h *hinter) ran(t *ticket, k costKey, d time.Duration) {
	h.sched.done(t, d)
	h.costs.note(k, d)
	h.charge(t.client, d)
}

// remembered returns the computation of state k finished and kept, or
// nil.
func (h *hinter) remembered(k hintKey) *hintEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.byID[k]
	if e == nil || e.elem == nil {
		return nil
	}
	h.done.MoveToFront(e.elem)
	return e
}

// solve returns the guess of s in game g, whose state the caller has
// played as st, remembered or computed under ctx in the caller's own slot
// (see work), and remembers it; g.ID must name s as well as the game.
func (h *hinter) solve(ctx context.Context, s mm.Strategy, g *mm.Game, st *mm.State) (mm.Code, error) {
	k := hintKey{g.ID, len(g.Turns)}
	if e := h.remembered(k); e != nil {
		return e.code, e.err
	}
	code, err := mm.GuessContext(ctx, s, st)
	switch {
	case err == nil, errors.Is(err, mm.ErrTooLarge):
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return code, err
	default:
		return code, noHint(err)
	}
	e := &hintEntry{key: k, ctx: ctx, cancel: func() {}, ready: make(chan struct{}), code: code, err: err}
	close(e.ready)
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.byID[k]; old == nil || old.elem == nil {
		// A computation under way for k, if any, sees it replaced.
		h.byID[k] = e
		h.keepLocked(e)
	}
	return code, err
}
