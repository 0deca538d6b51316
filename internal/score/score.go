// Package score packs Mastermind codes into bit vectors so that the feedback
// of two codes costs a few ANDs and population counts, and scores one guess
// against many packed codes in a single tight loop.
//
// # Representation
//
// A code of p pegs over c colours is packed into two bit vectors of p·c bits
// each, stored in W = ⌈p·c/64⌉ words apiece:
//
//   - P, the positions: bit i·c+k is set when peg i has colour k. The number
//     of black pegs between two codes is popcount(P₁ & P₂).
//   - U, the colour counts in unary: bits k·p … k·p+n−1 are set when colour k
//     occurs n times. The number of pegs that match in colour, black or white,
//     is Σₖ min(n₁ₖ, n₂ₖ) = popcount(U₁ & U₂).
//
// A packed code is 2W words: P's words, then U's. A feedback is summarised
// by a key, black<<Shift | total, where total = black + white; keys are small
// integers that index counting arrays directly.
package score

import "math/bits"

// Packer packs codes of one size. The zero Packer is not usable; build one
// with New.
type Packer struct {
	Pegs   int  // pegs per code
	Colors int  // colours per peg
	Words  int  // words per bit vector, W
	Shift  uint // key = black<<Shift | total
}

// New returns the Packer for codes of pegs pegs over colors colours.
func New(pegs, colors int) Packer {
	w := (pegs*colors + 63) / 64
	return Packer{Pegs: pegs, Colors: colors, Words: w, Shift: uint(bits.Len(uint(pegs)))}
}

// Stride returns the number of words in one packed code, 2W.
func (pk Packer) Stride() int { return 2 * pk.Words }

// Keys returns one more than the largest key: the length a counting array
// indexed by key needs. Keys are not consecutive, so some entries of such
// an array go unused.
func (pk Packer) Keys() int { return pk.Pegs<<pk.Shift | pk.Pegs + 1 }

// Key returns the key of black pegs and white pegs.
func (pk Packer) Key(black, white int) int { return black<<pk.Shift | (black + white) }

// Feedback returns the black and white pegs a key stands for.
func (pk Packer) Feedback(key int) (black, white int) {
	black = key >> pk.Shift
	return black, key&(1<<pk.Shift-1) - black
}

// Pack writes the packed form of code, colours numbered from 0, into
// dst[:pk.Stride()], which it clears first.
func (pk Packer) Pack(dst []uint64, code []uint8) {
	dst = dst[:pk.Stride()]
	clear(dst)
	w := pk.Words
	var n [256]uint8
	for i, c := range code {
		b := i*pk.Colors + int(c)
		dst[b>>6] |= 1 << (b & 63)
		u := int(c)*pk.Pegs + int(n[c])
		dst[w+u>>6] |= 1 << (u & 63)
		n[c]++
	}
}

// KeyOf returns the key of the feedback between packed codes a and b.
func (pk Packer) KeyOf(a, b []uint64) int {
	w := pk.Words
	black, total := 0, 0
	for i := 0; i < w; i++ {
		black += bits.OnesCount64(a[i] & b[i])
		total += bits.OnesCount64(a[w+i] & b[w+i])
	}
	return black<<pk.Shift | total
}

// Count adds one to counts[key] for the feedback between the packed guess g
// and every packed code in data, a run of codes pk.Stride() words apart.
// counts must have at least pk.Keys() elements.
//
// The cost is O(len(data)); this is the hot loop of every strategy.
func (pk Packer) Count(g, data []uint64, counts []uint32) {
	s := pk.Shift
	switch pk.Words {
	case 1:
		gp, gu := g[0], g[1]
		i := 0
		if pk.Keys() <= 64 {
			// Consecutive codes often share a key; counting every other
			// code into a second array keeps each increment from waiting
			// for the one before (about 15% faster).
			var odd [64]uint32
			for ; i+3 < len(data); i += 4 {
				counts[bits.OnesCount64(gp&data[i])<<s|bits.OnesCount64(gu&data[i+1])]++
				odd[(bits.OnesCount64(gp&data[i+2])<<s|bits.OnesCount64(gu&data[i+3]))&63]++
			}
			for k := range pk.Keys() {
				counts[k] += odd[k]
			}
		}
		for ; i+1 < len(data); i += 2 {
			counts[bits.OnesCount64(gp&data[i])<<s|bits.OnesCount64(gu&data[i+1])]++
		}
	case 2:
		gp0, gp1, gu0, gu1 := g[0], g[1], g[2], g[3]
		i := 0
		if pk.Keys() <= 64 {
			var odd [64]uint32
			for ; i+7 < len(data); i += 8 {
				b := bits.OnesCount64(gp0&data[i]) + bits.OnesCount64(gp1&data[i+1])
				t := bits.OnesCount64(gu0&data[i+2]) + bits.OnesCount64(gu1&data[i+3])
				counts[b<<s|t]++
				b = bits.OnesCount64(gp0&data[i+4]) + bits.OnesCount64(gp1&data[i+5])
				t = bits.OnesCount64(gu0&data[i+6]) + bits.OnesCount64(gu1&data[i+7])
				odd[(b<<s|t)&63]++
			}
			for k := range pk.Keys() {
				counts[k] += odd[k]
			}
		}
		for ; i+3 < len(data); i += 4 {
			b := bits.OnesCount64(gp0&data[i]) + bits.OnesCount64(gp1&data[i+1])
			t := bits.OnesCount64(gu0&data[i+2]) + bits.OnesCount64(gu1&data[i+3])
			counts[b<<s|t]++
		}
	default:
		st := pk.Stride()
		for i := 0; i+st <= len(data); i += st {
			counts[pk.KeyOf(g, data[i:i+st])]++
		}
	}
}

// KeysOf writes into keys[j] the key of the feedback between the packed guess
// g and the j-th packed code in data.
func (pk Packer) KeysOf(g, data []uint64, keys []uint16) {
	s := pk.Shift
	switch pk.Words {
	case 1:
		gp, gu := g[0], g[1]
		keys = keys[:len(data)/2]
		for j := range keys {
			keys[j] = uint16(bits.OnesCount64(gp&data[2*j])<<s | bits.OnesCount64(gu&data[2*j+1]))
		}
	default:
		st := pk.Stride()
		for j := range keys[:len(data)/st] {
			keys[j] = uint16(pk.KeyOf(g, data[j*st:(j+1)*st]))
		}
	}
}
