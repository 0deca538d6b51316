package large

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A searcher runs depth-first searches over the constraints.
type searcher struct {
	c     *Constraints
	stack []cnode
	nodes int // propagations done
	limit int // nodes allowed; stop when nodes reaches it
	rng   *rand.Rand
	cut   bool                 // the limit stopped a search
	visit func(x []uint8) bool // x is scratch, valid during the call
	// countsOnly, if set, stops the search once every count is fixed and
	// is called with the node instead; it returns false to stop.
	countsOnly func(*cnode) bool
	ctx        context.Context // checked every ctxEvery nodes; nil for none
	// hint, if set, is a code near those sought (one that misses the
	// turns by little): its count of a colour, and its colour at a
	// position, are tried first.
	hint    []uint8
	hintN   [mm.MaxColors]int16
	stopped bool    // ctx stopped a search
	open    []int32 // per turn, scratch for choosing a position
	leaf    []uint8 // scratch for the code reached
}

func (c *Constraints) newSearcher(rng *rand.Rand, limit int) *searcher {
	depth := c.pegs + c.colors + 1
	s := &searcher{c: c, stack: make([]cnode, depth), limit: limit, rng: rng,
		open: make([]int32, c.turns), leaf: make([]uint8, c.pegs)}
	dom := make([]uint64, depth*c.pegs)
	bounds := make([]int16, 2*depth*c.colors)
	for d := range s.stack {
		s.stack[d] = cnode{dom: dom[d*c.pegs : (d+1)*c.pegs : (d+1)*c.pegs],
			lo: bounds[2*d*c.colors : (2*d+1)*c.colors : (2*d+1)*c.colors],
			hi: bounds[(2*d+1)*c.colors : (2*d+2)*c.colors : (2*d+2)*c.colors]}
	}
	return s
}

// dfs searches below s.stack[d], calling s.visit with every code it reaches
// until visit returns false; it reports whether the search is to stop. Values
// are tried in random order when s.rng is set, ascending otherwise.
func (s *searcher) dfs(d int) bool {
	n := &s.stack[d]
	p, nc := s.c.pegs, s.c.colors
	// First the colour counts: the colour whose count is least settled.
	colour, span := -1, 1<<30
	start := 0
	if s.rng != nil {
		start = s.rng.IntN(nc)
	}
	for kk := 0; kk < nc; kk++ {
		k := kk + start
		if k >= nc {
			k -= nc
		}
		if w := int(n.hi[k] - n.lo[k]); w > 0 && w < span {
			colour, span = k, w
		}
	}
	if colour >= 0 {
		var buf [mm.MaxPegs + 1]int16
		var wbuf [mm.MaxPegs + 1]float64
		vals := buf[:0]
		for v := n.lo[colour]; v <= n.hi[colour]; v++ {
			vals = append(vals, v)
		}
		weights := wbuf[:len(vals)]
		if s.rng != nil {
			s.countWeights(n, colour, weights)
		}
		first := 0
		if s.hint != nil {
			if h := s.hintN[colour]; h >= n.lo[colour] && h <= n.hi[colour] {
				i := int(h - n.lo[colour])
				vals[0], vals[i] = vals[i], vals[0]
				weights[0], weights[i] = weights[i], weights[0]
				first = 1
			}
		}
		for i := range vals {
			if s.rng != nil && i >= first {
				// Draw the next value with probability proportional to its
				// weight, among those not yet tried; every weight is
				// positive.
				r := i + pickWeighted(s.rng, weights[i:])
				vals[i], vals[r] = vals[r], vals[i]
				weights[i], weights[r] = weights[r], weights[i]
			}
			child := s.child(d)
			if child == nil {
				return true
			}
			child.lo[colour], child.hi[colour] = vals[i], vals[i]
			if s.c.propagate(child) && s.dfs(d+1) {
				return true
			}
		}
		return false
	}
	if s.countsOnly != nil {
		return !s.countsOnly(n)
	}
	// Then a position: the one whose colour would settle the most, each
	// turn whose guess's colour it may still take counting 1/m when the
	// turn has m such open positions; ties go to fewer colours left, then
	// to the first after a random start, or the lowest. On late, tight
	// histories this searches several times fewer nodes than taking the
	// fewest colours first.
	open := s.open
	for t := range open {
		open[t] = 0
		for j, k := range s.c.guess[t*p : (t+1)*p] {
			if d := n.dom[j]; d&(1<<k) != 0 && d != 1<<k {
				open[t]++
			}
		}
	}
	best, bestScore, size := -1, int32(-1), 65
	if s.rng != nil {
		start = s.rng.IntN(p)
	}
	for jj := 0; jj < p; jj++ {
		j := jj + start
		if j >= p {
			j -= p
		}
		d := n.dom[j]
		m := bits.OnesCount64(d)
		if m <= 1 {
			continue
		}
		score := int32(0)
		for t, o := range open {
			if d&(1<<s.c.guess[t*p+j]) != 0 {
				score += (1 << 16) / o
			}
		}
		if score > bestScore || (score == bestScore && m < size) {
			best, bestScore, size = j, score, m
		}
	}
	if best < 0 {
		for j := 0; j < p; j++ {
			s.leaf[j] = uint8(bits.TrailingZeros64(n.dom[j]))
		}
		return !s.visit(s.leaf)
	}
	var buf [mm.MaxColors]uint8
	vals := buf[:0]
	first := 0
	if s.hint != nil && n.dom[best]&(1<<s.hint[best]) != 0 {
		vals = append(vals, s.hint[best])
		first = 1
	}
	for m := n.dom[best]; m != 0; m &= m - 1 {
		if k := uint8(bits.TrailingZeros64(m)); first == 0 || k != vals[0] {
			vals = append(vals, k)
		}
	}
	for i := range vals {
		if s.rng != nil && i >= first {
			r := i + s.rng.IntN(len(vals)-i)
			vals[i], vals[r] = vals[r], vals[i]
		}
		child := s.child(d)
		if child == nil {
			return true
		}
		child.dom[best] = 1 << vals[i]
		if s.c.propagate(child) && s.dfs(d+1) {
			return true
		}
	}
	return false
}

