package huge

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Fit's search: simulated annealing over the codes with the secret's
// colour counts, whose energy is how many blacks, summed over the turns,
// a code's scores miss the answers by.
const (
	// stepNanos and stepTurnNanos are what a step costs, in nanoseconds on
	// the project's two-core machine, and per turn of the history:
	// BenchmarkFitStep gives about 150 + 2.2 a turn on histories of random
	// guesses (176 ns at 30 turns of 30 × 10, 536 at 200 of 100 × 20), and
	// a game's own, whose guesses resemble one another, up to 6 a turn
	// (TestFitDiag, 2026-11-27: 290 ns at 50 turns of 100 × 20, 1260 at
	// 200).
	stepNanos     = 100
	stepTurnNanos = 5
	// minSteps is the least work a guess does, whatever its budget.
	minSteps = 20_000
	// cycle is how many steps a cycle of the schedule takes, from hot
	// (inverse temperature betaHot) to cold (betaCold).
	cycle    = 40_000
	stage    = 1_000
	betaHot  = 0.7
	betaCold = 4.0
	// wantFew and wantMany are how many codes that fit a guess looks for,
	// to choose among, with fewer than manyColors colours and with more;
	// once it has one, it stops when patience steps, or as many as it
	// took to find the last, find no other (on small variants fewer codes
	// than it wants may fit). Seeded games (BenchmarkFitGames, 2026-11-27):
	// 64 codes against 8 took 30 × 10 from 37.7 to 34.9 guesses (10
	// games), 40 × 10 from 55.9 to 51.4 (8) and 100 × 20 from 213.7 to
	// 206.0 (3), but 32 × 6 from 31.6 to 36.6 (10), and left 50 × 8 as it
	// was (70.0 and 71.3, 3).
	wantFew    = 8
	wantMany   = 64
	manyColors = 10
	patience   = 20_000
)

// Tunables of the walk, variables so that the diagnostics (build tag
// diag) can try others.
var (
	// betaWalk is the inverse temperature of a walk from a kept code;
	// gap is the fewest steps between two codes it records; maxChain is
	// the most steps it takes from one start without reaching a code that fits.
	betaWalk = 2.0
	gap      = 200
	maxChain = 100_000
	// bumpEvery is how many steps a walk takes between two raises of
	// the weights of the turns it misses.
	bumpEvery = 500
	// aimShare is the share of proposals aimed at a missed turn.
	aimShare = 0.5
)

// A problem is what Fit knows once the colours are counted: the secret's
// count of each colour and, for every turn, its guess and blacks.
type problem struct {
	pegs, turns int
	count       []int
	g           []uint8 // g[i*turns+t] is the colour of turn t's guess at position i
	byTurn      []uint8 // byTurn[t*pegs+i] is the same
	colors      int
	off         []int32 // the turns whose guess has colour c at i: list[off[i*colors+c]:off[i*colors+c+1]]
	list        []int16
	black       []int32
	st          *mm.State

	// what the last guess found, for tests and diagnostics: codes that
	// fit, the least energy met, and steps taken
	found, least, took int
	solved             int // codes the complete solver found
}

func newProblem(st *mm.State, count []int) (*problem, error) {
	r := st.Rules()
	n := st.Len()
	p := &problem{pegs: r.Pegs, turns: n, colors: r.Colors, count: count,
		g: make([]uint8, r.Pegs*n), byTurn: make([]uint8, r.Pegs*n), black: make([]int32, n), st: st}
	sum := 0
	for _, c := range count {
		sum += c
	}
	if sum != r.Pegs {
		return nil, inconsistentFit()
	}
	in := make([]int, r.Colors)
	for t := range n {
		turn := st.Turn(t)
		clear(in)
		for i, k := range turn.Guess.Colors() {
			p.g[i*n+t] = uint8(k)
			p.byTurn[t*r.Pegs+i] = uint8(k)
			in[k]++
		}
		both := 0
		for k, c := range in {
			both += min(c, count[k])
		}
		if both != turn.Feedback.Black+turn.Feedback.White {
			return nil, inconsistentFit()
		}
		p.black[t] = int32(turn.Feedback.Black)
	}
	p.index()
	return p, nil
}

