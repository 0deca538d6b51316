package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
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
	// Bonus, in the units of Obj's scores, is taken off a candidate's
	// score: what a chance of ending the game at once is worth beyond
	// its class of one.
	Bonus int64
	// Sample, when on, bounds the guesses scored at each node.
	Sample Sample
	// Rollout, when on, has the guesses of some nodes chosen by playing
	// the best few out.
	Rollout Rollout
	// NoFamilies turns off the bounds shared by the guesses that
	// differ only in their last peg (family.go), which change no choice:
	// for measuring them.
	NoFamilies bool

	pools poolCache
	memo  struct {
		sync.Mutex
		m map[string]int
	}
}

// worker is the memory one goroutine of a search reuses from node to node.
type worker struct {
	set set
	sc  scratch
	// cons marks the canonical candidates, the pool of ConsistentOnly,
	// or the guesses a Sample has listed; it is cleared after each use.
	cons []uint64
	x    []uint8
	// guesses is the list a Sample scores, picks its candidates' scores.
	guesses []int32
	picks   []Pick
	// more is the scratch of the goroutines that share a Sample's scan.
	more []*scratch
	// levels[d] is the memory of the walk's node at depth d; a node's
	// children, walked one after another, share the next level's.
	levels []level
	// history holds the guesses of the path to the walk's node.
	history []mm.Code

	// ranking has chooseSampled keep every guess it scores in ranked.
	ranking        bool
	ranked, scored []Pick
	// roll[d] is the memory of a play-out's node d guesses into the game,
	// rhist the history of its path.
	roll  []level
	rhist []mm.Code
	// helpers are the workers of play-outs run side by side.
	helpers []*worker
	// base holds, by nodeKey, what the rule without play-outs totals
	// from the nodes it played out whole: the play-out of the guess
	// chosen above a node has played out the rule's own guess there.
	base map[uint64]int
}

// A level is a node's memory for splitting its candidates.
type level struct {
	keys   []uint16
	counts []int
	sorted []uint32
	order  []int // a play-out's classes, largest first
	least  []int // by key, the least a play-out's class can cost
}

// Choose returns the space index of the guess for the candidates members
// (ascending space indices, not empty) after the guesses of history. A
// scan of many guesses uses up to workers goroutines.
func (ch *Chooser) Choose(ctx context.Context, members []uint32, history []mm.Code, workers int) (int, error) {
	return ch.choose(ctx, &worker{}, members, history, workers)
}

func (ch *Chooser) choose(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers int) (int, error) {
	if len(history) > topMemoDepth || len(members) < topMemoSize {
		return ch.chooseBy(ctx, wk, members, history, workers, ch.Rollout.covers(len(members)))
	}
	key := memoKey(members, history)
	ch.memo.Lock()
	g, ok := ch.memo.m[key]
	ch.memo.Unlock()
	if ok {
		return g, nil
	}
	g, err := ch.chooseBy(ctx, wk, members, history, workers, ch.Rollout.covers(len(members)))
	if err != nil {
		return 0, err
	}
	ch.memo.Lock()
	if ch.memo.m == nil || len(ch.memo.m) >= topMemoMax {
		ch.memo.m = map[string]int{}
	}
	ch.memo.m[key] = g
	ch.memo.Unlock()
	return g, nil
}

// The guesses of the largest nodes near the top of the tree are kept
// (Chooser.memo): a shard of a job chooses them twice, planning its units
// (the first two guesses of every large class) and walking them, and on
// 8 × 8 with every code a guess a second guess costs minutes. Nodes after
// at most topMemoDepth guesses, of at least topMemoSize candidates, topMemoMax of
// them at most.
const (
	topMemoDepth = 1
	topMemoSize  = 4096
	topMemoMax   = 1024
)

// memoKey names a node by its history, its number of candidates and a
// hash of them.
func memoKey(members []uint32, history []mm.Code) string {
	h := uint64(14695981039346656037)
	for _, c := range members {
		h = (h ^ uint64(c)) * 1099511628211
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %x", len(members), h)
	for _, c := range history {
		fmt.Fprintf(&b, " %v", c)
	}
	return b.String()
}

// chooseBy is choose, with the guesses played out if roll is set.
func (ch *Chooser) chooseBy(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers int, roll bool) (int, error) {
	n := len(members)
	if n <= 2 {
		return int(members[0]), nil
	}
	v := ch.V
	if n <= v.pairs {
		// The lowest candidate that splits the candidates into classes
		// of one is the answer: no guess scores better, and a candidate
		// wins the tie.
		if g, ok := ch.perfectCandidate(wk, members); ok {
			return g, nil
		}
	}
	var stop stopRule
	switch {
	case roll:
		return ch.rollout(ctx, wk, members, history, workers)
	case ch.Sample.On():
		return ch.chooseSampled(ctx, wk, members, history, workers)
	case n <= v.pairs:
		// When no candidate splits them into classes of one, the first
		// code that does ends the scan.
		stop = stopRule{on: true, at: ch.Obj.Perfect(n)}
	default:
		if at, ok := ch.Obj.Floor(n, v.pairs); ok {
			stop = stopRule{on: true, cons: true, at: at}
		}
	}
	pool := ch.pool(wk, members, history)
	wk.set.loadMin(v, members, ch.Obj.slicedMin(!ch.NoFamilies))
	p, err := wk.set.scan(ctx, pool, ch.Obj, ch.Bonus, stop, workers, !ch.NoFamilies, &wk.sc)
	if ch.ConsistentOnly {
		for _, c := range members {
			wk.cons[c>>6] = 0
		}
	}
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

// pool returns the guesses to score, one per class of codes the
// symmetries of the history relate. A ConsistentOnly pool is wk's memory,
// for choose to clear; the others are the cache's, not to be changed.
func (ch *Chooser) pool(wk *worker, members []uint32, history []mm.Code) pool {
	v := ch.V
	// Colours no candidate holds are interchangeable in a guess.
	grp := symmetry.New(v.rules, history).Exclude(^v.held(members))
	if ch.ConsistentOnly {
		words := (v.sp.Len() + 63) / 64
		if len(wk.cons) < words {
			wk.cons = make([]uint64, words)
		}
		if cap(wk.x) < v.P {
			wk.x = make([]uint8, v.P)
		}
		x := wk.x[:v.P]
		// The candidates lie in the words of the first to the last.
		p := pool{bits: wk.cons[:words], lo: int(members[0] >> 6), hi: int(members[len(members)-1]>>6) + 1}
		for _, c := range members {
			v.digits(int(c), x)
			if grp.Canonical(x) {
				p.bits[c>>6] |= 1 << (c & 63)
				p.n++
			}
		}
		return p
	}
	if grp.Trivial() {
		return allCodes(v.sp.Len())
	}
	key := grp.Key()
	if p, ok := ch.pools.get(key); ok {
		return p
	}
	p := pool{bits: make([]uint64, (v.sp.Len()+63)/64)}
	p.n, p.hi = grp.Mark(p.bits, v.sp), len(p.bits)
	ch.pools.put(key, p)
	return p
}

// Pool returns the guesses Choose scores for the candidates members after
// the guesses of history, ascending space indices: one per class of codes
// that the history's symmetries relate, or that differ only in colours no
// candidate holds.
func (ch *Chooser) Pool(members []uint32, history []mm.Code) []int32 {
	wk := &worker{}
	return ch.pool(wk, members, history).list(ch.V.sp.Len())
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
