package large

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Limits of the climb.
const (
	// maxTries is the most targets scored as guesses, to climb from the
	// best maxStarts of them.
	maxTries  = 64
	maxStarts = 2
	// swapsPerPeg bounds the exchanges a climb step tries: at most this
	// many per peg, drawn at random when all pairs would be more.
	swapsPerPeg = 4
	// maxKicks bounds the kicks of the iterated local search, each of 1
	// to kickMoves random recolourings; a kick is tried while the budget
	// left pays for kickSteps steps of a descent.
	maxKicks  = 256
	kickMoves = 3
	kickSteps = 3
)

// moves returns the moves a climb step tries for codes of pegs pegs over
// colors colours: every recolouring, and the exchanges.
func moves(pegs, colors int) int {
	return pegs*(colors-1) + min(pegs*(pegs-1)/2, swapsPerPeg*pegs)
}

// moveCost returns what a step of a climb costs the meter: every move of a
// guess of pegs pegs over colors colours, against n targets.
func moveCost(n, pegs, colors int) float64 {
	return (costMove*float64(n) + costMoveFixed) * float64(moves(pegs, colors))
}

// A targets is the codes a guess is scored against, a uniform sample of the
// candidates or all of them, with their colour counts, and the scratch
// space of scoring. A guess splits them by feedback; the sizes of the
// classes give its score.
type targets struct {
	pegs, colors int
	n            int
	codes        []uint8 // n × pegs
	cnt          []uint8 // n × colors: the colour counts of each code
	all          bool    // the codes are every candidate, not a sample
	nlogn        []float64
	counts       []int32 // per feedback key, (pegs+1)² of them
	keys         []int32 // per code, scratch
	base         []int32 // per code, scratch
	// closest, if set, is the guess to play when no candidate could be
	// found (then n is 0): the code nearest to fitting every turn.
	closest []uint8
}

func newTargets(pegs, colors int, codes []uint8, all bool) *targets {
	n := len(codes) / pegs
	t := &targets{pegs: pegs, colors: colors, n: n, codes: codes, all: all,
		cnt:    make([]uint8, n*colors),
		nlogn:  make([]float64, n+1),
		counts: make([]int32, (pegs+1)*(pegs+1)),
		keys:   make([]int32, n),
		base:   make([]int32, n),
	}
	for i := 0; i < n; i++ {
		for _, k := range codes[i*pegs : (i+1)*pegs] {
			t.cnt[i*colors+int(k)]++
		}
	}
	for i := 2; i <= n; i++ {
		t.nlogn[i] = float64(i) * math.Log(float64(i))
	}
	return t
}

// A guessState is a guess being improved, with its feedback against every
// target: black and total (black + white) pegs, as key b·(pegs+1) + total.
type guessState struct {
	g    []uint8
	gn   [mm.MaxColors]int16 // colour counts of g
	key  []int32             // per target
	cost float64             // Σ n·ln n over the classes, less the bonus if g is a candidate
	cons bool                // g fits every turn
}

// bonus is what a guess that could be the secret gains, in units of
// Σ n·ln n over every candidate. If a class of n codes costs about
// 1 + ln(n)/L more guesses, with L set so that two codes cost 1.5, the
// expected guesses of a split are 1 + (N − [g a candidate] + Σ n·ln n / L)/N,
// which orders guesses as Σ n·ln n − L·[g a candidate] does.
const bonus = 2 * math.Ln2

// score sets s's keys and cost for guess g.
func (t *targets) score(s *guessState, g []uint8, cons bool) {
	p, nc := t.pegs, t.colors
	s.g = append(s.g[:0], g...)
	clear(s.gn[:])
	for _, k := range g {
		s.gn[k]++
	}
	if cap(s.key) < t.n {
		s.key = make([]int32, t.n)
	}
	s.key = s.key[:t.n]
	for i := 0; i < t.n; i++ {
		x := t.codes[i*p : (i+1)*p]
		b := 0
		for j, k := range x {
			if g[j] == k {
				b++
			}
		}
		cnt := t.cnt[i*nc : (i+1)*nc]
		tot := 0
		for k, n := range s.gn[:nc] {
			if n > 0 {
				tot += int(min(int16(cnt[k]), n))
			}
		}
		s.key[i] = int32(b*(p+1) + tot)
	}
	s.cons = cons
	s.cost = t.cost(s.key, cons)
}

