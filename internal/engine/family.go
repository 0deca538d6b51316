package engine

import (
	"encoding/binary"
	"math"
	"math/bits"
)

//go:generate go run gen_family.go

// Guess families. The guesses that share all their pegs but the last, a
// family, lie side by side in the space's order (the first peg most
// significant): C of them, or C − P + 1 with distinct colours. Against a
// set of candidates, the first P − 1 pegs already split the candidates
// into classes by their sums over those pegs, (black, total), and the
// last peg adds to each candidate's sums a kind: one black or none, one
// in all or none. The scan bounds a family once, from its prefix's
// classes, and drops the guesses of it that the bound shows cannot score
// within the limit it gives them: the same guesses score() may drop for
// that limit (a guess's score is sure to be above it), so the choice is
// the same as the full scan's, ties and all.
//
// The bounds, each valid for every last peg, from the prefix's classes
// counted over every plane of the set (up to famPlanes):
//
//   - Entropy. A partition's Σ n·ln n is n·ln n less n times its entropy,
//     and the entropy of the final classes is at most that of the prefix's
//     classes plus that of the last peg's kinds, which depend on its
//     colour and on how many pegs of it the prefix holds (famReady). So a
//     guess scores at least Σ n·ln n of the prefix's classes, plus
//     Σ n·ln n of its last peg's kinds, less n·ln n. By Jensen, with
//     p = n/N, the largest class is at least exp(Σ n·ln n / N), and Σ n²
//     at least N times that (famThreshold): the bound serves knuth and
//     expected-size too.
//   - Class split. A class of the prefix whose sums are (b, t) ends in at
//     most K of the feedbacks (b, t), (b, t+1), (b+1, t+1) and (b+1, t)
//     that are feedbacks (b ≤ t ≤ P, not P − 1 black and P in all); the
//     last only if the last peg's colour is in the prefix, since with a
//     colour the prefix lacks a black peg is one more in all too. The
//     largest class is then at least ⌈s/K⌉ for each class of s codes,
//     and the parts at most Σ min(s, K), and at most the feedbacks the
//     classes reach. (Σ n²'s even split of each class into K dropped 1 %
//     more guesses than the entropy bound alone, at a third of the cost
//     of a family: left out.)
//   - Overlap. A class of s codes and a kind of the last peg met by k of
//     the N codes share at least s + k − N: the largest class is at least
//     that for the largest prefix class and the last peg's largest kind.
//
// Bounds shared by longer suffixes (the guesses that share their first
// P − 2 pegs, P − 3, …) were tried, and dropped: with up to nine kinds a
// peg pair they pruned almost nothing the last peg's did not. So was a
// check of each guess in score(): a dropped guess then still cost the
// call, where the scan now clears its bit.

// famPlanes is the most planes whose members the family bounds count,
// 262 144 members: the members past them are only spread
// (Objective.bound). A family's bound costs a pass over each plane, under
// a tenth of scoring its guesses; the first plane alone, with the rest
// spread, dropped almost nothing on sets of thousands.
const famPlanes = 1 << 12

