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

// hintQueue is the number of computations that may wait for a solver, for
// each solver: more are refused at once, as busy, rather than left to
// wait until their timeout.
const hintQueue = 4

// A hinter computes hints: at most once for each state of a game, with at
// most cap(slots) solvers at work at once, each within timeout, and each
// client within its share of the solver's time. Its methods are safe for
// concurrent use.
type hinter struct {
	strategy mm.Strategy
	timeout  time.Duration
	slots    chan struct{} // semaphore of solvers at work
	queue    chan struct{} // semaphore of computations waiting or at work
	// budget holds each client's share of the solver, in milliseconds of
	// its time; nil for no limit. It is not the rate limit of requests: a
	// client whose share is spent may still guess.
	budget *limiter
	pace   *pacer // slows the solvers while guesses come in

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
	ctx     context.Context // done at the timeout, or when every waiter left
	cancel  context.CancelFunc
	ready   chan struct{} // closed once code and err are set
	waiters int           // requests waiting for it
	started atomic.Bool   // a solver took it on
	code    mm.Code
	err     error
	elem    *list.Element // in done, once finished with a result kept
}

func newHinter(s mm.Strategy, timeout time.Duration, workers int, budget *limiter) *hinter {
	return &hinter{strategy: s, timeout: timeout, slots: make(chan struct{}, workers),
		queue: make(chan struct{}, workers*(1+hintQueue)), budget: budget, pace: newPacer(),
		byID: make(map[hintKey]*hintEntry), done: list.New()}
}

// errBusy is the answer to a request for the solver when more already
// wait for it than it serves soon.
var errBusy = &retryError{&statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver is busy; try again")}, time.Second}

// admit takes a place in the queue for a computation on behalf of client,
// if the client has some share of the solver left and the queue has room;
// the caller gives the place back with <-h.queue.
func (h *hinter) admit(client string) error {
	if h.budget != nil {
		if wait := h.budget.reserve(client); wait > 0 {
			return &retryError{&statusError{http.StatusTooManyRequests, fmt.Errorf(
				"mastermind: your share of the solver is spent; hints come again in %d s (guesses are not limited by it)", seconds(wait))}, wait}
		}
	}
	select {
	case h.queue <- struct{}{}:
		return nil
	default:
		return errBusy
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
		if err := h.admit(client); err != nil {
			h.mu.Unlock()
			return mm.Code{}, err
		}
		e = &hintEntry{key: k, ready: make(chan struct{})}
		e.ctx, e.cancel = context.WithTimeout(context.Background(), h.timeout)
		h.byID[k] = e
		go h.compute(e, client, g.Rules, g.Turns)
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

// compute runs the solver for e once a slot is free, bills client for
// its time, and keeps the result if it is one for every later request. It
// gives back the place in the queue that admit took.
func (h *hinter) compute(e *hintEntry, client string, r mm.Rules, turns []mm.Turn) {
	defer func() { <-h.queue }()
	code, err := func() (mm.Code, error) {
		select {
		case h.slots <- struct{}{}:
		case <-e.ctx.Done():
			return mm.Code{}, e.ctx.Err()
		}
		defer func() { <-h.slots }()
		e.started.Store(true)
		lowerPriority() // this goroutine ends with the computation
		// Billed for the time it ran, not for the pauses of its pace.
		start, ctx := time.Now(), h.pace.paced(e.ctx)
		defer func() { h.charge(client, time.Since(start)-ctx.pausedFor()) }()
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
	case err == nil, errors.Is(err, mm.ErrTooLarge):
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		err = unavailable(e)
	default:
		err = fmt.Errorf("mastermind: no hint: %w", err)
	}
	e.code, e.err = code, err
	keep := err == nil || errors.Is(err, mm.ErrTooLarge)
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
	e.elem = h.done.PushFront(e)
	for h.done.Len() > hintCache {
		old := h.done.Remove(h.done.Back()).(*hintEntry)
		delete(h.byID, old.key)
	}
}
