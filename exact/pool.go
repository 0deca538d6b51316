package exact

import (
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// autLevels is how many guesses a history may hold for the search to look
// for its permutations of positions and colours; deeper, only the
// relabellings of free and excluded colours are used, which cost nothing
// to find and leave few permutations out.
const autLevels = 2

// pools hands out the guesses a node must try, one per class of
// equivalent codes, as ascending space indices, and keeps them: many nodes
// share the same colours and symmetries, and many searches of a variant
// the same pools. It is safe for concurrent use.
//
// The pools kept hold at most maxPooled indices in all; past that they are
// all dropped and made again when needed.
type pools struct {
	mu      sync.Mutex
	rel     map[[2]uint64][]int32 // by used and excluded colours
	aut     map[histKey][]int32   // by history and excluded colours
	byGroup map[string][]int32    // by symmetry group (symmetry.Group.Key)
	// groups holds the symmetries of each history (its key's excl is 0,
	// nil if it has none beyond relabelling colours): a history recurs
	// with as many sets of excluded colours as its nodes' candidates
	// leave out, 3 times on average on 6 × 4.
	groups map[histKey]*symmetry.Group
	elems  int // indices and entries the maps hold
	// slab is where the pools kept are copied to, one after another:
	// huge pages rather than a fresh small object (and its page faults)
	// for each of hundreds of pools. slabs are all those the pools kept
	// are in, and dropped those of pools dropped, which searches may
	// still read: they are freed when no search uses the pools (free).
	slab           []int32
	slabs, dropped [][]int32
}

// slabLen is the indices of one slab: 2 MiB, a huge page.
const slabLen = hugePage / 4

// maxPooled bounds the indices the pools keep: 64 MiB.
const maxPooled = 1 << 24

// room makes the maps ready to take n more indices, dropping every pool if
// they would hold too many. ps.mu must be held.
func (ps *pools) room(n int) {
	if ps.aut == nil || ps.elems+n > maxPooled {
		ps.dropAll()
	}
}

// dropAll empties the maps; their slabs wait in dropped for free. ps.mu
// must be held.
func (ps *pools) dropAll() {
	ps.rel, ps.aut, ps.byGroup, ps.elems = make(map[[2]uint64][]int32), make(map[histKey][]int32), make(map[string][]int32), 0
	ps.groups = make(map[histKey]*symmetry.Group)
	ps.slab = nil
	ps.dropped = append(ps.dropped, ps.slabs...)
	ps.slabs = nil
}

// free frees the slabs of the pools dropped, and with all every pool. It
// is called when no search uses the pools.
func (ps *pools) free(all bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if all {
		ps.dropAll()
	}
	for _, s := range ps.dropped {
		freeInt32s(s)
	}
	ps.dropped = nil
}

// keep returns a copy of pool in the slab. ps.mu must be held.
func (ps *pools) keep(pool []int32) []int32 {
	if cap(ps.slab)-len(ps.slab) < len(pool) {
		ps.slab = makeInt32s(max(slabLen, len(pool)))[:0]
		ps.slabs = append(ps.slabs, ps.slab)
	}
	at := len(ps.slab)
	ps.slab = append(ps.slab, pool...)
	return ps.slab[at:len(ps.slab):len(ps.slab)]
}

// get returns the pool of the worker's node, whose candidates hold none of
// the colours of excl.
func (ps *pools) get(w *worker, excl uint64) []int32 {
	p := w.p
	if len(w.hist) <= autLevels {
		if pool := ps.byHistory(p, w.hist, excl, &w.scratch); pool != nil {
			return pool
		}
	}
	var used uint64
	for _, g := range w.hist {
		used |= p.guessMask(g)
	}
	return ps.relabel(p, used, excl, &w.scratch)
}

// relabel returns the pool of a history that used the colours of used, with
// only the relabellings of free and excluded colours. buf is scratch
// memory, so that making a pool leaves no garbage but the pool.
func (ps *pools) relabel(p *problem, used, excl uint64, buf *[]int32) []int32 {
	k := [2]uint64{used, excl}
	ps.mu.Lock()
	pool, ok := ps.rel[k]
	ps.mu.Unlock()
	if ok {
		return pool
	}
	*buf = symmetry.Relabel(p.rules, used, excl).AppendList((*buf)[:0], p.sp)
	ps.mu.Lock()
	ps.room(len(*buf))
	pool = ps.keep(*buf)
	ps.rel[k] = pool
	ps.elems += len(pool)
	ps.mu.Unlock()
	return pool
}

// histKey names a history of up to autLevels guesses and the colours its
// candidates exclude.
type histKey struct {
	excl uint64
	hist [autLevels]int32
	n    int8
}

// byHistory returns the pool of a history of up to autLevels guesses, using
// its permutations, or nil if it has none beyond relabelling colours. buf
// is scratch memory, as for relabel.
func (ps *pools) byHistory(p *problem, hist []int32, excl uint64, buf *[]int32) []int32 {
	k := histKey{excl: excl, n: int8(len(hist))}
	copy(k.hist[:], hist)
	ps.mu.Lock()
	pool, ok := ps.aut[k]
	ps.mu.Unlock()
	if ok {
		return pool
	}
	group := ps.group(p, k)
	if group == nil {
		ps.mu.Lock()
		ps.room(0)
		ps.aut[k] = nil
		ps.mu.Unlock()
		return nil
	}
	// Histories with the same symmetries share a pool.
	group = group.Exclude(excl)
	gk := group.Key()
	ps.mu.Lock()
	pool, ok = ps.byGroup[gk]
	ps.mu.Unlock()
	if !ok {
		var used uint64
		for _, g := range hist {
			used |= p.guessMask(g)
		}
		normal := ps.relabel(p, used, excl, buf)
		*buf = group.AppendReduced((*buf)[:0], p.sp, normal)
	}
	ps.mu.Lock()
	if !ok {
		ps.room(len(*buf))
		pool = ps.keep(*buf)
		ps.byGroup[gk] = pool
		ps.elems += len(pool)
	} else {
		ps.room(0)
	}
	ps.aut[k] = pool
	ps.elems++ // an entry by history costs little, but still counts
	ps.mu.Unlock()
	return pool
}

// group returns the symmetries of the history of k, whatever its excluded
// colours, or nil if it has none beyond relabelling colours.
func (ps *pools) group(p *problem, k histKey) *symmetry.Group {
	k.excl = 0
	ps.mu.Lock()
	group, ok := ps.groups[k]
	ps.mu.Unlock()
	if ok {
		return group
	}
	var arr [autLevels]mm.Code
	codes := arr[:k.n]
	for i, g := range k.hist[:k.n] {
		codes[i] = p.sp.Code(int(g))
	}
	if group = symmetry.New(p.rules, codes); !group.Permutes() {
		group = nil
	}
	ps.mu.Lock()
	ps.room(0)
	ps.groups[k] = group
	ps.elems++
	ps.mu.Unlock()
	return group
}

// guessMask returns the colours of the code of space index g.
func (p *problem) guessMask(g int32) uint64 { return p.colours[g] }
