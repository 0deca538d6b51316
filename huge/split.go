// Package huge plays Mastermind variants far too large to sample, such as
// TopCoder's 100 pegs × 20 colours (10^130 codes) or 64 colours × 32 pegs,
// in bounded time: it asks deliberate questions, most of them codes that
// cannot be the secret, rather than searching for codes that fit.
package huge

import (
	"context"
	"errors"
	"fmt"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Split plays any variant with repeated colours in two phases. First it
// counts the colours: the code of colour k alone scores black = the number
// of k's in the secret (C − 1 guesses at most for C colours, fewer when the
// counts found already add up to the pegs). Then it finds the positions by
// halving: for a run of positions whose colour counts are known, it learns
// each colour's count in the run's left half, and so in both halves, until
// every run holds one colour or its colours have few orders (at most
// 200 000): then it plays, inside the run, the order that fits every
// answer about the run and best splits the others that do, until one is
// left.
//
// To learn the left half's counts it plays, for each colour k present in
// the run but one, the code that is k on the left half and a colour y
// everywhere else: its black count is n_y + |left ∩ k| − |left ∩ y|, where
// n_y is y's count in the secret. The counts of all colours in the left
// half add up to its length, which gives |left ∩ y| too, and so every
// count: a run of m colours costs m − 1 guesses. A white count never tells
// more once the colour counts are known, so only blacks are read. Any code
// inside a run, with y elsewhere, scores its hits in the run plus the known
// n_y − |run ∩ y|, which is how orders are tried.
//
// # Cost
//
// A game of P pegs and C colours takes C − 1 guesses to count, m − 1 for
// each run split and one for each order tried: about 275 on 100 × 20 (see
// BENCHMARKS.md). Each guess replays the plan against the history, O(T·P)
// for the T turns played; the orders chosen are kept on the game's states
// (mm.State.Attach), so each is listed and scored once: at most 200 000
// orders listed, 100 of them scored against 1000. Guesses it would repeat
// are answered from the history instead, so a guess is never played twice,
// and turns it did not ask for (a hint ignored in assist) cost nothing but
// their place.
//
// Split is deterministic and safe for concurrent use. It refuses variants
// with distinct colours, whose rules forbid its one-colour codes.
type Split struct{}

var _ mm.ContextStrategy = Split{}

func (Split) String() string { return "split" }

// Guess returns the next question, or the secret once it is known.
func (s Split) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it checks ctx before each run of positions it
// replays, so it returns ctx.Err() within milliseconds.
func (Split) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	if err := ctx.Err(); err != nil {
		return mm.Code{}, err
	}
	r := st.Rules()
	if err := CheckRules(r); err != nil {
		return mm.Code{}, err
	}
	p := newPlan(st)
	secret, err := p.run(ctx)
	switch {
	case errors.Is(err, errAsk):
		return p.next, nil
	case err != nil:
		return mm.Code{}, err
	}
	c := codeOf(secret)
	if st.Guessed(c) {
		return mm.Code{}, fmt.Errorf("%w: the answers point to %s, which was played and not solved",
			mm.ErrInconsistent, c)
	}
	return c, nil
}

// CheckRules returns an error if Split cannot play r: only distinct
// colours are refused, with an error wrapping mm.ErrUnsupported, since
// every size up to mm.MaxPegs × mm.MaxColors plays in bounded time.
func CheckRules(r mm.Rules) error {
	r = r.WithDefaults()
	if r.Distinct {
		return fmt.Errorf("%w: split plays variants with repeated colours, and %s forbids them", mm.ErrUnsupported, r)
	}
	return r.Validate()
}

// errAsk stops the plan at the first question the history has not answered.
var errAsk = errors.New("huge: question not answered yet")

// A plan replays Split's questions against a game's history.
type plan struct {
	pegs, colors int
	answers      map[mm.Code]int // black count of each guess played
	next         mm.Code         // the question to ask, once run returns errAsk
	buf          []uint8
	memo         *memo
}

func newPlan(st *mm.State) *plan {
	r := st.Rules()
	p := &plan{pegs: r.Pegs, colors: r.Colors, answers: make(map[mm.Code]int, st.Len()),
		buf: make([]uint8, r.Pegs), memo: memoOf(st)}
	for i := range st.Len() {
		t := st.Turn(i)
		p.answers[t.Guess] = t.Feedback.Black
	}
	return p
}

