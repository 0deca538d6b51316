package engine

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// slicedMin is the fewest candidates split with masks: below it, scoring a
// candidate at a time from packed codes costs less than a guess's fixed
// cost of summing masks.
const slicedMin = 12

// A Pick is a scored guess: its score, whether it is a candidate, and its
// space index. The zero Pick is no guess.
type Pick struct {
	OK    bool
	Cons  bool
	Score int64
	Index int
}

// Better reports whether a beats b: a lower score beyond the tolerance;
// on a tie a candidate beats a non-candidate, then the lower index wins.
func (a Pick) Better(b Pick, tol int64) bool {
	switch {
	case !b.OK:
		return a.OK
	case !a.OK:
		return false
	case a.Score < b.Score-tol:
		return true
	case a.Score > b.Score+tol:
		return false
	case a.Cons != b.Cons:
		return a.Cons
	}
	return a.Index < b.Index
}

// A set is a candidate set loaded for scoring: its members, and for
// sliced scoring the masks of each 64 of them.
type set struct {
	v       *Variant
	gen     uint64   // counts the loads, so that scratch knows its sums are stale
	members []uint32 // space indices, ascending
	sliced  bool
	words   int      // planes of masks
	stride  int      // words from one plane to the next, 2S
	masks   []uint64 // [w·stride + offset]
	last    uint64   // the members of the last plane
	// The members' packed codes side by side, for scoring a candidate at
	// a time.
	packed []uint64
}

// load makes s the set of members (ascending space indices).
func (s *set) load(v *Variant, members []uint32) {
	s.v, s.members = v, members
	s.gen++
	n := len(members)
	s.sliced = v.off != nil && n >= slicedMin
	if !s.sliced {
		w := 2 * v.words
		s.packed = s.packed[:0]
		for _, c := range members {
			s.packed = append(s.packed, v.pk[int(c)*w:(int(c)+1)*w]...)
		}
		return
	}
	W := (n + 63) / 64
	stride := 2 * v.S
	// The kernel reads each plane as planeWords words: the last one runs
	// into padding.
	size := (W-1)*stride + planeWords
	if cap(s.masks) < size {
		s.masks = make([]uint64, size)
	}
	s.words, s.stride = W, stride
	s.masks = s.masks[:size]
	clear(s.masks)
	s.last = ^uint64(0) >> (63 - uint(n-1)%64)
	P2 := 2 * v.P
	for j, c := range members {
		m := (*[planeWords]uint64)(s.masks[(j>>6)*stride:])
		bit := uint64(1) << (j & 63)
		for _, o := range v.off[int(c)*P2 : int(c)*P2+P2] {
			m[o] |= bit
		}
	}
}

// scratch is one worker's memory for scoring guesses.
type scratch struct {
	counts []uint32
	keys   []uint16
	sizes  [64]int32
	// pre[j] holds the sums over the first j pegs of the guess last
	// scored against preSet by scoreWord, whose offsets were preOff.
	pre    [maxSliced + 1][6]uint64
	preOff [16]uint8
	preSet *set
	preGen uint64
	// results holds a scan's best guess of each chunk.
	results []Pick
	// pairsAfter[b] is the number of feedbacks with more than b black
	// pegs, rowLen[b] the number with b.
	pairsAfter, rowLen [8]int
}

func (sc *scratch) ready(s *set) {
	P := s.v.P
	for b := range sc.pairsAfter {
		if b < P && P <= maxSliced {
			sc.pairsAfter[b] = len(s.v.pairs) - s.v.row[b+1]
			sc.rowLen[b] = s.v.row[b+1] - s.v.row[b]
		}
		if b == P {
			sc.rowLen[b] = 1
		}
	}
	if len(sc.counts) < s.v.keys {
		sc.counts = make([]uint32, s.v.keys)
	}
	if cap(sc.keys) < len(s.members) {
		sc.keys = make([]uint16, len(s.members))
	}
	sc.keys = sc.keys[:len(s.members)]
}

