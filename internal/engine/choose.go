package engine

import (
	"context"
	"math"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// A Chooser picks a strategy's guess: the code whose split of the
// candidates scores best under Obj, a candidate on a tie, then the lowest
// code. With ConsistentOnly it picks among the candidates alone.
type Chooser struct {
	V              *Variant
	Obj            Objective
	ConsistentOnly bool

	pools poolCache
}

// poolCache keeps the guess pools of the groups a search meets: the nodes
// of a tree share a few hundred groups, and listing a pool costs a pass
// over the codes.
type poolCache struct {
	sync.Mutex
	m     map[string][]int32
	elems int
}

// maxPoolElems bounds the guesses a poolCache holds, 256 KB.
const maxPoolElems = 1 << 16

func (pc *poolCache) get(key string) ([]int32, bool) {
	pc.Lock()
	defer pc.Unlock()
	p, ok := pc.m[key]
	return p, ok
}

// put keeps a copy of pool under key while there is room: the groups met
// first, near the root, are the ones met most.
func (pc *poolCache) put(key string, pool []int32) {
	pc.Lock()
	defer pc.Unlock()
	if pc.elems+len(pool) > maxPoolElems {
		return
	}
	if pc.m == nil {
		pc.m = make(map[string][]int32)
	}
	pc.m[key] = slices.Clone(pool)
	pc.elems += len(pool)
}

// worker is the memory one goroutine of a search reuses from node to node.
type worker struct {
	set  set
	sc   scratch
	pool []int32
	x    []uint8
	// levels[d] is the memory of the walk's node at depth d; a node's
	// children, walked one after another, share the next level's.
	levels []level
	// history holds the guesses of the path to the walk's node.
	history []mm.Code
}

// A level is a node's memory for splitting its candidates.
type level struct {
	keys   []uint16
	counts []int
	sorted []uint32
}

// Choose returns the space index of the guess for the candidates members
// (ascending space indices, not empty) after the guesses of history. A
// scan of many guesses uses up to workers goroutines.
func (ch *Chooser) Choose(ctx context.Context, members []uint32, history []mm.Code, workers int) (int, error) {
	return ch.choose(ctx, &worker{}, members, history, workers)
}

func (ch *Chooser) choose(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers int) (int, error) {
	n := len(members)
	if n <= 2 {
		return int(members[0]), nil
	}
	v := ch.V
	stopAt, canStop := int64(0), false
	if n <= v.pairs {
		// The lowest candidate that splits the candidates into classes
		// of one is the answer: no guess scores better, and a candidate
		// wins the tie. When none does, the first code that does ends
		// the scan.
		if g, ok := ch.perfectCandidate(wk, members); ok {
			return g, nil
		}
		stopAt, canStop = ch.Obj.Perfect(n), true
	}
	pool := ch.pool(wk, members, history)
	wk.set.load(v, members)
	p, err := wk.set.scan(ctx, pool, ch.Obj, stopAt, canStop, workers, &wk.sc)
	if err != nil {
		return 0, err
	}
	return p.Index, nil
}

// perfectCandidate returns the lowest member that splits members into
// classes of one, if any.
func (ch *Chooser) perfectCandidate(wk *worker, members []uint32) (int, bool) {
	v := ch.V
	keys := wk.sc.keys[:0]
	if cap(keys) < len(members) {
		keys = make([]uint16, len(members))
	}
	keys = keys[:len(members)]
	wk.sc.keys = keys
	var seen [1024]uint64
	for _, g := range members {
		v.KeysOf(int(g), members, keys)
		perfect := true
		for _, k := range keys {
			if seen[k>>6]&(1<<(k&63)) != 0 {
				perfect = false
			}
			seen[k>>6] |= 1 << (k & 63)
		}
		for _, k := range keys {
			seen[k>>6] = 0
		}
		if perfect {
			return int(g), true
		}
	}
	return 0, false
}

// pool returns the guesses to score, ascending space indices, one per
// class of codes the symmetries of the history relate; nil for every code.
// They are wk's memory.
func (ch *Chooser) pool(wk *worker, members []uint32, history []mm.Code) []int32 {
	v := ch.V
	// Colours no candidate holds are interchangeable in a guess.
	grp := symmetry.New(v.rules, history).Exclude(^v.held(members))
	if ch.ConsistentOnly {
		wk.pool = wk.pool[:0]
		if cap(wk.x) < v.P {
			wk.x = make([]uint8, v.P)
		}
		x := wk.x[:v.P]
		for _, c := range members {
			code := v.sp.Code(int(c))
			for j := range x {
				x[j] = uint8(code.Peg(j))
			}
			if grp.Canonical(x) {
				wk.pool = append(wk.pool, int32(c))
			}
		}
		return wk.pool
	}
	if grp.Trivial() {
		return nil
	}
	key := grp.Key()
	if p, ok := ch.pools.get(key); ok {
		return p
	}
	wk.pool = grp.AppendList(wk.pool[:0], v.sp)
	ch.pools.put(key, wk.pool)
	return wk.pool
}

// Pool returns the guesses Choose scores for the candidates members after
// the guesses of history, ascending space indices: one per class of codes
// that the history's symmetries relate, or that differ only in colours no
// candidate holds. The slice may be shared: the caller must not modify it.
func (ch *Chooser) Pool(members []uint32, history []mm.Code) []int32 {
	p := ch.pool(&worker{}, members, history)
	if p == nil {
		p = make([]int32, ch.V.sp.Len())
		for i := range p {
			p[i] = int32(i)
		}
	}
	return p
}

// ScoreAll returns the Pick of every guess of pool against members, scored
// in full, in the order of pool.
func (ch *Chooser) ScoreAll(ctx context.Context, members []uint32, pool []int32) ([]Pick, error) {
	var s set
	var sc scratch
	s.load(ch.V, members)
	sc.ready(&s)
	out := make([]Pick, len(pool))
	for i, g := range pool {
		if i%scanChunk == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		score, cons, _ := sc.score(&s, int(g), ch.Obj, math.MaxInt64)
		out[i] = Pick{OK: true, Cons: cons, Score: score, Index: int(g)}
	}
	return out, nil
}

// Counts adds to counts[k], for every member, one under the key k of the
// feedback it gives guess g; counts must have Keys() elements.
func (v *Variant) Counts(g int, members []uint32, counts []uint32) {
	keys := make([]uint16, len(members))
	v.KeysOf(g, members, keys)
	for _, k := range keys {
		counts[k]++
	}
}