// ask returns the black count of the code that is colour k on positions
// [lo, hi) and colour y elsewhere, or errAsk with p.next set.
func (p *plan) ask(k, lo, hi, y int) (int, error) {
	p.fill(y)
	for i := lo; i < hi; i++ {
		p.buf[i] = uint8(k)
	}
	return p.answer()
}

// fill sets every peg of p.buf to colour y.
func (p *plan) fill(y int) {
	for i := range p.buf {
		p.buf[i] = uint8(y)
	}
}

// answer returns the black count p.buf received, or errAsk with p.next set
// if it has not been played.
func (p *plan) answer() (int, error) {
	c := codeOf(p.buf)
	if b, ok := p.answers[c]; ok {
		return b, nil
	}
	p.next = c
	return 0, errAsk
}

// A run is positions [lo, hi) with the count of each colour in it.
type run struct {
	lo, hi int
	count  []int
}

// run plays the plan as far as the history answers it and returns the
// secret, errAsk, ctx.Err(), or an error wrapping mm.ErrInconsistent.
func (p *plan) run(ctx context.Context) ([]uint8, error) {
	total := make([]int, p.colors)
	sum := 0
	for k := 0; k < p.colors-1 && sum < p.pegs; k++ {
		b, err := p.ask(k, 0, p.pegs, k)
		if err != nil {
			return nil, err
		}
		total[k] = b
		sum += b
	}
	if sum > p.pegs {
		return nil, p.inconsistent()
	}
	total[p.colors-1] += p.pegs - sum

	secret := make([]uint8, p.pegs)
	todo := []run{{0, p.pegs, total}}
	for len(todo) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if k, ok := alone(t); ok {
			for i := t.lo; i < t.hi; i++ {
				secret[i] = uint8(k)
			}
			continue
		}
		if arrangements(t.count) <= maxArrange {
			if err := p.arrange(t, total, secret); err != nil {
				return nil, err
			}
			continue
		}
		left, err := p.split(t, total)
		if err != nil {
			return nil, err
		}
		mid := (t.lo + t.hi) / 2
		right := make([]int, p.colors)
		for k := range right {
			right[k] = t.count[k] - left[k]
		}
		todo = append(todo, run{mid, t.hi, right}, run{t.lo, mid, left})
	}
	return secret, nil
}

// maxArrange is the most arrangements of a run's colours that arrange
// lists: below it, guessing arrangements takes fewer guesses than halving.
const maxArrange = 200_000

// arrangements returns the number of orders of the colours counted, the
// multinomial coefficient, or more than maxArrange.
func arrangements(count []int) int {
	n, a := 0, 1
	for _, c := range count {
		for i := 1; i <= c; i++ {
			n++
			a = a * n / i
			if a > maxArrange {
				return maxArrange + 1
			}
		}
	}
	return a
}

// arrange finds the order of t's colours by playing, inside t, orders that
// fit every answer about t so far (y fills the other positions, adding a
// known n_y − |t ∩ y| to each black count), until one order is left. It
// writes the order into secret.
func (p *plan) arrange(t run, total []int, secret []uint8) error {
	y := commonest(t.count)
	outside := total[y] - t.count[y]
	var probes []probe
	for {
		order, only, err := p.choose(t, probes)
		if err != nil {
			return err
		}
		if only {
			copy(secret[t.lo:t.hi], order)
			return nil
		}
		p.fill(y)
		copy(p.buf[t.lo:t.hi], order)
		b, err := p.answer()
		if err != nil {
			return err
		}
		if b-outside == len(order) {
			copy(secret[t.lo:t.hi], order)
			return nil
		}
		probes = append(probes, probe{order, b - outside})
	}
}

// A probe is an order played inside a run and the hits it scored there.
type probe struct {
	order []uint8
	hits  int
}

// Limits of choose's scoring: at most maxTry orders are tried as the next
// probe, each against at most maxTargets of the orders that fit.
const (
	maxTry     = 100
	maxTargets = 1000
)

