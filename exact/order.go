package exact

// The order in which a node's guesses are tried: their bounds, the few
// kept each round, and the classes looked at for a guess proven best.

// scored is a guess under consideration at a node, with its lower bound.
type scored struct {
	bound int32
	order int32 // position in the pool, for ties
	guess int32 // space index
}

// probe returns a lower bound of the cost of set: the least bound of a
// split of it by any guess of its pool, or target if that is less. Each
// guess is scored only until its bound reaches the least so far.
func (w *worker) probe(set []uint16, target int32, lvl int) int32 {
	p := w.p
	fr := w.frame(lvl)
	pool := p.pools.get(w, p.excluded(set))
	n := int32(len(set))
	useless := n + p.fill[n]
	least := target
	for _, b := range w.bounds(set, pool, fr) {
		if b != useless {
			least = min(least, b)
		}
	}
	return least
}

// bounds returns the bound of every guess of pool for set, each computed
// the cheapest way the set's size allows. When the set is split with
// masks, they are loaded in fr.
func (w *worker) bounds(set []uint16, pool []int32, fr *frame) []int32 {
	p := w.p
	n := int32(len(set))
	if len(fr.bounds) < len(pool) {
		fr.bounds = make([]int32, len(pool))
	}
	out := fr.bounds[:len(pool)]
	sliced := len(set) <= maxBits && p.sliced()
	if sliced {
		p.load(&fr.masks, set)
	}
	fr.counted = false
	switch {
	case len(set) <= p.b+1 && len(p.fbs) <= 64:
		if len(fr.seen) < len(pool) {
			fr.seen = make([]uint64, len(pool))
		}
		p.boundsSmall(set, pool, out, fr.seen)
	case sliced && p.gidx != nil && fr.masks.words == 1:
		p.bounds4(&fr.masks, pool, n, out)
	case sliced && p.gidx != nil:
		p.bounds4w(&fr.masks, pool, n, out)
	default:
		nf := len(p.fbs)
		if len(fr.counts2) < len(pool)*nf {
			fr.counts2 = make([]uint16, len(pool)*nf)
		}
		p.boundsCounts(set, pool, out, fr.counts2)
		fr.counted = true
	}
	return out
}

// maxLooks is how many guesses that reach the set's lower bound a scan
// looks at closely, for one whose classes of one or two codes prove it
// best at once; past them the tries settle it. (A bound from the
// transposition table can be reached by many guesses.)
const maxLooks = 8

// keep is how many guesses a round of search scores in full and tries.
const keep = 6

// scan goes through the guesses of pool, whose bounds are bounds, that come
// after last in order of bound then pool, and leaves in fr.guesses the keep
// best with a bound below
// cutoff, in order. It returns a lower bound of the guesses it left out
// for being worse than the kept ones (inf if none) and one of those it
// left out for reaching the cutoff (inf if none), and, if a guess is
// certainly best — its classes of one or two codes cost exactly its bound,
// and that bound is lb — that guess's result.
func (w *worker) scan(set []uint16, pool []int32, bounds []int32, limit int, cutoff, lb int32, last scored, fr *frame) (rest, floor int32, done result) {
	n := int32(len(set))
	// Under a depth limit a guess's classes must each fit in what is
	// left; they surely do when the whole set would.
	limited := w.p.limited(len(set), limit)
	sliced := len(set) <= maxBits && w.p.sliced()
	useless := n + w.p.fill[n] // the bound of a guess that leaves one class
	k := keeper{top: fr.guesses[:0], cutoff: cutoff, thr: cutoff, rest: inf, floor: inf}
	looks := 0 // guesses whose classes were looked at for a shortcut
	for order, total := range bounds {
		if total >= k.thr || total == useless {
			if total != useless {
				k.leftOut(total)
			}
			continue
		}
		// A guess worth keeping. The sizes of its classes matter only
		// under a depth limit, or if it may be the best possible.
		g := pool[order]
		most, deepest := n, int8(0)
		if limited || (total <= lb && looks < maxLooks) {
			most, deepest = w.p.scoredClasses(set, g, order, n, limited, sliced, fr)
			looks++
		}
		c := scored{bound: total, order: int32(order), guess: g}
		switch {
		case limited && int(deepest)+1 > limit:
			continue
		case !last.before(c):
			continue // tried in an earlier round
		case most <= 2 && total <= lb:
			// Classes of one or two codes cost exactly their bound, and
			// nothing beats the set's lower bound.
			d := int8(2)
			if most == 2 {
				d = 3
			}
			return k.rest, k.floor, result{cost: total, guess: g, depth: d}
		}
		k.offer(c)
	}
	fr.guesses = k.top
	return k.rest, k.floor, result{guess: -1}
}

