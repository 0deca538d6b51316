package engine

import (
	"math/bits"
)

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
	np, k := (P+1)*(P+2)/2, v.pairs
	clear(sizes[:np])
	rest := len(s.members)
	for w := 0; w < s.words; w++ {
		m := (*[planeWords]uint64)(s.masks[w*s.stride:])
		var b0, b1, b2, t0, t1, t2 uint64
		if w == 0 {
			b0, b1, b2, t0, t1, t2 = sc.first(s, m, off)
		} else {
			for j := 0; j < P; j++ {
				b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
				t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
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
		tab := &smallNLogN
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
		b0, b1, b2 = add(b0, b1, b2, m[off[j&15]])
		t0, t1, t2 = add(t0, t1, t2, m[off[(P+j)&15]])
		if j < P-1 {
			sc.preOff[j&15] = off[j&15]
			pre[(j+1)&7] = [6]uint64{b0, b1, b2, t0, t1, t2}
		}
	}
	return
}

// smallNLogN[n] is nlognTab[n] for the classes of one plane, read by an
// index the compiler needs no check for.
var smallNLogN [128]int64

// add adds the bits of x, one a code, to the sums kept in three bit
// slices (s2 s1 s0); no sum passes 7.
func add(s0, s1, s2, x uint64) (uint64, uint64, uint64) {
	c := s0 & x
	return s0 ^ x, s1 ^ c, s2 | s1&c
}

// ones returns, for each x from 0 to 7, the bits whose three-bit sum
// (s2 s1 s0) is x.
func ones(s0, s1, s2 uint64) [8]uint64 {
	n0, n1, n2 := ^s0, ^s1, ^s2
	l0, l1, l2, l3 := n0&n1, s0&n1, n0&s1, s0&s1
	return [8]uint64{l0 & n2, l1 & n2, l2 & n2, l3 & n2, l0 & s2, l1 & s2, l2 & s2, l3 & s2}
}
