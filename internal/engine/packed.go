package engine

import (
	"math/bits"
)

// scorePacked is score on codes of packed words. Its paths for sets of
// one word keep the score as the candidates are counted, so that a guess
// sure to score above limit stops early; the general path counts the
// classes, then scores them (limit unused).
func (sc *scratch) scorePacked(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	keys := sc.keys[:n]
	counts := sc.counts
	if s.small() {
		return s.scoreSmall(g, o, limit)
	}
	if v.words == 1 && n < len(nlognTab) {
		return sc.scorePacked1(s, g, o, limit)
	}
	// Past the table of n·ln n a term costs a factoring: the classes
	// are counted first, and each term taken once, from its size. The
	// members' codes are read side by side from the set, not from the
	// variant's table, where a large space's members lie far apart.
	if v.words == 1 {
		gp, gu := v.pk[2*g], v.pk[2*g+1]
		sh := v.shift
		data := s.packed[:2*n]
		for j := 0; j < len(data); j += 2 {
			counts[bits.OnesCount64(gp&data[j])<<sh|bits.OnesCount64(gu&data[j+1])]++
		}
	} else {
		v.KeysOf(g, s.members, keys)
		for _, k := range keys {
			counts[k]++
		}
	}
	cons = counts[v.win] != 0
	score = o.Score(counts[:v.keys])
	clear(counts[:v.keys])
	return score, cons, true
}

// small reports whether s is a set scorePacked scores by scoreSmall.
func (s *set) small() bool {
	v := s.v
	return !s.sliced && v.words == 1 && v.keys <= 64 && len(s.members) < 128
}

// scoreSmall is scorePacked for codes of one word, keys below 64 and
// fewer than 128 members: the counts live on the stack, indexed without
// checks, and most-parts needs only the set of keys met, in a register.
func (s *set) scoreSmall(g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	gp, gu := v.pk[2*g], v.pk[2*g+1]
	sh := v.shift & 7
	// Each member's two words open d, which the loops shorten by two:
	// they read them with no bounds check.
	data := s.packed[:2*n]
	win := uint(v.win) & 63
	if o == NegParts {
		// Each member that joins a class already met costs a part for
		// good: the guess is beaten once n less those exceeds the best.
		var seen uint64
		most := -int64(n)
		for d := data; len(d) >= 2; d = d[2:] {
			k := uint(bits.OnesCount64(gp&d[0])<<sh|bits.OnesCount64(gu&d[1])) & 63
			bit := uint64(1) << k
			if seen&bit != 0 {
				if most++; most > limit {
					return 0, false, false
				}
			}
			seen |= bit
		}
		return -int64(bits.OnesCount64(seen)), seen&(1<<win) != 0, true
	}
	var counts [64]uint8
	switch o {
	case Largest:
		for d := data; len(d) >= 2; d = d[2:] {
			k := uint(bits.OnesCount64(gp&d[0])<<sh|bits.OnesCount64(gu&d[1])) & 63
			c := counts[k] + 1
			counts[k] = c
			score = max(score, int64(c))
			if score > limit {
				return 0, false, false
			}
		}
	case SumSquares:
		for d := data; len(d) >= 2; d = d[2:] {
			k := uint(bits.OnesCount64(gp&d[0])<<sh|bits.OnesCount64(gu&d[1])) & 63
			c := counts[k]
			counts[k] = c + 1
			score += 2*int64(c) + 1
			if score+int64(len(d)>>1-1) > limit {
				return 0, false, false
			}
		}
	default:
		t := &smallNLogN
		for d := data; len(d) >= 2; d = d[2:] {
			k := uint(bits.OnesCount64(gp&d[0])<<sh|bits.OnesCount64(gu&d[1])) & 63
			c := counts[k]
			counts[k] = c + 1
			score += t[(c+1)&127] - t[c&127]
			if score > limit {
				return 0, false, false
			}
		}
	}
	return score, counts[win] != 0, true
}

// scorePacked1 is scorePacked for codes of one word and fewer members
// than nlognTab holds, with the key, the count and the score of each
// member in one pass.
func (sc *scratch) scorePacked1(s *set, g int, o Objective, limit int64) (score int64, cons, ok bool) {
	v := s.v
	n := len(s.members)
	keys := sc.keys[:n]
	counts := sc.counts[:v.keys]
	gp, gu := v.pk[2*g], v.pk[2*g+1]
	sh := v.shift & 15
	data := s.packed[:2*n]
	done := n
	ok = true
	switch o {
	case Largest:
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k] + 1
			counts[k] = c
			score = max(score, int64(c))
			if score > limit {
				done, ok = j+1, false
				break
			}
		}
	case SumSquares:
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			score += 2*int64(c) + 1
			if score+int64(n-1-j) > limit {
				done, ok = j+1, false
				break
			}
		}
	case SumNLogN:
		t := nlognTab[:n+1]
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			score += t[c+1] - t[c]
			if score > limit {
				done, ok = j+1, false
				break
			}
		}
	case NegParts:
		// Each member that joins a class already met costs a part for
		// good: the guess is beaten once n less those exceeds the best.
		most := -int64(n)
		for j := range keys {
			k := uint16(bits.OnesCount64(gp&data[2*j])<<sh | bits.OnesCount64(gu&data[2*j+1]))
			keys[j] = k
			c := counts[k]
			counts[k] = c + 1
			if c == 0 {
				score--
			} else if most++; most > limit {
				done, ok = j+1, false
				break
			}
		}
	}
	cons = counts[v.win] != 0
	for _, k := range keys[:done] {
		counts[k] = 0
	}
	return score, cons, ok
}
