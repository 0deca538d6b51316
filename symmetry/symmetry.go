// Package symmetry finds the guesses a strategy needs to score: one per class
// of codes that the symmetries of a game's history map onto each other.
//
// A permutation of positions and colours that sends every guess of the
// history to itself also sends the set of codes consistent with the history
// to itself, so two guesses it relates split the candidates into classes of
// the same sizes, and are both candidates or both not. Colours no candidate
// holds ("excluded" colours) score nothing wherever they stand, so a guess
// may swap one for another without changing its split. A strategy that
// scores one guess per class, the lowest, makes the same choices as one that
// scores every code.
package symmetry

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// maxAutomorphisms caps how many symmetries of a history are used. Any subset
// of the symmetry group gives a correct reduction (every class keeps its
// lowest member); a larger subset only removes more guesses.
const maxAutomorphisms = 720

// A Group describes the permutations of positions and colours that leave
// every guess of a history unchanged, and the colours no candidate holds.
//
// Colours that no guess has used ("free" colours) are interchangeable; they
// are handled by relabelling rather than by listing permutations, and so
// are excluded colours. A Group is immutable and safe for concurrent use.
type Group struct {
	rules    mm.Rules
	free     uint64  // colours no guess has used and that are not excluded
	freeList []uint8 // the free colours, ascending
	excl     uint64  // colours no candidate holds
	exclList []uint8 // the excluded colours, ascending
	auts     []perm  // symmetries other than the identity (up to the cap)
	root     bool    // no history: the full group of positions and colours
}

// perm is one symmetry: peg i of a code moves to position pos[i] and colour
// k becomes col[k] (free colours are fixed).
type perm struct {
	pos []uint8
	col []uint8
}

// Of returns the symmetries of st's history.
func Of(st *mm.State) *Group {
	guesses := make([]mm.Code, st.Len())
	for i := range guesses {
		guesses[i] = st.Turn(i).Guess
	}
	return New(st.Rules(), guesses)
}

// New returns the symmetries of a history of guesses under r; the feedbacks
// do not matter.
func New(r mm.Rules, guesses []mm.Code) *Group {
	r = r.WithDefaults()
	g := &Group{rules: r, root: len(guesses) == 0}
	var used uint64
	for _, c := range guesses {
		for j := 0; j < c.Len(); j++ {
			used |= 1 << c.Peg(j)
		}
	}
	g.free = all(r.Colors) &^ used
	g.freeList = list(g.free)
	if len(guesses) > 0 {
		g.findAutomorphisms(guesses, used)
	}
	return g
}

// Relabel returns the group of a history that used the colours of used (bit
// k for colour k, from 0) and whose candidates hold none of excluded, with
// only the relabellings of free and of excluded colours and no permutation
// of positions: a subgroup of the history's full group, so its pools are
// larger, but it costs nothing to build. Deep in a search, where few
// permutations survive, it is the better trade.
func Relabel(r mm.Rules, used, excluded uint64) *Group {
	r = r.WithDefaults()
	g := &Group{rules: r, free: all(r.Colors) &^ used}
	g.freeList = list(g.free)
	return g.Exclude(excluded)
}

// Exclude returns the group with the colours of mask (bit k for colour k,
// from 0) known to be held by no candidate. Such colours are
// interchangeable in a guess, and a symmetry of the history maps them among
// themselves. At the start of a game, when no colour can be excluded by the
// history, Exclude returns g unchanged.
func (g *Group) Exclude(mask uint64) *Group {
	mask &= all(g.rules.Colors)
	if mask == g.excl || g.root {
		return g
	}
	h := *g
	h.excl = mask
	h.exclList = list(mask)
	h.free = g.free &^ mask
	h.freeList = list(h.free)
	return &h
}

func all(colors int) uint64 {
	if colors >= 64 {
		return ^uint64(0)
	}
	return 1<<colors - 1
}

func list(mask uint64) []uint8 {
	var out []uint8
	for ; mask != 0; mask &= mask - 1 {
		out = append(out, uint8(bits.TrailingZeros64(mask)))
	}
	return out
}

