package exact

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A problem is what every search of one candidate set shares: the feedback
// table, the bounds by set size and the keys that hash sets. It is read-only
// once built.
//
// The search names candidates by column: the position of the code among the
// candidates the problem was built for, so that a set is a short ascending
// slice of uint16. Guesses are space indices: every code of the variant may
// be played. The feedback table is by candidate: tab[c·N + g] is the dense
// feedback of guess g against the code of column c, so that the feedbacks
// of a whole pool of guesses against one candidate are read in one forward
// pass. (Scoring is symmetric, so for the codes of two columns a and b,
// tab[a·N + cols[b]] is also b's feedback as a guess against a.)
type problem struct {
	rules  mm.Rules
	sp     *mm.Space
	N      int     // codes in the space
	cols   []int32 // column → space index, ascending
	tab    []uint8
	stride int           // columns
	fbs    []mm.Feedback // dense feedback → feedback
	win    uint8         // dense feedback of the win
	b      int           // feedbacks other than the win that occur
	// fill[n] is the least total number of guesses that finds every one of
	// n codes, and levels[n] the fewest guesses that can.
	fill   []int32
	fill64 *[128]int32 // fill up to 64, read by popcounts without bounds checks
	levels []int8
	masks  []uint64 // colour mask of each column's code
	// For splitting small sets with masks (see bits.go): the mask
	// indices each guess reads, each column's pegs, and the class of
	// each feedback but the win as (black, black + white).
	gpos, gcnt []uint16
	gidx       []uint64 // four pegs: the eight mask indices of each code, a byte each
	pegsOf     []uint8
	pairs      []classPair
	z1, z2     []uint64 // random keys of the columns; a set hashes to their xor
	allColours uint64
}

// MaxCodes is the largest space the exact search takes on: its feedback
// table has a byte per pair of codes.
const MaxCodes = 10_000

// Practical is about the largest space an exact search completes in
// minutes on a small machine (8 colours × 4 pegs has 4096 codes).
const Practical = 5_000

// newProblem builds the problem of finding cands (ascending, not empty).
// Its cost is a row of the table per candidate, scored on every core.
func newProblem(sp *mm.Space, cands *mm.Set) (*problem, error) {
	r := sp.Rules()
	n := cands.Len()
	if sp.Len() > MaxCodes || n > 1<<16 {
		return nil, fmt.Errorf("%w: exact search of %v: %d codes; it takes at most %d (about %d finish in minutes)",
			mm.ErrTooLarge, r, sp.Len(), MaxCodes, Practical)
	}
	p := &problem{rules: r, sp: sp, N: sp.Len(), stride: n, cols: make([]int32, n)}
	for i := range p.cols {
		p.cols[i] = int32(cands.Index(i))
	}
	// Dense feedbacks in (black, white) order, the win last.
	keyDense := make([]uint8, sp.Keys())
	for _, f := range r.Feedbacks() {
		if f.Solved(r.Pegs) {
			continue
		}
		keyDense[sp.Key(f)] = uint8(len(p.fbs))
		p.fbs = append(p.fbs, f)
	}
	p.win = uint8(len(p.fbs))
	win := mm.Feedback{Black: r.Pegs}
	keyDense[sp.Key(win)] = p.win
	p.fbs = append(p.fbs, win)

	p.tab = make([]uint8, n*p.N)
	p.fillTable(keyDense)
	p.bounds(n)
	p.hashKeys()
	p.slicesFor()
	return p, nil
}

// fillTable scores every code of the space, as a guess, against every
// column.
func (p *problem) fillTable(keyDense []uint8) {
	N, n := p.N, p.stride
	u := p.unary()
	var used [256]atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 8
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			keys := make([]uint16, N)
			var seen [256]bool
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					break
				}
				for c := lo; c < min(lo+chunk, n); c++ {
					row := p.tab[c*N : (c+1)*N]
					if u != nil {
						u.fill(c, row, &seen)
						continue
					}
					// By symmetry, the candidate's code as a guess
					// against every code.
					p.sp.All().Keys(int(p.cols[c]), keys)
					for g, k := range keys {
						d := keyDense[k]
						row[g] = d
						seen[d] = true
					}
				}
			}
			for d, ok := range seen {
				if ok {
					used[d].Store(true)
				}
			}
		})
	}
	wg.Wait()
	p.b = 0
	for d := range p.fbs {
		if used[d].Load() && uint8(d) != p.win {
			p.b++
		}
	}
}

// col returns the feedbacks of every guess against the code of column c.
func (p *problem) col(c uint16) []uint8 { return p.tab[int(c)*p.N : int(c+1)*p.N] }

// fb returns the feedback of guess g against the code of column c.
func (p *problem) fb(c uint16, g int32) uint8 { return p.tab[int(c)*p.N+int(g)] }