// child makes s.stack[d+1] a copy of s.stack[d] and returns it, counting
// one node; it returns nil, and sets s.cut, if the node limit is reached.
func (s *searcher) child(d int) *cnode {
	if s.limit > 0 && s.nodes >= s.limit {
		s.cut = true
		return nil
	}
	if s.ctx != nil && s.nodes%ctxEvery == 0 && s.ctx.Err() != nil {
		s.cut, s.stopped = true, true
		return nil
	}
	s.nodes++
	n := &s.stack[d+1]
	n.copyFrom(&s.stack[d])
	return n
}

// setHint makes x the search's hint.
func (s *searcher) setHint(x []uint8) {
	s.hint = x
	clear(s.hintN[:])
	for _, k := range x {
		s.hintN[k]++
	}
}

// ctxEvery is how many nodes a search goes between looks at its context.
const ctxEvery = 256

// countWeights sets w[e] to the weight of count lo+e for colour k when
// sampling: the chance that a code drawn at random from those meeting the
// lower bounds has e more pegs of colour k, if the pegs beyond the lower
// bounds were shared at random among the colours whose counts are open — a
// binomial law. Drawing counts by these weights, rather than uniformly,
// keeps samples from piling pegs on one colour.
func (s *searcher) countWeights(n *cnode, k int, w []float64) {
	free, open := s.c.pegs, 0
	for j := 0; j < s.c.colors; j++ {
		free -= int(n.lo[j])
		if n.lo[j] < n.hi[j] {
			open++
		}
	}
	q := 1 / float64(max(open, 1))
	// C(free, e) qᵉ (1−q)^(free−e), by the ratio of successive terms.
	t := math.Pow(1-q, float64(free))
	for e := range w {
		w[e] = t + 1e-12
		if e < free {
			if q == 1 {
				t = 0
				if e+1 == free {
					t = 1
				}
			} else {
				t *= float64(free-e) / float64(e+1) * q / (1 - q)
			}
		} else {
			t = 0
		}
	}
}

// Find returns a code consistent with every turn, found by a deterministic
// search of at most effort nodes (effort <= 0: no limit). It fails with an
// error wrapping mastermind.ErrInconsistent if no code fits the turns and
// ErrSearchLimit if the effort ran out first.
func (c *Constraints) Find(effort int) (mm.Code, error) {
	x, _, err := c.sample(context.Background(), rand.New(rand.NewPCG(uint64(c.turns), 0xf1d)), 1, effort, nil)
	if err != nil {
		return mm.Code{}, err
	}
	return toCode(x), nil
}

