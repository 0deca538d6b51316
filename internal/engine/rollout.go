package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Rollout has a Chooser weigh, at each node of Min to Max candidates
// where no candidate splits them into classes of one, its Top best guesses
// by what they lead to: each is played out to the end of every game, the
// chooser's own rule (without play-outs) choosing below it, and the one
// whose subtree totals the fewest guesses is kept, the better ranked on a
// tie. Below the node the chooser plays out again wherever the rule holds:
// the pilot method. It costs about Top play-outs of the chooser's tree at
// each level of the tree it covers.
//
// At nodes of at most Small candidates it plays out SmallTop guesses
// instead: play-outs cost least at small nodes, so more of them there are
// worth most for their time.
type Rollout struct {
	Top      int
	Min, Max int
	Small    int
	SmallTop int
}

// covers reports whether the rule plays out guesses at a node of n
// candidates.
func (r Rollout) covers(n int) bool { return r.top(n) > 1 && n >= max(3, r.Min) && n <= r.Max }

// top returns how many guesses are played out at a node of n candidates.
func (r Rollout) top(n int) int {
	if n <= r.Small {
		return r.SmallTop
	}
	return r.Top
}

// rollout returns the guess for members after history under ch.Rollout.
func (ch *Chooser) rollout(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers int) (int, error) {
	ranked, err := ch.best(ctx, wk, members, history, workers, ch.Rollout.top(len(members)))
	if err != nil {
		return 0, err
	}
	if len(ranked) == 1 {
		return ranked[0], nil
	}
	// Each play-out is cut short once it exceeds the least total found so
	// far: a guess so cut cannot be the least, nor tie with it, so the
	// choice is the same whatever the order the play-outs end in.
	totals := make([]int, len(ranked))
	var least atomic.Int64
	least.Store(math.MaxInt64)
	// The rule's own guess comes first; the play-out above this node
	// that led here has often played it out already.
	from := 0
	if t, ok := wk.base[nodeKey(members, history)]; ok {
		totals[0], from = t, 1
		least.Store(int64(t))
	}
	play := func(w *worker, i int) error {
		w.rhist = append(w.rhist[:0], history...)
		bound := least.Load()
		t, err := ch.playOut(ctx, w, members, len(history), ranked[i], int(min(bound, math.MaxInt)))
		if err != nil {
			return err
		}
		totals[i] = t
		for old := least.Load(); int64(t) < old && int64(t) <= bound; old = least.Load() {
			if least.CompareAndSwap(old, int64(t)) {
				break
			}
		}
		return nil
	}
	if workers = min(workers, len(ranked)-from); workers <= 1 {
		for i := from; i < len(ranked); i++ {
			if err := play(wk, i); err != nil {
				return 0, err
			}
		}
	} else {
		for len(wk.helpers) < workers-1 {
			wk.helpers = append(wk.helpers, &worker{})
		}
		// The first error stops the other play-outs.
		parent := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		var next atomic.Int64
		next.Store(int64(from))
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for j := range workers {
			w := wk
			if j > 0 {
				w = wk.helpers[j-1]
			}
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(ranked) && errs[j] == nil; i = int(next.Add(1) - 1) {
					if errs[j] = play(w, i); errs[j] != nil {
						cancel()
					}
				}
			})
		}
		wg.Wait()
		if err := parent.Err(); err != nil {
			return 0, err
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, context.Canceled) {
				return 0, err
			}
		}
	}
	best := 0
	for i, t := range totals {
		if t < totals[best] {
			best = i
		}
	}
	return ranked[best], nil
}

// best returns up to k guesses for members after history, best first by
// ch's rule: the guess choose plays, then the others it scores in the order
// of their scores (a candidate first on a tie, then the lowest).
func (ch *Chooser) best(ctx context.Context, wk *worker, members []uint32, history []mm.Code, workers, k int) ([]int, error) {
	// A sample keeps what it scores as it chooses; a scan of every code
	// does not, and its pool is scored again in full.
	wk.ranking, wk.ranked = ch.Sample.On(), wk.ranked[:0]
	first, err := ch.chooseBy(ctx, wk, members, history, workers, false)
	wk.ranking = false
	if err == nil && !ch.Sample.On() {
		list := ch.pool(wk, members, history).list(ch.V.sp.Len())
		if ch.ConsistentOnly {
			for _, c := range members {
				wk.cons[c>>6] = 0
			}
		}
		wk.set.load(ch.V, members)
		wk.ranking = true
		_, err = ch.scoreKept(ctx, wk, list, workers)
		wk.ranking = false
	}
	if err != nil {
		return nil, err
	}
	tol := ch.Obj.Tol()
	slices.SortFunc(wk.ranked, func(a, b Pick) int {
		switch {
		case a.Index == b.Index:
			return 0
		case a.Better(b, tol):
			return -1
		case b.Better(a, tol):
			return 1
		}
		return cmp.Compare(a.Index, b.Index)
	})
	out := []int{first}
	for _, p := range wk.ranked {
		if len(out) == k {
			break
		}
		if p.OK && p.Index != first && p.Index != out[len(out)-1] {
			out = append(out, p.Index)
		}
	}
	return out, nil
}

