package consist

import "context"

// The search: restarts on the Luby sequence, decisions by activity,
// and the final analysis of a failure under assumptions.

// luby returns the i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 ….
func luby(i int) int {
	size, seq := 1, 0
	for size < i+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != i {
		size = (size - 1) / 2
		seq--
		i %= size
	}
	return 1 << seq
}

// Schedules: a restart after restartUnit times a Luby term conflicts; a
// reduction of the learnt clauses after reduceFirst conflicts, then
// reduceStep more each time (as glucose does).
var rephaseEvery = 1

var restartUnit = 100

const (
	reduceFirst = 2000
	reduceStep  = 300
)

// solve searches for an assignment of every variable, within limit
// conflicts (0: no limit); ctx is polled every 256 conflicts and every
// 4096 decisions.
func (s *solver) solve(ctx context.Context, limit int64) (status, error) {
	if s.unsat {
		return unsatisfiable, nil
	}
	if s.nextReduce == 0 {
		s.nextReduce = s.conflicts + reduceFirst
	}
	start := s.conflicts
	for i := 0; ; i++ {
		if i > 0 && rephaseEvery > 0 && i%rephaseEvery == 0 && s.rephase != nil {
			s.rephase()
		}
		budget := int64(luby(i) * restartUnit)
		st, err := s.search(ctx, budget, start, limit)
		if st != unknown || err != nil {
			return st, err
		}
		if limit > 0 && s.conflicts-start >= limit {
			return unknown, nil
		}
	}
}

func (s *solver) search(ctx context.Context, budget, start, limit int64) (status, error) {
	local := int64(0)
	for {
		cf, bad := s.propagate()
		if bad {
			s.conflicts++
			local++
			if s.decisionLevel() == 0 {
				s.unsat = true
				return unsatisfiable, nil
			}
			learnt, bt, lbd := s.analyze(cf)
			s.cancelUntil(bt)
			if len(learnt) == 1 {
				s.enqueue(learnt[0], noRef, -1)
			} else {
				c := s.alloc(learnt, true, lbd)
				s.learnts = append(s.learnts, c)
				s.attach(c)
				s.bumpClause(c)
				s.enqueue(learnt[0], c, -1)
			}
			s.varInc /= 0.95
			s.claInc /= 0.999
			if s.conflicts%256 == 0 {
				if err := ctx.Err(); err != nil {
					return unknown, err
				}
			}
			if limit > 0 && s.conflicts-start >= limit {
				return unknown, nil
			}
			continue
		}
		if local >= budget {
			s.cancelUntil(0)
			return unknown, nil
		}
		if s.conflicts >= s.nextReduce {
			s.reduces++
			s.nextReduce = s.conflicts + reduceFirst + reduceStep*s.reduces
			s.reduce()
		}
		if lv := s.decisionLevel(); lv < int32(len(s.assumps)) {
			p := s.assumps[lv]
			switch s.value(p) {
			case lFalse:
				s.analyzeFinal(p)
				return failed, nil
			case lTrue:
				// Already true: a level of its own, with nothing on it.
				s.lim = append(s.lim, int32(len(s.trail)))
			default:
				s.lim = append(s.lim, int32(len(s.trail)))
				s.enqueue(p, noRef, -1)
			}
			continue
		}
		v := s.pick()
		if v < 0 {
			return sat, nil
		}
		s.decisions++
		if s.decisions%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return unknown, err
			}
		}
		s.lim = append(s.lim, int32(len(s.trail)))
		d := mkLit(v, !s.phase[v])
		if v < s.posBelow {
			d = mkLit(v, false)
		}
		s.enqueue(d, noRef, -1)
	}
}

// analyzeFinal sets s.final to the assumptions that made assumption p
// false: p, and those the reasons of ¬p lead back to (none if ¬p holds at
// level 0). No code satisfies them all.
func (s *solver) analyzeFinal(p lit) {
	s.final = append(s.final[:0], p)
	if s.level[p.v()] == 0 {
		return
	}
	s.seen[p.v()] = true
	buf := s.buf3
	for i := len(s.trail) - 1; i >= int(s.lim[0]); i-- {
		q := s.trail[i]
		v := q.v()
		if !s.seen[v] {
			continue
		}
		s.seen[v] = false
		if !s.hasReason(v) {
			// Below the assumptions' levels every decision is one.
			if q != p.not() {
				s.final = append(s.final, q)
			}
			continue
		}
		buf = s.reasonLits(v, buf[:0])
		for _, r := range buf {
			if s.level[r.v()] > 0 {
				s.seen[r.v()] = true
			}
		}
	}
	s.buf3 = buf
}

// pick returns the unassigned variable of highest activity, or −1.
func (s *solver) pick() int32 {
	for !s.heap.empty() {
		v := s.heap.pop()
		if s.assign[v] == lUndef {
			return v
		}
	}
	return -1
}

// varHeap is a binary max-heap of variables by activity.
type varHeap struct {
	act   []float64
	heap  []int32
	index []int32 // place in heap, or −1
}

func (h *varHeap) empty() bool { return len(h.heap) == 0 }

func (h *varHeap) less(a, b int32) bool { return h.act[a] > h.act[b] }

func (h *varHeap) insert(v int32) {
	if h.index[v] >= 0 {
		return
	}
	h.index[v] = int32(len(h.heap))
	h.heap = append(h.heap, v)
	h.up(int(h.index[v]))
}

func (h *varHeap) update(v int32) {
	if i := h.index[v]; i >= 0 {
		h.up(int(i))
	}
}

func (h *varHeap) pop() int32 {
	v := h.heap[0]
	last := h.heap[len(h.heap)-1]
	h.heap = h.heap[:len(h.heap)-1]
	h.index[v] = -1
	if len(h.heap) > 0 {
		h.heap[0] = last
		h.index[last] = 0
		h.down(0)
	}
	return v
}

func (h *varHeap) up(i int) {
	v := h.heap[i]
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(v, h.heap[p]) {
			break
		}
		h.heap[i] = h.heap[p]
		h.index[h.heap[i]] = int32(i)
		i = p
	}
	h.heap[i] = v
	h.index[v] = int32(i)
}

func (h *varHeap) down(i int) {
	v := h.heap[i]
	n := len(h.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h.less(h.heap[c+1], h.heap[c]) {
			c++
		}
		if !h.less(h.heap[c], v) {
			break
		}
		h.heap[i] = h.heap[c]
		h.index[h.heap[i]] = int32(i)
		i = c
	}
	h.heap[i] = v
	h.index[v] = int32(i)
}
