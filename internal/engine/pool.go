package engine

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"
)

// A pool is a set of guesses to score: a bit a code of the space, in words
// of 64, with the number of bits set; its guesses lie in the words lo to
// hi−1. The nil bits are every code.
type pool struct {
	bits   []uint64
	n      int
	lo, hi int
}

// allCodes returns the pool of every one of codes codes.
func allCodes(codes int) pool { return pool{n: codes, hi: (codes + 63) / 64} }

// list returns the space indices of p's guesses, ascending; codes is the
// number of codes of the space.
func (p pool) list(codes int) []int32 {
	if p.bits == nil {
		out := make([]int32, codes)
		for i := range out {
			out[i] = int32(i)
		}
		return out
	}
	out := make([]int32, 0, p.n)
	for w, x := range p.bits {
		for ; x != 0; x &= x - 1 {
			out = append(out, int32(w<<6|bits.TrailingZeros64(x)))
		}
	}
	return out
}

// poolCache keeps the guess pools of the groups a search meets, the ones
// used last while they fit in maxPoolBytes: the nodes of a tree share a
// few hundred groups, met again and again in the walk's order, and
// listing a pool costs a pass over the codes and their symmetries.
type poolCache struct {
	sync.Mutex
	m     map[string]*poolEntry
	bytes int
	clock uint64
}

type poolEntry struct {
	p    pool
	used uint64
}

// maxPoolBytes bounds the pools a poolCache holds: 128 pools of 8 × 5,
// all those of 10 × 4 but a few.
const maxPoolBytes = 512 << 10

func (pc *poolCache) get(key string) (pool, bool) {
	pc.Lock()
	defer pc.Unlock()
	e, ok := pc.m[key]
	if !ok {
		return pool{}, false
	}
	pc.clock++
	e.used = pc.clock
	return e.p, true
}

// put keeps p under key, dropping the pools used longest ago to make room;
// a key already kept (two workers listed its pool at once) stays as it is.
// p's bits are the cache's from then on: no one may change them.
func (pc *poolCache) put(key string, p pool) {
	size := 8 * len(p.bits)
	if size > maxPoolBytes {
		return
	}
	pc.Lock()
	defer pc.Unlock()
	pc.clock++
	if e, ok := pc.m[key]; ok {
		e.used = pc.clock
		return
	}
	if pc.m == nil {
		pc.m = make(map[string]*poolEntry)
	}
	if pc.bytes+size > maxPoolBytes {
		pc.evict(maxPoolBytes - max(size, maxPoolBytes/4))
	}
	pc.m[key] = &poolEntry{p: p, used: pc.clock}
	pc.bytes += size
}

// evict drops the pools used longest ago until those left take at most
// room bytes. It frees a quarter of the cache or more at once, so that its
// pass over the pools, sorted, is paid once in many puts, not at each.
func (pc *poolCache) evict(room int) {
	type aged struct {
		key  string
		used uint64
	}
	all := make([]aged, 0, len(pc.m))
	for k, e := range pc.m {
		all = append(all, aged{k, e.used})
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.used, b.used) })
	for _, a := range all {
		if pc.bytes <= room {
			break
		}
		pc.bytes -= 8 * len(pc.m[a.key].p.bits)
		delete(pc.m, a.key)
	}
}
