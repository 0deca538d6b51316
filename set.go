package mastermind

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
)

// A Set is a subset of a Space, such as the codes still consistent with a
// game's history. Members are kept in ascending order with their packed forms
// side by side, so that scoring a guess against every member is one pass over
// contiguous memory.
//
// A Set is immutable: Filter and Split return new sets. It is safe for
// concurrent use.
type Set struct {
	sp   *Space
	idx  []uint32 // ascending indices into sp
	data []uint64 // packed members, sp.pk.stride() words each
}

// Space returns the space the set is drawn from.
func (s *Set) Space() *Space { return s.sp }

// Len returns the number of members.
func (s *Set) Len() int { return len(s.idx) }

// Index returns the space index of the i-th member, in ascending order.
func (s *Set) Index(i int) int { return int(s.idx[i]) }

// Code returns the i-th member.
func (s *Set) Code(i int) Code { return s.sp.Code(int(s.idx[i])) }

// Codes returns every member, in order.
func (s *Set) Codes() []Code {
	out := make([]Code, len(s.idx))
	for i := range out {
		out[i] = s.Code(i)
	}
	return out
}

// Contains reports whether c is a member. It costs O(log Len).
func (s *Set) Contains(c Code) bool {
	i, ok := s.sp.Index(c)
	if !ok {
		return false
	}
	_, found := slices.BinarySearch(s.idx, uint32(i))
	return found
}

// Count adds to counts[k], for every member, one under the key k of the
// feedback the member gives to the guess of space index g. counts must have
// at least Space().Keys() elements; it is not cleared first. A guess is a
// member exactly when counts[Space().SolvedKey()] grows by one.
//
// Count costs O(Len) and allocates nothing: it is the hot loop of the
// scoring strategies.
func (s *Set) Count(g int, counts []uint32) {
	s.sp.pk.count(s.sp.packed(g), s.data, counts)
}

// Keys writes into keys[i] the feedback key of the i-th member against the
// guess of space index g; keys must have at least Len elements. Strategies
// that look at few candidates use it to visit only the classes that occur.
func (s *Set) Keys(g int, keys []uint16) {
	s.sp.pk.keysOf(s.sp.packed(g), s.data, keys[:len(s.idx)])
}

// Filter returns the members that give feedback f to guess g; none for a
// feedback that cannot occur. g must be a code of the space's variant.
func (s *Set) Filter(g Code, f Feedback) (*Set, error) {
	gi, ok := s.sp.Index(g)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not a code of %s", ErrInvalidCode, g, s.sp.rules)
	}
	if s.sp.rules.CheckFeedback(f) != nil {
		return &Set{sp: s.sp}, nil
	}
	pk := s.sp.pk
	want := pk.key(f.Black, f.White)
	gp := s.sp.packed(gi)
	st := pk.stride()
	out := &Set{sp: s.sp}
	for i := range s.idx {
		m := s.data[i*st : (i+1)*st]
		if pk.keyOf(gp, m) == want {
			out.idx = append(out.idx, s.idx[i])
			out.data = append(out.data, m...)
		}
	}
	return out, nil
}

// filterTurns returns the members consistent with every turn: Filter by
// each turn in turn, in one pass over the members, shared out among
// goroutines on large sets (the whole of 8 × 8 is 16.7 M codes).
func (s *Set) filterTurns(turns []Turn) (*Set, error) {
	pk := s.sp.pk
	st := pk.stride()
	guesses := make([][]uint64, len(turns))
	want := make([]int, len(turns))
	impossible := false // a feedback no code gives: none is left
	for i, t := range turns {
		gi, ok := s.sp.Index(t.Guess)
		if !ok {
			return nil, fmt.Errorf("%w: %s is not a code of %s", ErrInvalidCode, t.Guess, s.sp.rules)
		}
		impossible = impossible || s.sp.rules.CheckFeedback(t.Feedback) != nil
		guesses[i], want[i] = s.sp.packed(gi), pk.key(t.Feedback.Black, t.Feedback.White)
	}
	if impossible {
		return &Set{sp: s.sp}, nil
	}
	if len(turns) == 0 {
		return s, nil
	}
	n := len(s.idx)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/fillChunk))
	kept := make([][]uint32, workers) // positions in s, ascending
	var wg sync.WaitGroup
	for w := range kept {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out []uint32
		next:
			for i := lo; i < hi; i++ {
				m := s.data[i*st : (i+1)*st]
				for t, g := range guesses {
					if pk.keyOf(g, m) != want[t] {
						continue next
					}
				}
				out = append(out, uint32(i))
			}
			kept[w] = out
		}()
	}
	wg.Wait()
	total := 0
	for _, k := range kept {
		total += len(k)
	}
	out := &Set{sp: s.sp, idx: make([]uint32, 0, total), data: make([]uint64, 0, total*st)}
	for _, k := range kept {
		for _, i := range k {
			out.idx = append(out.idx, s.idx[i])
			out.data = append(out.data, s.data[int(i)*st:(int(i)+1)*st]...)
		}
	}
	return out, nil
}

// A Part is one class of a partition: the members that give one feedback.
type Part struct {
	Feedback
	Count int `json:"count"`
}

// String writes p as "B W: N".
func (p Part) String() string { return p.Feedback.String() + ": " + strconv.Itoa(p.Count) }

// Partition returns the sizes of the classes into which the feedback of
// guess g divides the set, non-empty classes only, in (black, white) order.
func (s *Set) Partition(g Code) ([]Part, error) {
	gi, ok := s.sp.Index(g)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not a code of %s", ErrInvalidCode, g, s.sp.rules)
	}
	counts := make([]uint32, s.sp.Keys())
	s.Count(gi, counts)
	var parts []Part
	for k, n := range counts {
		if n > 0 {
			parts = append(parts, Part{Feedback: s.sp.KeyFeedback(k), Count: int(n)})
		}
	}
	return parts, nil
}

// A Branch is one class of a split: the feedback and the members that give
// it.
type Branch struct {
	Feedback Feedback
	Set      *Set
}

// Split divides the set by the feedback of guess g, a space index, into one
// subset per feedback that occurs, in (black, white) order. It costs O(Len)
// and allocates the subsets in one block.
func (s *Set) Split(g int) []Branch {
	pk := s.sp.pk
	st := pk.stride()
	n := len(s.idx)
	keys := make([]uint16, n)
	pk.keysOf(s.sp.packed(g), s.data, keys)
	counts := make([]int, pk.keys()+1)
	for _, k := range keys {
		counts[k+1]++
	}
	for k := 1; k < len(counts); k++ {
		counts[k] += counts[k-1]
	}
	// counts[k] is now the start of class k.
	idx := make([]uint32, n)
	data := make([]uint64, n*st)
	var out []Branch
	for k := 0; k < pk.keys(); k++ {
		if lo, hi := counts[k], counts[k+1]; hi > lo {
			out = append(out, Branch{Feedback: s.sp.KeyFeedback(k),
				Set: &Set{sp: s.sp, idx: idx[lo:hi:hi], data: data[lo*st : hi*st : hi*st]}})
		}
	}
	next := counts[:pk.keys()]
	for i, k := range keys {
		j := next[k]
		next[k]++
		idx[j] = s.idx[i]
		copy(data[j*st:(j+1)*st], s.data[i*st:(i+1)*st])
	}
	return out
}