// famReady readies s for the scan's family bounds under o. A peg's kind,
// for a member, is whether the member has the peg's colour there (one
// black more) and whether it has more pegs of that colour than the guess
// has before that peg (one more in all): the last peg's count mask. Over
// the members of the first famPlanes planes (famN of them), famKind[k]
// holds Σ n·ln n of the kinds less n·ln n (at most 0) for a last peg of
// count mask k, its colour and how many of it the pegs before hold, and
// famMost[k] the members of its largest kind. famShift is a margin for
// the rounding of the fixed point, at most half a unit a prime factor of
// each term, so under 10n in a sum of n < 2²⁰ codes, and there are four
// sums; and the least that the members past those planes add
// (Objective.bound).
func (s *set) famReady(o Objective) {
	v := s.v
	P, C := v.P, v.C
	F := min(s.words, famPlanes)
	var kinds [planeWords][3]int
	n := 0
	for w := range F {
		m := (*[planeWords]uint64)(s.masks[w*s.stride:])
		valid := ^uint64(0)
		if w == s.words-1 {
			valid = s.last
		}
		n += bits.OnesCount64(valid)
		if o == NegParts {
			continue
		}
		for x := 0; x < C; x++ {
			at := m[((P-1)*C+x)%planeWords] & valid
			for occ := 0; occ < P; occ++ {
				k := (v.S + x*P + occ) % planeWords
				more := m[k] & valid
				kinds[k][0] += bits.OnesCount64(at & more)
				kinds[k][1] += bits.OnesCount64(at &^ more)
				kinds[k][2] += bits.OnesCount64(more &^ at)
			}
		}
	}
	s.famN = n
	if o == NegParts {
		return
	}
	for x := 0; x < C; x++ {
		for occ := 0; occ < P; occ++ {
			k := (v.S + x*P + occ) % planeWords
			c := kinds[k]
			c3 := n - c[0] - c[1] - c[2]
			s.famKind[k] = nlogn(uint32(c[0])) + nlogn(uint32(c[1])) + nlogn(uint32(c[2])) +
				nlogn(uint32(c3)) - nlogn(uint32(n))
			s.famMost[k] = int32(max(c[0], c[1], c[2], c3))
		}
	}
	s.famShift = -64*int64(n) - 64
	if rest := len(s.members) - n; rest > 0 {
		s.famShift += spread(rest, v.pairs)
	}
}

// famThreshold returns the Σ n·ln n above which a partition of the N
// members of s scores above limit under o, the largest class or Σ n²,
// less a margin for the floating point: with p = n/N, the mean of ln n
// under p is Σ n·ln n / N, and by Jensen the largest class is at least
// the exponential of it, and Σ n² = N·Σ p·n at least N times it. It keeps
// the last answer for the next family.
func (sc *scratch) famThreshold(s *set, o Objective, limit int64) int64 {
	if sc.famThrSet == s && sc.famThrGen == s.gen && sc.famThrLimit == limit && sc.famThrObj == o {
		return sc.famThr
	}
	N := float64(len(s.members))
	x := float64(limit)
	if o == SumSquares {
		x /= N
	}
	thr := int64(math.MaxInt64)
	if x > 0 {
		t := N * math.Log(x) * (1 << 32)
		if t < 1<<62 && t > -1<<62 {
			thr = int64(t+math.Abs(t)*1e-12) + 1<<20
		}
	}
	sc.famThrSet, sc.famThrGen, sc.famThrLimit, sc.famThrObj, sc.famThr = s, s.gen, limit, o, thr
	return thr
}

