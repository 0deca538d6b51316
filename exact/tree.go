package exact

import (
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// build returns the decision tree of the best strategy for set within
// limit guesses: at each node the first guess, in order of bound, that
// reaches the node's least cost. The costs come from the transposition
// table where the search left them, and are searched again where not; so
// is a node's guess, unless the table knows it is that first guess (see
// entry.canonical) and the worker is not told to search every node
// (fresh, for tests).
func (w *worker) build(set []uint16, limit int, lvl int) *mm.Tree {
	p := w.p
	n := len(set)
	code := func(c uint16) mm.Code { return p.sp.Code(int(p.cols[c])) }
	switch n {
	case 1:
		return &mm.Tree{Guess: code(set[0]), Size: 1}
	case 2:
		return &mm.Tree{Guess: code(set[0]), Size: 2, Branches: []mm.TreeBranch{
			{Feedback: p.fbs[p.fb(set[1], p.cols[set[0]])], Next: &mm.Tree{Guess: code(set[1]), Size: 1}},
		}}
	}
	// The first guess in order that reaches the least cost does not
	// depend on the cutoff, so a known cost only makes the search cheaper.
	cutoff := int32(inf)
	if n >= w.s.ttMin {
		e, _ := w.s.tt.get(w.p.hash(set))
		if g := e.canonical(p, n, min(limit, n)); g >= 0 && !w.fresh {
			return w.buildWith(set, g, limit, lvl)
		}
		if c, g, _ := e.under(min(limit, n)); g >= 0 {
			cutoff = c + 1
		}
	}
	r := w.solveNode(set, key{}, limit, cutoff, lvl, false)
	if r.guess < 0 || w.stop.Load() {
		return nil
	}
	return w.buildWith(set, r.guess, limit, lvl)
}

// buildWith is build with the node's guess g given: the subtrees are built
// as build builds them.
func (w *worker) buildWith(set []uint16, g int32, limit int, lvl int) *mm.Tree {
	p := w.p
	t := &mm.Tree{Guess: p.sp.Code(int(g)), Size: len(set)}
	// The classes, by feedback, one after another in buf; the subtrees
	// built below reuse the frames' scratch memory, so they get their own.
	var start [256 + 1]int32
	nf := len(p.fbs)
	for _, c := range set {
		start[p.fb(c, g)+1]++
	}
	branches := 0
	for f := range nf {
		if start[f+1] > 0 && uint8(f) != p.win {
			branches++
		}
		start[f+1] += start[f]
	}
	buf := make([]uint16, len(set))
	next := start
	for _, c := range set {
		f := p.fb(c, g)
		buf[next[f]] = c
		next[f]++
	}
	t.Branches = make([]mm.TreeBranch, 0, branches)
	w.hist = append(w.hist, g)
	defer func() { w.hist = w.hist[:len(w.hist)-1] }()
	for f := range nf {
		class := buf[start[f]:start[f+1]]
		if len(class) == 0 || uint8(f) == p.win {
			continue
		}
		sub := w.build(class, limit-1, lvl+1)
		if sub == nil {
			return nil
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: p.fbs[f], Next: sub})
	}
	return t
}

// report calls progress every period until the returned function is
// called.
func (s *search) report(progress func(Progress), period time.Duration) (stop func()) {
	if period <= 0 {
		period = time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				s.news.mu.Lock()
				pr := Progress{Elapsed: time.Since(s.start), Nodes: s.nodes.Load(),
					Tried: s.news.tried, Guesses: s.news.count, Depth: s.news.depth,
					Part: s.news.part, PartCodes: s.news.partCodes, PartsDone: s.news.partsDone, Parts: s.news.parts}
				if s.news.best < inf && s.news.best > 0 {
					pr.Best = int(s.news.best)
				}
				if s.news.count > 0 {
					pr.Guess = s.p.sp.Code(int(s.news.guess))
				}
				if s.news.nextCount > 0 {
					pr.Next = s.p.sp.Code(int(s.news.next))
					pr.NextTried, pr.NextGuesses = s.news.nextTried, s.news.nextCount
				}
				s.news.mu.Unlock()
				progress(pr)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// setDepth tells the reports that the second phase, which keeps the least
// total, tries a worst case of d.
func (s *search) setDepth(d int, total int32) {
	if s.byOpening {
		return // the news is of the first guesses, not of a part's search
	}
	s.news.mu.Lock()
	s.news.depth, s.news.best = d, total
	s.news.mu.Unlock()
}