// score returns the score of guess g against s under o, and whether g is
// a member. If its score is sure to be above limit before every member is
// counted, it returns ok false instead.
func (sc *scratch) score(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	if !s.sliced {
		return sc.scorePacked(s, g, o, limit)
	}
	if s.words == 1 {
		return s.scoreWord(sc, g, o, limit)
	}
	v := s.v
	P := v.P
	off := (*[16]uint8)(v.off[g*2*P:])
	sizes := &sc.sizes
	// sizes counts every (black, total) pair, the impossible one too;
	// k classes can hold codes.
	np, k := (P+1)*(P+2)/2, len(v.pairs)
	clear(sizes[:np])
	rest := len(s.members)
	for w := 0; w < s.words; w++ {
		m := (*[planeWords]uint64)(s.masks[w*s.stride:])
		var b0, b1, b2, t0, t1, t2 uint64
		if w == 0 {
			b0, b1, b2, t0, t1, t2 = sc.first(s, m, off)
		} else {
			for j := 0; j < P; j++ {
				x := m[off[j&15]]
				c := b0 & x
				b0 ^= x
				d := b1 & c
				b1 ^= c
				b2 |= d
				y := m[off[(P+j)&15]]
				c = t0 & y
				t0 ^= y
				d = t1 & c
				t1 ^= c
				t2 |= d
			}
		}
		all := ^uint64(0)
		if w == s.words-1 {
			// Past the last member every mask is empty: mark those
			// codes 7 black, a row the pairs of 7 pegs alone reach,
			// and take them out of it.
			all = s.last
			b0, b1, b2 = b0|^all, b1|^all, b2|^all
		}
		eqB := ones(b0, b1, b2)
		eqT := ones(t0, t1, t2)
		eqB[7] &= all
		// Every (black, total) pair, row by row, in loops of fixed
		// length; the impossible one, P−1 black and P in all, stays
		// empty.
		i := 0
		for b := 0; b <= P; b++ {
			B := eqB[b&7]
			for t := b; t <= P; t++ {
				sizes[i&63] += int32(bits.OnesCount64(B & eqT[t&7]))
				i++
			}
		}
		rest -= 64
		// The bound after each of the first planes, then every fourth.
		if rest > 0 && (w < 4 || w&3 == 3) && o.bound(sizes[:np], rest, k) > limit {
			return 0, false, false
		}
	}
	return o.bound(sizes[:np], 0, k), sizes[(np-1)&63] != 0, true
}

// scoreWord is score for a set of at most 64 members, one plane: each
// class's size goes straight into the score.
func (s *set) scoreWord(sc *scratch, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	P := v.P
	off := (*[16]uint8)(v.off[g*2*P:])
	m := (*[planeWords]uint64)(s.masks)
	b0, b1, b2, t0, t1, t2 := sc.first(s, m, off)
	all := s.last
	b0, b1, b2 = b0|^all, b1|^all, b2|^all
	eqB := ones(b0, b1, b2)
	eqT := ones(t0, t1, t2)
	// The codes past the last member sum to 7 black and 0 in all; with 7
	// pegs, 7 black is also the win, so take them out of that row.
	eqB[7] &= all
	cons = eqB[P&7]&eqT[P&7] != 0
	// Every (black, total) pair, row by row, in loops of fixed length that
	// the processor predicts. The one impossible pair, P−1 black and P in
	// all, has no codes and adds nothing. After each row the score so far
	// bounds the whole, and a guess already above limit stops there.
	switch o {
	case Largest:
		for b := 0; b <= P; b++ {
			B := eqB[b&7]
			for t := b; t <= P; t++ {
				score = max(score, int64(bits.OnesCount64(B&eqT[t&7])))
			}
			if score > limit {
				return 0, false, false
			}
		}
	case SumSquares:
		rest := int64(len(s.members))
		for b := 0; b <= P; b++ {
			B := eqB[b&7]
			rest -= int64(bits.OnesCount64(B))
			for t := b; t <= P; t++ {
				c := int64(bits.OnesCount64(B & eqT[t&7]))
				score += c * c
			}
			if score+rest > limit {
				return 0, false, false
			}
		}
	case SumNLogN:
		tab := &terms[SumNLogN]
		for b := 0; b <= P; b++ {
			B := eqB[b&7]
			for t := b; t <= P; t++ {
				score += tab[bits.OnesCount64(B&eqT[t&7])&127]
			}
			if score > limit {
				return 0, false, false
			}
		}
	default:
		// Row b holds at most as many classes as members and as pairs:
		// the sum of those bounds the parts before any pair is looked at.
		var size [8]int64
		ub := int64(0)
		for b := 0; b <= P; b++ {
			size[b&7] = int64(bits.OnesCount64(eqB[b&7]))
			ub += min(size[b&7], int64(sc.rowLen[b&7]))
		}
		if -ub > limit {
			return 0, false, false
		}
		// The rows after b can add at most one class a member, and at
		// most one a pair.
		rest := int64(len(s.members))
		for b := 0; b <= P; b++ {
			B := eqB[b&7]
			rest -= size[b&7]
			for t := b; t <= P; t++ {
				if B&eqT[t&7] != 0 {
					score--
				}
			}
			if score-min(rest, int64(sc.pairsAfter[b&7])) > limit {
				return 0, false, false
			}
		}
	}
	return score, cons, true
}

