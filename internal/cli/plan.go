package cli

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
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
// strategies on r with workers games at once (0: one per core), and
// whether there is a guess.
func runGuess(r mm.Rules, strategies []mm.Strategy, games, workers int) (time.Duration, bool) {
	per, ok := gameTimes(r, strategies)
	if !ok {
		return 0, false
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, games))
	d := float64(per) * float64(games) / float64(workers)
	if d >= math.MaxInt64 { // float64(MaxInt64) rounds up, past what a Duration holds
		return math.MaxInt64, true
	}
	return time.Duration(d), true
}

// announce says on stderr how long a run of n games of each strategy
// will take, before it starts, where the guess is announceAfter or more,
// and gives the guess to bar.
func (e *Env) announce(bar *runBar, r mm.Rules, names []string, strategies []mm.Strategy, n int, sampled bool, workers int) {
	d, ok := runGuess(r, strategies, n, workers)
	if !ok {
		return
	}
	if d >= announceAfter {
		fmt.Fprintln(e.Stderr, guessLine(n, sampled, names, d, workers))
	}
	bar.guess(d)
}

// guessLine is the line bench writes before a run it guesses takes a
// while: the table that follows names the variant.
func guessLine(games int, sampled bool, names []string, d time.Duration, workers int) string {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	what := "every secret"
	if sampled {
		what = Plural(games, "random secret")
	}
	return fmt.Sprintf("%s with %s: about %s on %s (--games to change)",
		what, strings.Join(names, ", "), roughly(d), Plural(min(workers, games), "core"))
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