// limited reports whether a set of n codes is searched under a depth
// limit of limit guesses that may bind: then every guess's classes are
// looked at, to leave out those that cannot fit.
func (p *problem) limited(n, limit int) bool {
	return limit < n && int(p.levels[n])+1 > limit
}

// sameScan reports whether the searches of a set of n codes under depth
// limits a and b look at the same guesses in the same way (the same
// limit, or one that binds under neither), so that of two exact results
// the first guess in order that reaches the least cost is the same when
// that cost is the same.
func (p *problem) sameScan(n, a, b int) bool {
	return min(a, n) == min(b, n) || (!p.limited(n, a) && !p.limited(n, b))
}

// classes returns the size of the largest class guess g leaves of set
// other than the win's, and the most guesses any of them needs (when
// limited, else 0). If sliced, fr holds the masks of set.
func (p *problem) classes(set []uint16, g int32, n int32, limited, sliced bool, fr *frame) (most int32, deepest int8) {
	counts := &fr.counts
	if sliced {
		// The masks of set are loaded.
		_, most = p.split(&fr.masks, g, n, counts)
	} else {
		for _, c := range set {
			counts[p.fb(c, g)]++
		}
		for f, m := range counts[:len(p.fbs)] {
			if uint8(f) != p.win {
				most = max(most, int32(m))
			}
		}
	}
	if limited {
		for f, m := range counts[:len(p.fbs)] {
			if m != 0 && uint8(f) != p.win {
				deepest = max(deepest, p.levels[m])
			}
		}
	}
	clear(counts[:len(p.fbs)])
	return most, deepest
}

// scoredClasses is classes for guess g, the j-th of the pool that bounds
// scored in fr, read from the sizes of g's classes that boundsCounts left
// there, where it scored the pool. Under a depth limit, the scan asks it
// of every guess of the pool under its threshold; splitting set again for
// each was most of the time of searches that find no strategy within the
// limit. (Small sets within two guesses go to perfectSplit, not to the
// scan, where there are at most 64 feedbacks.)
func (p *problem) scoredClasses(set []uint16, g int32, j int, n int32, limited, sliced bool, fr *frame) (most int32, deepest int8) {
	if fr.counted {
		nf := len(p.fbs)
		for f, m := range fr.counts2[j*nf : j*nf+nf] {
			if uint8(f) != p.win {
				most = max(most, int32(m))
			}
		}
		if limited && most > 0 {
			deepest = p.levels[most] // levels grows with the size
		}
		return most, deepest
	}
	return p.classes(set, g, n, limited, sliced, fr)
}

// keeper keeps the keep best guesses offered to it, in order, and the
// least bound of those it turned away that were below the cutoff. thr is
// the bound a guess must stay under to be kept.
type keeper struct {
	top         []scored
	cutoff, thr int32
	rest        int32 // the least bound turned away below the cutoff
	floor       int32 // the least bound turned away at or above it
}

// leftOut notes a guess turned away with a bound of at least b.
func (k *keeper) leftOut(b int32) {
	if b < k.cutoff {
		k.rest = min(k.rest, b)
	} else {
		k.floor = min(k.floor, b)
	}
}

func (k *keeper) offer(c scored) {
	top := k.top
	if len(top) == keep {
		k.leftOut(top[keep-1].bound)
		top = top[:keep-1]
	}
	i := len(top)
	top = append(top, c)
	for ; i > 0 && c.before(top[i-1]); i-- {
		top[i] = top[i-1]
	}
	top[i] = c
	if len(top) == keep {
		k.thr = min(k.cutoff, top[keep-1].bound)
	}
	k.top = top
}

func (a scored) before(b scored) bool {
	return a.bound < b.bound || (a.bound == b.bound && a.order < b.order)
}
