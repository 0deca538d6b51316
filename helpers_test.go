package mastermind_test

import (
	"math/rand/v2"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// refScore is the textbook scorer, written as plainly as possible so that it
// can serve as the reference for every faster path: first the blacks, then
// for each unmatched guess peg the first unmatched secret peg of its colour.
func refScore(secret, guess []int) mm.Feedback {
	if len(secret) != len(guess) {
		panic("refScore: codes of different lengths")
	}
	var usedS, usedG [mm.MaxPegs]bool
	var f mm.Feedback
	for i := range secret {
		if secret[i] == guess[i] {
			f.Black++
			usedS[i] = true
			usedG[i] = true
		}
	}
	for i := range guess {
		if usedG[i] {
			continue
		}
		for j := range secret {
			if !usedS[j] && secret[j] == guess[i] {
				f.White++
				usedS[j] = true
				break
			}
		}
	}
	return f
}

// refScoreCodes is refScore on Code values.
func refScoreCodes(secret, guess mm.Code) mm.Feedback {
	return refScore(secret.Colors(), guess.Colors())
}

// enumerate lists every code of r by brute force, in lexicographic order,
// without using Space: an odometer over colours^pegs that drops codes with
// repeats when r.Distinct.
func enumerate(r mm.Rules) [][]int {
	r = r.WithDefaults()
	var out [][]int
	x := make([]int, r.Pegs)
	for {
		ok := true
		if r.Distinct {
			seen := map[int]bool{}
			for _, k := range x {
				if seen[k] {
					ok = false
					break
				}
				seen[k] = true
			}
		}
		if ok {
			out = append(out, append([]int(nil), x...))
		}
		i := r.Pegs - 1
		for i >= 0 {
			x[i]++
			if x[i] < r.Colors {
				break
			}
			x[i] = 0
			i--
		}
		if i < 0 {
			return out
		}
	}
}

// mustCode returns the code of the given colours or fails the test.
func mustCode(t testing.TB, colors ...int) mm.Code {
	t.Helper()
	c, err := mm.NewCode(colors...)
	if err != nil {
		t.Fatalf("NewCode(%v): %v", colors, err)
	}
	return c
}

// mustSpace returns the space of r or fails the test.
func mustSpace(t testing.TB, r mm.Rules) *mm.Space {
	t.Helper()
	sp, err := mm.SpaceOf(r)
	if err != nil {
		t.Fatalf("SpaceOf(%v): %v", r, err)
	}
	return sp
}

// randColors returns a random code of r as colours, drawn with rng.
func randColors(rng *rand.Rand, r mm.Rules) []int {
	r = r.WithDefaults()
	if r.Distinct {
		return rng.Perm(r.Colors)[:r.Pegs]
	}
	x := make([]int, r.Pegs)
	for i := range x {
		x[i] = rng.IntN(r.Colors)
	}
	return x
}

// randCode is randColors as a Code.
func randCode(t testing.TB, rng *rand.Rand, r mm.Rules) mm.Code {
	t.Helper()
	return mustCode(t, randColors(rng, r)...)
}

// refFilter returns, by brute force with refScore, the members of codes that
// give feedback f to guess g.
func refFilter(codes []mm.Code, g mm.Code, f mm.Feedback) []mm.Code {
	var out []mm.Code
	for _, c := range codes {
		if refScoreCodes(c, g) == f {
			out = append(out, c)
		}
	}
	return out
}

// refCandidates returns, by brute force, the codes of r consistent with
// every turn.
func refCandidates(r mm.Rules, turns []mm.Turn) []mm.Code {
	var out []mm.Code
	for _, x := range enumerate(r) {
		c, _ := mm.NewCode(x...)
		ok := true
		for _, t := range turns {
			if refScoreCodes(c, t.Guess) != t.Feedback {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
