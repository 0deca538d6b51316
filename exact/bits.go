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

// masks is the bit-parallel form of one set.
type masks struct {
	words int      // words per mask
	pos   []uint64 // [(i·c + k)·words + w]: codes with colour k at position i
	cnt   []uint64 // [(k·p + t − 1)·words + w]: codes with at least t pegs of colour k
	last  uint64   // the codes of the last word
}

// sliced reports whether sets of the problem can be split with masks.
func (p *problem) sliced() bool { return p.pegsOf != nil }

// slicesFor precomputes, for every code of the space, the mask indices a
// guess reads: gpos[g·p + i] = i·c + g[i], and gcnt[g·p + j] the count
// masks of its colours; the pegs of every column; and the feedbacks as
// (black, black + white) pairs.
func (p *problem) slicesFor() {
	r := p.rules
	P, C := r.Pegs, r.Colors
	if P > maxSlicedPegs || C > 64 {
		return
	}
	N := p.sp.Len()
	p.gpos = make([]uint16, N*P)
	p.gcnt = make([]uint16, N*P)
	var seen [64]int
	for g := range N {
		code := p.sp.Code(g)
		clear(seen[:C])
		for i := range P {
			k := code.Peg(i)
			p.gpos[g*P+i] = uint16(i*C + k)
			seen[k]++
			p.gcnt[g*P+i] = uint16(k*P + seen[k] - 1)
		}
	}
	if P == 4 && P*C <= 256 {
		p.gidx = make([]uint64, N)
		for g := range N {
			var x uint64
			for i := range 4 {
				x |= uint64(p.gpos[g*4+i]) << (8 * i)
				x |= uint64(p.gcnt[g*4+i]) << (32 + 8*i)
			}
			p.gidx[g] = x
		}
	}
	p.pegsOf = make([]uint8, p.stride*P)
	for c := range p.stride {
		code := p.sp.Code(int(p.cols[c]))
		for i := range P {
			p.pegsOf[c*P+i] = uint8(code.Peg(i))
		}
	}
	for f, fb := range p.fbs {
		if uint8(f) != p.win {
			p.pairs = append(p.pairs, classPair{b: uint8(fb.Black), t: uint8(fb.Black + fb.White), f: uint8(f)})
		}
	}
}

// classPair is a feedback other than the win as (black, black + white).
type classPair struct{ b, t, f uint8 }

// load fills m with the masks of set, which has at most maxBits codes.
func (p *problem) load(m *masks, set []uint16) {
	P, C := p.rules.Pegs, p.rules.Colors
	W := (len(set) + 63) / 64
	if cap(m.pos) < P*C*W {
		// At least 256 words, read as arrays by bounds4.
		m.pos = make([]uint64, max(256, P*C*(maxBits/64)))
		m.cnt = make([]uint64, max(256, C*P*(maxBits/64)))
	}
	m.words = W
	m.pos, m.cnt = m.pos[:P*C*W], m.cnt[:C*P*W]
	clear(m.pos)
	clear(m.cnt)
	m.last = ^uint64(0) >> (63 - uint(len(set)-1)%64)
	var seen [64]int
	for j, c := range set {
		w, bit := j>>6, uint64(1)<<(j&63)
		pegs := p.pegsOf[int(c)*P : int(c)*P+P]
		clear(seen[:C])
		for i, k := range pegs {
			m.pos[(i*C+int(k))*W+w] |= bit
			seen[k]++
			m.cnt[(int(k)*P+seen[k]-1)*W+w] |= bit
		}
	}
}

