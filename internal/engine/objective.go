package engine

import (
	"math"
	"strconv"
	"sync"
)

// An Objective scores the partition of the candidates by one guess from
// the sizes of its classes. Lower is better; scores within Tol of each
// other tie.
type Objective int

// The objectives of the four scoring strategies.
const (
	// Largest is the size of the largest class (Knuth).
	Largest Objective = iota
	// SumSquares is Σ n², the expected size of the secret's class times
	// the number of candidates (Irving).
	SumSquares
	// SumNLogN is Σ n·ln n, which is least where the entropy of the
	// partition is greatest (Neuwirth). Terms are fixed-point numbers with
	// 32 fractional bits, built from the logarithms of primes (see
	// fixedNLogN), so that equal sums are exactly equal; sums within 1e-9
	// (4·2⁻³²) also tie.
	SumNLogN
	// NegParts is minus the number of classes (Kooi).
	NegParts
)

// String names the objective by what it scores.
func (o Objective) String() string {
	switch o {
	case Largest:
		return "largest class"
	case SumSquares:
		return "Σ n²"
	case SumNLogN:
		return "Σ n·ln n"
	case NegParts:
		return "parts"
	}
	return "objective(" + strconv.Itoa(int(o)) + ")"
}

// Tol returns the difference between two scores below which they tie.
func (o Objective) Tol() int64 {
	if o == SumNLogN {
		return 4
	}
	return 0
}

// term returns the contribution of a class of n codes; the score is the
// sum of the terms, or their maximum for Largest.
func (o Objective) term(n uint32) int64 {
	switch o {
	case Largest:
		return int64(n)
	case SumSquares:
		return int64(n) * int64(n)
	case SumNLogN:
		return nlogn(n)
	}
	if n != 0 {
		return -1
	}
	return 0
}

// Score returns the score of the partition whose class sizes are counts.
func (o Objective) Score(counts []uint32) int64 {
	s := int64(0)
	switch o {
	case Largest:
		for _, n := range counts {
			s = max(s, int64(n))
		}
	case SumSquares:
		for _, n := range counts {
			s += int64(n) * int64(n)
		}
	case SumNLogN:
		t := nlognTab
		for _, n := range counts {
			if int(n) < len(t) {
				s += t[n]
			} else {
				s += fixedNLogN(int(n))
			}
		}
	case NegParts:
		for _, n := range counts {
			if n != 0 {
				s--
			}
		}
	}
	return s
}

// bound returns a lower bound on the final score of a guess whose classes
// so far score score, with rest candidates still to place in at most k
// classes; for the parts, empty of those classes are still empty. Each class only grows; and however the rest fall
// into the k classes, as x₁ … x_k, Σ f(s + x) ≥ Σ f(s) + Σ f(x) for the
// superadditive terms n² and n·ln n, and Σ f(x) ≥ k·f(rest/k) by Jensen,
// since f is convex.
func (o Objective) bound(score int64, empty, rest, k int) int64 {
	switch o {
	case SumSquares:
		r := int64(rest)
		score += max(r, r*r/int64(k)) // each candidate adds at least 1
	case SumNLogN:
		score += spread(rest, k)
	case NegParts:
		score -= int64(min(rest, empty))
	}
	return score
}

// checkEvery returns how often score checks a guess against its limit
// on a set of several planes: after every checkEvery-th plane (and the
// last). A check scores the classes so far, and under Σ n·ln n (a
// logarithm a class) and the parts it costs about as much as counting a
// plane, while the bound from the candidates not yet counted seldom
// drops a guess after one plane that it would not after a few more. Under
// the largest class and Σ n², cheap and early to drop, it is every plane.
// Instructions on the 65 to 512-candidate nodes of BenchmarkFamilies77Planes
// (callgrind, the scan): every 4th plane against every one, Σ n·ln n 0.91
// (every 2nd 0.95), the parts 0.85, Σ n² 1.02, the largest 1.30.
func (o Objective) checkEvery() int {
	if o == SumNLogN || o == NegParts {
		return 4
	}
	return 1
}