// index lists, for each position and colour, the turns whose guess has
// that colour there.
func (p *problem) index() {
	T := p.turns
	p.off = make([]int32, p.pegs*p.colors+1)
	for i := range p.pegs {
		for _, c := range p.g[i*T : (i+1)*T] {
			p.off[i*p.colors+int(c)+1]++
		}
	}
	for k := 1; k < len(p.off); k++ {
		p.off[k] += p.off[k-1]
	}
	p.list = make([]int16, p.pegs*T)
	next := append([]int32(nil), p.off[:len(p.off)-1]...)
	for i := range p.pegs {
		for t, c := range p.g[i*T : (i+1)*T] {
			k := i*p.colors + int(c)
			p.list[next[k]] = int16(t)
			next[k]++
		}
	}
}

// at returns the turns whose guess has colour c at position i.
func (p *problem) at(i int, c uint8) []int16 {
	k := i*p.colors + int(c)
	return p.list[p.off[k]:p.off[k+1]]
}

// stepCost returns the nanoseconds of one step of the search. A swap
// walks the turns whose guesses have either colour at either position,
// about 4/colours of them: with fewer than 10 colours the turns cost more
// (measured p99 of a guess's time 1.96 budgets on 50 × 8 before this,
// 1.70 on 32 × 6, against 1.49 on 30 × 10).
func (p *problem) stepCost() float64 {
	return stepNanos + stepTurnNanos*float64(p.turns)*max(1, 10/float64(p.colors))
}

// A walker is one chain of the annealing: a code x with the counts, its
// blacks h against each turn's guess, and its energy e.
type walker struct {
	p    *problem
	x    []uint8
	h    []int32
	d    []int8   // d[t] is the change of h[t] a swap under way makes
	mark []uint32 // mark[t] == stamp once t is in touched
	wt   []int32  // each turn's weight in the walk's energy

	stamp   uint32
	touched []int16
	e       int
	rng     *rand.Rand
	beta    float64
	acc     [64]float64 // acc[de] = exp(-beta·de)
}

func (p *problem) newWalker(rng *rand.Rand) *walker {
	w := &walker{p: p, x: make([]uint8, 0, p.pegs), h: make([]int32, p.turns),
		d: make([]int8, p.turns), mark: make([]uint32, p.turns), wt: make([]int32, p.turns), rng: rng}
	w.unweigh()
	for k, n := range p.count {
		for range n {
			w.x = append(w.x, uint8(k))
		}
	}
	w.restart()
	return w
}

// set makes x a copy of c and recomputes its blacks and energy.
func (w *walker) set(c []uint8) {
	copy(w.x, c)
	w.unweigh()
	w.score()
}

// restart shuffles x and recomputes its blacks and energy.
func (w *walker) restart() {
	w.rng.Shuffle(len(w.x), func(i, j int) { w.x[i], w.x[j] = w.x[j], w.x[i] })
	w.unweigh()
	w.score()
}

// score recomputes x's blacks and energy.
func (w *walker) score() {
	clear(w.h)
	T := w.p.turns
	for i, k := range w.x {
		gi := w.p.g[i*T : (i+1)*T]
		for t, c := range gi {
			if c == k {
				w.h[t]++
			}
		}
	}
	w.e = 0
	for t, h := range w.h {
		w.e += int(abs32(h - w.p.black[t]))
	}
}

func (w *walker) setBeta(beta float64) {
	w.beta = beta
	for de := range w.acc {
		w.acc[de] = math.Exp(-beta * float64(de))
	}
}

// step proposes swapping two pegs of different colours and takes the swap
// by the Metropolis rule. While some turn is missed, half the proposals
// are aimed at one such turn, drawn at random (as WalkSAT aims its flips
// at an unsatisfied clause): a swap that takes away one of its hits where
// it has too many, or gives it one where it has too few.
func (w *walker) step() {
	i, j := -1, -1
	if w.e > 0 && w.rng.Float64() < aimShare {
		i, j = w.aim()
	}
	if i < 0 {
		n := len(w.x)
		i, j = w.rng.IntN(n), w.rng.IntN(n)
	}
	w.try(i, j)
}