// findInOrder returns the first code consistent with every turn that one
// search, trying counts and colours in ascending order, reaches within
// effort nodes, or nil; it also returns the nodes searched. Its error wraps
// mastermind.ErrInconsistent when the search was complete and found none,
// ErrSearchLimit when the effort ran out, or is ctx.Err().
func (c *Constraints) findInOrder(ctx context.Context, effort int) ([]uint8, int, error) {
	if !c.ok {
		return nil, 0, c.inconsistent()
	}
	s := c.newSearcher(nil, effort)
	s.ctx = ctx
	var x []uint8
	s.visit = func(leaf []uint8) bool {
		x = append([]uint8(nil), leaf...)
		return false
	}
	s.stack[0].copyFrom(&c.root)
	s.dfs(0)
	switch {
	case x != nil:
		return x, s.nodes, nil
	case s.stopped:
		return nil, s.nodes, ctx.Err()
	case s.cut:
		return nil, s.nodes, fmt.Errorf("%w: no code found in %d nodes", ErrSearchLimit, s.nodes)
	}
	return nil, s.nodes, c.inconsistent()
}

// Sample returns n codes consistent with every turn, drawn at random with
// rng by depth-first searches that try colour counts and colours in random
// order — counts by their chance among random codes, colours uniformly — so
// that the codes spread over the candidates (though not uniformly: codes in
// sparse parts of the search tree come up more often). A code may come up
// more than once.
//
// When drawing from the root proves slow and the colour counts that fit the
// turns are few, Sample lists them (at most maxVectors, in at most a quarter
// of the effort left) and then draws, for each code, one list entry,
// weighted by its number of arrangements, and an arrangement of it. A
// search that grows too large is restarted with other choices and a doubled
// limit; the searches share at most effort nodes in all (effort <= 0: no
// limit, which ends too, since limits double until a search is complete).
//
// Sample returns the codes found and, if fewer than n, an error wrapping
// ErrSearchLimit when the effort ran out or mastermind.ErrInconsistent when
// a complete search found that no code fits. The same rng state gives the
// same codes.
func (c *Constraints) Sample(rng *rand.Rand, n, effort int) ([]mm.Code, error) {
	flat, _, err := c.sample(context.Background(), rng, n, effort, nil)
	return toCodes(flat, c.pegs), err
}

// sample is Sample, appending the colours of the codes to dst; it also
// returns the nodes it searched, and stops with ctx.Err() soon after ctx is
// done.
func (c *Constraints) sample(ctx context.Context, rng *rand.Rand, n, effort int, dst []uint8) ([]uint8, int, error) {
	return c.sampleNear(ctx, rng, n, effort, dst, nil)
}

// sampleNear is sample, each search guided by the next of hints (flat
// codes near those sought, taken in turn; none if empty): it tries the
// hint's colour counts and colours first.
func (c *Constraints) sampleNear(ctx context.Context, rng *rand.Rand, n, effort int, dst, hints []uint8) ([]uint8, int, error) {
	if !c.ok {
		return dst, 0, c.inconsistent()
	}
	found := 0
	s := c.newSearcher(rng, 0)
	s.ctx = ctx
	nh := len(hints) / c.pegs
	s.visit = func(x []uint8) bool {
		dst = append(dst, x...)
		found++
		return false
	}
	var (
		vecs    []cnode
		listed  bool
		tried   bool
		weights []float64
		limits  = []int{4 * c.pegs}
	)
	for found < n {
		if effort > 0 && s.nodes >= effort {
			return dst, s.nodes, fmt.Errorf("%w: %d of %d codes found in %d nodes", ErrSearchLimit, found, n, s.nodes)
		}
		if found == pilotCodes && !tried && c.turns > 0 && s.nodes > pilotCodes*pilotNodes*(c.pegs+c.colors) {
			tried = true
			// Drawing from the root is slow: list the colour counts,
			// if they are few, and draw from them.
			budget := 1 << 16
			if effort > 0 {
				budget = max(1, (effort-s.nodes)/4)
			}
			var used int
			vecs, listed, used = c.countVectors(ctx, maxVectors, budget)
			if err := ctx.Err(); err != nil {
				return dst, s.nodes + used, err
			}
			s.nodes += used
			if listed && len(vecs) == 0 {
				return dst, s.nodes, c.inconsistent()
			}
			if listed {
				weights = make([]float64, len(vecs))
				limits = make([]int, len(vecs))
				for i := range vecs {
					weights[i] = arrangements(&vecs[i], c.pegs, c.colors)
					limits[i] = 4 * c.pegs
				}
			}
			continue
		}
		i := 0
		s.stack[0].copyFrom(&c.root)
		if listed {
			if i = pickWeighted(rng, weights); i < 0 {
				return dst, s.nodes, c.inconsistent()
			}
			s.stack[0].copyFrom(&vecs[i])
		}
		s.limit = s.nodes + limits[i]
		if effort > 0 {
			s.limit = min(s.limit, effort)
		}
		s.cut = false
		before := found
		if nh > 0 {
			s.setHint(hints[(found%nh)*c.pegs : (found%nh+1)*c.pegs])
		}
		s.dfs(0)
		if s.stopped {
			return dst, s.nodes, ctx.Err()
		}
		switch {
		case found > before:
		case !s.cut && listed:
			weights[i] = 0 // no arrangement of these counts fits
		case !s.cut:
			return dst, s.nodes, c.inconsistent()
		default:
			limits[i] *= 2
		}
	}
	return dst, s.nodes, nil
}