// choose returns the order to play next in t after probes, and whether it
// is the only order left: of the orders that fit every probe, the one
// whose hits split them best (least Σ n² over the classes), ties to the
// lowest. Its answers are kept on the game's states, so a replay does not
// list the orders again.
func (p *plan) choose(t run, probes []probe) ([]uint8, bool, error) {
	key := memoKey(t, probes)
	if c, ok := p.memo.get(key); ok {
		return c.order, c.only, nil
	}
	order := make([]uint8, 0, t.hi-t.lo)
	for k, n := range t.count {
		for range n {
			order = append(order, uint8(k))
		}
	}
	var fit [][]uint8
	for {
		if fits(order, probes) {
			fit = append(fit, slices.Clone(order))
		}
		if !nextPerm(order) {
			break
		}
	}
	if len(fit) == 0 {
		return nil, false, p.inconsistent()
	}
	best, bestScore := fit[0], -1
	if len(fit) > 1 {
		targets := spread(fit, maxTargets)
		counts := make([]int, len(order)+1)
		for _, g := range spread(fit, maxTry) {
			clear(counts)
			for _, x := range targets {
				counts[hits(g, x)]++
			}
			score := 0
			for _, n := range counts {
				score += n * n
			}
			if bestScore < 0 || score < bestScore {
				best, bestScore = g, score
			}
		}
	}
	c := choice{best, len(fit) == 1}
	p.memo.put(key, c)
	return c.order, c.only, nil
}

// spread returns at most n of xs, evenly spaced, the first among them.
func spread(xs [][]uint8, n int) [][]uint8 {
	if len(xs) <= n {
		return xs
	}
	out := make([][]uint8, n)
	for i := range out {
		out[i] = xs[i*len(xs)/n]
	}
	return out
}

// hits returns the positions where a and b agree.
func hits(a, b []uint8) int {
	h := 0
	for i, k := range a {
		if b[i] == k {
			h++
		}
	}
	return h
}

// fits reports whether order scores every probe's hits.
func fits(order []uint8, probes []probe) bool {
	for _, q := range probes {
		if hits(order, q.order) != q.hits {
			return false
		}
	}
	return true
}

// nextPerm rearranges a into the next order of its elements in
// lexicographic order and reports whether there was one.
func nextPerm(a []uint8) bool {
	i := len(a) - 2
	for i >= 0 && a[i] >= a[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(a) - 1
	for a[j] <= a[i] {
		j--
	}
	a[i], a[j] = a[j], a[i]
	slices.Reverse(a[i+1:])
	return true
}

// commonest returns the colour counted most, the lowest of those tied.
func commonest(count []int) int {
	y := 0
	for k, n := range count {
		if n > count[y] {
			y = k
		}
	}
	return y
}

// alone reports whether one colour fills t, and which.
func alone(t run) (int, bool) {
	for k, n := range t.count {
		if n == t.hi-t.lo {
			return k, true
		}
	}
	return 0, false
}

// split returns the count of each colour in the left half of t, asking
// m − 1 questions for the m colours present in t.
func (p *plan) split(t run, total []int) ([]int, error) {
	mid := (t.lo + t.hi) / 2
	half := mid - t.lo
	y := commonest(t.count) // fills all but the left half
	var present []int
	for k, n := range t.count {
		if n > 0 {
			present = append(present, k)
		}
	}
	left := make([]int, p.colors)
	// Black of colour k on the left, y elsewhere: total[y] + left[k] − left[y].
	sum := 0 // Σ over the colours asked of left[k] − left[y]
	for _, k := range present {
		if k == y {
			continue
		}
		b, err := p.ask(k, t.lo, mid, y)
		if err != nil {
			return nil, err
		}
		left[k] = b - total[y]
		sum += left[k]
	}
	// Σ left = half: (m−1)·left[y] + sum + left[y] = half.
	m := len(present)
	if (half-sum)%m != 0 {
		return nil, p.inconsistent()
	}
	left[y] = (half - sum) / m
	for _, k := range present {
		if k != y {
			left[k] += left[y]
		}
		if left[k] < 0 || left[k] > t.count[k] {
			return nil, p.inconsistent()
		}
	}
	return left, nil
}

func (p *plan) inconsistent() error {
	return fmt.Errorf("%w: the answers to split's questions contradict one another", mm.ErrInconsistent)
}

func codeOf(colors []uint8) mm.Code {
	ints := make([]int, len(colors))
	for i, k := range colors {
		ints[i] = int(k)
	}
	c, err := mm.NewCode(ints...)
	if err != nil {
		panic("huge: " + err.Error()) // colours and pegs come from valid rules
	}
	return c
}
