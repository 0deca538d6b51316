package server

import (
	"context"
	"sync/atomic"
	"time"
)

// While guesses come in, the solvers run in short windows, paceRun of each
// pacePeriod, and sleep through the rest, so that the writer and the
// guesses' handlers always have the cores: on 2 cores a solver at work all
// along took half the machine and halved the guesses. A server without
// guesses for paceRecent lets its solvers run at full speed.
const (
	pacePeriod = 20 * time.Millisecond
	paceRun    = 5 * time.Millisecond // a quarter of the time
	paceRecent = 200 * time.Millisecond
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

// pause sleeps until the end of the current pause window, or until ctx is
// done, if guesses came in lately and now is in a pause window.
func (p *pacer) pause(ctx context.Context) {
	last := p.last.Load()
	now := time.Since(p.epoch)
	if last < 0 || now-time.Duration(last) > paceRecent {
		return
	}
	phase := now % pacePeriod
	if phase < paceRun {
		return
	}
	p.pauses.Add(1)
	t := time.NewTimer(pacePeriod - phase)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// pacedContext is the context a solver works under: the solvers look at
// Err in their long loops, and there it pauses them while guesses come in.
type pacedContext struct {
	context.Context
	p *pacer
}

// paced returns ctx, paced by p.
func (p *pacer) paced(ctx context.Context) context.Context { return pacedContext{ctx, p} }

func (c pacedContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	c.p.pause(c.Context)
	return c.Context.Err()
}
