package exact

import (
	"fmt"
	"math"
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
	*codes
	cols   []int32 // column → space index, ascending
	tab    []uint8
	stride int // columns
	b      int // feedbacks other than the win that occur
	// fill[n] is the least total number of guesses that finds every one of
	// n codes, and levels[n] the fewest guesses that can.
	fill   []int32
	fill64 *[128]int32 // fill up to 64, read by popcounts without bounds checks
	levels []int8
	masks  []uint64 // colour mask of each column's code
	pegsOf []uint8  // [c·p + i]: colour of peg i of column c's code
	z1, z2 []uint64 // random keys of the columns; a set hashes to their xor
}

// MaxTable is the largest feedback table the exact search builds, a byte
// per (candidate, code) pair: every code of a space of up to 16384 codes,
// or a few thousand candidates of a larger one.
const MaxTable = 1 << 28

// Practical is about the largest space an exact search of every code
// completes in minutes on a small machine (8 colours × 4 pegs has 4096
// codes).
const Practical = 5_000

// maxFeedbacks is the most feedbacks the search tells apart: a byte each,
// in the table and in the scratch counts. Pegs of maxFeedbackPegs have
// 252 (a variant of p pegs has (p+1)(p+2)/2 − 1).
const (
	maxFeedbacks    = 256
	maxFeedbackPegs = 21
)

// checkFeedbacks returns an error wrapping mm.ErrUnsupported if r has more
// feedbacks than the search tells apart. Only a later state of a variant
// of 22 pegs or more, a few dozen candidates among millions of codes, has
// a table small enough to get that far.
func checkFeedbacks(r mm.Rules) error {
	if r.NumFeedbacks() <= maxFeedbacks {
		return nil
	}
	return fmt.Errorf("%w: exact search of %v: its %d feedbacks are more than the %d its table holds, a byte each (at most %d pegs)",
		mm.ErrUnsupported, r, r.NumFeedbacks(), maxFeedbacks, maxFeedbackPegs)
}

// maxCodes is the most codes of a space whose feedback table of every
// code against every code fits MaxTable.
const maxCodes = 1 << 14

// CheckRules returns, at once and without building anything, the error
// that a search of every code of r would fail with for want of room: one
// wrapping mm.ErrTooLarge if its feedback table would take more than
// MaxTable bytes (more than 16384 codes), or r's own if r is not a
// variant; nil if the table fits.
func CheckRules(r mm.Rules) error {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return err
	}
	if r.Size() > maxCodes {
		return tooLarge(r, 0, 0)
	}
	return nil
}

// tooLarge returns the error of a search whose table would not fit: of n
// candidates against the N codes of r, or of the whole space if n is N
// (or both are 0).
func tooLarge(r mm.Rules, n, N int) error {
	if n == N {
		// A byte per pair of codes; r.Size() stops at 2^64.
		table := fmt.Sprintf("10^%.0f bytes", 2*r.Log10Size())
		if n := r.Size(); n < 1<<26 {
			table = bytesText(float64(n) * float64(n)) // exact
		} else if 2*r.Log10Size() < 18 {
			table = bytesText(math.Pow(10, 2*r.Log10Size()))
		}
		return fmt.Errorf("%w: exact search of %v: its %s codes need a %s feedback table, more than the %s allowed, which holds at most %d codes; spaces of up to about %d codes finish in minutes",
			mm.ErrTooLarge, r, codesText(r), table, bytesText(MaxTable), maxCodes, Practical)
	}
	return fmt.Errorf("%w: exact search of %d codes left of %v: the %s feedback table (%d × %d) is more than the %s allowed",
		mm.ErrTooLarge, n, r, bytesText(float64(n)*float64(N)), n, N, bytesText(MaxTable))
}

// codesText writes the number of codes of r, as a whole number up to
// 10^15, else as a power of ten.
func codesText(r mm.Rules) string {
	if r.Log10Size() < 15 {
		return fmt.Sprint(r.Size())
	}
	return fmt.Sprintf("about 10^%.0f", r.Log10Size())
}

// bytesText writes a size in bytes for people: "256 MiB", "1.0 GiB",
// "1.1 PiB"; past a thousand PiB, as a power of ten.
func bytesText(b float64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	if b < 1<<10 {
		return fmt.Sprintf("%.0f bytes", b)
	}
	for i, u := range units {
		v := b / float64(uint64(1)<<(10*(i+1)))
		switch {
		case v < 10 && u != "KiB":
			return fmt.Sprintf("%.1f %s", v, u)
		case v < 1024:
			return fmt.Sprintf("%.0f %s", v, u)
		}
	}
	return fmt.Sprintf("10^%.0f bytes", math.Log10(b))
}

// newProblem builds the problem of finding cands (ascending, not empty).
// Its cost is a row of the table per candidate, scored on every core.
func newProblem(sp *mm.Space, cands *mm.Set) (*problem, error) {
	n := cands.Len()
	if int64(n)*int64(sp.Len()) > MaxTable || n > 1<<16 {
		return nil, tooLarge(sp.Rules(), n, sp.Len())
	}
	if err := checkFeedbacks(sp.Rules()); err != nil {
		return nil, err
	}
	p := &problem{codes: codesOf(sp), stride: n, cols: make([]int32, n)}
	for i := range p.cols {
		p.cols[i] = int32(cands.Index(i))
	}
	p.tab = getTable(n * p.N)
	p.fillTable()
	p.bounds(n)
	p.columns()
	return p, nil
}

