package mastermind

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/mastermind-toolkit/mastermind/internal/spacedata"
)

// The scoring engine reads a space's packed codes through spacedata.
func init() {
	spacedata.Packed = func(space any) []uint64 { return space.(*Space).data }
}

// MaxSpace is the largest number of codes a Space enumerates.
const MaxSpace = 1 << 24

// A Space is every code of a variant, enumerated in lexicographic order and
// packed for fast scoring. Codes are named by their index in that order.
//
// A Space is immutable and safe for concurrent use. SpaceOf shares one Space
// per variant.
type Space struct {
	rules  Rules
	pk     packer
	n      int
	colors []uint8  // n × pegs colours
	data   []uint64 // n × stride packed words
	all    *Set
}

var spaces struct {
	sync.Mutex
	m     map[Rules]*Space
	total int
}

// SpaceOf returns the Space of r, building it on first use. It fails with
// ErrInvalidRules for bad rules and ErrTooLarge for variants of more than
// MaxSpace codes.
//
// The cost of the first call is O(size × pegs); later calls for the same
// rules are O(1) while the Space stays cached.
func SpaceOf(r Rules) (*Space, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if n := r.Size(); n > MaxSpace {
		return nil, fmt.Errorf("%w: %s has %s codes, more than the %d that can be enumerated",
			ErrTooLarge, r, sizeString(r), MaxSpace)
	}
	spaces.Lock()
	defer spaces.Unlock()
	if sp := spaces.m[r]; sp != nil {
		return sp, nil
	}
	sp := newSpace(r)
	if spaces.m == nil || spaces.total+sp.n > 2*MaxSpace {
		spaces.m, spaces.total = make(map[Rules]*Space), 0
	}
	spaces.m[r] = sp
	spaces.total += sp.n
	return sp, nil
}

func sizeString(r Rules) string {
	if n := r.Size(); n < 1e15 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("about 10^%.1f", r.Log10Size())
}

func newSpace(r Rules) *Space {
	n := int(r.Size())
	pk := newPacker(r.Pegs, r.Colors)
	sp := &Space{rules: r, pk: pk, n: n,
		colors: make([]uint8, n*r.Pegs),
		data:   make([]uint64, n*pk.stride()),
	}
	if r.Distinct {
		sp.fillDistinct()
	} else {
		sp.fill()
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	sp.all = &Set{sp: sp, idx: idx, data: sp.data}
	return sp
}

// fillChunk is the fewest codes a goroutine of fill lists: below it,
// starting one costs more than it saves.
const fillChunk = 1 << 16

// fill lists and packs the codes of a variant with repeats allowed, in
// parallel: the code of index i is i's digits in base colours, the first
// peg most significant, so each goroutine starts its range from its first
// index and counts on from there. On 8 × 8, listing the 16.7 M codes one
// at a time took most of a game's second.
func (sp *Space) fill() {
	n := sp.n
	workers := min(runtime.GOMAXPROCS(0), max(1, n/fillChunk))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp.fillRange(lo, hi)
		}()
	}
	wg.Wait()
}

// fillRange lists and packs the codes of indices lo to hi-1 (repeats
// allowed).
func (sp *Space) fillRange(lo, hi int) {
	p, c := sp.rules.Pegs, uint8(sp.rules.Colors)
	st := sp.pk.stride()
	code := make([]uint8, p)
	for j, i := p-1, lo; j >= 0; j-- {
		code[j] = uint8(i % int(c))
		i /= int(c)
	}
	for i := lo; i < hi; i++ {
		copy(sp.colors[i*p:], code)
		sp.pk.pack(sp.data[i*st:(i+1)*st], code)
		for j := p - 1; j >= 0; j-- {
			if code[j]++; code[j] < c {
				break
			}
			code[j] = 0
		}
	}
}

// fillDistinct lists and packs the codes of a variant whose pegs differ,
// in lexicographic order.
func (sp *Space) fillDistinct() {
	r := sp.rules
	code := make([]uint8, r.Pegs)
	var used uint64
	i := 0
	var walk func(j int)
	walk = func(j int) {
		if j == r.Pegs {
			copy(sp.colors[i*r.Pegs:], code)
			i++
			return
		}
		for k := 0; k < r.Colors; k++ {
			if used&(1<<k) != 0 {
				continue
			}
			code[j] = uint8(k)
			used |= 1 << k
			walk(j + 1)
			used &^= 1 << k
		}
	}
	walk(0)
	st := sp.pk.stride()
	for i := 0; i < sp.n; i++ {
		sp.pk.pack(sp.data[i*st:(i+1)*st], sp.colors[i*r.Pegs:(i+1)*r.Pegs])
	}
}

