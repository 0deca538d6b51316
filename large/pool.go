package large

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A pool is a sample of the candidates of one state, drawn uniformly at
// random from the codes consistent with its turns, and kept on the state
// (mm.State.Attach) so that the next turn starts from it: the codes that
// also fit the new turn are a uniform sample of the new candidates, as in a
// particle filter, and seed the walks that draw the next sample (see walk).
//
// The sampler fills the pool of a state once, in place: a state is played
// by one game, whose guesses come one at a time.
type pool struct {
	mu    sync.Mutex
	full  bool // filled
	pegs  int
	codes []uint8 // flat
	// near are codes of the last turn's pool that miss the last turn's
	// answer by one or two pegs (black or total), and fit every other:
	// where walks start when too few codes survived, since consistent
	// codes are near them.
	near []uint8
	// frac estimates the share of all codes that fit the turns: the product
	// of the shares of the pool that survived each turn, or the share of
	// random codes accepted.
	frac float64
	// closest, when the sampler found no consistent code within its
	// budget, is the code nearest to fitting every turn that it found: the
	// guess to play instead of a candidate.
	closest []uint8
}

// maxNear is the most near misses a pool keeps.
const maxNear = 256

// Follow keeps the codes that fit the new turn, and some that nearly do. A
// pool proves nothing, so it never fails: with no survivor, the estimate of
// the share drops to what one survivor would have meant, halved.
func (p *pool) Follow(next *mm.State) (mm.Follower, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := next.Turn(next.Len() - 1)
	var buf [mm.MaxPegs]uint8
	g := appendCode(buf[:0], t.Guess)
	var gn [mm.MaxColors]int16
	for _, k := range g {
		gn[k]++
	}
	var kept, near []uint8
	for i := 0; i+p.pegs <= len(p.codes); i += p.pegs {
		x := p.codes[i : i+p.pegs]
		f := score(x, g, &gn)
		miss := abs(f.Black-t.Feedback.Black) + abs(f.Black+f.White-t.Feedback.Black-t.Feedback.White)
		switch {
		case miss == 0:
			kept = append(kept, x...)
		case miss <= 2 && len(near) < maxNear*p.pegs:
			near = append(near, x...)
		}
	}
	if len(kept)+len(near) == 0 {
		// Nothing fits nor nearly: the old near misses still point the
		// way.
		near = p.near
	}
	n := max(1, len(p.codes)/p.pegs)
	share := float64(len(kept)/p.pegs) / float64(n)
	if len(kept) == 0 {
		share = 0.5 / float64(n)
	}
	return &pool{pegs: p.pegs, codes: kept, near: near, frac: p.frac * share}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// A walker draws codes consistent with a state's constraints: uniformly
// random codes kept when they fit, and walks (see walk). For its walks it
// keeps sets of turns as bitsets of words words: per position and colour,
// the turns whose guess has that colour there; per colour and count n, the
// turns whose guess has more than n pegs of the colour.
type walker struct {
	c        *Constraints
	rng      *rand.Rand
	distinct bool
	meter    *meter
	words    int
	at       []uint64 // pegs × colors × words
	more     []uint64 // colors × (pegs+1) × words
	// lows are the inconsistent codes of least energy the walks have
	// looked at, fewest misses first, at most maxLows of them.
	lows []lowCode
}

// A lowCode is a code that misses the turns by e (see chain).
type lowCode struct {
	e int
	x []uint8
}

// maxLows is the most codes walker.lows holds.
const maxLows = 32

// offer adds x, which misses the turns by e > 0, to w.lows if it is among
// the maxLows codes of least energy looked at and not there yet.
func (w *walker) offer(x []uint8, e int) {
	n := len(w.lows)
	if n == maxLows && e >= w.lows[n-1].e {
		return
	}
	i := n
	for i > 0 && w.lows[i-1].e > e {
		i--
	}
	for j := i - 1; j >= 0 && w.lows[j].e == e; j-- {
		if slices.Equal(w.lows[j].x, x) {
			return
		}
	}
	if n == maxLows {
		w.lows = w.lows[:n-1]
	}
	w.lows = slices.Insert(w.lows, i, lowCode{e, slices.Clone(x)})
}

// lowCodes returns the codes of w.lows, flat.
func (w *walker) lowCodes() []uint8 {
	var flat []uint8
	for _, l := range w.lows {
		flat = append(flat, l.x...)
	}
	return flat
}

func newWalker(c *Constraints, rng *rand.Rand, m *meter) *walker {
	W := max(1, (c.turns+63)/64)
	p, nc := c.pegs, c.colors
	w := &walker{c: c, rng: rng, distinct: c.rules.Distinct, meter: m, words: W,
		at:   make([]uint64, p*nc*W),
		more: make([]uint64, nc*(p+1)*W),
	}
	for t := 0; t < c.turns; t++ {
		bit := uint64(1) << (t % 64)
		for j, k := range c.guess[t*p : (t+1)*p] {
			w.at[(j*nc+int(k))*W+t/64] |= bit
		}
		for k := 0; k < nc; k++ {
			for n := 0; n < int(c.count[t*nc+k]); n++ {
				w.more[(k*(p+1)+n)*W+t/64] |= bit
			}
		}
	}
	return w
}

// stepCost returns what a step of a walk costs the meter.
func (w *walker) stepCost() float64 {
	return costStep*float64(4+w.words) + costStepTurn*float64(w.c.turns)
}

// random appends codes drawn uniformly from every code of the variant until
// n of them fit the turns or tries codes have been drawn; it returns the
// codes and the number drawn.
func (w *walker) random(dst []uint8, n, tries int) ([]uint8, int) {
	c := w.c
	x := make([]uint8, c.pegs)
	got, drawn := 0, 0
	for ; got < n && drawn < tries; drawn++ {
		w.randomCode(x)
		if c.fits(x) {
			dst = append(dst, x...)
			got++
		}
	}
	w.meter.spend(float64(drawn) * costRandom * float64(c.pegs+c.turns*c.pegs))
	return dst, drawn
}

// randomCode sets x to a code drawn uniformly from every code of the
// variant.
func (w *walker) randomCode(x []uint8) {
	nc := w.c.colors
	if !w.distinct {
		for j := range x {
			x[j] = uint8(w.rng.IntN(nc))
		}
		return
	}
	var perm [mm.MaxColors]uint8
	for i := range nc {
		perm[i] = uint8(i)
	}
	for j := range x {
		r := j + w.rng.IntN(nc-j)
		perm[j], perm[r] = perm[r], perm[j]
		x[j] = perm[j]
	}
}

// beta is the inverse temperature of the walks: high enough that a walk
// spends a good share of its steps on consistent codes, low enough that it
// leaves them to cross to others. Late in large games the consistent codes
// lie in islands a few misses apart, and walks at 3 stayed on theirs: the
// sample died out and the sampler gave up on consistent codes for several
// turns. Seeded games at the default budget (BENCHMARKS.md), 2 against 3,
// on 2026-11-23: 21.00 guesses against 25.17 on 20 × 20 (6 games; 2.5
// gave 22.17, and 1.5 23.0 on 3), 14.20 against 14.30 on 15 × 15 (10),
// 11.17 against 11.00 on 12 × 12 (24), 8.93 against 9.08 on 10 × 10 (40).
const beta = 2

// A chain is a Metropolis walk over every code, whose energy counts how far
// a code is from fitting the turns: Σ over turns of the differences in
// blacks and in totals. Its moves, an exchange of two positions or a
// recolouring of one, are proposed symmetrically and made with probability
// min(1, exp(−beta·Δenergy)), so the walk's stationary law weights each
// code by exp(−beta·energy), and the codes of energy 0, the consistent
// ones, are equally likely among themselves: the states a walk is in at
// fixed steps, when consistent, are a uniform sample in the long run.
type chain struct {
	w      *walker
	x      []uint8
	xn     [mm.MaxColors]int16
	db, dt []int16 // per turn, x's blacks and totals less the turn's
	e      int     // energy
	accept [8]float64
	steps  int
}

func (w *walker) newChain(x []uint8) *chain {
	c := w.c
	ch := &chain{w: w, x: append([]uint8(nil), x...), db: make([]int16, c.turns), dt: make([]int16, c.turns)}
	for _, k := range x {
		ch.xn[k]++
	}
	for t := 0; t < c.turns; t++ {
		g := c.guess[t*c.pegs : (t+1)*c.pegs]
		b, tot := int16(0), int16(0)
		for j, k := range g {
			if x[j] == k {
				b++
			}
		}
		for _, k := range c.used[t] {
			tot += min(ch.xn[k], c.count[t*c.colors+int(k)])
		}
		ch.db[t], ch.dt[t] = b-c.black[t], tot-c.total[t]
		ch.e += abs16(ch.db[t]) + abs16(ch.dt[t])
	}
	for d := range ch.accept {
		ch.accept[d] = math.Exp(-beta * float64(d))
	}
	return ch
}

func abs16(x int16) int {
	if x < 0 {
		return -int(x)
	}
	return int(x)
}

// set returns the bitset of turns for position j and colour k.
func (w *walker) set(j int, k uint8) []uint64 {
	i := (j*w.c.colors + int(k)) * w.words
	return w.at[i : i+w.words]
}

// moreThan returns the bitset of turns whose guess has more than n pegs of
// colour k.
func (w *walker) moreThan(k uint8, n int16) []uint64 {
	i := (int(k)*(w.c.pegs+1) + int(n)) * w.words
	return w.more[i : i+w.words]
}

// ok reports whether a move that changes the energy by de is made.
func (ch *chain) ok(de int) bool {
	return de <= 0 || (de < len(ch.accept) && ch.w.rng.Float64() < ch.accept[de])
}

// step proposes one move and makes it with the Metropolis probability. It
// looks only at the turns whose blacks or totals the move changes.
func (ch *chain) step() {
	w := ch.w
	c := w.c
	p := c.pegs
	ch.steps++
	i := w.rng.IntN(p)
	if p > 1 && w.rng.IntN(2) == 0 {
		// Exchange i and j: the totals stay; turn t's blacks change by
		// [t ∈ at(i,b)] + [t ∈ at(j,a)] − [t ∈ at(i,a)] − [t ∈ at(j,b)].
		j := w.rng.IntN(p - 1)
		if j >= i {
			j++
		}
		a, b := ch.x[i], ch.x[j]
		if a == b {
			return
		}
		ia, ib, ja, jb := w.set(i, a), w.set(i, b), w.set(j, a), w.set(j, b)
		de := 0
		for q := range ia {
			for m := ia[q] | ib[q] | ja[q] | jb[q]; m != 0; m &= m - 1 {
				t := q*64 + bits.TrailingZeros64(m)
				d := swapDelta(ia[q], ib[q], ja[q], jb[q], m)
				de += abs16(ch.db[t]+d) - abs16(ch.db[t])
			}
		}
		if !ch.ok(de) {
			return
		}
		for q := range ia {
			for m := ia[q] | ib[q] | ja[q] | jb[q]; m != 0; m &= m - 1 {
				t := q*64 + bits.TrailingZeros64(m)
				ch.db[t] += swapDelta(ia[q], ib[q], ja[q], jb[q], m)
			}
		}
		ch.x[i], ch.x[j] = b, a
		ch.e += de
		return
	}
	// Recolour i from a to v: turn t's blacks change by [t ∈ at(i,v)] −
	// [t ∈ at(i,a)], its total by [guess has more than n(v) of v] −
	// [guess has more than n(a)−1 of a].
	a := ch.x[i]
	v := uint8(w.rng.IntN(c.colors - 1))
	if v >= a {
		v++
	}
	if w.distinct && ch.xn[v] > 0 {
		return
	}
	ia, iv := w.set(i, a), w.set(i, v)
	up, down := w.moreThan(v, ch.xn[v]), w.moreThan(a, ch.xn[a]-1)
	de := 0
	for q := range ia {
		for m := ia[q] | iv[q] | up[q] | down[q]; m != 0; m &= m - 1 {
			t := q*64 + bits.TrailingZeros64(m)
			low := m & -m
			b := bit16(iv[q]&low) - bit16(ia[q]&low)
			tt := bit16(up[q]&low) - bit16(down[q]&low)
			de += abs16(ch.db[t]+b) - abs16(ch.db[t]) + abs16(ch.dt[t]+tt) - abs16(ch.dt[t])
		}
	}
	if !ch.ok(de) {
		return
	}
	for q := range ia {
		for m := ia[q] | iv[q] | up[q] | down[q]; m != 0; m &= m - 1 {
			t := q*64 + bits.TrailingZeros64(m)
			low := m & -m
			ch.db[t] += bit16(iv[q]&low) - bit16(ia[q]&low)
			ch.dt[t] += bit16(up[q]&low) - bit16(down[q]&low)
		}
	}
	ch.x[i] = v
	ch.xn[a]--
	ch.xn[v]++
	ch.e += de
}

// swapDelta returns the change in blacks, for the turn of the lowest bit of
// m, of exchanging two positions (see step).
func swapDelta(ia, ib, ja, jb, m uint64) int16 {
	low := m & -m
	return bit16(ib&low) + bit16(ja&low) - bit16(ia&low) - bit16(jb&low)
}

func bit16(x uint64) int16 {
	if x != 0 {
		return 1
	}
	return 0
}

// walk adds to the sample codes consistent with the turns that it does not
// hold yet, from walks started at seeds (consistent codes): one walk per
// seed, taken in turn, each looking every gap steps at the code it is at
// and adding it if it is consistent and new, until the sample holds n codes
// or most steps have been taken in all. It returns the steps taken and the
// consistent codes looked at, new or not.
//
// It stops with ctx.Err() soon after ctx is done.
func (w *walker) walk(ctx context.Context, s *sample, seeds []uint8, n, gap, most int) (steps, seen int, err error) {
	p := w.c.pegs
	k := len(seeds) / p
	if k == 0 {
		return 0, 0, nil
	}
	chains := make([]*chain, min(k, n))
	for i := range chains {
		chains[i] = w.newChain(seeds[i*p : (i+1)*p])
	}
	defer func() { w.meter.spend(float64(steps) * w.stepCost()) }()
	for round := 0; s.len() < n && steps < most; round++ {
		if round%64 == 0 && ctx.Err() != nil {
			return steps, seen, ctx.Err()
		}
		for _, ch := range chains {
			for range gap {
				ch.step()
			}
			steps += gap
			if ch.e == 0 {
				seen++
				if s.add(ch.x) && s.len() == n {
					break
				}
			} else {
				w.offer(ch.x, ch.e)
			}
		}
	}
	return steps, seen, nil
}

// A sample is a list of distinct codes.
type sample struct {
	pegs  int
	codes []uint8
	seen  map[uint64]struct{} // hashes of the codes
}

func newSample(pegs int) *sample {
	return &sample{pegs: pegs, seen: make(map[uint64]struct{})}
}

// hash returns the 64-bit FNV-1a hash of x; codes of one variant collide
// with odds of about one in 2⁶⁴ a pair.
func hash(x []uint8) uint64 {
	h := uint64(14695981039346656037)
	for _, k := range x {
		h ^= uint64(k)
		h *= 1099511628211
	}
	return h
}

// add adds x if the sample does not hold it, and reports whether it did.
func (s *sample) add(x []uint8) bool {
	h := hash(x)
	if _, ok := s.seen[h]; ok {
		return false
	}
	s.seen[h] = struct{}{}
	s.codes = append(s.codes, x...)
	return true
}

// addAll adds the codes of flat, and returns how many were new.
func (s *sample) addAll(flat []uint8) int {
	n := 0
	for i := 0; i+s.pegs <= len(flat); i += s.pegs {
		if s.add(flat[i : i+s.pegs]) {
			n++
		}
	}
	return n
}

func (s *sample) len() int { return len(s.codes) / s.pegs }

// burn walks from each code of flat, which fit the turns, for steps steps
// and puts in its place the last consistent code the walk was at.
func (w *walker) burn(flat []uint8, steps int) {
	p := w.c.pegs
	for i := 0; i < len(flat)/p; i++ {
		ch := w.newChain(flat[i*p : (i+1)*p])
		for range steps {
			ch.step()
			if ch.e == 0 {
				copy(flat[i*p:(i+1)*p], ch.x)
			}
		}
	}
	w.meter.spend(float64(steps*len(flat)/p) * w.stepCost())
}
