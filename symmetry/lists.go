package symmetry

import (
	"math/bits"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The guesses a group leaves: one code per class, listed, cached, or
// picked from a list.

// poolCache keeps guess pools by group: a pool depends only on the rules,
// the free and excluded colours and the symmetries, and the nodes of a
// decision tree share a handful of groups.
var poolCache struct {
	sync.Mutex
	m     map[poolKey][]int
	elems int
}

type poolKey struct {
	rules mm.Rules
	group string // Group.Key
}

// maxPoolCache bounds the number of indices poolCache holds.
const maxPoolCache = 1 << 24

// Guesses returns the space indices of the lowest member of every class of
// the space's codes, ascending. Its cost is proportional to the number of
// codes whose free and excluded colours are in canonical order, times the
// number of symmetries; pools are cached by group. The caller must not
// modify the result.
func (g *Group) Guesses(sp *mm.Space) []int {
	key := poolKey{rules: g.rules, group: g.Key()}
	poolCache.Lock()
	pool, ok := poolCache.m[key]
	poolCache.Unlock()
	if ok {
		return pool
	}
	pool = g.List(sp)
	poolCache.Lock()
	defer poolCache.Unlock()
	if poolCache.m == nil || poolCache.elems+len(pool) > maxPoolCache {
		poolCache.m, poolCache.elems = make(map[poolKey][]int), 0
	}
	poolCache.m[key] = pool
	poolCache.elems += len(pool)
	return pool
}

// List is Guesses without the cache, for callers that keep pools
// themselves: the result is theirs.
//
// It walks, in ascending order, the codes whose free colours come in
// order of first appearance and whose excluded colours are in their lowest
// form, and keeps each that no lower kept code maps onto: the lowest of
// each class. Each kept code marks the images of its permutations, so the
// cost is one pass over those codes plus the permutations of the kept
// ones.
func (g *Group) List(sp *mm.Space) []int {
	var out []int
	g.each(sp, func(at int) { out = append(out, at) })
	return out
}

// AppendList appends what List returns to dst, as int32, and returns the
// extended slice: a caller that keeps a buffer lists without garbage.
func (g *Group) AppendList(dst []int32, sp *mm.Space) []int32 {
	g.each(sp, func(at int) { dst = append(dst, int32(at)) })
	return dst
}

// Mark sets, in bits (a bit a code of sp, zero on entry), the bit of each
// code List returns, and returns their number: a set of guesses in an
// eighth of the memory of a list of int32 on a dense pool.
func (g *Group) Mark(bits []uint64, sp *mm.Space) int {
	if !g.root && !g.rules.Distinct {
		return g.markDense(bits)
	}
	n := 0
	g.each(sp, func(at int) {
		bits[at>>6] |= 1 << (at & 63)
		n++
	})
	return n
}

// each calls emit with the space index of each code List returns, in
// ascending order.
func (g *Group) each(sp *mm.Space, emit func(int)) {
	r := g.rules
	p, c := r.Pegs, r.Colors
	x := make([]uint8, p)
	var seen []uint64 // a bit a code
	if !g.root && len(g.auts) > 0 {
		seen = make([]uint64, (sp.Len()+63)/64)
	}
	var y, z [mm.MaxPegs]uint8
	var inCode uint64
	// rank[k] is colour k's place among the free colours.
	var rank [mm.MaxColors]int
	for i, k := range g.freeList {
		rank[k] = i
	}
	// With repeats allowed a code's index is its colours read in base c,
	// built up peg by peg; with distinct colours it is found at the end.
	var walk func(i, freeUsed, exclUsed, at int)
	walk = func(i, freeUsed, exclUsed, at int) {
		if i == p {
			if r.Distinct {
				at = indexOf(sp, x)
			}
			switch {
			case g.root:
				if rootCanonical(x) {
					emit(at)
				}
			case seen == nil:
				emit(at)
			default:
				if seen[at>>6]&(1<<(at&63)) != 0 {
					return
				}
				emit(at)
				for _, a := range g.auts {
					for j, k := range x {
						y[a.pos[j]] = a.col[k]
					}
					g.normalize(y[:p], z[:p])
					img := indexOf(sp, z[:p])
					seen[img>>6] |= 1 << (img & 63)
				}
			}
			return
		}
		for k := 0; k < c; k++ {
			if r.Distinct && inCode&(1<<k) != 0 {
				continue
			}
			fu, eu := freeUsed, exclUsed
			switch {
			case g.free&(1<<k) != 0:
				// Only free colours already used, or the next one.
				if rank[k] > freeUsed {
					continue
				}
				if rank[k] == freeUsed {
					fu++
				}
			case g.excl&(1<<k) != 0:
				// The lowest excluded colour, or with distinct colours
				// the next one.
				want := 0
				if r.Distinct {
					want = exclUsed
				}
				if want >= len(g.exclList) || g.exclList[want] != uint8(k) {
					continue
				}
				eu++
			}
			x[i] = uint8(k)
			had := inCode&(1<<k) != 0
			inCode |= 1 << k
			walk(i+1, fu, eu, at*c+k)
			if !had {
				inCode &^= 1 << k
			}
		}
	}
	walk(0, 0, 0, 0)
}

// AppendReduced appends to dst, of normal, the lowest code of each class
// under the group's permutations, and returns the extended slice. normal
// must hold, ascending, the codes that relabelling the group's free and
// excluded colours leaves lowest: what Relabel(r, used, excluded).List
// returns for the colours the history used and the excluded colours of g.
// It costs one pass over normal plus the permutations of the codes it
// keeps.
func (g *Group) AppendReduced(dst []int32, sp *mm.Space, normal []int32) []int32 {
	p := g.rules.Pegs
	var x, y, z [mm.MaxPegs]uint8
	if g.root {
		for _, at := range normal {
			c := sp.Code(int(at))
			for j := range p {
				x[j] = uint8(c.Peg(j))
			}
			if rootCanonical(x[:p]) {
				dst = append(dst, at)
			}
		}
		return dst
	}
	if len(g.auts) == 0 {
		return append(dst, normal...)
	}
	seen := make([]uint64, (sp.Len()+63)/64)
	if !g.rules.Distinct {
		return g.appendReducedDense(dst, seen, normal)
	}
	for _, at := range normal {
		if seen[at>>6]&(1<<(at&63)) != 0 {
			continue
		}
		dst = append(dst, at)
		c := sp.Code(int(at))
		for j := range p {
			x[j] = uint8(c.Peg(j))
		}
		for _, a := range g.auts {
			for j, k := range x[:p] {
				y[a.pos[j]] = a.col[k]
			}
			g.normalize(y[:p], z[:p])
			i := indexOf(sp, z[:p])
			seen[i>>6] |= 1 << (i & 63)
		}
	}
	return dst
}

// appendReducedDense is AppendReduced for codes of any colours, whose
// space index is their colours read as a number in base c: it decodes and
// encodes indices itself and normalizes while it encodes, the inner loop
// of a search's pools.
func (g *Group) appendReducedDense(dst []int32, seen []uint64, normal []int32) []int32 {
	p, c := g.rules.Pegs, g.rules.Colors
	var x, y [mm.MaxPegs]uint8
	for _, at := range normal {
		if seen[at>>6]&(1<<(at&63)) != 0 {
			continue
		}
		dst = append(dst, at)
		v := int(at)
		for j := p - 1; j >= 0; j-- {
			x[j] = uint8(v % c)
			v /= c
		}
		for _, a := range g.auts {
			for j, k := range x[:p] {
				y[a.pos[j]] = a.col[k]
			}
			i := g.normalIndex(y[:p])
			seen[i>>6] |= 1 << (i & 63)
		}
	}
	return dst
}

// normalIndex returns the space index of what normalize makes of x, for
// codes of any colours.
func (g *Group) normalIndex(x []uint8) int {
	var r relabeling
	i, c := 0, g.rules.Colors
	for _, k := range x {
		i = i*c + int(g.relabel(&r, k))
	}
	return i
}

// Members returns the positions in s (not space indices) of the members
// that are the lowest of their class, ascending.
func (g *Group) Members(s *mm.Set) []int {
	out := make([]int, 0, s.Len())
	x := make([]uint8, g.rules.Pegs)
	for i := 0; i < s.Len(); i++ {
		c := s.Code(i)
		for j := range x {
			x[j] = uint8(c.Peg(j))
		}
		if g.Canonical(x) {
			out = append(out, i)
		}
	}
	return out
}

func indexOf(sp *mm.Space, x []uint8) int {
	r := sp.Rules()
	if !r.Distinct {
		i := 0
		for _, k := range x {
			i = i*r.Colors + int(k)
		}
		return i
	}
	colors := make([]int, len(x))
	for j, k := range x {
		colors[j] = int(k)
	}
	c, _ := mm.NewCode(colors...)
	i, _ := sp.Index(c)
	return i
}

// A marker is the state of markDense's walk over the codes in normal form.
type marker struct {
	g     *Group
	p, c  int
	fixed uint64 // colours neither free nor excluded: allowed anywhere
	// allowed[u] is fixed, the lowest excluded colour and the first u+1
	// free colours: the colours a peg may take after u free ones.
	allowed [mm.MaxColors + 1]uint64
	rank    [mm.MaxColors]int // a free colour's place among them
	bits    []uint64
	seen    []uint64 // the images of the codes kept, with permutations
	x       [mm.MaxPegs]uint8
	n       int
}

// markDense is Mark for codes of any colours (their space index their
// colours read in base c), past the root: the same codes as each, found
// by a walk that takes each peg's allowed colours from a mask and, with
// no permutations, sets the last peg's bits straight from it, with no
// call a code. It is the engine's cost of a new group, met at hundreds of
// nodes of a walk over every secret.
func (g *Group) markDense(bits []uint64) int {
	m := &marker{g: g, p: g.rules.Pegs, c: g.rules.Colors, bits: bits}
	m.fixed = all(m.c) &^ g.free &^ g.excl
	base := m.fixed
	if len(g.exclList) > 0 {
		base |= 1 << g.exclList[0]
	}
	var free uint64
	for u := range m.allowed {
		if u < len(g.freeList) {
			free |= 1 << g.freeList[u]
		}
		m.allowed[u] = base | free
	}
	for i, k := range g.freeList {
		m.rank[k] = i
	}
	if len(g.auts) > 0 {
		m.seen = make([]uint64, len(bits))
	}
	m.walk(0, 0, 0)
	return m.n
}

// walk marks the codes in normal form that extend the pegs before peg i,
// u free colours among them, whose index so far is at.
func (m *marker) walk(i, u, at int) {
	mask := m.allowed[u]
	if i == m.p-1 && m.seen == nil {
		// The last peg: its codes are at·c + k, for k in mask.
		base := at * m.c
		for x := mask; x != 0; x &= x - 1 {
			j := base + bits.TrailingZeros64(x)
			m.bits[j>>6] |= 1 << (j & 63)
		}
		m.n += bits.OnesCount64(mask)
		return
	}
	for x := mask; x != 0; x &= x - 1 {
		k := bits.TrailingZeros64(x)
		next := u
		if m.g.free&(1<<k) != 0 && m.rank[k] == u {
			next++
		}
		m.x[i] = uint8(k)
		if i < m.p-1 {
			m.walk(i+1, next, at*m.c+k)
		} else {
			m.keep(at*m.c + k)
		}
	}
}

// keep marks code j, the code of m.x, unless an image of a code kept
// before it is j, and marks its images under the group's permutations.
func (m *marker) keep(j int) {
	if m.seen[j>>6]&(1<<(j&63)) != 0 {
		return
	}
	m.bits[j>>6] |= 1 << (j & 63)
	m.n++
	var y [mm.MaxPegs]uint8
	p := m.p
	for _, a := range m.g.auts {
		for i, k := range m.x[:p] {
			y[a.pos[i]] = a.col[k]
		}
		img := m.g.normalIndex(y[:p])
		m.seen[img>>6] |= 1 << (img & 63)
	}
}