// Tables are reused between problems: a record strategy builds thousands
// of small ones, and fresh memory would be cleared and collected for each.
// (A sync.Pool would lose them at every collection.)
var tables = freeList[[]uint8]{drop: freeBytes}

// getTable returns a table of size bytes, its contents undefined.
func getTable(size int) []uint8 {
	if b, ok := tables.get(func(b []uint8) bool { return cap(b) >= size }); ok {
		return b[:size]
	}
	return makeBytes(size)
}

// release gives the problem's table back for reuse, or frees it, and ends
// the problem's use of its variant's codes; the problem must not be used
// after.
func (p *problem) release() {
	if p.tab == nil {
		return
	}
	if cap(p.tab) <= 64<<20 {
		tables.put(p.tab)
	} else {
		freeBytes(p.tab)
	}
	p.tab = nil
	p.codes.done()
}

// A freeList keeps a few things for reuse. It is safe for concurrent use.
type freeList[T any] struct {
	mu    sync.Mutex
	items []T
	drop  func(T) // if not nil, called on what the list drops
}

// maxFree is how many things a freeList keeps.
const maxFree = 8

// get returns a kept thing that fits, if there is one.
func (f *freeList[T]) get(fits func(T) bool) (T, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.items) - 1; i >= 0; i-- {
		if x := f.items[i]; fits(x) {
			f.items = append(f.items[:i], f.items[i+1:]...)
			return x, true
		}
	}
	var zero T
	return zero, false
}

// put keeps x, dropping the oldest thing kept if there are too many.
func (f *freeList[T]) put(x T) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.items) == maxFree {
		if f.drop != nil {
			f.drop(f.items[0])
		}
		f.items = append(f.items[:0], f.items[1:]...)
	}
	f.items = append(f.items, x)
}

// fillTable scores every code of the space, as a guess, against every
// column.
func (p *problem) fillTable() {
	N, n := p.N, p.stride
	// The feedbacks that occur, bit f%64 of word f/64: dense feedbacks
	// run past 64 from 10 pegs on.
	var used [4]atomic.Uint64
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 8
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var keys []uint16
			var occur [4]uint64
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					break
				}
				for c := lo; c < min(lo+chunk, n); c++ {
					row := p.tab[c*N : (c+1)*N]
					if p.pos != nil {
						p.fillUnary(p.cols[c], row, &occur)
						continue
					}
					// By symmetry, the candidate's code as a guess
					// against every code.
					if keys == nil {
						keys = make([]uint16, N)
					}
					p.sp.All().Keys(int(p.cols[c]), keys)
					if len(p.fbs) <= 64 {
						var seen uint64 // in a register
						for g, k := range keys {
							d := p.keyDense[k]
							row[g] = d
							seen |= 1 << (d & 63)
						}
						occur[0] |= seen
						continue
					}
					for g, k := range keys {
						d := p.keyDense[k]
						row[g] = d
						occur[d>>6&3] |= 1 << (d & 63)
					}
				}
			}
			for i, x := range occur {
				used[i].Or(x)
			}
		})
	}
	wg.Wait()
	p.b = -1 // the win
	for i := range used {
		p.b += bits.OnesCount64(used[i].Load())
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
	p.fill = make([]int32, n+2)
	p.levels = make([]int8, n+2)
	for m := 1; m <= n+1; m++ {
		total, levels := bestCase(m, p.b)
		p.fill[m], p.levels[m] = int32(total), int8(levels)
	}
	p.fill64 = new([128]int32)
	copy(p.fill64[:], p.fill[:min(len(p.fill), 65)])
}

// bestCase returns the least total number of guesses that finds every one
// of m codes, and the fewest guesses that can, where each guess splits the
// codes it does not find into at most b classes: one code found with the
// first guess, b with the second, b² with the third, and so on.
func bestCase(m, b int) (total, levels int) {
	b = max(b, 1)
	left, width := m, 1
	for left > 0 {
		levels++
		k := min(left, width)
		total += k * levels
		left -= k
		width *= b
	}
	return total, levels
}

// columns gives every column two random 64-bit keys, its colour mask and
// its pegs.
func (p *problem) columns() {
	n, P := p.stride, p.rules.Pegs
	rng := rand.New(rand.NewPCG(0x6d6173746572, 0x6d696e64))
	p.z1, p.z2 = make([]uint64, n), make([]uint64, n)
	p.masks = make([]uint64, n)
	p.pegsOf = make([]uint8, n*P)
	for c, g := range p.cols {
		p.z1[c], p.z2[c] = rng.Uint64(), rng.Uint64()
		p.masks[c] = p.colours[g]
		copy(p.pegsOf[c*P:c*P+P], p.pegs[int(g)*P:int(g)*P+P])
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
