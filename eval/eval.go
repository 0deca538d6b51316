// Package eval is the evaluation harness: it plays a strategy against every
// secret of a variant, or against seeded random secrets, and reports how many
// guesses it needed.
//
// A deterministic strategy is played through a decision tree that is grown as
// games need it: the same history always gives the same guess, so each
// guess is computed once however many games pass through it. A randomised
// strategy plays each game on its own, with a random source derived from the
// seed and the game's number, so results do not depend on the number of
// workers. A strategy that plays every secret itself, depth first (a
// Walker, as the scoring strategies are), is asked for every game's length
// at once instead.
package eval

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// DefaultAllLimit is the largest space that Run plays in full when Options
// asks for neither all secrets nor a number of games.
const DefaultAllLimit = 100_000

// DefaultGames is the number of sampled games Run plays on spaces larger than
// DefaultAllLimit when no number is given.
const DefaultGames = 1000

// Options control Run. A nil *Options gives the defaults.
type Options struct {
	// All plays every secret of the space; the space must be enumerable.
	All bool
	// Games plays this many random secrets drawn with Seed. When neither
	// All nor Games is set, Run plays every secret of spaces of at most
	// DefaultAllLimit codes and DefaultGames random secrets otherwise.
	Games int
	// Seed seeds the secrets of sampled games and the random choices of
	// randomised strategies.
	Seed uint64
	// Workers is the number of games played at once; 0 means one per core.
	Workers int
	// MaxGuesses is the guesses a game may take: a game not won within
	// them counts as failed (Stats.Failed), as at a board with that many
	// rows. 0 means no limit, and a game the strategy does not win within
	// the limit of mm.Solve is an error.
	MaxGuesses int
	// Select, if not nil, plays only the games whose number (from 0, in
	// the order of Secrets) and secret it accepts; the report counts those
	// alone. A shard of a job split over several processes plays its share
	// so: each game's randomness depends on its number only, so the shares'
	// reports add up to the whole run's.
	Select func(i int, secret mm.Code) bool
	// Selected, if not 0, is about the number of games the run plays,
	// those Select accepts: CheckMemory sizes a decision tree by them,
	// not by every game of the space. A shard of a job so needs the
	// memory of its own games.
	Selected int
	// Record, if not nil, is called after each game with its number,
	// its secret and the guesses it took, 0 for a game not won within
	// MaxGuesses. Calls may come from several goroutines but never at
	// once.
	Record func(i int, secret mm.Code, guesses int)
	// Progress, if not nil, is called after each game with the number of
	// games done and the total (every game, selected or not). Calls may
	// come from several goroutines but never at once.
	Progress func(done, total int)
}

// Report is the result of Run.
type Report struct {
	Strategy string
	Rules    mm.Rules
	Sampled  bool // games were random secrets rather than every secret
	Seed     uint64
	Stats
	Elapsed time.Duration // wall time of the run
}

// Seconds returns the wall time of the run in seconds.
func (r *Report) Seconds() float64 { return r.Elapsed.Seconds() }

// ErrNotSolved is wrapped by the error Run returns when a game is not won
// within the guess limit.
var ErrNotSolved = errors.New("eval: game not solved")

// Secrets returns the secrets Run plays under opts: every code of the space
// in order, or opts.Games codes drawn from the seed. Run itself draws
// sampled secrets one at a time, so it needs no memory for them; Count
// tells how many there are without drawing them.
func Secrets(r mm.Rules, opts *Options) ([]mm.Code, bool, error) {
	src, err := secretsOf(r, opts)
	if err != nil {
		return nil, false, err
	}
	out := make([]mm.Code, src.n)
	for i := range out {
		out[i] = src.at(i)
	}
	return out, src.sampled, nil
}

// Count returns the number of secrets Run plays under opts, and whether
// they are sampled, without drawing them.
func Count(r mm.Rules, opts *Options) (int, bool, error) {
	src, err := secretsOf(r, opts)
	if err != nil {
		return 0, false, err
	}
	return src.n, src.sampled, nil
}

