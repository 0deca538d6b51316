package huge

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Fit's default budget of a guess is gameTime over the pegs, within
// [minBudget, maxBudget]: a game takes about twice as many guesses as
// pegs, so about 10 s on 100 pegs. Measured on 3 seeded games each
// (BENCHMARKS.md): 100 × 20 took 203 guesses at 50 ms and 204 at 250 ms
// (9.6 s and 51 s a game), 50 × 8 74 at 50 ms and 65 at 250 ms, and 10
// games of 30 × 10 35.7 at 250 ms.
const (
	gameTime  = 5 * time.Second
	minBudget = 20 * time.Millisecond
	maxBudget = 250 * time.Millisecond
)

// DefaultFitBudget returns the time Fit aims to spend on one guess of r
// when no budget is given: 5 s over the pegs, within 20 and 250 ms (50 ms
// on 100 pegs, 166 ms on 30).
func DefaultFitBudget(r mm.Rules) time.Duration {
	return min(maxBudget, max(minBudget, gameTime/time.Duration(max(1, r.Pegs))))
}

// Fit plays variants with repeated colours, of any size, in two phases.
// First it counts the colours, one colour a guess: the guess that counts
// colour u places u on as many positions as the pegs whose colours are not
// yet counted, and fills the others with colours already counted, so its
// black and white pegs together give u's count while its blacks say where
// the counted colours are, at no extra guess. Then it plays codes that fit
// every answer: once the counts are known, a code with those counts fits
// an answer exactly when it scores the same blacks (its whites follow), so
// it anneals over codes with the counts, swapping two pegs a step, towards
// the blacks of every turn. Of the codes it finds that fit (up to 8, or 64
// with 10 colours or more), it plays the one whose blacks against the
// others spread most, and where it finds none within its budget, the code
// nearest to fitting.
//
// This is how the leading programs of TopCoder's Marathon Match 2 (2006),
// on up to 100 pegs × 20 colours, played; Fit's swaps keep the counts, so
// its search is among the codes that can still be the secret's
// rearrangements. On 100 × 20 it takes about 206 guesses to split's 274,
// and half split's on many colours (71 against 143 on 32 × 64; see
// BENCHMARKS.md), in seconds a game rather than a tenth of a second. Past
// about 50 turns of 100 × 20 its search stops finding codes that fit, and
// the codes nearest to fitting that it plays then tell less.
//
// Fit draws its codes with st.Rand(): a game is reproducible from its seed.
// The work of a guess is measured in steps, never by the clock, so the
// guesses do not depend on the machine's speed. It refuses distinct
// colours, as Split does.
type Fit struct {
	Budget time.Duration // time per guess to aim for; 0 means DefaultFitBudget(rules)
}

var (
	_ mm.ContextStrategy = Fit{}
	_ mm.Randomized      = Fit{}
)

func (Fit) String() string { return "fit" }

// Randomized reports true: Fit draws codes with st.Rand().
func (Fit) Randomized() bool { return true }

// Guess returns the next guess.
func (f Fit) Guess(st *mm.State) (mm.Code, error) {
	return f.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() within milliseconds of ctx
// being done.
func (f Fit) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	if err := ctx.Err(); err != nil {
		return mm.Code{}, err
	}
	r := st.Rules()
	if err := CheckRules(r); err != nil {
		return mm.Code{}, err
	}
	count, err := counts(st)
	if err != nil {
		return mm.Code{}, err
	}
	rng := st.Rand()
	if u := unknown(count); u >= 0 {
		return codeOf(countGuess(r.Pegs, count, u, rng)), nil
	}
	p, err := newProblem(st, count)
	if err != nil {
		return mm.Code{}, err
	}
	budget := f.Budget
	if budget <= 0 {
		budget = DefaultFitBudget(r)
	}
	steps := int(float64(budget) / p.stepCost())
	x, err := p.guess(ctx, rng, max(steps, minSteps))
	if err != nil {
		return mm.Code{}, err
	}
	return codeOf(x), nil
}

// counts returns the count of each colour in the secret that the turns
// prove, -1 where they do not. A turn proves a count when every colour of
// its guess but u is counted: its blacks and whites add up to the sum,
// over the guess's colours, of the lesser of the guess's and the secret's
// counts, which gives u's count unless it is at least the guess's. The
// turns are read again until no count is added, so any history, not only
// Fit's own, is read; and when every colour but one is counted, the pegs
// left are that colour's.
func counts(st *mm.State) ([]int, error) {
	r := st.Rules()
	count := make([]int, r.Colors)
	for k := range count {
		count[k] = -1
	}
	inGuess := make([][]int, st.Len())
	for i := range st.Len() {
		inGuess[i] = make([]int, r.Colors)
		for _, k := range st.Turn(i).Guess.Colors() {
			inGuess[i][k]++
		}
	}
	for changed := true; changed; {
		changed = false
		known, sum, open := 0, 0, -1
		for k, n := range count {
			if n >= 0 {
				known++
				sum += n
			} else {
				open = k
			}
		}
		if sum > r.Pegs {
			return nil, inconsistentFit()
		}
		if known == r.Colors-1 {
			count[open] = r.Pegs - sum
			changed = true
			continue
		}
		if sum == r.Pegs {
			for k := range count {
				if count[k] < 0 {
					count[k] = 0
				}
			}
			break
		}
		for i := range st.Len() {
			fb := st.Turn(i).Feedback
			u, open, rest := -1, 0, fb.Black+fb.White
			for k, g := range inGuess[i] {
				switch {
				case g == 0:
				case count[k] >= 0:
					rest -= min(g, count[k])
				default:
					u = k
					open++
				}
			}
			if open != 1 {
				continue
			}
			// rest is the lesser of u's count in the guess and in the
			// secret, which is at most the pegs not counted.
			if rest < 0 || rest > inGuess[i][u] || rest > r.Pegs-sum {
				return nil, inconsistentFit()
			}
			if rest < inGuess[i][u] || rest == r.Pegs-sum {
				count[u] = rest
				changed = true
				break // sum has changed
			}
		}
	}
	return count, nil
}

// unknown returns the first colour whose count is not known, or -1.
func unknown(count []int) int {
	for k, n := range count {
		if n < 0 {
			return k
		}
	}
	return -1
}

// countGuess returns the guess that counts colour u: u on as many
// positions, drawn at random, as there are pegs of colours not counted
// (so that u's count, at most that, shows in the blacks and whites), and
// elsewhere colours counted and present, drawn at random in proportion to
// their counts, so that the blacks say something of where they are.
func countGuess(pegs int, count []int, u int, rng *rand.Rand) []uint8 {
	left := pegs
	var present []uint8 // one entry per peg of a counted colour
	for k, n := range count {
		if n > 0 {
			left -= n
			for range n {
				present = append(present, uint8(k))
			}
		}
	}
	g := make([]uint8, pegs)
	for i := range g {
		g[i] = uint8(u)
	}
	if len(present) == 0 {
		return g
	}
	for _, i := range rng.Perm(pegs)[left:] {
		g[i] = present[rng.IntN(len(present))]
	}
	return g
}

func inconsistentFit() error {
	return fmt.Errorf("%w: the answers give the secret's colours more pegs than it has, or counts that contradict one another", mm.ErrInconsistent)
}
