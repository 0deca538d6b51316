package mastermind

import "math/bits"

// A packer packs Mastermind codes into bit vectors so that the feedback of
// two codes costs a few ANDs and population counts, and scores one guess
// against many packed codes in a single tight loop. It is the engine under
// Space and Set.
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
// by a key, black<<shift | total, where total = black + white; keys are small
// integers that index counting arrays directly.
//
// A packer packs codes of one size. The zero packer is not usable; build
// one with newPacker.
type packer struct {
	pegs   int  // pegs per code
	colors int  // colours per peg
	words  int  // words per bit vector, W
	shift  uint // key = black<<shift | total
}

// newPacker returns the packer for codes of pegs pegs over colors colours.
func newPacker(pegs, colors int) packer {
	w := (pegs*colors + 63) / 64
	return packer{pegs: pegs, colors: colors, words: w, shift: uint(bits.Len(uint(pegs)))}
}

// stride returns the number of words in one packed code, 2W.
func (pk packer) stride() int { return 2 * pk.words }

// keys returns one more than the largest key: the length a counting array
// indexed by key needs. Keys are not consecutive, so some entries of such
// an array go unused.
func (pk packer) keys() int { return pk.pegs<<pk.shift | pk.pegs + 1 }

// key returns the key of black pegs and white pegs.
func (pk packer) key(black, white int) int { return black<<pk.shift | (black + white) }

// feedback returns the black and white pegs a key stands for.
func (pk packer) feedback(key int) (black, white int) {
	black = key >> pk.shift
	return black, key&(1<<pk.shift-1) - black
}

// pack writes the packed form of code, colours numbered from 0, into
// dst[:pk.stride()], which it clears first.
func (pk packer) pack(dst []uint64, code []uint8) {
	dst = dst[:pk.stride()]
	clear(dst)
	w := pk.words
	var n [MaxColors]uint8
	for i, c := range code {
		b := i*pk.colors + int(c)
		dst[b>>6] |= 1 << (b & 63)
		u := int(c)*pk.pegs + int(n[c])
		dst[w+u>>6] |= 1 << (u & 63)
		n[c]++
	}
}

// keyOf returns the key of the feedback between packed codes a and b.
func (pk packer) keyOf(a, b []uint64) int {
	w := pk.words
	black, total := 0, 0
	for i := 0; i < w; i++ {
		black += bits.OnesCount64(a[i] & b[i])
		total += bits.OnesCount64(a[w+i] & b[w+i])
	}
	return black<<pk.shift | total
}

// count adds one to counts[key] for the feedback between the packed guess g
// and every packed code in data, a run of codes pk.stride() words apart.
// counts must have at least pk.keys() elements.
//
// The cost is O(len(data)); this is the hot loop of every strategy.
func (pk packer) count(g, data []uint64, counts []uint32) {
	s := pk.shift
	switch pk.words {
	case 1:
		gp, gu := g[0], g[1]
		i := 0
		if pk.keys() <= 64 {
			// Consecutive codes often share a key; counting every other
			// code into a second array keeps each increment from waiting
			// for the one before (about 15% faster).
			var odd [64]uint32
			for ; i+3 < len(data); i += 4 {
				counts[bits.OnesCount64(gp&data[i])<<s|bits.OnesCount64(gu&data[i+1])]++
				odd[(bits.OnesCount64(gp&data[i+2])<<s|bits.OnesCount64(gu&data[i+3]))&63]++
			}
			for k := range pk.keys() {
				counts[k] += odd[k]
			}
		}
		for ; i+1 < len(data); i += 2 {
			counts[bits.OnesCount64(gp&data[i])<<s|bits.OnesCount64(gu&data[i+1])]++
		}
	case 2:
		gp0, gp1, gu0, gu1 := g[0], g[1], g[2], g[3]
		i := 0
		if pk.keys() <= 64 {
			var odd [64]uint32
			for ; i+7 < len(data); i += 8 {
				b := bits.OnesCount64(gp0&data[i]) + bits.OnesCount64(gp1&data[i+1])
				t := bits.OnesCount64(gu0&data[i+2]) + bits.OnesCount64(gu1&data[i+3])
				counts[b<<s|t]++
				b = bits.OnesCount64(gp0&data[i+4]) + bits.OnesCount64(gp1&data[i+5])
				t = bits.OnesCount64(gu0&data[i+6]) + bits.OnesCount64(gu1&data[i+7])
				odd[(b<<s|t)&63]++
			}
			for k := range pk.keys() {
				counts[k] += odd[k]
			}
		}
		for ; i+3 < len(data); i += 4 {
			b := bits.OnesCount64(gp0&data[i]) + bits.OnesCount64(gp1&data[i+1])
			t := bits.OnesCount64(gu0&data[i+2]) + bits.OnesCount64(gu1&data[i+3])
			counts[b<<s|t]++
		}
	default:
		st := pk.stride()
		for i := 0; i+st <= len(data); i += st {
			counts[pk.keyOf(g, data[i:i+st])]++
		}
	}
}

// keysOf writes into keys[j] the key of the feedback between the packed guess
// g and the j-th packed code in data.
func (pk packer) keysOf(g, data []uint64, keys []uint16) {
	s := pk.shift
	switch pk.words {
	case 1:
		gp, gu := g[0], g[1]
		keys = keys[:len(data)/2]
		for j := range keys {
			keys[j] = uint16(bits.OnesCount64(gp&data[2*j])<<s | bits.OnesCount64(gu&data[2*j+1]))
		}
	default:
		st := pk.stride()
		for j := range keys[:len(data)/st] {
			keys[j] = uint16(pk.keyOf(g, data[j*st:(j+1)*st]))
		}
	}
}