// famCounts counts in sc.famCnt the members of the first famPlanes planes
// of s by their sums over the first P−1 pegs of the guess of offsets off,
// class by class in row order (black pegs, then the pegs in all). It keeps each plane's sums over those pegs
// (sc.famPre) for the next family, which shares most of them.
func (sc *scratch) famCounts(s *set, off *[16]uint8) *[64]int32 {
	P := s.v.P
	key := binary.LittleEndian.Uint64(off[:8])
	j := 0
	if sc.famSet == s && sc.famGen == s.gen {
		j = min(bits.TrailingZeros64(key^sc.famKey)>>3, P-1)
	}
	sc.famSet, sc.famGen, sc.famKey = s, s.gen, key
	F := min(s.words, famPlanes)
	if len(sc.famPre) < F {
		sc.famPre = make([][maxSliced + 1][6]uint64, F)
		j = 0
	}
	cnt := &sc.famCnt
	clear(cnt[:])
	for w := range F {
		m := (*[planeWords]uint64)(s.masks[w*s.stride:])
		pre := &sc.famPre[w]
		p := &pre[j&7]
		b0, b1, b2, t0, t1, t2 := p[0], p[1], p[2], p[3], p[4], p[5]
		for i := j; i < P-1; i++ {
			b0, b1, b2 = add(b0, b1, b2, m[off[i&15]])
			t0, t1, t2 = add(t0, t1, t2, m[off[(P+i)&15]])
			pre[(i+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
		}
		valid := ^uint64(0)
		if w == s.words-1 {
			valid = s.last
		}
		famCount(P-1, cnt, b0, b1, b2, t0, t1, t2, valid)
	}
	return cnt
}

// famSplit returns the class-split bounds under o, the largest class or the
// parts, of a set
// whose first planes' members, famN of them, fall into the prefix classes
// cnt: all for any last peg, unused for one of a colour the prefix lacks.
// The members past those planes only make the classes grow, and add at
// most a part each.
func (s *set) famSplit(o Objective, cnt *[64]int32) (all, unused int64) {
	all, unused = famSplitOf(s.v.P, o, cnt)
	rest := len(s.members) - s.famN
	if rest == 0 {
		return all, unused
	}
	if o == NegParts {
		p := -int64(s.v.pairs)
		return max(all-int64(rest), p), max(unused-int64(rest), p)
	}
	return o.bound(all, 0, rest, s.v.pairs), o.bound(unused, 0, rest, s.v.pairs)
}

// famSize returns the number of guesses of a family: the colours its last
// peg can take.
func (v *Variant) famSize() int {
	if v.rules.Distinct {
		return v.C - v.P + 1
	}
	return v.C
}

// famDrop returns the guesses of the family of guess g that cannot score
// within limit under o against s, as the bits of their places in the
// family (the last peg's colour, or with distinct colours its rank among
// those the prefix lacks).
func (sc *scratch) famDrop(s *set, g int, o Objective, limit int64) uint64 {
	v := s.v
	P, C := v.P, v.C
	off := (*[16]uint8)(v.off[g*2*P:])
	sc.famChecked++
	if o == SumNLogN && s.words == 1 {
		return sc.famDropEntropy(s, off, limit)
	}
	var cnt *[64]int32
	if s.words == 1 {
		cnt = sc.famCountsWord(s, off)
	} else {
		cnt = sc.famCounts(s, off)
	}
	// How many pegs of each colour the prefix holds: 4 bits a colour in
	// a register where they fit (prefixColours), else a byte each.
	packed, fits := uint64(0), C <= 16
	var occ [64]uint8
	if fits {
		packed = prefixColours(off, P, C)
	} else {
		for i := 0; i < P-1; i++ {
			occ[(int(off[i&15])-i*C)&63]++
		}
	}
	// The bounds of the guess of each colour x, by its count mask.
	var all, unused int64 = math.MinInt64, math.MinInt64
	if o == Largest || o == NegParts {
		all, unused = s.famSplit(o, cnt)
		if all > limit {
			return 1<<v.famSize() - 1
		}
	}
	var base, at, most int64
	if o != NegParts {
		at = limit
		if o != SumNLogN {
			at = sc.famThreshold(s, o, limit)
		}
		q, m := famNLogN(P, cnt)
		base = q + s.famShift
		most = int64(m) - int64(s.famN)
	}
	var drop uint64
	if !v.rules.Distinct && o == SumSquares {
		// The common case, written out: one bound a colour.
		for x := 0; x < C; x++ {
			n := int(occ[x])
			if fits {
				n = int(packed>>(4*uint(x))) & 15
			}
			// Without a branch: which colours go is data, and
			// mispredicted it cost more than the test.
			var out uint64
			if base+s.famKind[uint(v.S+x*P+n)%planeWords] > at {
				out = 1
			}
			drop |= out << x
		}
		return drop
	}
	rank := 0
	for x := 0; x < C; x++ {
		n := int(occ[x])
		if fits {
			n = int(packed>>(4*uint(x))) & 15
		}
		if v.rules.Distinct && n != 0 {
			continue
		}
		k := uint(v.S+x*P+n) % planeWords
		switch {
		case n == 0 && unused > limit,
			o != NegParts && base+s.famKind[k] > at,
			o == Largest && most+int64(s.famMost[k]) > limit:
			drop |= 1 << rank
		}
		rank++
	}
	return drop
}

// prefixColours returns how many of the first P−1 pegs of the guess of
// offsets off hold each colour, 4 bits a colour, colour 0 lowest; C, the
// colours, is at most 16.
func prefixColours(off *[16]uint8, P, C int) uint64 {
	var occ uint64
	for i := 0; i < P-1; i++ {
		occ += 1 << (4 * uint((int(off[i&15])-i*C)&15))
	}
	return occ
}

// famPrefix returns the sums of the first P−1 pegs of the guess of offsets
// off over the one plane of s, from those it shares with the guess before
// (sc.pre), and keeps them there for score to start from: famDropEntropy's
// opening, which keeps it written out.
func (sc *scratch) famPrefix(s *set, off *[16]uint8) (b0, b1, b2, t0, t1, t2 uint64) {
	P := s.v.P
	key := binary.LittleEndian.Uint64(off[:8])
	j := 0
	if sc.preSet == s && sc.preGen == s.gen {
		j = min(bits.TrailingZeros64(key^sc.preKey)>>3, P-1)
	}
	m := (*[planeWords]uint64)(s.masks)
	pre := &sc.pre
	p := &pre[j&7]
	b0, b1, b2, t0, t1, t2 = p[0], p[1], p[2], p[3], p[4], p[5]
	for ; j < P-1; j++ {
		b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
		t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
		pre[(j+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
	}
	sc.preSet, sc.preGen, sc.preKey = s, s.gen, key
	return
}

// famCountsWord is famCounts for a set of one plane, from famPrefix: the
// sums the family's guesses are then scored from.
func (sc *scratch) famCountsWord(s *set, off *[16]uint8) *[64]int32 {
	b0, b1, b2, t0, t1, t2 := sc.famPrefix(s, off)
	cnt := &sc.famCnt
	clear(cnt[:])
	famCount(s.v.P-1, cnt, b0, b1, b2, t0, t1, t2, s.last)
	return cnt
}

// famDropEntropy is famDrop under Σ n·ln n for a set of one plane: the
// prefix's sums are kept in sc.pre, for score to start from, and its
// classes scored straight from them.
func (sc *scratch) famDropEntropy(s *set, off *[16]uint8, limit int64) uint64 {
	v := s.v
	P, C := v.P, v.C
	key := binary.LittleEndian.Uint64(off[:8])
	j := 0
	if sc.preSet == s && sc.preGen == s.gen {
		j = min(bits.TrailingZeros64(key^sc.preKey)>>3, P-1)
	}
	m := (*[planeWords]uint64)(s.masks)
	pre := &sc.pre
	p := &pre[j&7]
	b0, b1, b2, t0, t1, t2 := p[0], p[1], p[2], p[3], p[4], p[5]
	for ; j < P-1; j++ {
		b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
		t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
		pre[(j+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
	}
	sc.preSet, sc.preGen, sc.preKey = s, s.gen, key
	base := famPrefixNLogN(P, b0, b1, b2, t0, t1, t2, s.last) + s.famShift
	var drop uint64
	if C <= 16 && !v.rules.Distinct {
		// The common case, written out: how many pegs of each colour
		// the prefix holds, 4 bits a colour in a register (counts in
		// an array of bytes stalled on their stores).
		occ := prefixColours(off, P, C)
		k := v.S
		for x := 0; x < C; x++ {
			var out uint64 // without a branch, as in famDrop
			if base+s.famKind[uint(k+int(occ&15))%planeWords] > limit {
				out = 1
			}
			drop |= out << x
			occ >>= 4
			k += P
		}
		return drop
	}
	var occ [64]uint8
	for i := 0; i < P-1; i++ {
		occ[(int(off[i&15])-i*C)&63]++
	}
	rank := 0
	for x := 0; x < C; x++ {
		if v.rules.Distinct && occ[x] != 0 {
			continue
		}
		if base+s.famKind[(v.S+x*P+int(occ[x]))%planeWords] > limit {
			drop |= 1 << rank
		}
		rank++
	}
	return drop
}