// playOut returns the total number of guesses the games against members
// take when g is played at their node, d guesses into the game (the
// history is wk.rhist[:d]), and ch's rule without play-outs below; or,
// once that total exceeds bound, some total above bound; math.MaxInt if
// a guess, g or one below it, learns nothing.
func (ch *Chooser) playOut(ctx context.Context, wk *worker, members []uint32, d int, g int, bound int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if d+2 > MaxDepth {
		return 0, fmt.Errorf("%w: %d guesses without finding the secret", mm.ErrGuessLimit, d)
	}
	v := ch.V
	n := len(members)
	for len(wk.roll) <= d {
		wk.roll = append(wk.roll, level{})
	}
	lv := &wk.roll[d]
	lv.sorted = grow(lv.sorted, n)
	sorted := lv.sorted
	counts := v.split(g, members, lv, sorted)
	if len(wk.rhist) <= d {
		wk.rhist = append(wk.rhist[:d], mm.Code{})
	}
	wk.rhist[d] = v.sp.Code(g)
	// The classes largest first, each bounded from below by what they
	// must cost at least (least): once what is played out and that
	// bound of the rest exceed bound, the total does. The small classes
	// left last are nearly what their bounds say, so the play-out is cut
	// as soon as the large ones have cost too much; and each class is
	// played out within what the others leave it.
	win := v.WinKey()
	order := lv.order[:0]
	lv.least = grow(lv.least, v.keys)
	floor := lv.least // floor[k]: the least class k can cost
	rest := 0
	for k := 0; k < v.keys; k++ {
		size := counts[k+1] - counts[k]
		switch {
		case k == win || size == 0:
			continue
		case size == n:
			return math.MaxInt, nil // g learns nothing: no total is too high for it
		}
		order = append(order, k)
		floor[k] = v.least(size)
		rest += floor[k]
	}
	lv.order = order
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(counts[b+1]-counts[b], counts[a+1]-counts[a]), cmp.Compare(a, b))
	})
	total := n
	for _, k := range order {
		if total+rest > bound {
			return total + rest, nil
		}
		lo, hi := counts[k], counts[k+1]
		rest -= floor[k]
		switch hi - lo {
		case 1:
			total++
		case 2:
			total += 3
		default:
			kids := sorted[lo:hi:hi]
			key := nodeKey(kids, wk.rhist[:d+1])
			sub, ok := wk.base[key]
			if !ok {
				next, err := ch.chooseBy(ctx, wk, kids, wk.rhist[:d+1], 1, false)
				if err != nil {
					return 0, err
				}
				room := bound - total - rest
				if sub, err = ch.playOut(ctx, wk, kids, d+1, next, room); err != nil || sub == math.MaxInt {
					return sub, err
				}
				if sub <= room { // played out whole
					wk.remember(key, sub)
				}
			}
			total += sub
		}
	}
	return total, nil
}

// memoMax bounds how many nodes' totals a worker keeps (worker.base).
const memoMax = 1 << 19

// remember keeps t as the rule's total from the node of key.
func (wk *worker) remember(key uint64, t int) {
	if wk.base == nil || len(wk.base) >= memoMax {
		// Full: start afresh. Most entries are of subtrees the walk
		// has left, and the walk itself never needs one.
		wk.base = make(map[uint64]int, 1024)
	}
	wk.base[key] = t
}

// nodeKey identifies a node by its candidates and the guesses that led to
// it (which the rule's symmetries depend on): 64 bits of a hash, so that
// two nodes share a key about once in 2^64 pairs. A shared key could only
// steer a choice; every total reported is counted on the tree itself.
func nodeKey(members []uint32, history []mm.Code) uint64 {
	h := uint64(len(members))*0x9e3779b97f4a7c15 + uint64(len(history))
	mix := func(x uint64) {
		h = (h ^ x) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	for _, c := range members {
		mix(uint64(c))
	}
	for _, g := range history {
		for j := range g.Len() {
			mix(uint64(g.Peg(j)) | uint64(j+1)<<8)
		}
	}
	return h
}

// least returns the fewest guesses in all that any rule takes to find
// each of n secrets from their node: the next guess finds at most one, and
// each guess after it splits its codes into at most as many classes as
// there are answers but the win, each guess of the next level finding at
// most one of its class.
func (v *Variant) least(n int) int {
	width := (v.P+1)*(v.P+2)/2 - 2 // the answers, but the win and P-1 black 1 white
	total := 0
	for t, found := 1, 1; n > 0; t++ {
		k := min(n, found)
		total += t * k
		n -= k
		found = min(found*width, n) // no more than are left: no overflow
	}
	return total
}