// findAutomorphisms lists, by backtracking over positions, the position
// permutations π for which some colour map σ sends every guess to itself:
// g[π(i)] = σ(g[i]) for every guess g and position i.
func (g *Group) findAutomorphisms(history []mm.Code, used uint64) {
	p, c := g.rules.Pegs, g.rules.Colors
	guesses := make([][]uint8, len(history))
	for t, h := range history {
		guesses[t] = make([]uint8, p)
		for j := range p {
			guesses[t][j] = uint8(h.Peg(j))
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
		if len(g.auts) >= maxAutomorphisms {
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
			g.auts = append(g.auts, perm{pos: append([]uint8(nil), pos...), col: col})
			return
		}
		for j := 0; j < p; j++ {
			if takenPos&(1<<j) != 0 {
				continue
			}
			// Map colours g[i] → g[j] for every guess, remembering what we set.
			var set []uint8
			ok := true
			for _, gs := range guesses {
				a, b := gs[i], gs[j]
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

// Permutes reports whether the group holds permutations of positions (with
// their colour maps) beyond relabelling free and excluded colours, or is
// the full group of the start of a game.
func (g *Group) Permutes() bool { return g.root || len(g.auts) > 0 }

// Trivial reports whether the group relates no two codes: no free or
// excluded colours to relabel (or only one of each) and no permutation.
func (g *Group) Trivial() bool {
	return !g.root && len(g.freeList) <= 1 && len(g.exclList) <= 1 && len(g.auts) == 0
}

// Canonical reports whether code x is the lowest member of its class. x
// holds colours numbered from 0.
func (g *Group) Canonical(x []uint8) bool {
	if g.root {
		return rootCanonical(x)
	}
	if !g.normal(x) {
		return false
	}
	if len(g.auts) == 0 {
		return true
	}
	// Codes of up to 16 pegs, nearly all, need no buffers on the heap.
	var ybuf, zbuf [16]uint8
	y, z := ybuf[:], zbuf[:]
	if len(x) > len(ybuf) {
		y, z = make([]uint8, len(x)), make([]uint8, len(x))
	}
	y, z = y[:len(x)], z[:len(x)]
	for _, a := range g.auts {
		for i, k := range x {
			y[a.pos[i]] = a.col[k]
		}
		g.normalize(y, z)
		if slices.Compare(z, x) < 0 {
			return false
		}
	}
	return true
}

// normal reports whether normalize leaves x unchanged: its free colours
// are the lowest free ones in order of first appearance, and its excluded
// colours the lowest excluded one (with distinct colours, the lowest ones
// in order). It is the hot test of the near pools, so it keeps no table.
func (g *Group) normal(x []uint8) bool {
	var seen uint64
	nextFree, nextExcl := 0, 0
	for _, k := range x {
		bit := uint64(1) << k
		switch {
		case g.free&bit != 0:
			if seen&bit == 0 {
				if k != g.freeList[nextFree] {
					return false
				}
				seen |= bit
				nextFree++
			}
		case g.excl&bit != 0:
			want := g.exclList[0]
			if g.rules.Distinct {
				want = g.exclList[nextExcl]
				nextExcl++
			}
			if k != want {
				return false
			}
		}
	}
	return true
}

// normalize writes to out the lowest code that relabelling free colours
// among themselves and excluded colours among themselves makes of x: free
// colours take the lowest free colours in order of first appearance;
// excluded colours all become the lowest excluded colour, or with distinct
// colours the lowest ones in order of position. It reports whether out
// differs from x.
func (g *Group) normalize(x, out []uint8) bool {
	var r relabeling
	changed := false
	for i, k := range x {
		k = g.relabel(&r, k)
		changed = changed || k != x[i]
		out[i] = k
	}
	return changed
}

// relabeling is what normalize has seen of a code so far: the free colours
// met and what they become, and the excluded colours met.
type relabeling struct {
	to                 [mm.MaxColors]uint8
	seen               uint64
	nextFree, nextExcl int
}

// relabel returns what colour k, the next peg of a code, becomes in the
// code's normal form, r holding what came before it.
func (g *Group) relabel(r *relabeling, k uint8) uint8 {
	switch {
	case g.free&(1<<k) != 0:
		if r.seen&(1<<k) == 0 {
			r.seen |= 1 << k
			r.to[k] = g.freeList[r.nextFree]
			r.nextFree++
		}
		return r.to[k]
	case g.excl&(1<<k) != 0:
		if g.rules.Distinct {
			r.nextExcl++
			return g.exclList[r.nextExcl-1]
		}
		return g.exclList[0]
	}
	return k
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

// Key identifies the group among the groups of one variant: two groups
// with the same key relate the same codes, so they have the same pools.
func (g *Group) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%t/%x/%x/", g.root, g.free, g.excl)
	if len(g.auts) > 0 {
		enc := make([]string, len(g.auts))
		for i, a := range g.auts {
			enc[i] = string(a.pos) + string(a.col)
		}
		slices.Sort(enc)
		for _, e := range enc {
			b.WriteString(e)
		}
	}
	return b.String()
}