// first returns the sums, in three bit slices each, of guess off's
// position masks and of its count masks over the first plane m of s.
// Guesses come in ascending order, so a guess often shares its first pegs
// with the one before: the sums over those pegs are kept (sc.pre), and
// only the pegs after them are added.
func (sc *scratch) first(s *set, m *[planeWords]uint64, off *[16]uint8) (b0, b1, b2, t0, t1, t2 uint64) {
	P := s.v.P
	j := 0
	if sc.preSet == s && sc.preGen == s.gen {
		for j < P-1 && off[j&15] == sc.preOff[j&15] {
			j++
		}
	}
	sc.preSet, sc.preGen = s, s.gen
	pre := &sc.pre
	p := &pre[j&7]
	b0, b1, b2, t0, t1, t2 = p[0], p[1], p[2], p[3], p[4], p[5]
	for ; j < P; j++ {
		x := m[off[j&15]]
		c := b0 & x
		b0 ^= x
		d := b1 & c
		b1 ^= c
		b2 |= d
		y := m[off[(P+j)&15]]
		c = t0 & y
		t0 ^= y
		d = t1 & c
		t1 ^= c
		t2 |= d
		if j < P-1 {
			sc.preOff[j&15] = off[j&15]
			pre[(j+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
		}
	}
	return
}

// terms[o][n] is the term of a class of n codes under the summing
// objective o, for classes of one plane.
var terms [4][128]int64

// ones returns, for each x from 0 to 7, the bits whose three-bit sum
// (s2 s1 s0) is x.
func ones(s0, s1, s2 uint64) [8]uint64 {
	n0, n1, n2 := ^s0, ^s1, ^s2
	l0, l1, l2, l3 := n0&n1, s0&n1, n0&s1, s0&s1
	return [8]uint64{l0 & n2, l1 & n2, l2 & n2, l3 & n2, l0 & s2, l1 & s2, l2 & s2, l3 & s2}
}

// scorePacked is score a candidate at a time, with the score kept as the
// candidates are counted, so that a guess sure to score above limit stops
// early.
func (sc *scratch) scorePacked(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	keys := sc.keys[:n]
	counts := sc.counts
	if v.words == 1 && v.keys <= 64 && n < 128 {
		return s.scoreSmall(g, o, limit)
	}
	if v.words == 1 && n < len(nlognTab) {
		return sc.scorePacked1(s, g, o, limit)
	}
	v.KeysOf(g, s.members, keys)
	for _, k := range keys {
		c := counts[k]
		counts[k] = c + 1
		switch o {
		case Largest:
			score = max(score, int64(c+1))
		case NegParts:
			if c == 0 {
				score--
			}
		default:
			score += o.term(c+1) - o.term(c)
		}
	}
	cons = counts[v.win2] != 0
	for _, k := range keys {
		counts[k] = 0
	}
	return score, cons, true
}

// scoreSmall is scorePacked for codes of one word, keys below 64 and
// fewer than 128 members: the counts live on the stack, indexed without
// checks, and most-parts needs only the set of keys met, in a register.
func (s *set) scoreSmall(g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	gp, gu := v.pk[2*g], v.pk[2*g+1]
	sh := v.shift & 7
	data := s.packed[:2*n]
	win := uint(v.win2) & 63
	if o == NegParts {
		// Each member that joins a class already met costs a part for
		// good: the guess is beaten once n less those exceeds the best.
		var seen uint64
		most := -int64(n)
		for j := 0; j < n; j++ {
			k := uint(bits.OnesCount64(gp&data[2*j])<<sh|bits.OnesCount64(gu&data[2*j+1])) & 63
			bit := uint64(1) << k
			if seen&bit != 0 {
				if most++; most > limit {
					return 0, false, false
				}
			}
			seen |= bit
		}
		return -int64(bits.OnesCount64(seen)), seen&(1<<win) != 0, true
	}
	var counts [64]uint8
	switch o {
	case Largest:
		for j := 0; j < n; j++ {
			k := uint(bits.OnesCount64(gp&data[2*j])<<sh|bits.OnesCount64(gu&data[2*j+1])) & 63
			c := counts[k] + 1
			counts[k] = c
			score = max(score, int64(c))
			if score > limit {
				return 0, false, false
			}
		}
	case SumSquares:
		for j := 0; j < n; j++ {
			k := uint(bits.OnesCount64(gp&data[2*j])<<sh|bits.OnesCount64(gu&data[2*j+1])) & 63
			c := counts[k]
			counts[k] = c + 1
			score += 2*int64(c) + 1
			if score+int64(n-1-j) > limit {
				return 0, false, false
			}
		}
	default:
		t := &terms[SumNLogN]
		for j := 0; j < n; j++ {
			k := uint(bits.OnesCount64(gp&data[2*j])<<sh|bits.OnesCount64(gu&data[2*j+1])) & 63
			c := counts[k]
			counts[k] = c + 1
			score += t[(c+1)&127] - t[c&127]
			if score > limit {
				return 0, false, false
			}
		}
	}
	return score, counts[win] != 0, true
}

// scorePacked1 is scorePacked for codes of one word and fewer members
// than nlognTab holds, with the key, the count and the score of each
// member in one pass.
func (sc *scratch) scorePacked1(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	keys := sc.keys[:n]
	counts := sc.counts[:v.keys]
	gp, gu := v.pk[2*g], v.pk[2*g+1]
	sh := v.shift & 15
	data := s.packed[:2*n]
	done := n
	ok = true
	switch o {
	case Largest:
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k] + 1
			counts[k] = c
			score = max(score, int64(c))
			if score > limit {
				done, ok = j+1, false
				break
			}
		}
	case SumSquares:
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			score += 2*int64(c) + 1
			if score+int64(n-1-j) > limit {
				done, ok = j+1, false
				break
			}
		}
	case SumNLogN:
		t := nlognTab[:n+1]
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			score += t[c+1] - t[c]
			if score > limit {
				done, ok = j+1, false
				break
			}
		}
	case NegParts:
		// Each member that joins a class already met costs a part for
		// good: the guess is beaten once n less those exceeds the best.
		most := -int64(n)
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			if c == 0 {
				score--
			} else if most++; most > limit {
				done, ok = j+1, false
				break
			}
		}
	}
	cons = counts[v.win2] != 0
	for _, k := range keys[:done] {
		counts[k] = 0
	}
	return score, cons, ok
}