// aim returns a swap that brings a missed turn nearer its blacks, or -1s.
func (w *walker) aim() (int, int) {
	T, n := w.p.turns, len(w.x)
	t := w.rng.IntN(T)
	for w.h[t] == w.p.black[t] {
		t++
		if t == T {
			t = 0
		}
	}
	g := w.p.byTurn[t*n : (t+1)*n]
	if w.h[t] > w.p.black[t] {
		// a hit of t, swapped with any peg of another colour
		i := w.pick(n, func(i int) bool { return w.x[i] == g[i] })
		return i, w.rng.IntN(n)
	}
	// a miss of t, given its colour by a peg of that colour that is not a hit
	i := w.pick(n, func(i int) bool { return w.x[i] != g[i] })
	if i < 0 {
		return -1, -1
	}
	c := g[i]
	j := w.pick(n, func(j int) bool { return w.x[j] == c && g[j] != c })
	return i, j
}

// pick returns a position below n, drawn at random among those ok accepts,
// or -1 if there is none.
func (w *walker) pick(n int, ok func(int) bool) int {
	k := w.rng.IntN(n)
	for range n {
		if ok(k) {
			return k
		}
		if k++; k == n {
			k = 0
		}
	}
	return -1
}

// try swaps the pegs at i and j if the Metropolis rule takes the swap.
// Only the turns whose guess has a or b at i or j change: it walks their
// lists (problem.at), about 4/colours of the turns.
func (w *walker) try(i, j int) {
	if i < 0 || j < 0 {
		return
	}
	a, b := w.x[i], w.x[j]
	if a == b {
		return
	}
	w.stamp++
	w.touched = w.touched[:0]
	w.add(w.p.at(i, a), -1)
	w.add(w.p.at(i, b), +1)
	w.add(w.p.at(j, b), -1)
	w.add(w.p.at(j, a), +1)
	de, dw := 0, int32(0)
	for _, t := range w.touched {
		if d := int32(w.d[t]); d != 0 {
			old := w.h[t] - w.p.black[t]
			dd := abs32(old+d) - abs32(old)
			de += int(dd)
			dw += dd * w.wt[t]
		}
	}
	if dw <= 0 || (int(dw) < len(w.acc) && w.rng.Float64() < w.acc[dw]) {
		w.x[i], w.x[j] = b, a
		for _, t := range w.touched {
			w.h[t] += int32(w.d[t])
		}
		w.e += de
	}
	for _, t := range w.touched {
		w.d[t] = 0
	}
}

// add adds v to the change of each turn of list, noting the turns touched.
func (w *walker) add(list []int16, v int8) {
	for _, t := range list {
		if w.mark[t] != w.stamp {
			w.mark[t] = w.stamp
			w.touched = append(w.touched, t)
		}
		w.d[t] += v
	}
}

// bump adds one to the weight of every turn missed, so that a chain caught
// where some turns stay missed is pushed to mend them (the breakout method
// of Morris, 1993).
func (w *walker) bump() {
	for t, h := range w.h {
		if h != w.p.black[t] {
			w.wt[t]++
		}
	}
}

// unweigh gives every turn weight 1 again.
func (w *walker) unweigh() {
	for t := range w.wt {
		w.wt[t] = 1
	}
}

