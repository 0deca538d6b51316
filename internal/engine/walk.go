package engine

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// MaxDepth is the most guesses a game of Walk may take.
const MaxDepth = 255

// Walk plays the chooser's strategy against every secret of its variant,
// depth first, and returns depth[i], the number of guesses the game against
// the secret of space index i takes. If want is not nil, only the secrets
// it accepts are played (the others' depth may be 0), and subtrees holding
// none are skipped. progress, if not nil, is called with the number of
// secrets played so far (of those want accepts) each time it grows; calls
// never overlap. The nodes near the root are scored with workers
// goroutines on each, while as many take the subtrees below them, the
// largest first: up to 2·workers goroutines are busy while the top is
// scored. Walk returns ctx.Err() soon after ctx is done, and the first
// error of any node (ErrGuessLimit past MaxDepth guesses).
//
// Its memory is the depth table, a byte a code, and the candidates of the
// nodes under way: it does not keep the tree.
func (ch *Chooser) Walk(ctx context.Context, want func(i int) bool, progress func(done int), workers int) ([]uint8, error) {
	return ch.WalkFrom(ctx, -1, want, progress, workers)
}

// WalkFrom is Walk with the first guess of every game fixed: the code of
// space index first, or the chooser's own for a negative first.
func (ch *Chooser) WalkFrom(ctx context.Context, first int, want func(i int) bool, progress func(done int), workers int) ([]uint8, error) {
	N := ch.V.sp.Len()
	if first >= N {
		return nil, fmt.Errorf("engine: first guess %d of a space of %d codes", first, N)
	}
	// The first error, of the top or of a worker, stops them all.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := &walk{ch: ch, ctx: ctx, want: want, progress: progress, depth: make([]uint8, N), first: first}
	w.big = max(256, N/32)
	all := make([]uint32, N)
	for i := range all {
		all[i] = uint32(i)
	}
	workers = max(1, workers)
	// The workers take the subtrees of fewer than w.big candidates, the
	// largest waiting first, while the nodes of more are scored one at a
	// time with every worker on each scan: games end, and progress shows,
	// from the start.
	w.ready = sync.NewCond(&w.mu)
	var wg sync.WaitGroup
	fail := func(err error) {
		cancel(err)
		w.stop()
	}
	for range workers {
		wg.Go(func() {
			wk := &worker{}
			for {
				t, ok := w.take()
				if !ok {
					return
				}
				wk.history = append(wk.history[:0], t.history...)
				if err := w.node(wk, t.members, wk.history, len(t.history), 1, false); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	if err := w.node(&worker{}, all, nil, 0, workers, true); err != nil {
		fail(err)
	}
	w.close()
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return w.depth, nil
}

// A walk is the state of one Walk.
type walk struct {
	ch       *Chooser
	ctx      context.Context
	want     func(i int) bool
	progress func(done int)
	depth    []uint8
	big      int // fewer candidates than this make a task
	first    int // the space index of the first guess, or -1: the chooser's

	mu     sync.Mutex // guards tasks and closed
	tasks  tasks
	closed bool
	ready  *sync.Cond // a task came, or the top is done

	pmu  sync.Mutex // guards done; progress is called under it
	done int
}

// put adds a subtree for the workers.
func (w *walk) put(t task) {
	w.mu.Lock()
	heap.Push(&w.tasks, t)
	w.mu.Unlock()
	w.ready.Signal()
}

// take returns the largest subtree waiting, waiting for one while the top
// of the tree is still being scored; false once there are no more.
func (w *walk) take() (task, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.tasks) == 0 && !w.closed {
		w.ready.Wait()
	}
	if len(w.tasks) == 0 {
		return task{}, false
	}
	return heap.Pop(&w.tasks).(task), true
}

// close says no more subtrees will come.
func (w *walk) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.ready.Broadcast()
}

// stop drops the subtrees waiting, after an error.
func (w *walk) stop() {
	w.mu.Lock()
	w.tasks = nil
	w.mu.Unlock()
}

// tasks is a heap of subtrees, the most candidates first.
type tasks []task

func (t tasks) Len() int           { return len(t) }
func (t tasks) Less(i, j int) bool { return len(t[i].members) > len(t[j].members) }
func (t tasks) Swap(i, j int)      { t[i], t[j] = t[j], t[i] }
func (t *tasks) Push(x any)        { *t = append(*t, x.(task)) }
func (t *tasks) Pop() any {
	old := *t
	x := old[len(old)-1]
	*t = old[:len(old)-1]
	return x
}

// A task is a subtree left for the workers.
type task struct {
	members []uint32
	history []mm.Code
}

// finish counts n secrets done.
func (w *walk) finish(n int) {
	if w.progress == nil || n == 0 {
		return
	}
	w.pmu.Lock()
	w.done += n
	w.progress(w.done)
	w.pmu.Unlock()
}

// node plays the subtree of members after history (d guesses). At the top
// (top true) a node of fewer than w.big candidates is left as a task.
func (w *walk) node(wk *worker, members []uint32, history []mm.Code, d int, workers int, top bool) error {
	if w.want != nil && !slices.ContainsFunc(members, func(c uint32) bool { return w.want(int(c)) }) {
		return nil
	}
	if top && len(members) < w.big {
		w.put(task{members: members, history: history})
		return nil
	}
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if d+2 > MaxDepth {
		// The node's guess is the (d+1)th, and a child of one code
		// is found with the next: depths past MaxDepth do not fit.
		return fmt.Errorf("%w: %d guesses without finding the secret", mm.ErrGuessLimit, d)
	}
	ch := w.ch
	g := w.first
	if d > 0 || g < 0 {
		var err error
		if g, err = ch.choose(w.ctx, wk, members, history, workers); err != nil {
			return err
		}
	}
	v := ch.V
	n := len(members)
	// Each depth's memory is reused by the next node at that depth, but
	// for the candidates of the children at the top, which wait as tasks.
	for len(wk.levels) <= d {
		wk.levels = append(wk.levels, level{})
	}
	lv := &wk.levels[d]
	var sorted []uint32
	if top {
		sorted = make([]uint32, n)
	} else {
		lv.sorted = grow(lv.sorted, n)
		sorted = lv.sorted
	}
	counts := v.split(g, members, lv, sorted)
	win := v.WinKey()
	if counts[win+1] > counts[win] {
		w.depth[g] = uint8(d + 1)
		if w.want == nil || w.want(g) {
			w.finish(1)
		}
	}
	// The children's history: at the top, a slice of its own for the
	// tasks to keep; below it the worker's, in which each depth's guess
	// replaces the one before.
	var h []mm.Code
	if top {
		h = append(history[:d:d], v.sp.Code(g))
	} else {
		if len(wk.history) <= d {
			wk.history = append(wk.history[:d], mm.Code{})
		}
		wk.history[d] = v.sp.Code(g)
		h = wk.history[:d+1]
	}
	for k := 0; k < v.keys; k++ {
		lo, hi := counts[k], counts[k+1]
		if k == win || lo == hi {
			continue
		}
		kids := sorted[lo:hi:hi]
		if hi-lo == 1 {
			w.depth[kids[0]] = uint8(d + 2)
			if w.want == nil || w.want(int(kids[0])) {
				w.finish(1)
			}
			continue
		}
		if err := w.node(wk, kids, h, d+1, workers, top); err != nil {
			return err
		}
	}
	return nil
}

// split sorts members into sorted by the key of the feedback each gives
// guess g, keeping their order within a class, with lv's keys and counts
// as its memory; class k is sorted[counts[k]:counts[k+1]].
func (v *Variant) split(g int, members []uint32, lv *level, sorted []uint32) (counts []int) {
	n := len(members)
	lv.keys = grow(lv.keys, n)
	lv.counts = grow(lv.counts, 2*v.keys+1)
	keys := lv.keys
	counts, at := lv.counts[:v.keys+1], lv.counts[v.keys+1:]
	v.KeysOf(g, members, keys)
	clear(counts)
	for _, k := range keys {
		counts[k+1]++
	}
	for k := 1; k < len(counts); k++ {
		counts[k] += counts[k-1]
	}
	copy(at, counts)
	for j, k := range keys {
		sorted[at[k]] = members[j]
		at[k]++
	}
	return counts
}

// grow returns b resized to n, reallocated if it is too small.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}
