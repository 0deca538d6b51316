package strategy

import (
	"errors"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Incremental is seeds/001's incremental brute force. It first guesses colour
// 1 everywhere, which counts the pegs of colour 1. Then, position by
// position, it tries colours 2, 3, … in that position, every other position
// as it stands:
//
//   - more black pegs: the new colour belongs there; the position is fixed
//     and the next begins;
//   - fewer black pegs: colour 1 belonged there; the position reverts and
//     the next begins;
//   - as many: neither; the next colour is tried. If the total of black and
//     white pegs shows that the secret has no more pegs of the colour than
//     are already placed, the colour is skipped from then on (seeds/001's
//     rule on white pegs, made exact).
//
// It needs no enumeration, so it plays any size, with at most
// 1 + pegs·(colours−1) guesses. It needs repeated colours.
type Incremental struct{}

// Permuted is seeds/001's permuted elimination: it guesses colour 1
// everywhere, then colour 2, and so on, each time learning how many pegs of
// that colour the secret has, until the counts add up to the number of pegs;
// then it guesses codes drawn uniformly from the arrangements of those
// colours that are consistent with the history. It needs repeated colours.
type Permuted struct{}

var (
	_ mm.Strategy   = Incremental{}
	_ mm.Strategy   = Permuted{}
	_ mm.Randomized = Permuted{}
)

func (Incremental) String() string { return "incremental" }
func (Permuted) String() string    { return "permuted" }

// Randomized reports true.
func (Permuted) Randomized() bool { return true }

// errOwnHistory reports a history the brute-force strategies did not play
// themselves: they follow a fixed schedule and cannot take over a game.
var errOwnHistory = errors.New("mastermind: this strategy follows a fixed schedule and cannot continue a game it did not play from the start")

func monochrome(pegs, k int) mm.Code {
	colors := make([]int, pegs)
	for i := range colors {
		colors[i] = k
	}
	c, _ := mm.NewCode(colors...)
	return c
}

// Guess replays the history through the schedule and returns its next step.
func (Incremental) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	if r.Distinct {
		return mm.Code{}, fmt.Errorf("%w: incremental guesses repeated colours, which distinct colours forbid", mm.ErrUnsupported)
	}
	p, c := r.Pegs, r.Colors
	if st.Len() == 0 {
		return monochrome(p, 0), nil
	}
	if st.Turn(0).Guess != monochrome(p, 0) {
		return mm.Code{}, errOwnHistory
	}
	ones := st.Turn(0).Feedback.Black // pegs of colour 1 in the secret
	cur := make([]int, p)
	black, total := ones, ones
	skip := make([]bool, c)
	i, v := 0, 1
	nextValue := func(from int) int {
		for from < c && skip[from] {
			from++
		}
		return from
	}
	v = nextValue(v)
	for k := 1; k < st.Len(); k++ {
		if i >= p || v >= c {
			return mm.Code{}, errOwnHistory
		}
		t := st.Turn(k)
		try := append([]int(nil), cur...)
		try[i] = v
		if want, _ := mm.NewCode(try...); t.Guess != want {
			return mm.Code{}, errOwnHistory
		}
		b, tot := t.Feedback.Black, t.Feedback.Black+t.Feedback.White
		switch {
		case b > black: // v belongs at i
			cur, black, total = try, b, tot
			i, v = i+1, nextValue(1)
		case b < black: // colour 1 belonged at i
			i, v = i+1, nextValue(1)
		default:
			// Moving a peg from colour 1 to v changed the colour matches
			// by [secret has more v than placed] − [colour 1 not in excess].
			onesInGuess := 0
			for _, x := range cur {
				if x == 0 {
					onesInGuess++
				}
			}
			lostOne := 0
			if onesInGuess <= ones {
				lostOne = 1
			}
			if tot-total+lostOne <= 0 {
				skip[v] = true
			}
			v = nextValue(v + 1)
		}
	}
	if i >= p || v >= c {
		return mm.Code{}, errOwnHistory
	}
	cur[i] = v
	g, _ := mm.NewCode(cur...)
	return g, nil
}

// maxArrangements bounds the arrangements Permuted lists.
const maxArrangements = 1 << 22

