package engine

import (
	"encoding/binary"
	"math/bits"
)

//go:generate go run gen_pairs.go

// score returns the score of guess g against s under o, and whether g is
// a member. If its score is sure to be above limit before every member is
// counted, it returns ok false instead.
func (sc *scratch) score(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	if !s.sliced {
		return sc.scorePacked(s, g, o, limit)
	}
	if s.words == 1 {
		return s.scoreWord(sc, g, o)
	}
	v := s.v
	P := v.P
	off := (*[16]uint8)(v.off[g*2*P:])
	sizes := &sc.sizes
	// sizes counts every (black, total) pair, the impossible one too;
	// k classes can hold codes.
	np, k := (P+1)*(P+2)/2, v.pairs
	clear(sizes[:np])
	rest := len(s.members)
	// The family bound of g's family, if it was the last, kept each
	// plane's sums over the family's first P−1 pegs: from them only the
	// last peg is added.
	var fam [][maxSliced + 1][6]uint64
	if sc.famSet == s && sc.famGen == s.gen &&
		bits.TrailingZeros64(binary.LittleEndian.Uint64(off[:8])^sc.famKey)>>3 >= P-1 {
		fam = sc.famPre[:min(s.words, famPlanes, len(sc.famPre))]
	}
	for w := 0; w < s.words; w++ {
		m := (*[planeWords]uint64)(s.masks[w*s.stride:])
		var b0, b1, b2, t0, t1, t2 uint64
		switch {
		case w == 0:
			b0, b1, b2, t0, t1, t2 = sc.first(s, m, off)
		case w < len(fam):
			p := &fam[w][(P-1)&7]
			b0, b1, b2 = add(p[0], p[1], p[2], m[off[(P-1)&15]])
			t0, t1, t2 = add(p[3], p[4], p[5], m[off[(2*P-1)&15]])
		default:
			for j := 0; j < P; j++ {
				b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
				t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
			}
		}
		if w == s.words-1 {
			// Past the last member every mask is empty: those codes
			// sum to 0 in all; mark them 7 black, a pair no class has.
			b0, b1, b2 = b0|^s.last, b1|^s.last, b2|^s.last
		}
		if (w+1)%o.checkEvery() != 0 && w != s.words-1 {
			// Counted, not scored: the check below only every few
			// planes (Objective.checkEvery).
			famCount(P, sizes, b0, b1, b2, t0, t1, t2, ^uint64(0))
			rest -= 64
			continue
		}
		var empty int
		score, empty = addScore(P, o, sizes, b0, b1, b2, t0, t1, t2)
		rest -= 64
		if rest <= 0 {
			continue
		}
		// Σ n·ln n's bound from the spread kept for the set: past
		// spreadTab, spread takes a logarithm.
		if o == SumNLogN && score+s.spreads[w] > limit || o != SumNLogN && o.bound(score, empty, rest, k) > limit {
			return 0, false, false
		}
	}
	return score, sizes[(np-1)&63] != 0, true
}

// scoreWord is score for a set of at most 64 members, one plane: the
// guess is scored in full, straight from the sums.
func (s *set) scoreWord(sc *scratch, g int, o Objective) (score int64, cons, ok bool) {
	P := s.v.P
	off := (*[16]uint8)(s.v.off[g*2*P:])
	m := (*[planeWords]uint64)(s.masks)
	b0, b1, b2, t0, t1, t2 := sc.first(s, m, off)
	// The codes past the last member sum to 0 in all: mark them 7 black,
	// a pair no class has.
	all := s.last
	score, cons = scoreOne(P, o, b0|^all, b1|^all, b2|^all, t0, t1, t2)
	return score, cons, true
}

// first returns the sums, in three bit slices each, of guess off's
// position masks and of its count masks over the first plane m of s.
// Guesses often come in ascending order, so a guess often shares its
// first pegs with the one before: the sums over those pegs are kept
// (sc.pre), and only the pegs after them are added. The lists a Sample
// scores (sc.mend) hold runs of the codes one peg away from one code,
// which differ from the guess before in one peg and few count masks:
// there the last guess's sums (sc.last) are mended instead wherever that
// costs less, its masks that differ taken out and the new ones added.
func (sc *scratch) first(s *set, m *[planeWords]uint64, off *[16]uint8) (b0, b1, b2, t0, t1, t2 uint64) {
	if sc.mend {
		return sc.mended(s, m, off)
	}
	P := s.v.P
	// The first bytes of off are the guess's pegs' position offsets: the
	// lowest byte that differs from the last guess's ends the pegs they
	// share.
	key := binary.LittleEndian.Uint64(off[:8])
	j := 0
	if sc.preSet == s && sc.preGen == s.gen {
		j = min(bits.TrailingZeros64(key^sc.preKey)>>3, P-1)
	}
	sc.preSet, sc.preGen, sc.preKey = s, s.gen, key
	return sc.prefix(P, j, m, off)
}

