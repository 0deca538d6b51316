package eval

import (
	"context"
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Walker is a deterministic strategy that plays every secret of a variant
// itself, depth first, in memory that does not grow with the number of
// games: Run asks it for the guesses of every game instead of growing a
// decision tree.
type Walker interface {
	// Walks reports whether Walk takes r.
	Walks(r mm.Rules) bool
	// Walk returns depth[i], the number of guesses the game against the
	// secret of space index i takes, for each i that want accepts (every
	// i if want is nil; the others may be 0). progress, if not nil, is
	// called from time to time with the number of secrets done, never by
	// two goroutines at once. It uses up to workers goroutines (0 for
	// one per core) and stops soon after ctx is done, with ctx.Err().
	Walk(ctx context.Context, r mm.Rules, want func(i int) bool, progress func(done int), workers int) ([]uint8, error)
}

// walks reports whether Run plays s on r through Walk.
func walks(r mm.Rules, s mm.Strategy) (Walker, bool) {
	w, ok := s.(Walker)
	if !ok || mm.IsRandomized(s) || !w.Walks(r) || r.Size() > mm.MaxSpace {
		return nil, false
	}
	return w, true
}

// runWalk is Run for a Walker: one walk of the secrets the games need,
// then each game looked up in order. Every game is reported to Record and
// to Progress once, as Run promises; over every secret the Progress calls
// come as the walk finds the games, before the Record calls, and over
// sampled secrets both come once the walk is done.
func runWalk(ctx context.Context, r mm.Rules, name string, w Walker, src secrets, opts *Options, start time.Time) (*Report, error) {
	sp, err := mm.SpaceOf(r)
	if err != nil {
		return nil, err
	}
	N := sp.Len()
	// The secrets to walk to: with a selection, or fewer sampled games
	// than codes, only the subtrees that hold them are walked. Select is
	// asked once a game here, and for sampled games once more below (a
	// secret may be drawn by games selected and not).
	var want func(i int) bool
	if opts.Select != nil || (src.sampled && src.n < N) {
		need := make([]uint64, (N+63)/64)
		at := src.drawer()
		for i := range src.n {
			if err := pollCtx(ctx, i); err != nil {
				return nil, err
			}
			secret := at(i)
			if opts.Select != nil && !opts.Select(i, secret) {
				continue
			}
			k := i
			if src.sampled {
				k, _ = sp.Index(secret)
			}
			need[k>>6] |= 1 << (k & 63)
		}
		want = func(i int) bool { return need[i>>6]&(1<<(i&63)) != 0 }
	}
	var progress func(int)
	if opts.Progress != nil && !src.sampled {
		// The secrets of the walk are the games: each is reported as it
		// ends.
		progress = func(done int) { opts.Progress(done, src.n) }
	}
	depth, err := w.Walk(ctx, r, want, progress, opts.Workers)
	if err != nil {
		return nil, err
	}
	var stats Stats
	done := 0
	at := src.drawer()
	for i := range src.n {
		if err := pollCtx(ctx, i); err != nil {
			return nil, err
		}
		secret := at(i)
		k := i
		if src.sampled {
			k, _ = sp.Index(secret)
		}
		if want != nil && !want(k) || src.sampled && opts.Select != nil && !opts.Select(i, secret) {
			continue
		}
		g := int(depth[k])
		if g == 0 {
			return nil, &GameError{Secret: secret, Err: fmt.Errorf("%v played no game against it", name)}
		}
		switch {
		case opts.MaxGuesses > 0 && g > opts.MaxGuesses:
			stats.Failed++
			g = 0
		default:
			stats.Add(g)
		}
		done++
		if opts.Record != nil {
			opts.Record(i, secret, g)
		}
		if opts.Progress != nil && src.sampled {
			opts.Progress(done, src.n)
		}
	}
	return &Report{Strategy: name, Rules: r, Sampled: src.sampled, Seed: opts.Seed, Stats: stats, Elapsed: time.Since(start)}, nil
}

// pollEvery is how many games a loop over a run's games goes between two
// looks at its context: a few microseconds of work at most, so that a run
// of a billion games stops within a millisecond of being cancelled.
const pollEvery = 1 << 10

// pollCtx returns ctx.Err() on every pollEvery-th game i, nil otherwise.
func pollCtx(ctx context.Context, i int) error {
	if i%pollEvery != 0 {
		return nil
	}
	return ctx.Err()
}