// secrets are the secrets of a run: n of them, secret i at(i).
type secrets struct {
	n       int
	sampled bool
	at      func(i int) mm.Code
	// seed and rules draw sampled secrets: secret i is the random code of
	// gameRand(seed, i, 0).
	seed  uint64
	rules mm.Rules
}

// drawer returns a function that gives secret i as at does, for one
// goroutine: sampled secrets come from one random source seeded afresh
// for each, instead of a new source a secret, which takes half the time
// of a loop over a billion of them.
func (src secrets) drawer() func(i int) mm.Code {
	if !src.sampled {
		return src.at
	}
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	return func(i int) mm.Code {
		pcg.Seed(src.seed, uint64(i)<<1)
		return mm.RandomCode(src.rules, rng)
	}
}

func secretsOf(r mm.Rules, opts *Options) (secrets, error) {
	if opts == nil {
		opts = &Options{}
	}
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return secrets{}, err
	}
	all := opts.All || (opts.Games <= 0 && r.Size() <= DefaultAllLimit)
	if all {
		if r.Size() > mm.MaxSpace {
			_, err := mm.SpaceOf(r) // refuses, saying why
			return secrets{}, err
		}
		// Each code from its index, in the space's order, as needed: a
		// list of every code would be 104 bytes a code, and the space
		// itself 26 bytes a code (16 × 6: 435 MB, which a strategy
		// that plays each game on its own never needs).
		return secrets{n: int(r.Size()), at: func(i int) mm.Code {
			c, _ := r.CodeAt(uint64(i))
			return c
		}}, nil
	}
	games := opts.Games
	if games <= 0 {
		games = DefaultGames
	}
	seed := opts.Seed
	return secrets{n: games, sampled: true, seed: seed, rules: r,
		at: func(i int) mm.Code { return mm.RandomCode(r, gameRand(seed, uint64(i), 0)) }}, nil
}

// gameRand returns the random source of game i for purpose p (0 for the
// secret, 1 for the strategy), independent of which worker plays it.
func gameRand(seed, i, p uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, i<<1|p))
}

// Run plays s, named name in the report, under rules r as opts says and
// reports the number of guesses. A game not won within opts.MaxGuesses is
// counted as failed; any other error of a game stops the run with an error
// naming the secret. Run returns early when ctx is cancelled. Its worker
// goroutines have ended when it returns.
//
// A deterministic strategy on an enumerable space (at most mm.MaxSpace
// codes) is played through its decision tree, grown as the games need it,
// so that games sharing a history share its guesses; CheckMemory refuses a
// tree that would not fit. When every secret is played, a strategy that
// gives its whole tree at once (Treer) is asked for it and the games walk
// it. A Walker is asked for the length of every game the run needs, in
// memory that does not grow with the games. Other games are played each
// on its own.
func Run(ctx context.Context, r mm.Rules, name string, s mm.Strategy, opts *Options) (*Report, error) {
	if opts == nil {
		opts = &Options{}
	}
	start := time.Now()
	r = r.WithDefaults()
	if err := CheckMemory(r, s, opts); err != nil {
		return nil, err
	}
	src, err := secretsOf(r, opts)
	if err != nil {
		return nil, err
	}
	root, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	play := func(i int, secret mm.Code) (int, error) {
		st, err := mm.NewState(r, gameRand(opts.Seed, uint64(i), 1))
		if err != nil {
			return 0, err
		}
		steps, err := mm.SolveContext(ctx, st, s, secret, opts.MaxGuesses)
		if errors.Is(err, mm.ErrGuessLimit) {
			return 0, fmt.Errorf("%w: %d guesses without finding it", ErrNotSolved, len(steps))
		}
		if err != nil {
			return 0, err
		}
		return len(steps), nil
	}
	if w, ok := walks(r, s); ok {
		return runWalk(ctx, r, name, w, src, opts, start)
	}
	treer, hasTree := s.(Treer)
	// Every game of the space is played: the tree is grown whole either way.
	whole := !src.sampled && opts.Select == nil
	switch {
	case !mm.IsRandomized(s) && r.Size() <= mm.MaxSpace && hasTree && whole:
		// The strategy gives its whole tree at once: each game walks it,
		// with no state per node to build.
		t, err := treer.TreeContext(ctx, r)
		if err != nil {
			return nil, err
		}
		if err := checkGuesses(r, t); err != nil {
			return nil, err
		}
		play = func(_ int, secret mm.Code) (int, error) { return playTree(t, r, secret, opts.MaxGuesses) }
	case !mm.IsRandomized(s) && r.Size() <= mm.MaxSpace:
		t := &tree{s: s, root: &node{st: root}, max: opts.MaxGuesses}
		// A strategy that cannot open a game of the variant (too large
		// for it, no strategy within a depth limit) fails every secret
		// alike: say so once, before any secret.
		if _, err := t.root.expand(ctx, s); err != nil {
			return nil, err
		}
		play = func(_ int, secret mm.Code) (int, error) { return t.play(ctx, secret) }
	case !mm.IsRandomized(s):
		// Too many codes for games to meet again past their first guesses:
		// a tree would only grow with the games (780 KB a game of split on
		// 100 × 20), so each game is played on its own.
		if _, err := mm.GuessContext(ctx, s, root); err != nil {
			return nil, err
		}
	}
	stats, err := parallel(ctx, src, opts, play)
	if err != nil {
		return nil, err
	}
	return &Report{Strategy: name, Rules: r, Sampled: src.sampled, Seed: opts.Seed, Stats: stats, Elapsed: time.Since(start)}, nil
}

