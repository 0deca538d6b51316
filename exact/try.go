package exact

import (
	"slices"
	"sync"
)

// try plays guess g at set and solves every class it leaves, smallest
// first (largest first in Fits), each within what the others leave of
// cutoff. It returns the cost and worst case and true if the cost is below
// cutoff; otherwise a lower bound of the cost, at least cutoff, and false.
func (w *worker) try(set []uint16, g int32, limit int, cutoff int32, lvl int) (int32, int8, bool) {
	p := w.p
	fr := w.frame(lvl)
	counts, start := &fr.counts, fr.start
	nf := len(p.fbs)
	for _, c := range set {
		counts[p.fb(c, g)]++
	}
	pos := int32(0)
	for f, m := range counts[:nf] {
		start[f] = pos
		pos += int32(m)
	}
	start[nf] = pos
	buf := fr.buf
	for _, c := range set {
		f := p.fb(c, g)
		buf[start[f]] = c
		start[f]++
	}
	// start[f] now ends class f.
	total := int32(len(set))
	fr.cells = fr.cells[:0]
	for f, m := range counts[:nf] {
		if m == 0 || uint8(f) == p.win {
			continue
		}
		hi := start[f]
		fr.cells = append(fr.cells, cell{lo: hi - int32(m), hi: hi, bound: p.fill[m]})
		total += p.fill[m]
	}
	clear(counts[:nf])
	cells := fr.cells
	// Smallest first: their exact costs tighten the cutoff of the large.
	for i := 1; i < len(cells); i++ {
		for j := i; j > 0 && cells[j].hi-cells[j].lo < cells[j-1].hi-cells[j-1].lo; j-- {
			cells[j], cells[j-1] = cells[j-1], cells[j]
		}
	}
	if w.s.firstFit {
		// Fits has no cutoff to tighten, and the largest class is the
		// likeliest not to fit: largest first.
		slices.Reverse(cells)
	}
	// What earlier searches learnt of the classes may prove the guess
	// too costly before any is searched.
	for i := range cells {
		cl := &cells[i]
		if int(cl.hi-cl.lo) < w.s.ttMin {
			continue
		}
		cl.k = p.hash(buf[cl.lo:cl.hi])
		if c, _, _ := w.s.tt.lookup(cl.k, limit-1); c > cl.bound {
			total = sat(total + (c - cl.bound)) // c may be inf: no strategy
			cl.bound = c
		}
	}
	if total >= cutoff {
		return total, 0, false
	}
	w.hist = append(w.hist, g)
	defer func() { w.hist = w.hist[:len(w.hist)-1] }()
	if len(set) >= w.s.probeMin && cutoff < inf && !w.s.firstFit {
		// Most guesses tried at a large node fail. Before solving any
		// class exactly, bound each by the best split any guess makes of
		// it, one scan each: that often proves the guess too costly at a
		// fraction of the price.
		for i := range cells {
			cl := &cells[i]
			m := cl.hi - cl.lo
			if int(m) <= p.b+1 || cl.bound > p.fill[m] {
				continue
			}
			c := w.probe(buf[cl.lo:cl.hi], cutoff-(total-cl.bound), lvl+1)
			if c > cl.bound {
				total = sat(total + (c - cl.bound))
				cl.bound = c
				if cl.k.b != 0 {
					w.s.tt.store(cl.k, entry{cost: c, guess: -1, limit: uint16(min(limit-1, int(m)))})
				}
			}
			if total >= cutoff {
				return total, 0, false
			}
		}
	}
	if len(set) >= parallelMin {
		if n := w.s.borrow(len(cells) - 1); n > 0 {
			return w.solveParallel(buf, cells, total, limit, cutoff, lvl, n)
		}
	}
	deepest := int8(0)
	for i := range cells {
		cl := cells[i]
		cut := cutoff - (total - cl.bound)
		r := w.solve(buf[cl.lo:cl.hi], cl.k, limit-1, cut, lvl+1)
		if r.guess < 0 {
			return sat(total - cl.bound + r.cost), 0, false
		}
		total += r.cost - cl.bound
		deepest = max(deepest, r.depth)
	}
	return total, deepest + 1, true
}

// parallelMin is the smallest set whose guesses' classes are solved on
// several workers when some are idle, at any depth: a worker that finishes
// its share joins the next large node any other worker reaches.
const parallelMin = 64

// solveParallel is the end of try for a large node: the classes are solved
// by this worker and extra more, each taking the next class and a cutoff
// from the costs and bounds of the others as they stand. A class's result
// below its cutoff does not depend on the cutoff, and the guess fails
// exactly when its cost reaches cutoff, so the outcome is the same as
// solving the classes one by one. Once the guess is known to fail, the
// classes still being solved are halted: their work can no longer matter.
func (w *worker) solveParallel(buf []uint16, cells []cell, total int32, limit int, cutoff int32, lvl, extra int) (int32, int8, bool) {
	var (
		mu      sync.Mutex // guards all below and cells
		next    int
		failed  bool
		proven  int32
		deepest int8
	)
	up := w.stop
	h := &halt{up: up}
	w.stop = h
	fail := func(cost int32) {
		if !failed {
			failed, proven = true, cost
			h.Store(true)
		}
	}
	work := func(cw *worker, lvl int) {
		for {
			mu.Lock()
			i := next
			next++
			if i >= len(cells) || failed {
				mu.Unlock()
				return
			}
			cl := cells[i]
			cut := cutoff - (total - cl.bound)
			mu.Unlock()
			r := cw.solve(buf[cl.lo:cl.hi], cl.k, limit-1, cut, lvl)
			mu.Lock()
			switch {
			case failed:
				// Halted, or too late to matter.
			case r.guess < 0:
				fail(sat(total - cl.bound + r.cost))
			default:
				total += r.cost - cl.bound
				cells[i].bound = r.cost
				deepest = max(deepest, r.depth)
				if total >= cutoff {
					fail(total)
				}
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range extra {
		cw := w.s.getWorker(w.ctx, h, w.hist)
		wg.Go(func() {
			defer w.s.giveBack(cw)
			work(cw, 0)
		})
	}
	work(w, lvl+1)
	// No class is left to take: while the helpers finish theirs, this
	// worker's core may serve a split below them.
	w.s.busy.Add(-1)
	wg.Wait()
	w.s.busy.Add(1)
	w.stop = up
	if w.ctx.Err() != nil || (w.budget > 0 && w.spent > w.budget) {
		// Not halted by a class but by the call: pass it on.
		up.Store(true)
	}
	if failed || total >= cutoff {
		return max(proven, total), 0, false
	}
	return total, deepest + 1, true
}

// borrow takes up to n idle workers' places and returns how many it got.
func (s *search) borrow(n int) int {
	got := 0
	for got < n {
		b := s.busy.Load()
		if b >= s.extra {
			break
		}
		if s.busy.CompareAndSwap(b, b+1) {
			got++
		}
	}
	return got
}

// giveBack returns a helper worker and its place.
func (s *search) giveBack(cw *worker) {
	s.putWorker(cw)
	s.busy.Add(-1)
}