// cost returns Σ n·ln n over the classes of keys, less the bonus for a
// candidate guess when the targets are every candidate.
func (t *targets) cost(keys []int32, cons bool) float64 {
	for _, k := range keys {
		t.counts[k]++
	}
	s := 0.0
	for _, k := range keys {
		if n := t.counts[k]; n > 0 {
			s += t.nlogn[n]
			t.counts[k] = 0
		}
	}
	if cons && t.all {
		s -= bonus
	}
	return s
}

// hits reports whether s's guess is one of the targets.
func (t *targets) hits(s *guessState) bool {
	solved := int32(t.pegs*(t.pegs+1) + t.pegs)
	for _, k := range s.key {
		if k == solved {
			return true
		}
	}
	return false
}

// tie is the difference in cost below which two guesses tie.
const tie = 1e-9

// A move changes a guess: recolour position i to colour v, or, with swap,
// exchange positions i and j.
type move struct {
	i, j int
	v    uint8
	swap bool
}

// bestMove returns the move from s that lowers its cost most, and its cost;
// ok is false if no move lowers it by more than tie. Moves to guesses that
// the rules forbid (a repeated colour under Distinct) are skipped. It costs
// O(targets·moves(pegs, colours)); when not every exchange is tried, those
// tried are drawn with rng.
func (t *targets) bestMove(s *guessState, distinct bool, m *meter, rng *rand.Rand) (best move, cost float64, ok bool) {
	p, nc := t.pegs, t.colors
	stride := int32(p + 1)
	cost = s.cost - tie
	keys, base := t.keys, t.base
	for i := 0; i < p; i++ {
		a := s.g[i]
		na := s.gn[a]
		for r := 0; r < t.n; r++ {
			k := s.key[r]
			if t.codes[r*p+i] == a {
				k -= stride
			}
			if int16(t.cnt[r*nc+int(a)]) >= na {
				k--
			}
			base[r] = k
		}
		for v := 0; v < nc; v++ {
			if uint8(v) == a || (distinct && s.gn[v] > 0) {
				continue
			}
			nv := s.gn[v]
			for r := 0; r < t.n; r++ {
				k := base[r]
				if t.codes[r*p+i] == uint8(v) {
					k += stride
				}
				if int16(t.cnt[r*nc+v]) > nv {
					k++
				}
				keys[r] = k
			}
			// A recoloured guess is scored as a non-candidate: the bonus
			// is settled once the climb ends.
			if c := t.cost(keys, false); c < cost {
				best, cost, ok = move{i: i, v: uint8(v)}, c, true
			}
		}
	}
	swap := func(i, j int) {
		a, b := s.g[i], s.g[j]
		if a == b {
			return
		}
		for r := 0; r < t.n; r++ {
			x := t.codes[r*p : (r+1)*p]
			k := s.key[r]
			if x[i] == a {
				k -= stride
			}
			if x[j] == b {
				k -= stride
			}
			if x[i] == b {
				k += stride
			}
			if x[j] == a {
				k += stride
			}
			keys[r] = k
		}
		if c := t.cost(keys, false); c < cost {
			best, cost, ok = move{i: i, j: j, swap: true}, c, true
		}
	}
	if p*(p-1)/2 <= swapsPerPeg*p {
		for i := 0; i < p; i++ {
			for j := i + 1; j < p; j++ {
				swap(i, j)
			}
		}
	} else {
		for range swapsPerPeg * p {
			i, j := rng.IntN(p), rng.IntN(p-1)
			if j >= i {
				j++
			}
			swap(min(i, j), max(i, j))
		}
	}
	m.spend(moveCost(t.n, p, nc))
	return best, cost, ok
}