// spread returns at most the least Σ n·ln n, in the fixed point of
// fixedNLogN, of rest codes in k classes: rest·ln(rest/k), less a margin
// for rounding, or 0 when that is not positive.
func spread(rest, k int) int64 {
	if rest <= k {
		return 0
	}
	if k < len(spreadTab) && rest < len(spreadTab[k]) {
		return spreadTab[k][rest]
	}
	return spreadOf(rest, k)
}

func spreadOf(rest, k int) int64 {
	if rest <= k {
		return 0
	}
	x := float64(rest) * math.Log(float64(rest)/float64(k)) * (1 << 32)
	return max(0, int64(x*(1-1e-9))-1024)
}

// spreadTab[k][r] is spread(r, k) for the k of 4 to 7 pegs and r below
// 2048, built with the other tables.
var spreadTab [36][]int64

// Perfect returns the best score possible for n candidates: every class of
// one code.
func (o Objective) Perfect(n int) int64 {
	if o == Largest {
		return 1
	}
	return int64(n) * o.term(1)
}

// Floor returns a score no candidate's split of n candidates into at most
// k classes can beat, and whether o has one: the guess's own class holds
// it alone, and the other n−1 spread as evenly as the other k−1 classes
// allow. No non-candidate scores below it either (it has only
// k−1 classes for all n), so a candidate that scores Floor wins against
// every guess but a lower candidate that does too, since o's ties have no
// tolerance. Σ n·ln n has no Floor: its ties have a tolerance, and an even
// spread is rare.
func (o Objective) Floor(n, k int) (int64, bool) {
	if n < 1 || k < 2 {
		return 0, false
	}
	m, K := int64(n-1), int64(k-1)
	q, r := m/K, m%K
	switch o {
	case Largest:
		return max(1, q+min(r, 1)), true
	case SumSquares:
		return 1 + r*(q+1)*(q+1) + (K-r)*q*q, true
	case NegParts:
		return -int64(min(n, k)), true
	}
	return 0, false
}

// nlognTab holds fixedNLogN(n) for small n. It is built by buildTables,
// which For calls, so that the scoring loops read it without a check.
var nlognTab []int64

var buildTables = sync.OnceFunc(func() {
	// ln n as fixedNLogN sums it, from the smallest prime factor by a
	// sieve: ln n = ln p + ln(n/p), one addition a number.
	const size = 1 << 14
	ln := make([]int64, size)
	smallest := make([]int32, size)
	for p := 2; p < size; p++ {
		if smallest[p] == 0 {
			for m := p; m < size; m += p {
				if smallest[m] == 0 {
					smallest[m] = int32(p)
				}
			}
		}
	}
	t := make([]int64, size)
	for n := 2; n < size; n++ {
		p := int(smallest[n])
		if p == n {
			ln[n] = fixedLog(n)
		} else {
			ln[n] = ln[p] + ln[n/p]
		}
		t[n] = int64(n) * ln[n]
	}
	nlognTab = t
	for p := 4; p <= 7; p++ {
		k := (p+1)*(p+2)/2 - 1
		spreadTab[k] = make([]int64, 2048)
		for r := range spreadTab[k] {
			spreadTab[k][r] = spreadOf(r, k)
		}
	}
	for n := range smallNLogN {
		smallNLogN[n] = t[n]
	}
})

// fixedLog returns ln p for a prime p as a fixed-point number with 32
// fractional bits.
func fixedLog(p int) int64 { return int64(math.Round(math.Log(float64(p)) * (1 << 32))) }

// fixedNLogN returns n·ln n in fixed point, with ln n summed from the
// logarithms of n's prime factors. Rounding then happens once per prime,
// never per class, so partitions whose Σ n·ln n are equal — equal products
// Π nⁿ, such as {4, 1, 1, 1, 1} and {2, 2, 2, 2} — get exactly equal sums.
func fixedNLogN(n int) int64 {
	ln := int64(0)
	m := n
	for p := 2; p*p <= m; p++ {
		for m%p == 0 {
			ln += fixedLog(p)
			m /= p
		}
	}
	if m > 1 {
		ln += fixedLog(m)
	}
	return int64(n) * ln
}

func nlogn(n uint32) int64 {
	if t := nlognTab; int(n) < len(t) {
		return t[n]
	}
	return fixedNLogN(int(n))
}
