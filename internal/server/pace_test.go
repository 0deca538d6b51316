package server

import (
	"context"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A solver's context pauses it, at the solver's own checks, while guesses
// come in, and never when none came lately or once the context is done.
func TestPacer(t *testing.T) {
	spin := func(p *pacer, ctx context.Context, d time.Duration) (checks int) {
		ctx = p.paced(ctx, 0)
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
	if err := p.paced(ctx, 0).Err(); err != context.Canceled {
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
	if err := h.work(context.Background(), "c", costKey{}, func(ctx context.Context) error {
		_, paced = ctx.(*pacedContext)
		return nil
	}); err != nil || !paced {
		t.Errorf("work: %v, paced %v; want a paced context", err, paced)
	}
}

// A client's share of the solver pays for the solver's running time, not
// for the pauses that pacing adds while guesses come in: a hint that runs
// paceShare of the time takes 1/paceShare times as long, and must not
// cost that many times as much.
func TestPacedCharge(t *testing.T) {
	const burst = 1_000_000 // milliseconds of solver time, never refilled
	budget := newLimiter(1e-9, burst, time.Now)
	h := newHinter(nil, 10*time.Second, 1, budget)
	stop := make(chan struct{})
	defer close(stop)
	h.pace.guessed()
	go func() { // guesses keep coming in
		for {
			select {
			case <-stop:
				return
			case <-time.After(paceRecent / 4):
				h.pace.guessed()
			}
		}
	}()
	const run = 40 * time.Millisecond
	start := time.Now()
	if err := h.work(context.Background(), "c", costKey{}, func(ctx context.Context) error {
		for range run / time.Millisecond {
			for end := time.Now().Add(time.Millisecond); time.Now().Before(end); {
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	charged := time.Duration(burst-1-budget.get("c", time.Now()).TokensAt(time.Now())) * time.Millisecond
	if h.pace.pauses.Load() == 0 || wall < 3*run {
		t.Skipf("the solver paused %d times in %v; the test needs it paced", h.pace.pauses.Load(), wall)
	}
	if charged > wall/2 {
		t.Errorf("a solver that ran about %v, paced to %v, was charged %v; want its running time, not its pauses", run, wall.Round(time.Millisecond), charged)
	}
}

// spinner is a solver that runs for run, looking at its context every
// millisecond, or for ever if run is 0. It counts the time it ran the way
// the pacer does, by the clock between its looks at its context: on a
// loaded machine a millisecond's spin can take far longer by the clock,
// and counting it as one millisecond once let a 100 ms spinner run past a
// 300 ms timeout.
type spinner struct{ run time.Duration }

func (s spinner) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

func (s spinner) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	for ran := time.Duration(0); s.run == 0 || ran < s.run; {
		start := time.Now()
		for end := start.Add(time.Millisecond); time.Now().Before(end); {
		}
		ran += time.Since(start)
		if err := ctx.Err(); err != nil {
			return mm.Code{}, err
		}
	}
	return st.Rules().ParseCode("1111")
}

// guessing keeps guesses coming in to p until the test ends.
func guessing(t *testing.T, p *pacer) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	p.guessed()
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(paceRecent / 4):
				p.guessed()
			}
		}
	}()
}

// A hint's timeout counts the time its solver ran, not its pauses: paced
// while guesses come in, a hint that runs within its timeout is answered
// though it takes longer by the clock; one that would run on for ever is
// given up at the wall.
func TestHintTimeoutPaced(t *testing.T) {
	const timeout = 300 * time.Millisecond
	h := newHinter(spinner{run: 100 * time.Millisecond}, timeout, 1, nil)
	guessing(t, h.pace)
	g := &mm.Game{ID: "g", Rules: mm.Classic}
	start := time.Now()
	_, err := h.guess(context.Background(), "c", g)
	wall := time.Since(start)
	if h.pace.pauses.Load() == 0 || wall <= timeout {
		t.Skipf("the solver paused %d times in %v; the test needs it paced", h.pace.pauses.Load(), wall)
	}
	if err != nil {
		t.Errorf("a hint that ran 100 ms of its %v, paced to %v: %v; want it answered", timeout, wall.Round(time.Millisecond), err)
	}

	h = newHinter(spinner{}, timeout, 1, nil)
	h.wall = 3 * timeout
	guessing(t, h.pace)
	start = time.Now()
	_, err = h.guess(context.Background(), "c", g)
	if wall := time.Since(start); err == nil || !strings.Contains(err.Error(), "took too long") || wall > 10*h.wall {
		t.Errorf("an endless hint paced, with a wall of %v: %v after %v; want took too long", h.wall, err, wall)
	}
}
