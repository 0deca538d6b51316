package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// announceAfter is the guessed time from which bench says, before it
// starts, how long a run will take.
const announceAfter = 10 * time.Second

// defaultRun is the work a default run of sampled games aims at: two
// core-minutes, a minute on the project's two cores.
const defaultRun = 2 * time.Minute

// Bounds of the default number of sampled games.
const (
	minDefaultGames = 10
	maxDefaultGames = eval.DefaultGames
)

// gameTimes returns the guessed time of a game of each strategy on r, and
// their sum, with ok false if any strategy cannot guess its own.
func gameTimes(r mm.Rules, strategies []mm.Strategy) (sum time.Duration, ok bool) {
	for _, s := range strategies {
		d, known := strategy.GameTime(s, r)
		if !known {
			return 0, false
		}
		sum += d
	}
	return sum, true
}

// defaultGames returns the number of random secrets to play when none is
// given: as many as take about defaultRun of work by the strategies'
// guessed game times, rounded down to 1, 2 or 5 times a power of ten, from
// minDefaultGames to maxDefaultGames; maxDefaultGames where a strategy
// cannot guess its time. The count depends on the variant and strategies
// alone, not on the machine, so a run is the same wherever it is made.
func defaultGames(r mm.Rules, strategies []mm.Strategy) int {
	per, ok := gameTimes(r, strategies)
	if !ok || per <= 0 {
		return maxDefaultGames
	}
	return min(maxDefaultGames, max(minDefaultGames, roundDown125(int(defaultRun/per))))
}

// sizeGames sets opts.Games to defaultGames where the run is of random
// secrets and no number was given.
func sizeGames(opts *eval.Options, r mm.Rules, strategies []mm.Strategy) {
	if !opts.All && opts.Games == 0 && r.Size() > eval.DefaultAllLimit {
		opts.Games = defaultGames(r, strategies)
	}
}

// roundDown125 returns the largest of 1, 2 and 5 times a power of ten that
// is at most n, or 0 for n < 1.
func roundDown125(n int) int {
	best := 0
	for p := 1; p <= n; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if m*p <= n {
				best = m * p
			}
		}
	}
	return best
}

// runGuess returns the wall time guessed for games games of the
// strategies on r, random secrets if sampled and every secret otherwise,
// with workers games at once (0: one per core), and whether there is a
// guess: from the time a game takes (strategy.GameTime), the time of a
// scoring strategy's tree (strategy.TreeTime) and the draw of each
// random secret, or a few games played before the run (probe).
func runGuess(ctx context.Context, r mm.Rules, strategies []mm.Strategy, games int, sampled bool, workers int) (time.Duration, bool) {
	workers = effectiveWorkers(workers, games)
	var cpu, serial float64 // seconds on every worker, and on one
	for _, s := range strategies {
		if per, ok := strategy.GameTime(s, r); ok {
			cpu += per.Seconds() * float64(games)
			continue
		}
		treeGames := 0
		if sampled {
			treeGames = games
		}
		if t, ok := strategy.TreeTime(s, r, treeGames); ok {
			cpu += t.Seconds()
			if sampled {
				// Each random secret is drawn, found in the walk's
				// results and counted, in one goroutine.
				serial += drawSeconds * float64(games)
			}
			continue
		}
		per, ok := probe(ctx, r, s, games)
		if !ok {
			return 0, false
		}
		cpu += per.Seconds() * float64(games)
	}
	d := (cpu/float64(workers) + serial) * float64(time.Second)
	if d >= math.MaxInt64 { // float64(MaxInt64) rounds up, past what a Duration holds
		return math.MaxInt64, true
	}
	return time.Duration(d), true
}

// drawSeconds is the CPU time of a random secret of a run that walks a
// tree: drawn, looked up and counted (a billion games of knuth on 6 × 4,
// 2026-12-02: 1.9 s of CPU for ten million).
const drawSeconds = 190e-9

// probeGames and probeTime bound the games probe plays: enough to time a
// game, short enough to pass unseen before a run.
const (
	probeGames = 8
	probeTime  = 200 * time.Millisecond
)

// probe returns the CPU time of one game of a randomised strategy, each of
// whose games is played on its own, timed over a few games before a run
// of games games; ok is false for other strategies, and for runs too
// short to need a guess. Games that do not end within probeTime give it
// as a floor: a run that long a game is long anyway.
func probe(ctx context.Context, r mm.Rules, s mm.Strategy, games int) (time.Duration, bool) {
	if !mm.IsRandomized(s) || games < 1000 {
		return 0, false
	}
	ctx, cancel := context.WithTimeout(ctx, probeTime)
	defer cancel()
	n := min(probeGames, games)
	start := time.Now()
	_, err := eval.Run(ctx, r, "probe", s, &eval.Options{Games: n, Seed: 1, Workers: 1})
	elapsed := time.Since(start)
	switch {
	case err == nil:
		return elapsed / time.Duration(n), true
	case errors.Is(err, context.DeadlineExceeded):
		return probeTime, true
	}
	return 0, false
}

