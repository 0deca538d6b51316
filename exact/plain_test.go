package exact_test

import (
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// plainTotal is a second plain search, for the least total alone, quick
// enough for a few hundred codes: plainOptimal's exhaustive search with
// branch and bound. Every code is a guess at every node, tried in order of
// a lower bound of its split (the set's size plus, for each class but the
// win's, the least m codes could cost if every guess split them into as
// many classes as there are answers) until that bound reaches the best
// found. It shares nothing with the solver but mm.Score.
type plainTotal struct {
	secrets []mm.Code
	fb      [][]uint8 // fb[g][s]: black·(pegs+1)+white of guess g on secrets[s]
	win     uint8
	kinds   int
	least   []int          // least[m]: the bound of m codes
	exact   map[string]int // sets solved
	lower   map[string]int // lower bounds of sets cut off
}

// newPlainTotal returns the plain search of sets of secrets, with every
// code of guesses a guess.
func newPlainTotal(guesses, secrets []mm.Code) *plainTotal {
	pegs := guesses[0].Len()
	p := &plainTotal{secrets: secrets, fb: make([][]uint8, len(guesses)), win: uint8(pegs * (pegs + 1)),
		kinds: (pegs + 1) * (pegs + 1), exact: map[string]int{}, lower: map[string]int{}}
	answers := map[uint8]bool{}
	for g, gc := range guesses {
		p.fb[g] = make([]uint8, len(secrets))
		for s, sc := range secrets {
			f := mm.Score(sc, gc)
			p.fb[g][s] = uint8(f.Black*(pegs+1) + f.White)
			answers[p.fb[g][s]] = true
		}
	}
	// One code found with the first guess, k with the second, k² with the
	// third, and so on, for k answers but the win.
	k := len(answers) - 1
	p.least = make([]int, len(secrets)+1)
	for m := 1; m <= len(secrets); m++ {
		left, width, level := m, 1, 0
		for left > 0 {
			level++
			n := min(left, width)
			p.least[m] += n * level
			left -= n
			width *= k
		}
	}
	return p
}

// cost returns the least total number of guesses that finds every code of
// set (indices into the secrets) if it is below cutoff, else a lower bound of it
// of at least cutoff.
func (p *plainTotal) cost(set []int, cutoff int) int {
	n := len(set)
	if n == 1 {
		return 1
	}
	key := make([]byte, (len(p.secrets)+7)/8)
	for _, s := range set {
		key[s/8] |= 1 << (s % 8)
	}
	if c, ok := p.exact[string(key)]; ok {
		return c
	}
	lb := max(p.least[n], p.lower[string(key)])
	if lb >= cutoff {
		return lb
	}
	type split struct{ g, bound int }
	var splits []split
	count := make([]int, p.kinds)
	for g := range p.fb {
		clear(count)
		row := p.fb[g]
		for _, s := range set {
			count[row[s]]++
		}
		if count[row[set[0]]] == n && row[set[0]] != p.win {
			continue // learns nothing
		}
		b := n
		for f, m := range count {
			if m > 0 && uint8(f) != p.win {
				b += p.least[m]
			}
		}
		splits = append(splits, split{g, b})
	}
	slices.SortStableFunc(splits, func(a, b split) int { return a.bound - b.bound })
	best, proven := cutoff, 1<<30 // proven: least bound of a guess cut off
	classes := make([][]int, p.kinds)
	for _, sp := range splits {
		if sp.bound >= best {
			proven = min(proven, sp.bound)
			break
		}
		for f := range classes {
			classes[f] = nil
		}
		for _, s := range set {
			f := p.fb[sp.g][s]
			classes[f] = append(classes[f], s)
		}
		// Each class's cutoff is what the others leave, at their bounds.
		total, ok := sp.bound, true
		for f, c := range classes {
			if len(c) == 0 || uint8(f) == p.win {
				continue
			}
			rest := total - p.least[len(c)]
			total = rest + p.cost(c, best-rest)
			if total >= best {
				ok = false
				break
			}
		}
		if ok {
			best = total
		} else {
			proven = min(proven, total)
		}
	}
	if best < cutoff {
		p.exact[string(key)] = best
		return best
	}
	lb = max(lb, min(proven, 1<<30))
	p.lower[string(key)] = lb
	return lb
}