// GameError is the error of the game against one secret.
type GameError struct {
	Secret mm.Code
	Err    error
}

func (e *GameError) Error() string { return fmt.Sprintf("secret %s: %v", e.Secret, e.Err) }
func (e *GameError) Unwrap() error { return e.Err }

// parallel plays every secret with play on opts.Workers goroutines, each
// keeping its own statistics, so that memory does not grow with the number
// of games. Games are taken in a scattered order so that workers growing a
// shared tree rarely wait for the same node.
func parallel(ctx context.Context, src secrets, opts *Options, play func(int, mm.Code) (int, error)) (Stats, error) {
	n := src.n
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var (
		next     atomic.Int64
		done     atomic.Int64
		progress sync.Mutex
		errMu    sync.Mutex
		firstErr error
		errAt    = n // the place in order of the game firstErr is from
		stop     atomic.Bool
		wg       sync.WaitGroup
		total    Stats
	)
	// fail keeps the error of the earliest game in order: every game before
	// it was taken first and runs to its end, so the error reported does not
	// depend on how the workers were scheduled.
	fail := func(k int, err error) {
		errMu.Lock()
		if k < errAt {
			errAt, firstErr = k, err
		}
		errMu.Unlock()
		stop.Store(true)
	}
	step := scatterStep(n)
	for range workers {
		wg.Go(func() {
			var mine Stats
			at := src.drawer()
			defer func() {
				errMu.Lock()
				total.merge(mine)
				errMu.Unlock()
			}()
			for !stop.Load() {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(-1, err)
					return
				}
				hi, lo := bits.Mul64(uint64(k), step)
				_, i64 := bits.Div64(hi, lo, uint64(n))
				i := int(i64)
				secret := at(i)
				if opts.Select != nil && !opts.Select(i, secret) {
					continue
				}
				g, err := play(i, secret)
				switch {
				case opts.MaxGuesses > 0 && errors.Is(err, ErrNotSolved):
					mine.Failed++
					g = 0
				case err != nil:
					fail(k, &GameError{Secret: secret, Err: err})
					return
				default:
					mine.Add(g)
				}
				d := int(done.Add(1))
				if opts.Progress != nil || opts.Record != nil {
					progress.Lock()
					if opts.Record != nil {
						opts.Record(i, secret, g)
					}
					if opts.Progress != nil {
						opts.Progress(d, n)
					}
					progress.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return Stats{}, firstErr
	}
	return total, nil
}

// scatterStep returns a step coprime with n, so that k·step mod n visits
// every index once, far apart in turn.
func scatterStep(n int) uint64 {
	for _, s := range []int{7919, 104729, 1299709, 15485863, 3} {
		if gcd(s, n) == 1 {
			return uint64(s)
		}
	}
	return 1
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