// guess searches for up to steps steps and returns the code to play: of
// the codes found that fit every turn (at most want), the one whose blacks
// against the others spread most; if none fits, the code of least energy
// met that was not played. It starts its chains from the codes the last
// turn's search found, kept on the state (one more answer away from fitting,
// they are near codes that fit), and walks them at inverse temperature
// betaWalk; with none kept, it anneals from random codes. The codes found
// are kept on st for the next turn.
func (p *problem) guess(ctx context.Context, rng *rand.Rand, steps int) ([]uint8, error) {
	w := p.newWalker(rng)
	want := wantFew
	if p.colors >= manyColors {
		want = wantMany
	}
	k := keptOf(p.st)
	starts := k.get()
	var found, lows [][]uint8
	var lowE []int
	seen, met := map[string]bool{}, map[string]bool{}
	// offer keeps w's code among the want codes of least energy met
	offer := func() {
		if len(lows) == want && w.e >= lowE[want-1] {
			return
		}
		key := string(w.x)
		if met[key] || p.st.Guessed(codeOf(w.x)) {
			return
		}
		met[key] = true
		at := len(lows)
		for at > 0 && lowE[at-1] > w.e {
			at--
		}
		lows = slices.Insert(lows, at, slices.Clone(w.x))
		lowE = slices.Insert(lowE, at, w.e)
		if len(lows) > want {
			lows, lowE = lows[:want], lowE[:want]
		}
	}
	s := 0
	defer func() { p.took = s }()
	next, since, chain := 0, 0, 0
	annealing := len(starts) == 0
	if annealing {
		w.restart()
	} else {
		w.set(starts[0])
		w.setBeta(betaWalk)
	}
	lastNew := 0
	for ; s < steps && len(found) < want && (len(found) == 0 || s-lastNew < max(patience, lastNew)); s++ {
		if s%stage == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if annealing {
				at := s % cycle
				w.setBeta(betaHot + (betaCold-betaHot)*float64(at)/cycle)
			}
			offer()
		}
		w.step()
		if s%bumpEvery == bumpEvery-1 && w.e > 0 {
			w.bump()
		}
		since++
		chain++
		if len(lows) == 0 || w.e < lowE[0] {
			offer()
		}
		if w.e == 0 && since >= gap {
			if key := string(w.x); !seen[key] {
				seen[key] = true
				found = append(found, slices.Clone(w.x))
				since, lastNew = 0, s
			}
		}
		if !annealing && chain >= maxChain {
			// this start leads nowhere near: try the next
			next++
			chain = 0
			if next < len(starts) {
				w.set(starts[next])
			} else {
				annealing = true
				w.restart()
			}
		}
	}
	p.found, p.least = len(found), math.MaxInt
	if len(lowE) > 0 {
		p.least = lowE[0]
	}
	var near [][]uint8
	if len(found) == 0 && useSolver {
		// No code that fits within the steps: ask the complete solver,
		// within what is left of solverShare budgets. The near misses
		// still start the next turn's walks.
		left := (solverShare*float64(steps) - float64(s)) * p.stepCost()
		x, err := solverCodes(ctx, p.st, left, min(want, wantFew))
		if err != nil {
			return nil, err
		}
		found, near = x, lows
		p.solved = len(x)
		if len(x) > 0 {
			// The solver's codes are alike: walk from one, as from
			// a kept code, for more that fit to choose among.
			met := map[string]bool{}
			for _, c := range x {
				met[string(c)] = true
			}
			w.set(x[0])
			w.setBeta(betaWalk)
			for i := 1; i <= minSteps && len(found) < want; i++ {
				w.step()
				if w.e == 0 && i%gap == 0 && !met[string(w.x)] && !p.st.Guessed(codeOf(w.x)) {
					met[string(w.x)] = true
					found = append(found, slices.Clone(w.x))
				}
			}
		}
	}
	var play []uint8
	switch {
	case len(found) > 1:
		play = spreadMost(found)
	case len(found) == 1:
		play = found[0]
	case len(lows) > 0:
		play, found = lows[0], lows
	default:
		return nil, inconsistentFit()
	}
	// the next turn starts from the codes not played: the one played
	// misses its own answer by all the pegs it did not hit
	rest := slices.DeleteFunc(slices.Clone(found), func(x []uint8) bool { return &x[0] == &play[0] })
	k.put(append(rest, near...))
	return play, nil
}

// A kept holds the codes the last search on its state found, which fit
// every answer before it (or, if none did, the code nearest to fitting);
// it follows the game, so that the next turn's search starts from them.
// Its codes are never changed, only replaced.
type kept struct {
	mu    sync.Mutex
	codes [][]uint8
}

type keptKey struct{}

// keptOf returns the kept on st, attaching an empty one if there is none.
func keptOf(st *mm.State) *kept {
	if k, ok := st.Attached(keptKey{}).(*kept); ok {
		return k
	}
	return st.Attach(keptKey{}, &kept{}).(*kept)
}

func (k *kept) get() [][]uint8 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.codes
}

func (k *kept) put(codes [][]uint8) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.codes = codes
}

// Follow gives the next state the codes found on this one.
func (k *kept) Follow(*mm.State) (mm.Follower, error) {
	return &kept{codes: k.get()}, nil
}

// spreadMost returns the code of xs whose blacks against the others have
// the most entropy.
func spreadMost(xs [][]uint8) []uint8 {
	best, bestH := 0, -1.0
	tally := make([]int, len(xs[0])+1)
	for a, x := range xs {
		clear(tally)
		for b, y := range xs {
			if a != b {
				tally[hits(x, y)]++
			}
		}
		h := 0.0
		for _, c := range tally { // in a fixed order, so h is the same every time
			if c > 0 {
				q := float64(c) / float64(len(xs)-1)
				h -= q * math.Log2(q)
			}
		}
		if h > bestH {
			best, bestH = a, h
		}
	}
	return xs[best]
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
