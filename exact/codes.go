package exact

import (
	"math/bits"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// codes is what the search needs of every code of a variant, whatever the
// candidates: dense feedbacks, each code's pegs, colours, unary form and
// mask indices. It is built once per variant and shared by every search
// of it (codesOf), so that the many small searches of a record strategy
// do not pay for it each time.
type codes struct {
	rules mm.Rules
	sp    *mm.Space
	N     int           // codes in the space
	fbs   []mm.Feedback // dense feedback → feedback, the win last
	win   uint8         // dense feedback of the win
	// keyDense maps the packed scorer's feedback keys to dense ones.
	keyDense []uint8
	pegs     []uint8  // [g·p + i]: colour of peg i of code g
	colours  []uint64 // [g]: the colours code g holds
	// The unary form (nil beyond 64 pegs × colours, or 15 pegs, where
	// the lookup classBT outgrows 256 entries): bit i·c+k of pos is
	// set when peg i has colour k, and bits k·p to k·p+m−1 of cnt when
	// colour k has m pegs. The black pegs between two codes are the bits
	// their pos words share, black and white together the bits their cnt
	// words share (min(m, m′) for each colour).
	pos, cnt []uint64
	classBT  []uint8 // [black·(p+1) + black+white]: dense feedback
	// For splitting sets with masks (see bits.go; nil beyond
	// maxSlicedPegs): the mask indices each guess reads, gpos[g·p + i] =
	// i·c + g[i] and gcnt[g·p + j] the count masks of its colours; for
	// four pegs the eight of them a byte each; and the feedbacks but the
	// win as (black, black + white).
	gpos, gcnt []uint16
	gidx       []uint64
	pairs      []classPair
	allColours uint64
	// pools keeps the guess pools of histories, which depend on the
	// variant only, for every search of it.
	pools pools
	// users counts the problems built on the codes and not yet released,
	// and evicted is set once codesCache no longer holds them: the last
	// user of evicted codes frees their pools. Both are guarded by
	// codesCache's lock.
	users   int
	evicted bool
}

// classPair is a feedback other than the win as (black, black + white).
type classPair struct{ b, t, f uint8 }

var codesCache struct {
	sync.Mutex
	m map[mm.Rules]*codes
}

// codesOf returns the codes of sp's variant, building them on first use,
// for a problem that calls done when it is released. A few variants are
// kept.
func codesOf(sp *mm.Space) *codes {
	r := sp.Rules()
	codesCache.Lock()
	defer codesCache.Unlock()
	cs := codesCache.m[r]
	if cs == nil {
		if len(codesCache.m) >= 4 {
			evictCodes()
		}
		if codesCache.m == nil {
			codesCache.m = make(map[mm.Rules]*codes)
		}
		cs = newCodes(sp)
		codesCache.m[r] = cs
	}
	cs.users++
	return cs
}

// done ends a problem's use of cs. When no problem uses them, the pools
// that were dropped are freed, and all of them if cs was evicted.
func (cs *codes) done() {
	codesCache.Lock()
	defer codesCache.Unlock()
	if cs.users--; cs.users == 0 {
		cs.pools.free(cs.evicted)
	}
}

// evictCodes drops every variant's codes from the cache, freeing the pools
// of those no problem uses. codesCache's lock must be held.
func evictCodes() {
	for _, cs := range codesCache.m {
		cs.evicted = true
		if cs.users == 0 {
			cs.pools.free(true)
		}
	}
	codesCache.m = nil
}

func newCodes(sp *mm.Space) *codes {
	r := sp.Rules()
	P, C, N := r.Pegs, r.Colors, sp.Len()
	cs := &codes{rules: r, sp: sp, N: N}
	// Dense feedbacks in (black, white) order, the win last.
	cs.keyDense = make([]uint8, sp.Keys())
	for _, f := range r.Feedbacks() {
		if f.Solved(P) {
			continue
		}
		cs.keyDense[sp.Key(f)] = uint8(len(cs.fbs))
		cs.fbs = append(cs.fbs, f)
	}
	cs.win = uint8(len(cs.fbs))
	win := mm.Feedback{Black: P}
	cs.keyDense[sp.Key(win)] = cs.win
	cs.fbs = append(cs.fbs, win)
	cs.classBT = make([]uint8, (P+1)*(P+1))
	for f, fb := range cs.fbs {
		cs.classBT[fb.Black*(P+1)+fb.Black+fb.White] = uint8(f)
	}
	if C >= 64 {
		cs.allColours = ^uint64(0)
	} else {
		cs.allColours = 1<<C - 1
	}

	cs.pegs = make([]uint8, N*P)
	cs.colours = make([]uint64, N)
	for g := range N {
		code := sp.Code(g)
		for i := range P {
			k := code.Peg(i)
			cs.pegs[g*P+i] = uint8(k)
			cs.colours[g] |= 1 << k
		}
	}
	var seen [64]int
	if P*C <= 64 && len(cs.classBT) <= maxUnaryBT {
		cs.pos, cs.cnt = make([]uint64, N), make([]uint64, N)
		for g := range N {
			clear(seen[:C])
			for i, k := range cs.pegs[g*P : g*P+P] {
				cs.pos[g] |= 1 << (i*C + int(k))
				cs.cnt[g] |= 1 << (int(k)*P + seen[k])
				seen[k]++
			}
		}
	}
	if P <= maxSlicedPegs && C <= 64 {
		cs.gpos = make([]uint16, N*P)
		cs.gcnt = make([]uint16, N*P)
		for g := range N {
			clear(seen[:C])
			for i, k := range cs.pegs[g*P : g*P+P] {
				cs.gpos[g*P+i] = uint16(i*C + int(k))
				seen[k]++
				cs.gcnt[g*P+i] = uint16(int(k)*P + seen[k] - 1)
			}
		}
		if P == 4 && P*C <= 256 {
			cs.gidx = make([]uint64, N)
			for g := range N {
				var x uint64
				for i := range 4 {
					x |= uint64(cs.gpos[g*4+i]) << (8 * i)
					x |= uint64(cs.gcnt[g*4+i]) << (32 + 8*i)
				}
				cs.gidx[g] = x
			}
		}
		for f, fb := range cs.fbs {
			if uint8(f) != cs.win {
				cs.pairs = append(cs.pairs, classPair{b: uint8(fb.Black), t: uint8(fb.Black + fb.White), f: uint8(f)})
			}
		}
	}
	return cs
}

// maxUnaryBT is the most entries of classBT the unary form reads, (p+1)²
// for p pegs: up to 15 pegs. (A lookup of 64 entries, as there was, held
// only up to 7 pegs; from 8 on, black and white pegs wrapped round and
// gave wrong feedbacks, and the search wrong trees.)
const maxUnaryBT = 256

// fillUnary writes the feedbacks of every code, as a guess, against code c
// into row and marks in occur the feedbacks that occur (bit f%64 of word
// f/64). cs.pos must be set.
func (cs *codes) fillUnary(c int32, row []uint8, occur *[4]uint64) {
	cp, cc := cs.pos[c], cs.cnt[c]
	stride := cs.rules.Pegs + 1
	var bt [maxUnaryBT]uint8
	copy(bt[:], cs.classBT)
	cnt := cs.cnt[:len(cs.pos)]
	row = row[:len(cs.pos)]
	if len(cs.fbs) <= 64 {
		// Up to 9 pegs: the feedbacks that occur in one word, kept in a
		// register.
		var seen uint64
		for g, gp := range cs.pos {
			b := bits.OnesCount64(gp & cp)
			t := bits.OnesCount64(cnt[g] & cc)
			d := bt[(b*stride+t)&(maxUnaryBT-1)]
			row[g] = d
			seen |= 1 << (d & 63)
		}
		occur[0] |= seen
		return
	}
	var seen [4]uint64
	for g, gp := range cs.pos {
		b := bits.OnesCount64(gp & cp)
		t := bits.OnesCount64(cnt[g] & cc)
		d := bt[(b*stride+t)&(maxUnaryBT-1)]
		row[g] = d
		seen[d>>6&3] |= 1 << (d & 63)
	}
	for i, x := range seen {
		occur[i] |= x
	}
}
