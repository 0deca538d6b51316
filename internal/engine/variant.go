// Package engine is the scoring engine behind the heuristic strategies
// (knuth, expected-size, entropy, most-parts): it finds the guess that
// splits a set of candidates best, and plays a strategy against every
// secret of a variant depth first, in memory that does not grow with the
// number of games.
//
// A set of more than a few candidates is split bit-parallel: for each 64
// candidates, one mask per (position, colour) holds those with that colour
// there, and one mask per (colour, t) those with at least t pegs of that
// colour. A guess's black pegs against 64 candidates at once are the sum of
// its pegs' position masks, its black and white pegs together the sum of
// its count masks, each sum kept as three bit-sliced words; the size of a
// class is a population count. Small sets are scored a candidate at a
// time, from packed codes.
//
// Over several planes, each guess's partial score is a bound on its final
// one (a class only grows as candidates are added), so a guess that is
// already worse than the best so far is dropped before its last candidates
// are counted; a set of one plane is scored in full, in code written out
// for each number of pegs and objective. And the guesses that share all
// their pegs but the last are bounded together, from the classes their
// common pegs make (family.go), most of them dropped unscored at the
// small nodes of big spaces. The choice is the same as scoring every
// guess in full.
package engine

import (
	"math/bits"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/spacedata"
)

// maxSliced is the most pegs the bit-sliced kernel takes: its sums of up
// to seven masks fit three bit slices.
const maxSliced = 7

// planeWords is the words of masks kept for each 64 candidates, enough for
// the 2·pegs·colours masks of every variant the kernel takes, so that it
// reads them by a byte offset without bounds checks.
const planeWords = 256

// A Variant holds every code of a space in the forms the engine reads.
// It is read-only once built and safe for concurrent use.
type Variant struct {
	sp    *mm.Space
	rules mm.Rules
	P, C  int      // pegs and colours
	S     int      // masks of each kind, P·C; a plane holds 2S
	off   []uint8  // [g·2P + j]: the plane offsets of g's P position masks, then its P count masks
	words int      // words per packed bit vector
	pk    []uint64 // [g·2·words …]: position bits, then unary colour counts (the space's own)
	shift uint     // key = black<<shift | (black + white), as mm's keys
	keys  int      // one more than the largest key
	pairs int      // the feedbacks that can occur
	win   int      // the key of the win
}

var variants struct {
	sync.Mutex
	m map[mm.Rules]*Variant
}

// For returns the variant of sp, built on first use and kept.
func For(sp *mm.Space) *Variant {
	buildTables()
	r := sp.Rules()
	variants.Lock()
	defer variants.Unlock()
	if v := variants.m[r]; v != nil {
		return v
	}
	if variants.m == nil || len(variants.m) >= 4 {
		variants.m = make(map[mm.Rules]*Variant)
	}
	v := newVariant(sp)
	variants.m[r] = v
	return v
}

func newVariant(sp *mm.Space) *Variant {
	r := sp.Rules()
	P, C := r.Pegs, r.Colors
	N := sp.Len()
	v := &Variant{sp: sp, rules: r, P: P, C: C, S: P * C, shift: uint(bits.Len(uint(P)))}
	v.words = (P*C + 63) / 64
	v.keys = P<<v.shift | P + 1
	// The feedbacks, b black pegs and t pegs right in colour (black and
	// white), row by row of b; P−1 black and P in all cannot occur.
	for b := 0; b <= P; b++ {
		for t := b; t <= P; t++ {
			if b != P-1 || t != P {
				v.pairs++
			}
		}
	}
	v.pk = spacedata.Packed(sp)
	if P <= maxSliced && 2*v.S <= planeWords {
		// 2P offsets a code, and 16 bytes past the last, so that the
		// kernel reads any code's as a [16]uint8.
		v.off = make([]uint8, N*2*P+16)
		var seen [mm.MaxColors]uint8
		for g := 0; g < N; g++ {
			c := sp.Code(g)
			clear(seen[:C])
			for i := 0; i < P; i++ {
				k := c.Peg(i)
				v.off[g*2*P+i] = uint8(i*C + k)
				v.off[g*2*P+P+i] = uint8(v.S + k*P + int(seen[k]))
				seen[k]++
			}
		}
	}
	v.win = P<<v.shift | P
	return v
}

// key returns the feedback key of codes a and b.
func (v *Variant) key(a, b int) int {
	w := v.words
	pa := v.pk[a*2*w : (a+1)*2*w]
	pb := v.pk[b*2*w : (b+1)*2*w]
	black, total := 0, 0
	for i := 0; i < w; i++ {
		black += bits.OnesCount64(pa[i] & pb[i])
		total += bits.OnesCount64(pa[w+i] & pb[w+i])
	}
	return black<<v.shift | total
}

// Keys returns one more than the largest feedback key.
func (v *Variant) Keys() int { return v.keys }

// WinKey returns the key of the win.
func (v *Variant) WinKey() int { return v.win }

// KeysOf writes into keys[j] the feedback key of set[j] against guess g.
func (v *Variant) KeysOf(g int, set []uint32, keys []uint16) {
	if v.words == 1 {
		gp, gu := v.pk[2*g], v.pk[2*g+1]
		s := v.shift
		for j, c := range set {
			keys[j] = uint16(bits.OnesCount64(gp&v.pk[2*c])<<s | bits.OnesCount64(gu&v.pk[2*c+1]))
		}
		return
	}
	for j, c := range set {
		keys[j] = uint16(v.key(g, int(c)))
	}
}

// held returns the colours some member holds, bit k for colour k: those
// whose first unary count bit, k·P, is set in one of the members' codes.
func (v *Variant) held(members []uint32) uint64 {
	w := v.words
	var u [4]uint64
	for _, c := range members {
		pk := v.pk[int(c)*2*w+w : int(c)*2*w+2*w]
		for i, x := range pk {
			u[i&3] |= x
		}
	}
	var out uint64
	for k := 0; k < v.C; k++ {
		b := k * v.P
		if b>>6 >= len(u) || u[b>>6]&(1<<(b&63)) != 0 {
			out |= 1 << k
		}
	}
	return out
}
