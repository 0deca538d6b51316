package strategy

import (
	"context"
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
// 8 × 8). K play-outs cost about K^0.8 times a tree without them, times 4
// over the near pool and 2.1 scoring every code (each play-out is cut
// short once it passes the best so far, so cost grows slower than K).
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
	playOuts := rolloutAll // the play-outs' cost, times the tree's
	if near || r.Size() > MaxHeuristicSpace && !all {
		secs = nearSeconds * math.Pow(n/nearCodes, nearPower) * share
		playOuts = rolloutNear
	} else {
		secs = scorePairNanos * 1e-9 * n * n * (countingBound(r) + 1) * share
	}
	if rollout > 1 {
		secs *= playOuts * math.Pow(float64(rollout), rolloutPower)
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
//
// Play-outs, entropy with a win bonus of 1.5 over the near pool, one
// thread (2026-12-02): 8 × 5 0.87 s without them, 11.1 s with 4, 33 s
// with 16, 104 s with 64, 260 s with 256 (12.7, 38, 120 and 300 times);
// 6 × 6 1.35 s, 17.6 s, 55 s and 170 s. Scoring every code on 8 × 5
// (2026-11-28), 53 s with 16 and 157 s with 64.
const (
	rolloutNear  = 4.0
	rolloutAll   = 2.1
	rolloutPower = 0.8
)

const (
	scorePairNanos = 0.7
	nearSeconds    = 85
	nearCodes      = 823543
	nearPower      = 1.4
)

// PlanTime guesses the CPU time of the second guesses of the tree of s
// over every code of r, after its first guess: what each shard of a job over
// every secret computes to plan its part (the second guess of every large
// class), before it walks its own. It reports false where s is not a
// scoring strategy that scores every code (the near pool plans in
// seconds). The guesses after first are one per class of the codes that
// the symmetries first leaves intact relate, about N/|Aut(first)| of N
// codes, each scored against the candidates of every class, about
// planPairNanos a pair (8 × 8, 2026-12-02: 10.7 s for the class of 76 010
// codes after 11122334, 1.3 s for 76 480 after 11223344, whose symmetries
// are eight times as many).
func PlanTime(ctx context.Context, s mm.Strategy, r mm.Rules) (time.Duration, bool) {
	r = r.WithDefaults()
	then := s
	if o, ok := s.(Opening); ok {
		then = o.Then
	}
	switch s := then.(type) {
	case Knuth, ExpectedSize, MostParts:
		if r.Size() > MaxHeuristicSpace {
			return 0, false
		}
	case Entropy:
		if s.Near || r.Size() > MaxHeuristicSpace && !s.AllCodes {
			return 0, false
		}
	default:
		return 0, false
	}
	if r.Validate() != nil || r.Size() > MaxNearSpace {
		return 0, false
	}
	// The first guess: given, or the strategy's own, which the plan
	// computes first anyway (and keeps).
	st, err := mm.NewState(r, nil)
	if err != nil {
		return 0, false
	}
	first, err := mm.GuessContext(ctx, s, st)
	if err != nil || r.Check(first) != nil {
		return 0, false
	}
	n := float64(r.Size())
	secs := planPairNanos * 1e-9 * n * n / automorphisms(r, first)
	if secs >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64, true
	}
	return time.Duration(secs * float64(time.Second)), true
}

// planPairNanos is the time PlanTime gives a pair of a candidate and a
// guess after the first: more than a pair of the whole tree, whose small
// nodes end their scans early.
const planPairNanos = 9.6

// automorphisms returns the number of the game's symmetries (permutations
// of the pegs and of the colours) that leave code c as it is: the
// permutations of the pegs within each colour's, times those of the
// colours among the colours c uses as often, the unused ones too.
func automorphisms(r mm.Rules, c mm.Code) float64 {
	count := make([]int, r.Colors)
	for i := range r.Pegs {
		count[c.Peg(i)]++
	}
	same := map[int]int{} // colours by how often c uses them
	a := 1.0
	for _, k := range count {
		a *= factorial(k)
		same[k]++
	}
	for _, m := range same {
		a *= factorial(m)
	}
	return a
}

func factorial(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}
