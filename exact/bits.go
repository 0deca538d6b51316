package exact

import "math/bits"

// Sets of at most maxBits codes are split by bit-parallel arithmetic instead
// of a table lookup per code: for the set, one mask per (position, colour)
// holds the codes with that colour there, and one mask per (colour, t) the
// codes with at least t pegs of that colour. A guess's black pegs against
// every code at once are the sum of p position masks, its black and white
// pegs together the sum of p count masks (for each colour of the guess with
// m pegs, the masks for t = 1…m: min(m, m') is the number of t ≤ m with
// t ≤ m'), each sum kept as three bit-sliced words. A class is the codes
// whose two sums take given values, and its size a popcount. A set of more
// than 64 codes takes several words per mask.

// maxBits is the largest set split with masks.
const maxBits = 256

// maxSlicedPegs is the most pegs whose sums fit three bit slices.
const maxSlicedPegs = 7

// masks is the bit-parallel form of one set, a plane of words per 64
// codes.
type masks struct {
	words  int      // planes
	stride int      // words per plane, at least 256
	pos    []uint64 // [w·stride + i·c + k]: codes with colour k at position i
	cnt    []uint64 // [w·stride + k·p + t − 1]: codes with at least t pegs of colour k
	last   uint64   // the codes of the last plane
}

// sliced reports whether sets of the problem can be split with masks.
func (p *problem) sliced() bool { return p.gpos != nil }

// load fills m with the masks of set, which has at most maxBits codes.
func (p *problem) load(m *masks, set []uint16) {
	P, C := p.rules.Pegs, p.rules.Colors
	W := (len(set) + 63) / 64
	S := max(256, P*C)
	if cap(m.pos) < S*W {
		// Planes of at least 256 words, read as arrays by bounds4.
		m.pos = make([]uint64, S*(maxBits/64))
		m.cnt = make([]uint64, S*(maxBits/64))
	}
	m.words, m.stride = W, S
	m.pos, m.cnt = m.pos[:S*W], m.cnt[:S*W]
	clear(m.pos)
	clear(m.cnt)
	m.last = ^uint64(0) >> (63 - uint(len(set)-1)%64)
	var seen [64]int
	for j, c := range set {
		plane, bit := (j>>6)*S, uint64(1)<<(j&63)
		pegs := p.pegsOf[int(c)*P : int(c)*P+P]
		clear(seen[:C])
		for i, k := range pegs {
			m.pos[plane+i*C+int(k)] |= bit
			seen[k]++
			m.cnt[plane+int(k)*P+seen[k]-1] |= bit
		}
	}
}

// split returns the fill bound of the split of the set loaded in m (of n
// codes) by guess g — n plus the least cost of each class but the win's —
// and the size of its largest class other than the win's. If counts is not
// nil it also writes there how many codes give each feedback but the win.
// It has no branch that depends on the data.
func (p *problem) split(m *masks, g int32, n int32, counts *[256]uint16) (total, most int32) {
	P, W, S := p.rules.Pegs, m.words, m.stride
	gp := p.gpos[int(g)*P : int(g)*P+P]
	gc := p.gcnt[int(g)*P : int(g)*P+P]
	var sizes [64]int32
	for w := range W {
		var b0, b1, b2, t0, t1, t2 uint64
		for j := range gp {
			x := m.pos[w*S+int(gp[j])]
			c0 := b0 & x
			b0 ^= x
			c1 := b1 & c0
			b1 ^= c0
			b2 |= c1
			y := m.cnt[w*S+int(gc[j])]
			d0 := t0 & y
			t0 ^= y
			d1 := t1 & d0
			t1 ^= d0
			t2 |= d1
		}
		all := ^uint64(0)
		if w == W-1 {
			all = m.last
		}
		var eqB, eqT [maxSlicedPegs + 1]uint64
		for v := 0; v <= P; v++ {
			eqB[v] = pick(b0, b1, b2, v) & all
			eqT[v] = pick(t0, t1, t2, v)
		}
		for i, c := range p.pairs {
			sizes[i&63] += int32(bits.OnesCount64(eqB[c.b&7] & eqT[c.t&7]))
		}
	}
	total = n
	for i, c := range p.pairs {
		size := sizes[i&63]
		total += p.fill[size]
		most = max(most, size)
		if counts != nil {
			counts[c.f] = uint16(size)
		}
	}
	return total, most
}

