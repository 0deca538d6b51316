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
// handlers have the cores. A tenth kept BenchmarkLoad's hints within 20%
// of the quiet guess rate, but a 10 × 8 hint (2.4-2.9 s of solver) then
// needed more than the 25 s wall; a quarter took guesses to 0.6 of quiet;
// 15% keeps them at about 0.8 and lets such a hint finish in about 20 s.
// A server without guesses for paceRecent lets its solvers run at full
// speed.
const (
	paceShare    = 0.15
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
// If limit is not 0, the context ends, with context.DeadlineExceeded, once
// the solver has run for limit, its pauses not counted: a solver slowed
// by its pace has the same time to work as one at full speed.
func (p *pacer) paced(ctx context.Context, limit time.Duration) *pacedContext {
	ctx, cancel := context.WithCancel(ctx)
	now := time.Now()
	c := &pacedContext{Context: ctx, cancel: cancel, p: p, limit: limit, start: now, resumed: now}
	if limit > 0 {
		// For the solvers that look only at Done.
		c.mu.Lock()
		c.timer = time.AfterFunc(limit, c.check)
		c.mu.Unlock()
		context.AfterFunc(ctx, func() {
			c.mu.Lock()
			c.timer.Stop()
			c.mu.Unlock()
		})
	}
	return c
}

// check ends c if its solver has run its limit out, and otherwise looks
// again when it may have.
func (c *pacedContext) check() {
	if c.Context.Err() != nil {
		return
	}
	if left := c.limit - c.ran(); left > 0 {
		c.mu.Lock()
		c.timer.Reset(left)
		c.mu.Unlock()
		return
	}
	c.expire()
}

// ran returns how long the solver has run, its pauses not counted.
func (c *pacedContext) ran() time.Duration { return time.Since(c.start) - c.pausedFor() }

// expire ends c, its solver having run its limit out.
func (c *pacedContext) expire() {
	c.over.Store(true)
	c.cancel()
}

// pacedContext is the context a solver works under. The goroutines of one
// solver share it, and pause together.
type pacedContext struct {
	context.Context
	cancel context.CancelFunc
	p      *pacer
	limit  time.Duration // of the solver's running time; 0 for none
	start  time.Time
	over   atomic.Bool // the solver ran its limit out
	timer  *time.Timer // ends it at the limit; guarded by mu

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
		if c.over.Load() {
			return context.DeadlineExceeded
		}
		return err
	}
	if c.limit > 0 && c.ran() >= c.limit {
		c.expire()
		return context.DeadlineExceeded
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