// scanChunk is the number of guesses one worker scores at a time. Chunks
// are fixed, not tied to the number of workers, so the choice never
// depends on how many cores there are.
const scanChunk = 64

// parallelCost is the work (guesses times candidates) below which a scan
// runs on one goroutine.
const parallelCost = 1 << 18

// Scan scores every guess of pool (ascending space indices; nil for every
// code of the space) against s and returns the best Pick under o. If
// canStop, the first guess that scores stopAt ends the scan. With workers
// above 1 a large scan is shared among that many goroutines. It returns
// ctx.Err() soon after ctx is done.
func (s *set) scan(ctx context.Context, pool []int32, o Objective, stopAt int64, canStop bool, workers int, sc *scratch) (Pick, error) {
	L := len(pool)
	if pool == nil {
		L = s.v.sp.Len()
	}
	chunks := (L + scanChunk - 1) / scanChunk
	if L*len(s.members) < parallelCost || chunks < 2 {
		workers = 1
	}
	var results []Pick
	var next, stop atomic.Int64
	stop.Store(int64(chunks))
	var best atomic.Int64 // the lowest score of any guess scored in full
	best.Store(math.MaxInt64)
	if n := len(s.members); n*8 <= L {
		// Any code's score bounds the best: the members', cheap to
		// find, let the scan drop most guesses from the start.
		sc.ready(s)
		for _, c := range s.members {
			if score, _, ok := sc.score(s, int(c), o, math.MaxInt64); ok {
				best.Store(min(best.Load(), score))
			}
		}
	}
	margin := 4 * o.Tol()
	tol := o.Tol()
	if cap(sc.results) < chunks {
		sc.results = make([]Pick, chunks)
	}
	results = sc.results[:chunks]
	clear(results)
	work := func(sc *scratch) {
		sc.ready(s)
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks || int64(c) > stop.Load() || ctx.Err() != nil {
				return
			}
			var top Pick
			low := best.Load() // the lowest score known
			for j := c * scanChunk; j < min(L, (c+1)*scanChunk); j++ {
				g := j
				if pool != nil {
					g = int(pool[j])
				}
				limit := int64(math.MaxInt64)
				if low != math.MaxInt64 {
					limit = low + margin
				}
				score, cons, ok := sc.score(s, g, o, limit)
				if !ok {
					continue
				}
				p := Pick{OK: true, Cons: cons, Score: score, Index: g}
				if p.Better(top, tol) {
					top = p
				}
				low = min(low, score)
				if canStop && score == stopAt {
					for {
						old := stop.Load()
						if old <= int64(c) || stop.CompareAndSwap(old, int64(c)) {
							break
						}
					}
					break
				}
			}
			results[c] = top
			for {
				old := best.Load()
				if low >= old || best.CompareAndSwap(old, low) {
					break
				}
			}
		}
	}
	if workers <= 1 {
		work(sc)
	} else {
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Go(func() { work(&scratch{}) })
		}
		work(sc)
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return Pick{}, err
	}
	var top Pick
	for _, p := range results[:min(chunks, int(stop.Load())+1)] {
		if p.Better(top, tol) {
			top = p
		}
	}
	return top, nil
}

// Workers returns the number of goroutines a scan may use by default.
func Workers() int { return runtime.GOMAXPROCS(0) }