// apply makes move mv on s, whose cost becomes cost.
func (t *targets) apply(s *guessState, mv move, cost float64) {
	p, nc := t.pegs, t.colors
	stride := int32(p + 1)
	if mv.swap {
		a, b := s.g[mv.i], s.g[mv.j]
		for r := 0; r < t.n; r++ {
			x := t.codes[r*p : (r+1)*p]
			if x[mv.i] == a {
				s.key[r] -= stride
			}
			if x[mv.j] == b {
				s.key[r] -= stride
			}
			if x[mv.i] == b {
				s.key[r] += stride
			}
			if x[mv.j] == a {
				s.key[r] += stride
			}
		}
		s.g[mv.i], s.g[mv.j] = b, a
	} else {
		a, v := s.g[mv.i], mv.v
		na, nv := s.gn[a], s.gn[v]
		for r := 0; r < t.n; r++ {
			if t.codes[r*p+mv.i] == a {
				s.key[r] -= stride
			}
			if int16(t.cnt[r*nc+int(a)]) >= na {
				s.key[r]--
			}
			if t.codes[r*p+mv.i] == v {
				s.key[r] += stride
			}
			if int16(t.cnt[r*nc+int(v)]) > nv {
				s.key[r]++
			}
		}
		s.g[mv.i] = v
		s.gn[a]--
		s.gn[v]++
	}
	s.cost, s.cons = cost, false
}

// climb returns the best guess it finds against t: from the targets that
// split t best, each improved by moves (see targets.bestMove) while they
// lower its cost, as far as the meter allows. consistent reports whether a
// code that is not a target could be the secret.
func climb(ctx context.Context, t *targets, r mm.Rules, m *meter, rng *rand.Rand, consistent func([]uint8) bool) ([]uint8, error) {
	p := r.Pegs
	// Score the targets as guesses, as many as a third of the budget
	// allows, and keep the best few as starting points.
	perGuess := costScore * float64(t.n*(p+r.Colors))
	tries := max(1, min(t.n, maxTries, int(m.share(1.0/3)/perGuess)))
	order := rng.Perm(t.n)
	if tries == t.n {
		for i := range order {
			order[i] = i // every target: in order, for the tie rule
		}
	}
	var starts []*guessState
	for _, i := range order[:tries] {
		s := &guessState{}
		t.score(s, t.codes[i*p:(i+1)*p], true)
		m.spend(perGuess)
		starts = insertBest(starts, s, maxStarts)
		if t.all && s.cost <= -bonus+tie {
			// A candidate that splits the others into classes of one:
			// nothing is better.
			return s.g, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	best := starts[0]
	descend := func(s *guessState) error {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			if m.left() <= 0 {
				break
			}
			mv, cost, ok := t.bestMove(s, r.Distinct, m, rng)
			if !ok {
				break
			}
			t.apply(s, mv, cost)
		}
		if !s.cons && (t.hits(s) || consistent(s.g)) {
			s.cons = true
			if t.all {
				s.cost -= bonus
			}
		}
		if s.better(best) {
			best = s
		}
		return nil
	}
	for _, s := range starts {
		if err := descend(s); err != nil {
			return nil, err
		}
	}
	// Iterated local search: while the budget lasts, kick the best guess
	// by a few random recolourings and descend again, keeping what is
	// better. A descent ends at the first local optimum, often well within
	// the budget; the kicks spend the rest looking beyond it.
	perStep := moveCost(t.n, p, r.Colors)
	for k := 0; k < maxKicks && m.left() > kickSteps*perStep; k++ {
		g := append([]uint8(nil), best.g...)
		for range 1 + rng.IntN(kickMoves) {
			i, v := rng.IntN(p), uint8(rng.IntN(r.Colors))
			if j := slices.Index(g, v); r.Distinct && j >= 0 {
				g[i], g[j] = g[j], g[i] // keep the colours distinct
				continue
			}
			g[i] = v
		}
		s := &guessState{}
		t.score(s, g, false)
		m.spend(perGuess)
		if err := descend(s); err != nil {
			return nil, err
		}
	}
	return best.g, nil
}

// better reports whether s beats o: a lower cost beyond tie; on a tie a
// candidate, then the lower code.
func (s *guessState) better(o *guessState) bool {
	switch {
	case s.cost < o.cost-tie:
		return true
	case s.cost > o.cost+tie:
		return false
	case s.cons != o.cons:
		return s.cons
	}
	for i := range s.g {
		if s.g[i] != o.g[i] {
			return s.g[i] < o.g[i]
		}
	}
	return false
}

// insertBest adds s to list, kept in order best first and at most n long.
func insertBest(list []*guessState, s *guessState, n int) []*guessState {
	i := len(list)
	for i > 0 && s.better(list[i-1]) {
		i--
	}
	if i >= n {
		return list
	}
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = s
	if len(list) > n {
		list = list[:n]
	}
	return list
}
