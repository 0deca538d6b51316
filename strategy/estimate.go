package strategy

import (
	"math"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/large"
)

// GameTime guesses, before any game is played, how long one game of s
// takes under r on one core of the project's machine, and reports whether
// it can: for the strategies that spend a budget on each guess (the
// sampler, fit, and auto where it plays them) and for split. It is a guess, to
// plan a run by (bench's default number of games, the time a run will
// take), not a figure to report: the measured rate replaces it once games
// end.
//
// A sampled game spends about its budget on each guess (BENCHMARKS.md:
// 60–70 ms a guess on 12 × 12 and 15 × 15, 0.26–0.32 s on 20 × 20 to
// 30 × 30 at 250 ms), and takes about sampledGuesses times the counting
// bound in guesses, more beyond 15 pegs; fit spends its budget on each of
// about the colours plus 1.5 guesses a peg; split takes about splitNanos a
// peg and colour squared.
func GameTime(s mm.Strategy, r mm.Rules) (time.Duration, bool) {
	r = r.WithDefaults()
	if r.Validate() != nil {
		return 0, false
	}
	switch s := s.(type) {
	case Opening:
		return GameTime(s.Then, r)
	case Auto:
		if r.Size() <= MaxHeuristicSpace {
			return 0, false
		}
		if fits(r) || large.CheckSize(r) != nil || !samples(r) {
			return GameTime(huge.Fit{Budget: s.Budget}, r)
		}
		return GameTime(large.Sampler{Budget: s.Budget}, r)
	case large.Sampler:
		if large.CheckSize(r) != nil {
			return 0, false
		}
		b := s.Budget
		if b <= 0 {
			b = large.DefaultBudgetFor(r)
		}
		guesses := countingBound(r) * (sampledGuesses + extraGuessesPerPeg*float64(max(0, r.Pegs-15)))
		return time.Duration(guesses * float64(b)), true
	case huge.Fit:
		if huge.CheckRules(r) != nil {
			return 0, false
		}
		b := s.Budget
		if b <= 0 {
			b = huge.DefaultFitBudget(r)
		}
		guesses := float64(r.Colors) + fitGuessesPerPeg*float64(r.Pegs)
		return time.Duration(guesses * float64(b)), true
	case huge.Split:
		p, c := float64(r.Pegs), float64(r.Colors)
		return time.Duration(splitNanos * p * p * c), true
	}
	return 0, false
}

// Rates behind GameTime's guesses.
const (
	// sampledGuesses is a sampled game's guesses over the counting bound
	// up to 15 pegs: 1.7 on 12 × 12, 1.8 on 15 × 15 (issue 30's table);
	// extraGuessesPerPeg is what each peg beyond adds to it: measured
	// 2.0–2.1 on 20 × 20, 2.27 on 25 × 25 and 2.67 on 30 × 30 (BENCHMARKS.md,
	// 2026-11-27), guessed 2.1, 2.4 and 2.7. With 1.8 throughout, bench
	// guessed 10 s for three 30 × 30 games that took 73.
	sampledGuesses     = 1.8
	extraGuessesPerPeg = 0.06
	// fitGuessesPerPeg: a game of Fit takes about the colours plus this
	// many guesses a peg, each about its budget (100 × 20: 203 guesses,
	// 9.6 s a game at 50 ms; 60 × 30: 120; 40 × 10: 54), more than its
	// budget when its search fails (late in long codes) and less when it
	// finds codes that fit at once (30 × 10: 3.2 s a game at 250 ms).
	fitGuessesPerPeg = 1.5
	// splitNanos: 100 pegs × 20 colours, 0.1 s a game.
	splitNanos = 500
)

// countingBound returns log(codes) / log(answers): no strategy averages
// much below it, each answer telling at most which of the answers it is.
func countingBound(r mm.Rules) float64 {
	return r.Log10Size() * math.Ln10 / math.Log(float64(r.NumFeedbacks()))
}

// TreeTime guesses, before it starts, the CPU time of the decision tree of
// s over every secret of r (games 0), or of the part of it that games
// random secrets walk, on the project's machine, and reports whether it
// can: for the four scoring strategies (knuth, expected-size, entropy,
// most-parts), which score every code as a guess at each node of the
// tree, or the near pool past MaxHeuristicSpace codes or with Entropy.Near.
// Like GameTime it plans a run (bench's estimate, and its refusal of runs
// of more than an hour), and is good to a factor of about two.
//
// Scoring every code, the tree costs about scorePairNanos a pair of a
// candidate and a guess at each level: N² pairs over about the counting
// bound plus one levels for N codes; each objective costs its own share
// of entropy's. The near pool costs about nearNanos a code, times the
// codes to the power nearPower (85 s of CPU on 7 × 7, 1.61 hours on
// 8 × 8). Play-outs cost about Rollout/1.5 times a tree without them.
// One random game costs about the pairs of its second guess, N²/A for A
// answers, a tree's share over its levels and answers, and games share
// the tree as they meet.
func TreeTime(s mm.Strategy, r mm.Rules, games int) (time.Duration, bool) {
	r = r.WithDefaults()
	if r.Validate() != nil || r.Size() > MaxNearSpace {
		return 0, false
	}
	share, near, all, rollout := 0.0, false, false, 0
	switch s := s.(type) {
	case Opening:
		return TreeTime(s.Then, r, games)
	case Knuth:
		share = 0.8
	case ExpectedSize:
		share = 0.67
	case Entropy:
		share, near, all, rollout = 1, s.Near, s.AllCodes, s.Rollout
	case MostParts:
		share = 0.48
	default:
		return 0, false
	}
	n := float64(r.Size())
	var secs float64
	if near || r.Size() > MaxHeuristicSpace && !all {
		secs = nearSeconds * math.Pow(n/nearCodes, nearPower) * share
	} else {
		secs = scorePairNanos * 1e-9 * n * n * (countingBound(r) + 1) * share
	}
	if rollout > 1 {
		secs *= float64(rollout) / 1.5
	}
	if games > 0 {
		perGame := secs / ((countingBound(r) + 1) * float64(r.NumFeedbacks()))
		secs = min(secs, perGame*float64(games))
	}
	if secs >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64, true
	}
	return time.Duration(secs * float64(time.Second)), true
}

// Rates behind TreeTime's guesses, from BENCHMARKS.md's runs of
// 2026-11-27/28: entropy over every secret of 8 × 5 took 2.71 s of CPU
// (5.7·10⁻¹⁰ s a pair and level), of 7 × 7 2 851 s (8.7·10⁻¹⁰); over the
// near pool 85 s on 7 × 7 and 5 800 s on 8 × 8, about the codes to the
// power 1.4.
const (
	scorePairNanos = 0.7
	nearSeconds    = 85
	nearCodes      = 823543
	nearPower      = 1.4
)
