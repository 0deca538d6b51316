package strategy

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// MaxHeuristicSpace is the largest space the scoring strategies accept: they
// score every code as a guess against every candidate.
const MaxHeuristicSpace = 1 << 20

// An objective scores the partition of the candidates by one guess from the
// sizes of its classes. Lower is better; scores within tol of each other
// tie.
type objective struct {
	name string
	kind objectiveKind
	tol  int64
}

type objectiveKind int

const (
	largestClass objectiveKind = iota // the size of the largest class
	sumSquares                        // Σ n²
	sumNLogN                          // Σ n·ln n, fixed-point
	negParts                          // −(number of classes)
)

var (
	minimax      = objective{name: "knuth", kind: largestClass}
	expectedSize = objective{name: "expected-size", kind: sumSquares}
	// entropy minimises Σ n·ln n, which maximises the entropy of the
	// partition. Terms are fixed-point numbers with 32 fractional bits,
	// built from the logarithms of primes (see fixedNLogN), so that equal
	// sums are exactly equal; sums within 1e-9 (4·2⁻³²) also tie.
	entropy   = objective{name: "entropy", kind: sumNLogN, tol: 4}
	mostParts = objective{name: "most-parts", kind: negParts}
)

// term returns the contribution of a class of n codes; the score is the
// sum of the terms, or their maximum for largestClass.
func (o objective) term(n uint32) int64 {
	switch o.kind {
	case largestClass:
		return int64(n)
	case sumSquares:
		return int64(n) * int64(n)
	case sumNLogN:
		return nlogn(n)
	}
	if n != 0 {
		return -1
	}
	return 0
}

// score returns the score of the partition whose class sizes are counts,
// indexed by feedback key.
func (o objective) score(counts []uint32) int64 {
	s := int64(0)
	switch o.kind {
	case largestClass:
		for _, n := range counts {
			s = max(s, int64(n))
		}
	case sumSquares:
		for _, n := range counts {
			s += int64(n) * int64(n)
		}
	case sumNLogN:
		t := nlognTable()
		for _, n := range counts {
			if int(n) < len(t) {
				s += t[n]
			} else {
				s += fixedNLogN(int(n))
			}
		}
	case negParts:
		for _, n := range counts {
			if n != 0 {
				s--
			}
		}
	}
	return s
}

// scoreSparse is score when only the classes named by keys can be
// non-empty; it clears those counts as it goes, leaving counts all zero. It
// costs O(len(keys)), which beats score when there are fewer candidates
// than feedback keys.
func (o objective) scoreSparse(counts []uint32, keys []uint16) int64 {
	s := int64(0)
	for _, k := range keys {
		n := counts[k]
		if n == 0 {
			continue
		}
		counts[k] = 0
		if o.kind == largestClass {
			s = max(s, int64(n))
		} else {
			s += o.term(n)
		}
	}
	return s
}

// perfect returns the best score possible for n candidates: every class of
// one code.
func (o objective) perfect(n int) int64 {
	if o.kind == largestClass {
		return 1
	}
	return int64(n) * o.term(1)
}

// nlognTable holds fixedNLogN(n) for small n, built on first use.
var nlognTable = sync.OnceValue(func() []int64 {
	t := make([]int64, 1<<14)
	for n := 2; n < len(t); n++ {
		t[n] = fixedNLogN(n)
	}
	return t
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
	if t := nlognTable(); int(n) < len(t) {
		return t[n]
	}
	return fixedNLogN(int(n))
}

// Knuth minimises the size of the largest class (Knuth 1977). With every
// code allowed as a guess it solves classic Mastermind in at most 5
// guesses, 5801 in all over the 1296 secrets.
type Knuth struct {
	ConsistentOnly bool // guess only codes that could be the secret
}

// ExpectedSize minimises the expected size of the class the secret falls
// in, Σ n² (Irving).
type ExpectedSize struct {
	ConsistentOnly bool // guess only codes that could be the secret
}

// Entropy maximises the entropy of the partition (Neuwirth), computed as
// the smallest Σ n·ln n.
type Entropy struct {
	ConsistentOnly bool // guess only codes that could be the secret
}

// MostParts maximises the number of classes (Kooi; the Max-Parts of
// seeds/003).
type MostParts struct {
	ConsistentOnly bool // guess only codes that could be the secret
}

var (
	_ mm.ContextStrategy = Knuth{}
	_ mm.ContextStrategy = ExpectedSize{}
	_ mm.ContextStrategy = Entropy{}
	_ mm.ContextStrategy = MostParts{}
)

// Guess returns the code whose worst class is smallest.
func (s Knuth) Guess(st *mm.State) (mm.Code, error) { return s.GuessContext(context.Background(), st) }

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (s Knuth) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	return bestGuess(ctx, st, minimax, s.ConsistentOnly)
}

// Guess returns the code with the smallest expected class.
func (s ExpectedSize) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (s ExpectedSize) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	return bestGuess(ctx, st, expectedSize, s.ConsistentOnly)
}

// Guess returns the code whose partition has the most entropy.
func (s Entropy) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (s Entropy) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	return bestGuess(ctx, st, entropy, s.ConsistentOnly)
}

// Guess returns the code whose partition has the most classes.
func (s MostParts) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (s MostParts) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	return bestGuess(ctx, st, mostParts, s.ConsistentOnly)
}

func (Knuth) String() string        { return "knuth" }
func (ExpectedSize) String() string { return "expected-size" }
func (Entropy) String() string      { return "entropy" }
func (MostParts) String() string    { return "most-parts" }

