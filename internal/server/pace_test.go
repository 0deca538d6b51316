package server

import (
	"context"
	"testing"
	"time"
)

// A solver's context pauses it, at the solver's own checks, while guesses
// come in, and never when none came lately or once the context is done.
func TestPacer(t *testing.T) {
	spin := func(p *pacer, ctx context.Context, d time.Duration) (checks int) {
		ctx = p.paced(ctx)
		for end := time.Now().Add(d); time.Now().Before(end); checks++ {
			if ctx.Err() != nil {
				break
			}
		}
		return checks
	}
	p := newPacer()
	spin(p, context.Background(), 20*paceRun)
	if n := p.pauses.Load(); n != 0 {
		t.Errorf("a solver without guesses paused %d times; want never", n)
	}
	p.guessed()
	checks := spin(p, context.Background(), 40*paceRun)
	if n := p.pauses.Load(); n < 2 || int(n) >= checks {
		t.Errorf("a solver over %v while guesses come in paused %d times in %d checks; want at least twice", 40*paceRun, n, checks)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := p.pauses.Load()
	if err := p.paced(ctx).Err(); err != context.Canceled {
		t.Errorf("Err of a cancelled paced context: %v", err)
	}
	if p.pauses.Load() != before {
		t.Error("a cancelled solver paused")
	}
}

// The hints' solver and the assist's replay run under a paced context.
func TestHintPaced(t *testing.T) {
	h := newHinter(nil, time.Second, 1, nil)
	var paced bool
	if err := h.work(context.Background(), "c", func(ctx context.Context) error {
		_, paced = ctx.(*pacedContext)
		return nil
	}); err != nil || !paced {
		t.Errorf("work: %v, paced %v; want a paced context", err, paced)
	}
}
