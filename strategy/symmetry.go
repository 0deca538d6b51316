package strategy

import (
	"slices"
	"strings"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// maxAutomorphisms caps how many symmetries of a history are used. Any subset
// of the symmetry group gives a correct reduction (every class keeps its
// lowest member); a larger subset only removes more guesses.
const maxAutomorphisms = 720

// Symmetry describes the permutations of positions and colours that leave
// every guess of a history unchanged. Two guesses related by such a
// permutation split the candidates into classes of the same sizes and are
// both consistent or both not, so a strategy need score only one guess per
// class: the lowest, which is also what the tie rule would pick.
//
// Colours that no guess has used ("free" colours) are interchangeable; they
// are handled by relabelling rather than by listing permutations.
type Symmetry struct {
	rules    mm.Rules
	free     uint64    // mask of colours no guess has used
	freeList []uint8   // the free colours, ascending
	auts     []autPair // symmetries other than the identity (up to the cap)
	root     bool      // no history: the full group of positions and colours
}

// autPair is one symmetry: peg i of a code moves to position pos[i] and
// colour k becomes col[k] (free colours are fixed).
type autPair struct {
	pos []uint8
	col []uint8
}

// NewSymmetry returns the symmetries of st's history.
func NewSymmetry(st *mm.State) *Symmetry {
	r := st.Rules()
	sy := &Symmetry{rules: r, root: st.Len() == 0}
	var used uint64
	for i := 0; i < st.Len(); i++ {
		g := st.Turn(i).Guess
		for j := 0; j < g.Len(); j++ {
			used |= 1 << g.Peg(j)
		}
	}
	for k := 0; k < r.Colors; k++ {
		if used&(1<<k) == 0 {
			sy.free |= 1 << k
			sy.freeList = append(sy.freeList, uint8(k))
		}
	}
	if st.Len() > 0 {
		sy.findAutomorphisms(st, used)
	}
	return sy
}

// findAutomorphisms lists, by backtracking over positions, the position
// permutations π for which some colour map σ sends every guess to itself:
// g[π(i)] = σ(g[i]) for every guess g and position i.
func (sy *Symmetry) findAutomorphisms(st *mm.State, used uint64) {
	p, c := sy.rules.Pegs, sy.rules.Colors
	guesses := make([][]uint8, st.Len())
	for t := range guesses {
		g := st.Turn(t).Guess
		guesses[t] = make([]uint8, p)
		for j := range p {
			guesses[t][j] = uint8(g.Peg(j))
		}
	}
	const none = 0xff
	pos := make([]uint8, p)
	var takenPos uint64
	sigma := make([]uint8, c) // σ on used colours, none if unset
	inv := make([]uint8, c)
	for k := range sigma {
		sigma[k], inv[k] = none, none
	}
	var walk func(i int)
	walk = func(i int) {
		if len(sy.auts) >= maxAutomorphisms {
			return
		}
		if i == p {
			identity := true
			for j := range pos {
				if int(pos[j]) != j {
					identity = false
					break
				}
			}
			if identity {
				return
			}
			col := make([]uint8, c)
			for k := range col {
				col[k] = uint8(k)
				if used&(1<<k) != 0 {
					col[k] = sigma[k]
				}
			}
			sy.auts = append(sy.auts, autPair{pos: append([]uint8(nil), pos...), col: col})
			return
		}
		for j := 0; j < p; j++ {
			if takenPos&(1<<j) != 0 {
				continue
			}
			// Map colours g[i] → g[j] for every guess, remembering what we set.
			var set []uint8
			ok := true
			for _, g := range guesses {
				a, b := g[i], g[j]
				switch {
				case sigma[a] == b:
				case sigma[a] == none && inv[b] == none:
					sigma[a], inv[b] = b, a
					set = append(set, a)
				default:
					ok = false
				}
				if !ok {
					break
				}
			}
			if ok {
				pos[i] = uint8(j)
				takenPos |= 1 << j
				walk(i + 1)
				takenPos &^= 1 << j
			}
			for _, a := range set {
				inv[sigma[a]], sigma[a] = none, none
			}
		}
	}
	walk(0)
}

// Trivial reports whether the history has no symmetry at all: no free
// colour to relabel (or only one) and no permutation.
func (sy *Symmetry) Trivial() bool { return !sy.root && len(sy.freeList) <= 1 && len(sy.auts) == 0 }

// Canonical reports whether code x is the lowest member of its class. x
// holds colours numbered from 0.
func (sy *Symmetry) Canonical(x []uint8) bool {
	if sy.root {
		return rootCanonical(x)
	}
	if !sy.freeCanonical(x) {
		return false
	}
	if len(sy.auts) == 0 {
		return true
	}
	var y [mm.MaxPegs]uint8
	for _, a := range sy.auts {
		for i, k := range x {
			y[a.pos[i]] = a.col[k]
		}
		if sy.lessAfterRelabel(y[:len(x)], x) {
			return false
		}
	}
	return true
}

// freeCanonical reports whether the free colours of x appear in ascending
// order of first appearance, starting from the lowest.
func (sy *Symmetry) freeCanonical(x []uint8) bool {
	next := 0
	var seen uint64
	for _, k := range x {
		if sy.free&(1<<k) == 0 || seen&(1<<k) != 0 {
			continue
		}
		if next >= len(sy.freeList) || sy.freeList[next] != k {
			return false
		}
		seen |= 1 << k
		next++
	}
	return true
}

// lessAfterRelabel reports whether y, with its free colours relabelled to
// the lowest free colours in order of first appearance, comes before x.
func (sy *Symmetry) lessAfterRelabel(y, x []uint8) bool {
	var relabel [mm.MaxColors]uint8
	var seen uint64
	next := 0
	for i, k := range y {
		if sy.free&(1<<k) != 0 {
			if seen&(1<<k) == 0 {
				seen |= 1 << k
				relabel[k] = sy.freeList[next]
				next++
			}
			k = relabel[k]
		}
		if k != x[i] {
			return k < x[i]
		}
	}
	return false
}

// rootCanonical reports whether x is the lowest code of its class when
// every permutation of positions and colours is a symmetry: colour 0
// repeated n₀ times, then colour 1 n₁ times, and so on, with n₀ ≥ n₁ ≥ ….
func rootCanonical(x []uint8) bool {
	if len(x) == 0 {
		return true
	}
	if x[0] != 0 {
		return false
	}
	cur, run, prevRun := uint8(0), 0, len(x)
	for _, k := range x {
		if k == cur {
			run++
			continue
		}
		if k != cur+1 || run > prevRun {
			return false
		}
		cur, prevRun, run = k, run, 1
	}
	return run <= prevRun
}

// poolCache keeps guess pools by symmetry group: a pool depends only on the
// rules, the free colours and the symmetries, and the nodes of a decision
// tree share a handful of groups.
var poolCache struct {
	sync.Mutex
	m     map[poolKey][]int
	elems int
}

type poolKey struct {
	rules mm.Rules
	free  uint64
	root  bool
	auts  string // the symmetries, encoded and sorted
}

// maxPoolCache bounds the number of indices poolCache holds.
const maxPoolCache = 1 << 24

// Guesses returns the space indices of the lowest member of every class of
// the space's codes, ascending. Its cost is proportional to the number of
// codes whose free colours are in canonical order, times the number of
// symmetries; pools are cached by symmetry group. The caller must not
// modify the result.
func (sy *Symmetry) Guesses(sp *mm.Space) []int {
	key := poolKey{rules: sy.rules, free: sy.free, root: sy.root}
	if len(sy.auts) > 0 {
		enc := make([]string, len(sy.auts))
		for i, a := range sy.auts {
			enc[i] = string(a.pos) + string(a.col)
		}
		slices.Sort(enc)
		key.auts = strings.Join(enc, "")
	}
	poolCache.Lock()
	pool, ok := poolCache.m[key]
	poolCache.Unlock()
	if ok {
		return pool
	}
	pool = sy.guesses(sp)
	poolCache.Lock()
	defer poolCache.Unlock()
	if poolCache.m == nil || poolCache.elems+len(pool) > maxPoolCache {
		poolCache.m, poolCache.elems = make(map[poolKey][]int), 0
	}
	poolCache.m[key] = pool
	poolCache.elems += len(pool)
	return pool
}

func (sy *Symmetry) guesses(sp *mm.Space) []int {
	r := sy.rules
	p, c := r.Pegs, r.Colors
	x := make([]uint8, p)
	var out []int
	var inCode uint64
	var walk func(i, freeUsed int)
	walk = func(i, freeUsed int) {
		if i == p {
			if sy.Canonical(x) {
				out = append(out, indexOf(sp, x))
			}
			return
		}
		for k := 0; k < c; k++ {
			if r.Distinct && inCode&(1<<k) != 0 {
				continue
			}
			fu := freeUsed
			if sy.free&(1<<k) != 0 {
				// Only free colours already used, or the next one.
				rank := freeRank(sy.freeList, uint8(k))
				if rank > freeUsed {
					continue
				}
				if rank == freeUsed {
					fu++
				}
			}
			x[i] = uint8(k)
			had := inCode&(1<<k) != 0
			inCode |= 1 << k
			walk(i+1, fu)
			if !had {
				inCode &^= 1 << k
			}
		}
	}
	walk(0, 0)
	return out
}

// Members returns the positions in s (not space indices) of the members
// that are the lowest of their class, ascending.
func (sy *Symmetry) Members(s *mm.Set) []int {
	out := make([]int, 0, s.Len())
	x := make([]uint8, sy.rules.Pegs)
	for i := 0; i < s.Len(); i++ {
		c := s.Code(i)
		for j := range x {
			x[j] = uint8(c.Peg(j))
		}
		if sy.Canonical(x) {
			out = append(out, i)
		}
	}
	return out
}

func freeRank(list []uint8, k uint8) int {
	for i, f := range list {
		if f == k {
			return i
		}
	}
	return -1
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