// pick returns the codes whose three-bit sum (s2 s1 s0) equals v.
func pick(s0, s1, s2 uint64, v int) uint64 {
	m0, m1, m2 := -uint64(v&1), -uint64(v>>1&1), -uint64(v>>2&1)
	return ^(s0 ^ m0) & ^(s1 ^ m1) & ^(s2 ^ m2)
}

// sum4 adds four masks into three bit slices.
func sum4(x1, x2, x3, x4 uint64) (s0, s1, s2 uint64) {
	a, ab := x1^x2, x1&x2
	c, cd := x3^x4, x3&x4
	s0 = a ^ c
	ac := a & c
	// At most two of the carries ab, cd, ac are set, and ab and cd
	// when both are.
	return s0, ab ^ cd ^ ac, ab & cd
}

// bounds4w is bounds4 for sets of more than 64 codes, a plane at a time.
func (p *problem) bounds4w(m *masks, pool []int32, n int32, out []int32) {
	W, S := m.words, m.stride
	gidx := p.gidx
	f := p.fill
	out = out[:len(pool)]
	for j, g := range pool {
		k := gidx[g]
		var s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12 int32
		for w := range W {
			pos := (*[256]uint64)(m.pos[w*S : w*S+256])
			cnt := (*[256]uint64)(m.cnt[w*S : w*S+256])
			b0, b1, b2 := sum4(pos[uint8(k)], pos[uint8(k>>8)], pos[uint8(k>>16)], pos[uint8(k>>24)])
			t0, t1, t2 := sum4(cnt[uint8(k>>32)], cnt[uint8(k>>40)], cnt[uint8(k>>48)], cnt[uint8(k>>56)])
			all := ^uint64(0)
			if w == W-1 {
				all = m.last
			}
			T1, T2, T3 := t0&^t1, t1&^t0, t0&t1
			B := all &^ (b0 | b1 | b2)
			s0 += cnt32(B &^ (t0 | t1 | t2))
			s1 += cnt32(B & T1)
			s2 += cnt32(B & T2)
			s3 += cnt32(B & T3)
			s4 += cnt32(B & t2)
			B = b0 &^ b1
			s5 += cnt32(B & T1)
			s6 += cnt32(B & T2)
			s7 += cnt32(B & T3)
			s8 += cnt32(B & t2)
			B = b1 &^ b0
			s9 += cnt32(B & T2)
			s10 += cnt32(B & T3)
			s11 += cnt32(B & t2)
			s12 += cnt32(b0 & b1 & T3)
		}
		out[j] = n + f[s0] + f[s1] + f[s2] + f[s3] + f[s4] + f[s5] + f[s6] +
			f[s7] + f[s8] + f[s9] + f[s10] + f[s11] + f[s12]
	}
}

// nz is 1 if x has a bit set, else 0.
func nz(x uint64) int32 { return int32((x | -x) >> 63) }

// pc is the number of bits set in x, as an index into a fill64 table.
// (A sum of four has only its top slice set, so the black values are
// 0 = no slice, 1 = s0 alone, 2 = s1 alone, 3 = both, 4 = s2.)
func pc(x uint64) uint8 { return uint8(bits.OnesCount64(x)) & 127 }

func cnt32(x uint64) int32 { return int32(bits.OnesCount64(x)) }

// bounds4 writes into out[i] the bound of split for guess pool[i], for
// four pegs and a set of at most 64 codes loaded in m: the hot loop of the
// search for sets too large for boundsSmall, kept apart and free of bounds
// checks so that it runs in registers. The black sums are walked one value
// at a time, so that few masks are live at once.
func (p *problem) bounds4(m *masks, pool []int32, n int32, out []int32) {
	pos := (*[256]uint64)(m.pos[:256])
	cnt := (*[256]uint64)(m.cnt[:256])
	gidx := p.gidx
	all := m.last
	out = out[:len(pool)]
	f := p.fill64
	for i, g := range pool {
		k := gidx[g]
		b0, b1, b2 := sum4(pos[uint8(k)], pos[uint8(k>>8)], pos[uint8(k>>16)], pos[uint8(k>>24)])
		t0, t1, t2 := sum4(cnt[uint8(k>>32)], cnt[uint8(k>>40)], cnt[uint8(k>>48)], cnt[uint8(k>>56)])
		T1, T2, T3 := t0&^t1, t1&^t0, t0&t1
		B := all &^ (b0 | b1 | b2)
		c := n + f[pc(B&^(t0|t1|t2))] + f[pc(B&T1)] + f[pc(B&T2)] + f[pc(B&T3)] + f[pc(B&t2)]
		B = b0 &^ b1
		c += f[pc(B&T1)] + f[pc(B&T2)] + f[pc(B&T3)] + f[pc(B&t2)]
		B = b1 &^ b0
		c += f[pc(B&T2)] + f[pc(B&T3)] + f[pc(B&t2)] + f[pc(b0&b1&T3)]
		out[i] = c
	}
}

