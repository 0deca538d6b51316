package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// While guesses come in, a solver runs at most paceShare of the time: once
// it has run paceRun since it last paused, it pauses, at its next look at
// its context, for as long again as keeps it to its share, up to
// paceMaxPause. On 2 cores a solver at work all along took half the
// machine and halved the guesses; paced, the writer and the guesses'
// handlers have the cores. A server without guesses for paceRecent lets its
// solvers run at full speed.
const (
	paceShare    = 0.1
	paceRun      = 2 * time.Millisecond
	paceMaxPause = time.Second
	paceRecent   = 200 * time.Millisecond
)

// A pacer slows the solvers down while guesses come in. Its methods are
// safe for concurrent use.
type pacer struct {
	epoch time.Time
	last  atomic.Int64 // the time of the last guess, since epoch; -1 for none
	// pauses counts the pauses the solvers took, for the tests.
	pauses atomic.Int64
}

func newPacer() *pacer {
	p := &pacer{epoch: time.Now()}
	p.last.Store(-1)
	return p
}

// guessed notes that a guess came in.
func (p *pacer) guessed() { p.last.Store(int64(time.Since(p.epoch))) }

// busy reports whether guesses came in lately.
func (p *pacer) busy() bool {
	last := p.last.Load()
	return last >= 0 && time.Since(p.epoch)-time.Duration(last) <= paceRecent
}

// paced returns ctx, paced by p: its Err, which the solvers look at in
// their long loops, pauses the solver that calls it while guesses come in.
func (p *pacer) paced(ctx context.Context) *pacedContext {
	return &pacedContext{Context: ctx, p: p, resumed: time.Now()}
}

// pacedContext is the context a solver works under. The goroutines of one
// solver share it, and pause together.
type pacedContext struct {
	context.Context
	p *pacer

	mu      sync.Mutex
	resumed time.Time     // when the solver last started running
	pausing int           // the solver's goroutines pausing now
	since   time.Time     // when the first of them began to
	paused  time.Duration // the time with any of them pausing, until since
}

// pausedFor returns how long the solver has paused so far: time that is
// not the solver's to pay for.
func (c *pacedContext) pausedFor() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.paused
	if c.pausing > 0 {
		d += time.Since(c.since)
	}
	return d
}

func (c *pacedContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	now := time.Now()
	ran := now.Sub(c.resumed)
	if !c.p.busy() {
		c.resumed = now
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	if ran < paceRun {
		return nil
	}
	c.p.pauses.Add(1)
	pause := min(paceMaxPause, time.Duration(float64(ran)*(1-paceShare)/paceShare))
	c.mu.Lock()
	if c.pausing == 0 {
		c.since = time.Now()
	}
	c.pausing++
	c.mu.Unlock()
	t := time.NewTimer(pause)
	select {
	case <-t.C:
	case <-c.Context.Done():
	}
	t.Stop()
	c.mu.Lock()
	c.resumed = time.Now()
	if c.pausing--; c.pausing == 0 {
		c.paused += c.resumed.Sub(c.since)
	}
	c.mu.Unlock()
	return c.Context.Err()
}