// split returns the fill bound of the split of the set loaded in m (of n
// codes) by guess g — n plus the least cost of each class but the win's —
// and the size of its largest class other than the win's. If counts is not
// nil it also writes there how many codes give each feedback but the win.
// It has no branch that depends on the data.
func (p *problem) split(m *masks, g int32, n int32, counts *[256]uint16) (total, most int32) {
	P, W := p.rules.Pegs, m.words
	gp := p.gpos[int(g)*P : int(g)*P+P]
	gc := p.gcnt[int(g)*P : int(g)*P+P]
	var sizes [64]int32
	for w := range W {
		var b0, b1, b2, t0, t1, t2 uint64
		for j := range gp {
			x := m.pos[int(gp[j])*W+w]
			c0 := b0 & x
			b0 ^= x
			c1 := b1 & c0
			b1 ^= c0
			b2 |= c1
			y := m.cnt[int(gc[j])*W+w]
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

// bound4 is the bound of split for four pegs, without the rest. small
// says that n is at most b+1, where the least cost of a class of s codes
// is 2s−1 and the bound needs only the number of classes.
func (p *problem) bound4(m *masks, g int32, n int32, small bool) int32 {
	gp := p.gpos[int(g)*4 : int(g)*4+4 : int(g)*4+4]
	gc := p.gcnt[int(g)*4 : int(g)*4+4 : int(g)*4+4]
	if m.words > 1 {
		return p.bound4w(m, gp, gc, n)
	}
	pos, cnt := m.pos, m.cnt
	b0, b1, b2 := sum4(pos[gp[0]], pos[gp[1]], pos[gp[2]], pos[gp[3]])
	t0, t1, t2 := sum4(cnt[gc[0]], cnt[gc[1]], cnt[gc[2]], cnt[gc[3]])
	all := m.last
	// A sum of 4 has only its top slice set.
	B0, B1, B2, B3, B4 := all&^(b0|b1|b2), b0&^b1, b1&^b0, b0&b1, b2
	T0, T1, T2, T3, T4 := all&^(t0|t1|t2), t0&^t1, t1&^t0, t0&t1, t2
	if small {
		// n + Σ (2s − 1) over the classes but the win's.
		k := nz(B0&T0) + nz(B0&T1) + nz(B0&T2) + nz(B0&T3) + nz(B0&T4) +
			nz(B1&T1) + nz(B1&T2) + nz(B1&T3) + nz(B1&T4) +
			nz(B2&T2) + nz(B2&T3) + nz(B2&T4) + nz(B3&T3)
		return 3*n - 2*nz(B4) - k
	}
	f := p.fill64
	return n + f[pc(B0&T0)] + f[pc(B0&T1)] + f[pc(B0&T2)] + f[pc(B0&T3)] + f[pc(B0&T4)] +
		f[pc(B1&T1)] + f[pc(B1&T2)] + f[pc(B1&T3)] + f[pc(B1&T4)] +
		f[pc(B2&T2)] + f[pc(B2&T3)] + f[pc(B2&T4)] + f[pc(B3&T3)]
}

// bound4w is bound4 for sets of more than 64 codes.
func (p *problem) bound4w(m *masks, gp, gc []uint16, n int32) int32 {
	W := m.words
	pos, cnt := m.pos, m.cnt
	var s [13]int32
	for w := range W {
		b0, b1, b2 := sum4(pos[int(gp[0])*W+w], pos[int(gp[1])*W+w], pos[int(gp[2])*W+w], pos[int(gp[3])*W+w])
		t0, t1, t2 := sum4(cnt[int(gc[0])*W+w], cnt[int(gc[1])*W+w], cnt[int(gc[2])*W+w], cnt[int(gc[3])*W+w])
		all := ^uint64(0)
		if w == W-1 {
			all = m.last
		}
		B0, B1, B2, B3 := all&^(b0|b1|b2), b0&^b1, b1&^b0, b0&b1
		T0, T1, T2, T3, T4 := all&^(t0|t1|t2), t0&^t1, t1&^t0, t0&t1, t2
		s[0] += cnt32(B0 & T0)
		s[1] += cnt32(B0 & T1)
		s[2] += cnt32(B0 & T2)
		s[3] += cnt32(B0 & T3)
		s[4] += cnt32(B0 & T4)
		s[5] += cnt32(B1 & T1)
		s[6] += cnt32(B1 & T2)
		s[7] += cnt32(B1 & T3)
		s[8] += cnt32(B1 & T4)
		s[9] += cnt32(B2 & T2)
		s[10] += cnt32(B2 & T3)
		s[11] += cnt32(B2 & T4)
		s[12] += cnt32(B3 & T3)
	}
	total := n
	for _, size := range s {
		total += p.fill[size]
	}
	return total
}

// nz is 1 if x has a bit set, else 0.
func nz(x uint64) int32 { return int32((x | -x) >> 63) }

// pc is the number of bits set in x, as an index into a fill64 table.
func pc(x uint64) uint8 { return uint8(bits.OnesCount64(x)) & 127 }

func cnt32(x uint64) int32 { return int32(bits.OnesCount64(x)) }

// bounds4 writes into out[i] the bound of split for guess pool[i], for
// four pegs and a set of at most 64 codes loaded in m: the hot loop of the
// search, kept apart and free of bounds checks so that it runs in
// registers. small is as for bound4.
func (p *problem) bounds4(m *masks, pool []int32, n int32, small bool, out []int32) {
	pos := (*[256]uint64)(m.pos[:256])
	cnt := (*[256]uint64)(m.cnt[:256])
	gidx := p.gidx
	all := m.last
	out = out[:len(pool)]
	// The black sums are walked one value at a time, so that few masks
	// are live at once and the loop stays in registers.
	if small {
		three := 3 * n
		for i, g := range pool {
			k := gidx[g]
			b0, b1, b2 := sum4(pos[uint8(k)], pos[uint8(k>>8)], pos[uint8(k>>16)], pos[uint8(k>>24)])
			t0, t1, t2 := sum4(cnt[uint8(k>>32)], cnt[uint8(k>>40)], cnt[uint8(k>>48)], cnt[uint8(k>>56)])
			T1, T2, T3 := t0&^t1, t1&^t0, t0&t1
			B := all &^ (b0 | b1 | b2)
			c := nz(B&^(t0|t1|t2)) + nz(B&T1) + nz(B&T2) + nz(B&T3) + nz(B&t2)
			B = b0 &^ b1
			c += nz(B&T1) + nz(B&T2) + nz(B&T3) + nz(B&t2)
			B = b1 &^ b0
			c += nz(B&T2) + nz(B&T3) + nz(B&t2) + nz(b0&b1&T3)
			out[i] = three - 2*nz(b2) - c
		}
		return
	}
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

// boundsSmall writes into out[i] the bound of guess pool[i] for a set of
// at most b+1 codes, where the least cost of a class of s codes is 2s − 1:
// n plus twice the codes outside the win's class less the number of
// classes. It reads the feedback table, one byte per code, and only notes
// which feedbacks occur, so no count waits on another.
func (p *problem) boundsSmall(set []uint16, pool []int32, out []int32) {
	n := int32(len(set))
	three := 3 * n
	winBit := uint64(1) << (p.win & 63)
	out = out[:len(pool)]
	for i, g := range pool {
		row := p.row(g)
		var seen uint64
		for _, c := range set {
			seen |= 1 << (row[c] & 63)
		}
		w := int32(bits.OnesCount64(seen & winBit))
		out[i] = three - 2*w - int32(bits.OnesCount64(seen&^winBit))
	}
}