// maxUnasked is the longest run bench starts unasked: past it, it wants
// --yes, fewer games or shards.
const maxUnasked = time.Hour

// announce says on stderr how long a run of n games of each strategy
// will take, before it starts, where the guess is announceAfter or more,
// and gives the guess to bar. It refuses a run guessed past maxUnasked
// unless yes, saying what to do instead.
func (e *Env) announce(ctx context.Context, bar *runBar, r mm.Rules, names []string, strategies []mm.Strategy, n int, sampled bool, workers int, yes bool) error {
	return e.announceRun(ctx, bar, r, names, strategies, n, sampled, workers, yes, true)
}

// announceRun is announce for a run that takes --games if games, and a
// tree of every secret if not.
func (e *Env) announceRun(ctx context.Context, bar *runBar, r mm.Rules, names []string, strategies []mm.Strategy, n int, sampled bool, workers int, yes, games bool) error {
	d, ok := runGuess(ctx, r, strategies, n, sampled, workers)
	if !ok {
		return nil
	}
	if d > maxUnasked && !yes {
		smaller := "play fewer (--games N) or in shards (--shard K/N)"
		if !games {
			smaller = "write it in shards (--shard K/N)"
		}
		return fmt.Errorf("%s of %s: about %s on %s; pass --yes to start it, or %s",
			runWhat(n, sampled, names), describeRules(r), roughly(d), Plural(effectiveWorkers(workers, n), "core"), smaller)
	}
	if d >= announceAfter {
		line := guessLine(n, sampled, names, d, workers)
		if !games {
			line = strings.TrimSuffix(line, " (--games to change)")
		}
		fmt.Fprintln(e.Stderr, line)
	}
	bar.guess(d)
	return nil
}

// announceShard is announce for one shard of a job of n games of each
// strategy, before the shard plans its part: its guess is the shard's
// share of the whole run's, which the plan deals out evenly. It refuses a
// shard guessed past maxUnasked unless yes.
func (e *Env) announceShard(ctx context.Context, spec shard.Spec, r mm.Rules, names []string, strategies []mm.Strategy, n int, sampled bool, workers int, yes bool) error {
	d, ok := runGuess(ctx, r, strategies, n, sampled, workers)
	if !ok {
		return nil
	}
	d /= time.Duration(max(1, spec.Count))
	// Every shard plans the whole job: past a single shard, the second
	// guesses of the large classes, which scoring every code costs most.
	var plan time.Duration
	if spec.Count > 1 && !sampled {
		for _, s := range strategies {
			if p, ok := strategy.PlanTime(ctx, s, r); ok {
				plan += p
			}
		}
	}
	w := effectiveWorkers(workers, n)
	d += plan / time.Duration(w)
	cores := Plural(w, "core")
	planning := ""
	if plan/time.Duration(w) >= announceAfter {
		planning = fmt.Sprintf(" (%s of it planning the job, as every shard does)", roughly(plan/time.Duration(w)))
	}
	if d > maxUnasked && !yes {
		return fmt.Errorf("shard %v of %s of %s: about %s on %s%s; pass --yes to start it, or split the job into more shards",
			spec, runWhat(n, sampled, names), describeRules(r), roughly(d), cores, planning)
	}
	if d >= announceAfter {
		fmt.Fprintf(e.Stderr, "shard %v of %s: about %s on %s%s\n", spec, runWhat(n, sampled, names), roughly(d), cores, planning)
	}
	return nil
}

// effectiveWorkers returns the games played at once: workers, or one per
// core for 0, and no more than the games.
func effectiveWorkers(workers, games int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, games))
}

// runWhat names the secrets and strategies of a run.
func runWhat(games int, sampled bool, names []string) string {
	what := "every secret"
	if sampled {
		what = Plural(games, "random secret")
	}
	return what + " with " + strings.Join(names, ", ")
}

// guessLine is the line bench writes before a run it guesses takes a
// while: the table that follows names the variant.
func guessLine(games int, sampled bool, names []string, d time.Duration, workers int) string {
	return fmt.Sprintf("%s: about %s on %s (--games to change)",
		runWhat(games, sampled, names), roughly(d), Plural(effectiveWorkers(workers, games), "core"))
}

// roughly writes d to about two figures: 4.5s, 40s, 2m10s, 3h20m, 190
// days.
func roughly(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return short(d)
	case d < time.Hour:
		return d.Round(10 * time.Second).String()
	case d < 48*time.Hour:
		d = d.Round(10 * time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%.0f days", d.Hours()/24)
}