// maxShuffles is how many random arrangements Permuted draws before it
// lists those that fit.
const maxShuffles = 256

// Guess counts colours first, then draws among consistent arrangements.
func (Permuted) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	if r.Distinct {
		return mm.Code{}, fmt.Errorf("%w: permuted guesses one colour everywhere, which distinct colours forbid", mm.ErrUnsupported)
	}
	p := r.Pegs
	counts := make([]int, r.Colors)
	known, k := 0, 0
	for ; k < st.Len() && known < p; k++ {
		t := st.Turn(k)
		if t.Guess != monochrome(p, k) {
			return mm.Code{}, errOwnHistory
		}
		counts[k] = t.Feedback.Black
		known += counts[k]
	}
	if known < p {
		if k >= r.Colors {
			return mm.Code{}, errOwnHistory
		}
		return monochrome(p, k), nil
	}
	// Every arrangement of the counted colours consistent with the turns
	// after the counting. Against any guess, every arrangement of the same
	// colours matches the same number of pegs in colour, so only the black
	// pegs tell arrangements apart; the walk keeps, for each turn, the black
	// pegs placed so far between what the turn still allows.
	type check struct {
		guess []int
		black int
	}
	pegs := make([]int, 0, p)
	for col, n := range counts {
		for range n {
			pegs = append(pegs, col)
		}
	}
	// One arrangement of the counted colours: every other one matches any
	// guess in as many colours, black and white together.
	some, _ := mm.NewCode(pegs...)
	var checks []check
	for j := k; j < st.Len(); j++ {
		t := st.Turn(j)
		if isMonochrome(t.Guess) {
			continue // a count, which every arrangement satisfies
		}
		if f := mm.Score(some, t.Guess); f.Black+f.White != t.Feedback.Black+t.Feedback.White {
			return mm.Code{}, fmt.Errorf("%w: no arrangement of the counted colours fits the answers", mm.ErrInconsistent)
		}
		checks = append(checks, check{guess: t.Guess.Colors(), black: t.Feedback.Black})
	}
	// A shuffle of the counted pegs is uniform over their arrangements, so
	// drawing shuffles until one fits is uniform over the consistent ones;
	// only when few fit does it pay to list them.
	rng := st.Rand()
	for range maxShuffles {
		rng.Shuffle(len(pegs), func(a, b int) { pegs[a], pegs[b] = pegs[b], pegs[a] })
		fits := true
		for _, ch := range checks {
			b := 0
			for i, col := range pegs {
				if ch.guess[i] == col {
					b++
				}
			}
			if b != ch.black {
				fits = false
				break
			}
		}
		if fits {
			c, _ := mm.NewCode(pegs...)
			return c, nil
		}
	}
	blacks := make([]int, len(checks))
	var arrangements []mm.Code
	code := make([]int, p)
	var walk func(i int) error
	walk = func(i int) error {
		if i == p {
			if len(arrangements) >= maxArrangements {
				return fmt.Errorf("%w: permuted lists more than %d arrangements", mm.ErrTooLarge, maxArrangements)
			}
			c, _ := mm.NewCode(code...)
			arrangements = append(arrangements, c)
			return nil
		}
		for col, left := range counts {
			if left == 0 {
				continue
			}
			ok := true
			for j, ch := range checks {
				b := blacks[j]
				if ch.guess[i] == col {
					b++
				}
				// Too many blacks, or too few to reach the answer with
				// the positions left.
				if b > ch.black || b+p-i-1 < ch.black {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for j, ch := range checks {
				if ch.guess[i] == col {
					blacks[j]++
				}
			}
			counts[col]--
			code[i] = col
			err := walk(i + 1)
			counts[col]++
			for j, ch := range checks {
				if ch.guess[i] == col {
					blacks[j]--
				}
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0); err != nil {
		return mm.Code{}, err
	}
	if len(arrangements) == 0 {
		return mm.Code{}, fmt.Errorf("%w: no arrangement of the counted colours fits the answers", mm.ErrInconsistent)
	}
	return arrangements[rng.IntN(len(arrangements))], nil
}

func isMonochrome(c mm.Code) bool {
	for i := 1; i < c.Len(); i++ {
		if c.Peg(i) != c.Peg(0) {
			return false
		}
	}
	return true
}