// candidates returns the candidates of st, refusing spaces larger than
// limit with an error that names the strategy.
func candidates(st *mm.State, name string, limit uint64) (*mm.Set, error) {
	r := st.Rules()
	if n := r.Size(); n > limit {
		return nil, fmt.Errorf("%w: %s enumerates every code, and %s has %s, more than %d",
			mm.ErrTooLarge, name, r, sizeText(r), limit)
	}
	return st.Candidates()
}

func sizeText(r mm.Rules) string {
	if r.Log10Size() < 15 {
		return fmt.Sprint(r.Size())
	}
	return fmt.Sprintf("about 10^%.1f", r.Log10Size())
}

// A pick is a scored guess: its score, whether it is a candidate, and its
// space index. The zero pick is no guess.
type pick struct {
	ok    bool
	cons  bool
	score int64
	index int
}

// better reports whether a beats b: a lower score beyond the tolerance;
// on a tie a candidate beats a non-candidate, then the lower index wins.
func (a pick) better(b pick, tol int64) bool {
	switch {
	case !b.ok:
		return a.ok
	case !a.ok:
		return false
	case a.score < b.score-tol:
		return true
	case a.score > b.score+tol:
		return false
	case a.cons != b.cons:
		return a.cons
	}
	return a.index < b.index
}

// bestGuess returns the guess that scores best under obj, with the tie rule
// of the package: a candidate first, then the lowest code.
func bestGuess(ctx context.Context, st *mm.State, obj objective, consistentOnly bool) (mm.Code, error) {
	s, err := candidates(st, obj.name, MaxHeuristicSpace)
	if err != nil {
		return mm.Code{}, err
	}
	c, ok, perfectOnly := obviousGuess(s)
	if ok {
		return c, nil
	}
	pool := guessPool(st, s, consistentOnly)
	// When no candidate splits the candidates perfectly, the first code
	// that does is the answer: nothing scores better, and every later code
	// loses the tie.
	stopAt, canStop := int64(0), false
	if perfectOnly {
		stopAt, canStop = obj.perfect(s.Len()), true
	}
	p, err := scanPool(ctx, s, pool, obj, stopAt, canStop)
	if err != nil {
		return mm.Code{}, err
	}
	return s.Space().Code(p.index), nil
}

// guessPool returns the guesses a scoring strategy considers at st, as
// ascending space indices: one per symmetry class of every code, or of the
// candidates s if consistentOnly.
func guessPool(st *mm.State, s *mm.Set, consistentOnly bool) []int {
	sy := symmetry.Of(st)
	if !consistentOnly {
		return sy.Guesses(s.Space())
	}
	var pool []int
	for _, i := range sy.Members(s) {
		pool = append(pool, s.Index(i))
	}
	return pool
}

// obviousGuess returns the guess every scoring strategy agrees on when there
// is one: the only candidate; the lower of two; or the lowest candidate that
// splits the candidates into classes of one, which no guess can better.
// noPerfectCandidate reports that the candidates were few enough to look
// for such a split and none makes one.
func obviousGuess(s *mm.Set) (c mm.Code, ok, noPerfectCandidate bool) {
	n := s.Len()
	if n <= 2 {
		return s.Code(0), true, false
	}
	sp := s.Space()
	if n > sp.Rules().NumFeedbacks() {
		return mm.Code{}, false, false
	}
	counts := make([]uint32, sp.Keys())
	keys := make([]uint16, n)
	for i := 0; i < n; i++ {
		s.Keys(s.Index(i), keys)
		perfect := true
		for _, k := range keys {
			counts[k]++
			if counts[k] > 1 {
				perfect = false
			}
		}
		if perfect {
			return s.Code(i), true, false
		}
		for _, k := range keys {
			counts[k] = 0
		}
	}
	return mm.Code{}, false, true
}

// scanChunk is the number of guesses one worker scores at a time. Chunks are
// fixed, not tied to the number of workers, so the choice never depends on
// how many cores there are.
const scanChunk = 64

// scanPool scores every guess of pool, given as ascending space indices,
// against s and returns the best pick. If canStop, the first guess that
// scores stopAt ends the scan. Large scans use every core. Each chunk
// looks at ctx first, so that a scan stops soon after ctx is done, with
// ctx.Err().
func scanPool(ctx context.Context, s *mm.Set, pool []int, obj objective, stopAt int64, canStop bool) (pick, error) {
	chunks := (len(pool) + scanChunk - 1) / scanChunk
	results := make([]pick, chunks)
	var next, stop atomic.Int64
	stop.Store(int64(chunks))
	sp := s.Space()
	sparse := s.Len()*2 < sp.Keys()
	work := func() {
		counts := make([]uint32, sp.Keys())
		keys := make([]uint16, s.Len())
		solved := sp.SolvedKey()
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks || int64(c) > stop.Load() || ctx.Err() != nil {
				return
			}
			var best pick
			for _, g := range pool[c*scanChunk : min(len(pool), (c+1)*scanChunk)] {
				p := pick{ok: true, index: g}
				if sparse {
					s.Keys(g, keys)
					for _, k := range keys {
						counts[k]++
					}
					p.cons = counts[solved] != 0
					p.score = obj.scoreSparse(counts, keys)
				} else {
					clear(counts)
					s.Count(g, counts)
					p.cons = counts[solved] != 0
					p.score = obj.score(counts)
				}
				if p.better(best, obj.tol) {
					best = p
				}
				if canStop && p.score == stopAt {
					for {
						old := stop.Load()
						if old <= int64(c) || stop.CompareAndSwap(old, int64(c)) {
							break
						}
					}
					break
				}
			}
			results[c] = best
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if cost := len(pool) * s.Len(); cost < 1<<18 || chunks < 2 {
		workers = 1
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return pick{}, err
	}
	var best pick
	for _, p := range results[:min(chunks, int(stop.Load())+1)] {
		if p.better(best, obj.tol) {
			best = p
		}
	}
	return best, nil
}
