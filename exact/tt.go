package exact

import "sync"

// A table remembers what searches learnt of candidate sets, in a fixed
// amount of memory: for a set and a depth limit, the exact cost of its best
// strategy with the first guess of it, or a lower bound of the cost when a
// search was cut off. Sets reached along different paths (a guess and then
// another, or the two the other way round) are searched once.
//
// Entries live in buckets of four; a new entry takes the place of the same
// set's, else of the smallest set's. Memory never grows after newTable.
type table struct {
	buckets []bucket
	mask    uint64
	locks   [256]sync.Mutex
}

type bucket [4]entry

// entry is one set's knowledge. A zero entry is empty (no set has size 0).
type entry struct {
	a     uint64 // key.a
	b     uint64 // key.b, whose low 16 bits hold the set's size
	cost  int32  // exact cost, or a lower bound when guess < 0
	guess int32  // space index of the first guess of a best strategy; -1 for a bound
	limit uint16 // the depth limit the search ran under (set size for none)
	depth int8   // worst case of the strategy found (exact entries)
	// canon is set on an exact result of a search whose lower bound of
	// the set was not raised by the table: its guess is then the first,
	// in the search's order, that reaches the least cost, the guess a
	// tree's rebuild would search the set again for (see build and
	// entry.canonical).
	canon bool
}

// entrySize is the memory of one entry, for sizing tables.
const entrySize = 32

// newTable returns a table of about bytes bytes (at least one bucket).
func newTable(bytes int64) *table {
	n := uint64(1)
	for int64(n*2)*4*entrySize <= bytes {
		n *= 2
	}
	if b, ok := buckets.get(func(b []bucket) bool { return uint64(len(b)) == n }); ok {
		clear(b)
		return &table{buckets: b, mask: n - 1}
	}
	return &table{buckets: makeBuckets(int(n)), mask: n - 1}
}

// buckets keeps the memory of small tables for reuse.
var buckets = freeList[[]bucket]{drop: freeBuckets}

// release gives the table's memory back for reuse, or frees it; the table
// must not be used after.
func (t *table) release() {
	switch {
	case t.buckets == nil:
	case len(t.buckets) <= 1<<16:
		buckets.put(t.buckets)
	default:
		freeBuckets(t.buckets)
	}
	t.buckets = nil
}

func (t *table) lock(i uint64) *sync.Mutex { return &t.locks[i&255] }

// lookup returns what is known of set k under a depth limit: an exact cost
// with its first guess and worst case, or a lower bound (guess < 0, cost 0
// if nothing is known). limit counts the guesses left; a limit of at least
// the set's size means none.
func (t *table) lookup(k key, limit int) (cost int32, guess int32, depth int8) {
	e, _ := t.get(k)
	return e.under(limit)
}

// get returns the entry of set k, if the table holds one.
func (t *table) get(k key) (entry, bool) {
	i := k.a & t.mask
	mu := t.lock(i)
	mu.Lock()
	e, ok := t.find(i, k)
	mu.Unlock()
	return e, ok
}

// under is lookup's answer from e, the zero entry if the table knew
// nothing.
func (e entry) under(limit int) (cost int32, guess int32, depth int8) {
	switch {
	case e.b == 0:
		return 0, -1, 0
	case e.guess >= 0:
		// Exact under e.limit: also exact under any limit from the worst
		// case it reached up to e.limit, and a lower bound below that.
		switch {
		case int(e.depth) <= limit && limit <= int(e.limit):
			return e.cost, e.guess, e.depth
		case limit < int(e.depth):
			return e.cost, -1, 0
		}
	case limit <= int(e.limit):
		// A bound under e.limit bounds every tighter limit too.
		return e.cost, -1, 0
	}
	return 0, -1, 0
}

// canonical returns the first guess in order that reaches the least cost
// of e's set, of n codes, under limit, if e knows it: an exact result
// valid under limit, marked canon, of a search that looked at the set's
// guesses as one under limit would. Otherwise it returns -1.
func (e entry) canonical(p *problem, n, limit int) int32 {
	if _, g, _ := e.under(limit); g < 0 || !e.canon || !p.sameScan(n, limit, int(e.limit)) {
		return -1
	}
	return e.guess
}

func (t *table) find(i uint64, k key) (entry, bool) {
	for _, e := range &t.buckets[i] {
		if e.a == k.a && e.b == k.b {
			return e, true
		}
	}
	return entry{}, false
}

// store records e for set k, replacing what the table held for the set
// when e says more: an exact cost over a bound, a higher bound, or any
// result under a different limit (the latest search is the likeliest to be
// asked again).
func (t *table) store(k key, e entry) {
	e.a, e.b = k.a, k.b
	i := k.a & t.mask
	mu := t.lock(i)
	mu.Lock()
	defer mu.Unlock()
	bk := &t.buckets[i]
	victim := 0
	for j := range bk {
		old := &bk[j]
		if old.a == k.a && old.b == k.b {
			if old.limit == e.limit && old.guess >= 0 && e.guess < 0 {
				return // keep the exact result
			}
			if old.limit == e.limit && old.guess < 0 && e.guess < 0 && old.cost >= e.cost {
				return
			}
			*old = e
			return
		}
		if old.b&0xffff < bk[victim].b&0xffff {
			victim = j
		}
	}
	bk[victim] = e
}
