package strategy

import (
	"context"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Random guesses a code drawn uniformly from those not yet guessed, paying
// no attention to the feedback: the uninformed baseline of seeds/002. Over
// all secrets of a space of N codes it needs (N+1)/2 guesses on average,
// 648.5 on classic Mastermind.
type Random struct{}

// MERC is seeds/002's "maximum expected reduction in consistency": among the
// codes consistent with the history it guesses the one that leaves, on
// average over the candidates as secrets, the fewest candidates — the
// smallest Σ n² over the classes it splits them into — ties going to the
// lowest code. That is the paper's own description of the score ("the
// expected size of the consistency set with respect to code c").
//
// The paper's formula, read literally, sums instead, over candidates m, the
// size of the class c falls in when the candidates are split by m; Literal
// plays that reading. It does worse than the paper reports (see
// EXPERIMENTS.md). Like the paper, it opens with two pegs of each colour
// (1122 on 6 × 4; PairsOpening) unless OwnOpening asks it to score the first
// guess too.
type MERC struct {
	Literal    bool // score by the paper's formula read literally
	OwnOpening bool // choose the first guess by the score as well
}

// Annealing is seeds/002's simulated annealing: the first guess is random;
// after that it draws uniformly from the candidates together with the codes
// one peg away from the last guess (which need not be consistent, and are
// never codes already guessed). A candidate is played at once; any other
// code c is played with probability Alpha/(score(c)+1), where score(c) = Σ
// over the turns of |black(c, guess) − black| + |white(c, guess) − white|,
// its distance from consistency. The paper's Algorithm 2 plays one guess per
// step but does not say what is played when c is refused; here it is a
// candidate drawn at random, which lands near the paper's figures. Drawing
// again instead (Resample) plays many more inconsistent codes and does much
// worse (see EXPERIMENTS.md).
type Annealing struct {
	Alpha    float64 // 0 means 2, the paper's value
	Resample bool    // draw again when a code is refused
}

var (
	_ mm.Strategy   = Random{}
	_ mm.Randomized = Random{}
	_ mm.Strategy   = MERC{}
	_ mm.Strategy   = Annealing{}
	_ mm.Randomized = Annealing{}
)

func (Random) String() string { return "random" }
func (m MERC) String() string {
	if m.Literal {
		return "merc-literal"
	}
	return "merc"
}
func (Annealing) String() string { return "annealing" }

// Randomized reports true.
func (Random) Randomized() bool { return true }

// Randomized reports true.
func (Annealing) Randomized() bool { return true }

// maxRandomTries bounds rejection sampling before Random falls back to
// listing the codes not yet guessed.
const maxRandomTries = 64

// Guess returns a code not guessed before, drawn with st.Rand().
func (Random) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	if uint64(st.Len()) >= r.Size() {
		return mm.Code{}, fmt.Errorf("mastermind: random has guessed every code")
	}
	rng := st.Rand()
	for range maxRandomTries {
		if c := mm.RandomCode(r, rng); !st.Guessed(c) {
			return c, nil
		}
	}
	// Most codes are spent: draw among the rest exactly.
	sp, err := st.Space()
	if err != nil {
		return mm.Code{}, err
	}
	left := make([]int, 0, sp.Len()-st.Len())
	for i := 0; i < sp.Len(); i++ {
		if !st.Guessed(sp.Code(i)) {
			left = append(left, i)
		}
	}
	return sp.Code(left[rng.IntN(len(left))]), nil
}

// Guess returns the candidate with the smallest MERC score.
func (m MERC) Guess(st *mm.State) (mm.Code, error) {
	s, err := candidates(st, m.String(), MaxHeuristicSpace)
	if err != nil {
		return mm.Code{}, err
	}
	if st.Len() == 0 && !m.OwnOpening {
		return PairsOpening(st.Rules()), nil
	}
	if !m.Literal {
		// Σ n² over the classes, among the candidates, lowest code on a
		// tie: the consistent-only expected size.
		return bestGuess(context.Background(), st, expectedSize, true)
	}
	if s.Len() <= 2 {
		return s.Code(0), nil
	}
	score := literalScores(s)
	best := 0
	for i := 1; i < s.Len(); i++ {
		if score[i] < score[best] {
			best = i
		}
	}
	return s.Code(best), nil
}

// literalScores returns the literal MERC score of every candidate c: Σ
// over candidates m of the size of c's class when m splits the candidates.
func literalScores(s *mm.Set) []int64 {
	n := s.Len()
	score := make([]int64, n)
	counts := make([]uint32, s.Space().Keys())
	keys := make([]uint16, n)
	for j := 0; j < n; j++ {
		s.Keys(s.Index(j), keys)
		clear(counts)
		for _, k := range keys {
			counts[k]++
		}
		// j splits the candidates; each c is charged its class.
		for i, k := range keys {
			score[i] += int64(counts[k])
		}
	}
	return score
}

// Guess draws the next guess as the paper's Algorithm 2 does.
func (a Annealing) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	rng := st.Rand()
	if st.Len() == 0 {
		return mm.RandomCode(r, rng), nil
	}
	s, err := candidates(st, "annealing", MaxConsistentSpace)
	if err != nil {
		return mm.Code{}, err
	}
	alpha := a.Alpha
	if alpha == 0 {
		alpha = 2
	}
	// The neighbourhood: codes one peg away from the last guess that are
	// neither candidates nor guessed already.
	last := st.Turn(st.Len() - 1).Guess
	var nbrs []mm.Code
	colors := last.Colors()
	for i := range colors {
		orig := colors[i]
		for k := 0; k < r.Colors; k++ {
			if k == orig {
				continue
			}
			colors[i] = k
			c, _ := mm.NewCode(colors...)
			if r.Check(c) == nil && !st.Guessed(c) && !s.Contains(c) {
				nbrs = append(nbrs, c)
			}
		}
		colors[i] = orig
	}
	for {
		i := rng.IntN(s.Len() + len(nbrs))
		if i < s.Len() {
			return s.Code(i), nil
		}
		c := nbrs[i-s.Len()]
		if accept(distance(st, c), alpha, rng.Float64()) {
			return c, nil
		}
		if !a.Resample {
			return s.Code(rng.IntN(s.Len())), nil
		}
	}
}

// accept reports whether a code at distance d from consistency is played,
// given a uniform draw u in [0, 1): with probability alpha/(d+1).
func accept(d int, alpha, u float64) bool { return u < alpha/float64(d+1) }

// distance returns Σ over the turns of |black(c, guess) − black| +
// |white(c, guess) − white|: 0 exactly when c is consistent.
func distance(st *mm.State, c mm.Code) int {
	d := 0
	for i := 0; i < st.Len(); i++ {
		t := st.Turn(i)
		f := mm.Score(c, t.Guess)
		d += abs(f.Black-t.Feedback.Black) + abs(f.White-t.Feedback.White)
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
