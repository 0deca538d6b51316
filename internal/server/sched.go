package server

import (
	"context"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A scheduler shares the solver's slots among clients fairly: the slots
// go round the clients in the order of the solver time each has had
// (start-time fair queueing). A computation is tagged with the solver
// time its client will have had when it starts (its client's earlier
// computations counted at their estimates until done, then at their
// time), on a virtual clock that moves on to the tag of each computation
// started, and the waiting computation with the earliest tag starts
// first, the oldest of equal tags; so a client new, or idle a while, goes
// before those that have kept the solver busy, whatever their number or
// the size of their hints, and a client's own computations go in turn.
// Each pick costs O(waiting), which maxWaiting keeps small.
//
// Computations estimated cheap (a hint on a small board) have a lane of
// their own besides: cheapSlots more slots that only they take, so that
// they never wait behind an expensive one at work. They take a slot of
// the main lane, too, when one is free and theirs are not.
//
// At most maxWaiting computations of each lane wait; when they are as
// many, a newcomer whose tag is earlier than the latest one waiting takes
// its place, which is refused as busy, so that the clients that already
// had the most are the ones refused, not a newcomer.
//
// Its methods are safe for concurrent use.
type scheduler struct {
	mu         sync.Mutex
	free       int // slots of the main lane free
	cheapFree  int // slots of the cheap lane free
	maxWaiting int
	waiting    []*ticket // in order of arrival
	vtime      time.Duration
	clients    map[string]*account
	pruned     int // len(clients) after the last pruning
	seq        uint64
}

// An account is what a scheduler knows of a client: the tag after its
// computations admitted, counting those not done at their estimates, and
// how many are not done.
type account struct {
	finish  time.Duration
	pending int
}

// cheapSlots is the number of slots of the cheap lane: cheap computations
// take milliseconds, so one more runs beside the main lane's at little
// cost to the cores.
const cheapSlots = 1

// A ticket is one computation's place in a scheduler.
type ticket struct {
	client string
	cheap  bool
	tag    time.Duration
	est    time.Duration // of the solver's time it takes
	seq    uint64
	// grant receives the lane of the slot granted (true for the cheap
	// lane), or is closed when the ticket is dropped from a full queue.
	grant chan bool
	lane  bool // the lane of the slot held, once granted
	state ticketState
}

type ticketState int

const (
	waiting ticketState = iota
	granted
	gone // dropped, given up, or done
)

func newScheduler(slots, maxWaiting int) *scheduler {
	return &scheduler{free: slots, cheapFree: cheapSlots, maxWaiting: maxWaiting, clients: make(map[string]*account)}
}

// enqueue puts a computation of client in the queue, estimated to take est
// of the solver's time, in the cheap lane if cheap, and returns its
// ticket, or errBusy if the queue is full of computations of clients that
// had less of the solver.
func (s *scheduler) enqueue(client string, cheap bool, est time.Duration) (*ticket, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	a := s.clients[client]
	if a == nil {
		a = &account{}
	}
	t := &ticket{client: client, cheap: cheap, tag: max(s.vtime, a.finish), est: est, seq: s.seq, grant: make(chan bool, 1)}
	// Each lane's computations have maxWaiting places.
	last, n := -1, 0
	for i, w := range s.waiting {
		if w.cheap == cheap {
			n++
			if last < 0 || later(w, s.waiting[last]) {
				last = i
			}
		}
	}
	if n >= s.maxWaiting {
		w := s.waiting[last]
		if !later(w, t) {
			return nil, errBusy
		}
		s.removeLocked(last)
		s.endLocked(w, 0)
		close(w.grant)
	}
	a.finish = t.tag + est
	a.pending++
	s.clients[client] = a
	s.waiting = append(s.waiting, t)
	s.dispatchLocked()
	return t, nil
}

// endLocked ends t, which took ran of the solver's time, in its client's
// account. s.mu must be held.
func (s *scheduler) endLocked(t *ticket, ran time.Duration) {
	t.state = gone
	a := s.clients[t.client]
	a.finish = max(s.vtime, a.finish+ran-t.est)
	a.pending--
	if len(s.clients) > 2*s.pruned+1024 {
		// A client with nothing pending whose tag the clock has passed
		// is as a new one.
		for c, a := range s.clients {
			if a.pending == 0 && a.finish <= s.vtime {
				delete(s.clients, c)
			}
		}
		s.pruned = len(s.clients)
	}
}

// later reports whether a comes after b in the order of the queue.
func later(a, b *ticket) bool {
	return a.tag > b.tag || a.tag == b.tag && a.seq > b.seq
}

func (s *scheduler) removeLocked(i int) {
	s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
}

// dispatchLocked grants the free slots to the first computations of the
// queue: the cheap lane's to cheap ones, then the main lane's to any.
// s.mu must be held.
func (s *scheduler) dispatchLocked() {
	for s.cheapFree > 0 && s.grantLocked(true) {
		s.cheapFree--
	}
	for s.free > 0 && s.grantLocked(false) {
		s.free--
	}
}

// grantLocked grants a slot of the lane given to the first computation
// that may take it, and reports whether there was one.
func (s *scheduler) grantLocked(cheapLane bool) bool {
	first := -1
	for i, w := range s.waiting {
		if (!cheapLane || w.cheap) && (first < 0 || later(s.waiting[first], w)) {
			first = i
		}
	}
	if first < 0 {
		return false
	}
	t := s.waiting[first]
	s.removeLocked(first)
	t.state, t.lane = granted, cheapLane
	s.vtime = max(s.vtime, t.tag)
	t.grant <- cheapLane
	return true
}

// wait waits for t's slot until ctx is done or the timer fires. It
// returns nil once t has its slot, which the caller gives back with done;
// otherwise t leaves the queue, and the error is errBusy if t was dropped
// from a full queue, ctx.Err() or context.DeadlineExceeded.
func (s *scheduler) wait(ctx context.Context, t *ticket, timer <-chan time.Time) error {
	err := context.DeadlineExceeded
	select {
	case _, ok := <-t.grant:
		if ok {
			return nil
		}
		return errBusy
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch t.state {
	case granted: // meanwhile after all: give it back
		s.releaseLocked(t, 0)
	case waiting:
		for i, w := range s.waiting {
			if w == t {
				s.removeLocked(i)
				break
			}
		}
		s.endLocked(t, 0)
	}
	return err
}

// done gives back t's slot, its computation having had ran of the
// solver's time.
func (s *scheduler) done(t *ticket, ran time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(t, ran)
}

func (s *scheduler) releaseLocked(t *ticket, ran time.Duration) {
	if t.state != granted {
		return
	}
	if t.lane {
		s.cheapFree++
	} else {
		s.free++
	}
	s.endLocked(t, ran)
	s.dispatchLocked()
}

// A costKey names a kind of computation on a variant, whose cost costs
// learns: "hint", or "assist " and the strategy's name, or "coach".
type costKey struct {
	kind  string
	rules mm.Rules
}

// costs holds the solver time that each kind of computation took lately,
// for the cheap lane. Its zero value is ready to use, and its methods are
// safe for concurrent use.
type costs struct {
	mu sync.Mutex
	m  map[costKey]time.Duration
}

// maxCosts bounds the kinds that costs remembers; past it, it forgets
// them all.
const maxCosts = 4096

// estimate returns the solver time that a computation of kind k is
// estimated to take, and whether it is cheap: what those of its kind took
// lately, on average, or if none has been timed, a millisecond on a board
// of at most cheapCodes codes and a second on a larger one; cheap if that
// is at most cheapCost on a board of at most cheapCodes codes. A large
// board is never cheap: the first hints of 10 × 8 take milliseconds, the
// later ones a second.
func (c *costs) estimate(k costKey) (d time.Duration, cheap bool) {
	small := k.kind != "coach" && k.rules.Size() <= cheapCodes
	c.mu.Lock()
	d, ok := c.m[k]
	c.mu.Unlock()
	switch {
	case ok:
	case small:
		d = time.Millisecond
	default:
		d = time.Second
	}
	return d, small && d <= cheapCost
}

// note notes that a computation of kind k took d of the solver's time.
func (c *costs) note(k costKey, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCosts {
		c.m = make(map[costKey]time.Duration)
	}
	if old, ok := c.m[k]; ok {
		d = old + (d-old)/4
	}
	c.m[k] = d
}