// prefix returns first's sums from those over the first j pegs.
func (sc *scratch) prefix(P, j int, m *[planeWords]uint64, off *[16]uint8) (b0, b1, b2, t0, t1, t2 uint64) {
	pre := &sc.pre
	p := &pre[j&7]
	b0, b1, b2, t0, t1, t2 = p[0], p[1], p[2], p[3], p[4], p[5]
	for ; j < P; j++ {
		b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
		t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
		if j < P-1 {
			pre[(j+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
		}
	}
	return
}

// mended is first for a Sample's lists: from the last guess's sums when few
// of its masks differ, else from the sums over the pegs shared with the
// guess of sc.pre.
func (sc *scratch) mended(s *set, m *[planeWords]uint64, off *[16]uint8) (b0, b1, b2, t0, t1, t2 uint64) {
	P := s.v.P
	key := binary.LittleEndian.Uint64(off[:8])
	// The guess's 2P offsets, in two words.
	lo, hi := key, binary.LittleEndian.Uint64(off[8:])&(1<<(8*(2*P-8)&63)-1)
	if P < 4 {
		lo &= 1<<(16*P) - 1
		hi = 0
	}
	j := 0
	if sc.preSet == s && sc.preGen == s.gen {
		j = min(bits.TrailingZeros64(key^sc.preKey)>>3, P-1)
	}
	dlo, dhi := lo^sc.lastOff[0], hi^sc.lastOff[1]
	// A mended mask costs about 5/4 of one added.
	if sc.lastSet == s && sc.lastGen == s.gen && j < P-1 && 5*(byteCount(dlo)+byteCount(dhi)) < 8*(P-j) {
		b0, b1, b2, t0, t1, t2 = sc.last[0], sc.last[1], sc.last[2], sc.last[3], sc.last[4], sc.last[5]
		// The offsets that differ, by index: below P, position masks.
		var at [16]uint8
		n := 0
		for i, d := range [2]uint64{dlo, dhi} {
			for d != 0 {
				k := bits.TrailingZeros64(d) &^ 7
				d &^= 0xff << k
				at[n&15] = uint8(8*i + k/8)
				n++
			}
		}
		// Out first, then in: a sum never passes 7 on the way.
		for _, i := range at[:n&15] {
			if x := m[uint8(sc.lastOff[i/8]>>(8*(i%8)))]; int(i) < P {
				b0, b1, b2 = sub(b0, b1, b2, x)
			} else {
				t0, t1, t2 = sub(t0, t1, t2, x)
			}
		}
		for _, i := range at[:n&15] {
			if x := m[off[i&15]]; int(i) < P {
				b0, b1, b2 = add(b0, b1, b2, x)
			} else {
				t0, t1, t2 = add(t0, t1, t2, x)
			}
		}
	} else {
		sc.preSet, sc.preGen, sc.preKey = s, s.gen, key
		b0, b1, b2, t0, t1, t2 = sc.prefix(P, j, m, off)
	}
	sc.last = [6]uint64{b0, b1, b2, t0, t1, t2}
	sc.lastOff = [2]uint64{lo, hi}
	sc.lastSet, sc.lastGen = s, s.gen
	return
}

// byteCount returns how many bytes of x are not 0.
func byteCount(x uint64) int {
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	return bits.OnesCount64(x & 0x0101010101010101)
}

// smallNLogN[n] is nlognTab[n] for the classes of one plane, read by an
// index the compiler needs no check for.
var smallNLogN [128]int64

// sub takes the bits of x, one a code, from the sums kept in three bit
// slices (s2 s1 s0); x is one of the masks added to them.
func sub(s0, s1, s2, x uint64) (uint64, uint64, uint64) {
	b0 := x &^ s0
	b1 := b0 &^ s1
	return s0 ^ x, s1 ^ b0, s2 ^ b1
}

// add adds the bits of x, one a code, to the sums kept in three bit
// slices (s2 s1 s0); no sum passes 7.
func add(s0, s1, s2, x uint64) (uint64, uint64, uint64) {
	c := s0 & x
	return s0 ^ x, s1 ^ c, s2 | s1&c
}