// Sample draws pilotCodes codes from the root first; if they cost more
// than pilotNodes nodes per peg and colour each, it lists the colour counts.
const (
	pilotCodes = 8
	pilotNodes = 3
)

// maxVectors is the most colour-count vectors Sample lists.
const maxVectors = 4096

// countVectors lists the colour counts that propagation admits, as nodes
// with every count fixed and propagated, if there are at most most of them
// and a search of at most effort nodes finds them all; listed is false
// otherwise, and the nodes searched.
func (c *Constraints) countVectors(ctx context.Context, most, effort int) (vecs []cnode, listed bool, nodes int) {
	s := c.newSearcher(nil, effort)
	s.ctx = ctx
	s.countsOnly = func(n *cnode) bool {
		if len(vecs) == most {
			return false
		}
		vecs = append(vecs, n.clone())
		return true
	}
	s.stack[0].copyFrom(&c.root)
	if s.dfs(0) {
		return nil, false, s.nodes
	}
	return vecs, true, s.nodes
}

// arrangements returns the number of ways to place the counts of n, which
// are fixed, in the pegs: pegs!/Π nₖ!.
func arrangements(n *cnode, pegs, colors int) float64 {
	lg, _ := math.Lgamma(float64(pegs + 1))
	for k := 0; k < colors; k++ {
		l, _ := math.Lgamma(float64(n.lo[k]) + 1)
		lg -= l
	}
	return math.Exp(lg)
}

// pickWeighted returns an index drawn with probability proportional to its
// weight, or -1 if every weight is 0.
func pickWeighted(rng *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	if total <= 0 {
		return -1
	}
	x := rng.Float64() * total
	last := -1
	for i, v := range w {
		if v <= 0 {
			continue
		}
		last = i
		if x -= v; x < 0 {
			return i
		}
	}
	return last
}

// Enumerate returns every code consistent with the turns, in lexicographic
// order, if there are at most most of them and a search of at most effort
// nodes finds them all (effort <= 0: no limit). Otherwise it returns the
// codes found and an error wrapping mastermind.ErrTooLarge (more than most
// codes), ErrSearchLimit (effort ran out) or mastermind.ErrInconsistent (no
// code fits).
//
// Enumerating costs about as many nodes as there are candidates times a
// small factor, plus the dead ends the propagation does not foresee.
func (c *Constraints) Enumerate(most, effort int) ([]mm.Code, error) {
	flat, _, err := c.enumerate(context.Background(), most, effort)
	return toCodes(flat, c.pegs), err
}

// enumerate is Enumerate, with the codes' colours one after another; it
// also returns the nodes it searched, and stops with ctx.Err() soon after
// ctx is done.
func (c *Constraints) enumerate(ctx context.Context, most, effort int) ([]uint8, int, error) {
	if !c.ok {
		return nil, 0, c.inconsistent()
	}
	var out []uint8
	found := 0
	s := c.newSearcher(nil, effort)
	s.ctx = ctx
	over := false
	s.visit = func(x []uint8) bool {
		if found == most {
			over = true
			return false
		}
		out = append(out, x...)
		found++
		return true
	}
	s.stack[0].copyFrom(&c.root)
	s.dfs(0)
	if s.stopped {
		return nil, s.nodes, ctx.Err()
	}
	out = sortCodes(out, c.pegs)
	switch {
	case over:
		return out, s.nodes, fmt.Errorf("%w: more than %d codes fit the %d turns", mm.ErrTooLarge, most, c.turns)
	case s.cut:
		return out, s.nodes, fmt.Errorf("%w: %d codes found in %d nodes", ErrSearchLimit, found, s.nodes)
	case found == 0:
		return nil, s.nodes, c.inconsistent()
	}
	return out, s.nodes, nil
}