// boundsSmall writes into out[j] the bound of guess pool[j] for a set of
// at most b+1 codes, where the least cost of a class of s codes is 2s − 1:
// n plus twice the codes outside the win's class less the number of
// classes. It reads the table by candidate, one forward pass over the
// pool's feedbacks against each code of the set, and only notes in seen[j]
// which feedbacks guess j receives, so no count waits on another.
func (p *problem) boundsSmall(set []uint16, pool []int32, out []int32, seen []uint64) {
	seen = seen[:len(pool)]
	clear(seen)
	// Four codes a pass, so that each guess's mask is loaded and stored
	// once for four lookups.
	i := 0
	for ; i+4 <= len(set); i += 4 {
		c0, c1, c2, c3 := p.col(set[i]), p.col(set[i+1]), p.col(set[i+2]), p.col(set[i+3])
		for j, g := range pool {
			seen[j] |= 1<<(c0[g]&63) | 1<<(c1[g]&63) | 1<<(c2[g]&63) | 1<<(c3[g]&63)
		}
	}
	for _, c := range set[i:] {
		col := p.col(c)
		for j, g := range pool {
			seen[j] |= 1 << (col[g] & 63)
		}
	}
	n := int32(len(set))
	three := 3 * n
	winBit := uint64(1) << (p.win & 63)
	out = out[:len(pool)]
	for j, s := range seen {
		out[j] = three - 2*nz(s&winBit) - int32(bits.OnesCount64(s&^winBit))
	}
}

// perfectSplit returns the first guess of pool that splits set, of at
// most b+1 codes, into single codes (a feedback each), or -1; fr's seen and
// alive are its scratch. It scores the pool against the first four codes,
// then against each next code only the guesses that have not yet given
// two codes one feedback: few are left after a handful of codes.
func (p *problem) perfectSplit(set []uint16, pool []int32, fr *frame) int32 {
	if cap(fr.seen) < len(pool) {
		fr.seen = make([]uint64, len(pool))
	}
	if cap(fr.alive) < len(pool) {
		fr.alive = make([]int32, len(pool))
	}
	seen, alive := fr.seen[:0], fr.alive[:0]
	k := min(4, len(set))
	var cs [4][]uint8
	for i := range 4 {
		cs[i] = p.col(set[min(i, k-1)])
	}
	c0, c1, c2, c3 := cs[0], cs[1], cs[2], cs[3]
	for j, g := range pool {
		s := uint64(1)<<(c0[g]&63) | 1<<(c1[g]&63) | 1<<(c2[g]&63) | 1<<(c3[g]&63)
		if bits.OnesCount64(s) == k {
			seen = append(seen, s)
			alive = append(alive, int32(j))
		}
	}
	for _, c := range set[k:] {
		col := p.col(c)
		m := 0
		for x, j := range alive {
			b := uint64(1) << (col[pool[j]] & 63)
			if seen[x]&b == 0 {
				seen[m], alive[m] = seen[x]|b, j
				m++
			}
		}
		if m == 0 {
			return -1
		}
		seen, alive = seen[:m], alive[:m]
	}
	if len(alive) == 0 {
		return -1
	}
	return pool[alive[0]]
}

// boundsCounts writes into out[j] the bound of guess pool[j] for any set,
// counting, a candidate at a time, the codes that give each feedback to
// each guess of the pool; counts is scratch memory of len(pool) times the
// number of feedbacks.
func (p *problem) boundsCounts(set []uint16, pool []int32, out []int32, counts []uint16) {
	nf := len(p.fbs)
	counts = counts[:len(pool)*nf]
	clear(counts)
	for _, c := range set {
		col := p.col(c)
		k := 0
		for _, g := range pool {
			counts[k+int(col[g])]++
			k += nf
		}
	}
	n := int32(len(set))
	win := int(p.win)
	out = out[:len(pool)]
	for j := range pool {
		t := n
		for f, m := range counts[j*nf : j*nf+nf] {
			if f != win {
				t += p.fill[m]
			}
		}
		out[j] = t
	}
}