// bounds fills fill and levels for sets of up to n codes: the best case
// finds one code with the first guess, b with the second, b² with the
// third, and so on.
func (p *problem) bounds(n int) {
	b := max(p.b, 1)
	p.fill = make([]int32, n+2)
	p.levels = make([]int8, n+2)
	for m := 1; m <= n+1; m++ {
		total, left, width, level := 0, m, 1, 1
		for left > 0 {
			k := min(left, width)
			total += k * level
			left -= k
			width *= b
			level++
		}
		p.fill[m], p.levels[m] = int32(total), int8(level-1)
	}
	p.fill64 = new([128]int32)
	copy(p.fill64[:], p.fill[:min(len(p.fill), 65)])
}

// hashKeys gives every column two random 64-bit keys and its colour mask.
func (p *problem) hashKeys() {
	n := p.stride
	rng := rand.New(rand.NewPCG(0x6d6173746572, 0x6d696e64))
	p.z1, p.z2 = make([]uint64, n), make([]uint64, n)
	p.masks = make([]uint64, n)
	for c := range n {
		p.z1[c], p.z2[c] = rng.Uint64(), rng.Uint64()
		code := p.sp.Code(int(p.cols[c]))
		for j := 0; j < code.Len(); j++ {
			p.masks[c] |= 1 << code.Peg(j)
		}
	}
	if p.rules.Colors >= 64 {
		p.allColours = ^uint64(0)
	} else {
		p.allColours = 1<<p.rules.Colors - 1
	}
}

// excluded returns the colours no code of set holds.
func (p *problem) excluded(set []uint16) uint64 {
	var held uint64
	for _, c := range set {
		held |= p.masks[c]
		if held == p.allColours {
			return 0
		}
	}
	return p.allColours &^ held
}

// hash returns the key of set.
func (p *problem) hash(set []uint16) key {
	var k key
	for _, c := range set {
		k.a ^= p.z1[c]
		k.b ^= p.z2[c]
	}
	k.b = k.b&^0xffff | uint64(len(set)&0xffff)
	return k
}

// key identifies a candidate set: 128 bits, the low 16 of b holding the
// set's size.
type key struct{ a, b uint64 }

func (k key) size() int { return int(k.b & 0xffff) }

// unaryCodes is every code of the space in a form whose scoring is two
// ANDs and two popcounts: bit i·c+k of pos is set when peg i has colour k,
// and bits k·p to k·p+m−1 of cnt when colour k has m pegs. The black pegs
// between two codes are the bits their pos words share, black and white
// together the bits their cnt words share (min(m, m′) for each colour).
type unaryCodes struct {
	p       *problem
	pos     []uint64 // by space index
	cnt     []uint64
	colPos  []uint64 // by column
	colCnt  []uint64
	classBT []uint8 // [black·(p+1) + black+white]: dense feedback
}

// unary returns the unary form of the codes, or nil if a code does not
// fit one word (more than 64 pegs × colours).
func (p *problem) unary() *unaryCodes {
	P, C := p.rules.Pegs, p.rules.Colors
	if P*C > 64 {
		return nil
	}
	N := p.sp.Len()
	u := &unaryCodes{p: p, pos: make([]uint64, N), cnt: make([]uint64, N),
		colPos: make([]uint64, p.stride), colCnt: make([]uint64, p.stride)}
	var seen [64]int
	for g := range N {
		code := p.sp.Code(g)
		clear(seen[:C])
		for i := range P {
			k := code.Peg(i)
			u.pos[g] |= 1 << (i*C + k)
			u.cnt[g] |= 1 << (k*P + seen[k])
			seen[k]++
		}
	}
	for c, g := range p.cols {
		u.colPos[c], u.colCnt[c] = u.pos[g], u.cnt[g]
	}
	u.classBT = make([]uint8, (P+1)*(P+1))
	for f, fb := range p.fbs {
		u.classBT[fb.Black*(P+1)+fb.Black+fb.White] = uint8(f)
	}
	return u
}

// fill writes the feedbacks of every guess against the code of column c
// into row, noting in seen the feedbacks that occur.
func (u *unaryCodes) fill(c int, row []uint8, seen *[256]bool) {
	cp, cc := u.colPos[c], u.colCnt[c]
	stride := u.p.rules.Pegs + 1
	var bt [64]uint8
	copy(bt[:], u.classBT)
	cnt := u.cnt[:len(u.pos)]
	row = row[:len(u.pos)]
	var occur uint64
	for g, gp := range u.pos {
		b := bits.OnesCount64(gp & cp)
		t := bits.OnesCount64(cnt[g] & cc)
		d := bt[(b*stride+t)&63]
		row[g] = d
		occur |= 1 << (d & 63)
	}
	for ; occur != 0; occur &= occur - 1 {
		seen[bits.TrailingZeros64(occur)] = true
	}
}