// Rules returns the variant, with defaults applied.
func (sp *Space) Rules() Rules { return sp.rules }

// Len returns the number of codes.
func (sp *Space) Len() int { return sp.n }

// Code returns the code of index i.
func (sp *Space) Code(i int) Code {
	p := sp.rules.Pegs
	return codeOf(sp.colors[i*p : (i+1)*p])
}

// Index returns the index of c, or false if c is not a code of the variant.
// It costs O(pegs).
func (sp *Space) Index(c Code) (int, bool) {
	if sp.rules.Check(c) != nil {
		return 0, false
	}
	r := sp.rules
	i := 0
	if !r.Distinct {
		for j := 0; j < r.Pegs; j++ {
			i = i*r.Colors + c.Peg(j)
		}
		return i, true
	}
	// Rank among arrangements: at each position, the number of unused
	// colours below the peg, weighted by the arrangements of the rest.
	var used uint64
	for j := 0; j < r.Pegs; j++ {
		k := c.Peg(j)
		below := 0
		for m := 0; m < k; m++ {
			if used&(1<<m) == 0 {
				below++
			}
		}
		used |= 1 << k
		i = i*(r.Colors-j) + below
	}
	return i, true
}

// CodeAt returns the i-th code of r in the order of its Space (Space.Code),
// without enumerating the space: a source of every secret of a variant
// too large to hold in memory, in constant memory. It is the inverse of
// Space.Index, and costs O(pegs) (O(pegs·colours) with distinct colours).
func (r Rules) CodeAt(i uint64) (Code, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return Code{}, err
	}
	if i >= r.Size() {
		return Code{}, fmt.Errorf("%w: code %d of %v, which has %d", ErrInvalidCode, i, r, r.Size())
	}
	colors := make([]uint8, r.Pegs)
	if !r.Distinct {
		for j := r.Pegs - 1; j >= 0; j-- {
			colors[j] = uint8(i % uint64(r.Colors))
			i /= uint64(r.Colors)
		}
		return codeOf(colors), nil
	}
	// The digits of i in the radices colours, colours−1, …, the last
	// least significant: the rank of each peg among the unused colours.
	for j := r.Pegs - 1; j >= 0; j-- {
		radix := uint64(r.Colors - j)
		colors[j] = uint8(i % radix)
		i /= radix
	}
	var used uint64
	for j, below := range colors {
		k := 0
		for ; ; k++ {
			if used&(1<<k) == 0 {
				if below == 0 {
					break
				}
				below--
			}
		}
		used |= 1 << k
		colors[j] = uint8(k)
	}
	return codeOf(colors), nil
}

// All returns the set of every code.
func (sp *Space) All() *Set { return sp.all }

// Keys returns one more than the largest feedback key: the length of a
// counting array, indexed by key, passed to Set.Count. Keys are not
// consecutive, so some entries go unused.
func (sp *Space) Keys() int { return sp.pk.keys() }

// Key returns the feedback key of f; Set.Count counts feedbacks by key.
func (sp *Space) Key(f Feedback) int { return sp.pk.key(f.Black, f.White) }

// KeyFeedback returns the feedback of key k.
func (sp *Space) KeyFeedback(k int) Feedback {
	b, w := sp.pk.feedback(k)
	return Feedback{Black: b, White: w}
}

// SolvedKey returns the key of the feedback that ends a game, all pegs
// black. A guess is in a set exactly when its count under this key is 1.
func (sp *Space) SolvedKey() int { return sp.pk.key(sp.rules.Pegs, 0) }

// Score returns the feedback between the codes of index i and j, using the
// packed forms.
func (sp *Space) Score(i, j int) Feedback {
	return sp.KeyFeedback(sp.pk.keyOf(sp.packed(i), sp.packed(j)))
}

func (sp *Space) packed(i int) []uint64 {
	st := sp.pk.stride()
	return sp.data[i*st : (i+1)*st : (i+1)*st]
}
