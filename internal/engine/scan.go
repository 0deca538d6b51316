package engine

import (
	"context"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
)

// A Pick is a scored guess: its score, whether it is a candidate, and its
// space index. The zero Pick is no guess.
type Pick struct {
	OK    bool
	Cons  bool
	Score int64
	Index int
}

// Better reports whether a beats b: a lower score beyond the tolerance;
// on a tie a candidate beats a non-candidate, then the lower index wins.
func (a Pick) Better(b Pick, tol int64) bool {
	switch {
	case !b.OK:
		return a.OK
	case !a.OK:
		return false
	case a.Score < b.Score-tol:
		return true
	case a.Score > b.Score+tol:
		return false
	case a.Cons != b.Cons:
		return a.Cons
	}
	return a.Index < b.Index
}

// scanChunk is the number of codes whose guesses one worker scores at a
// time, a word of a pool's bits. Chunks are fixed, not tied to the number
// of workers, so the choice never depends on how many cores there are.
const scanChunk = 64

// parallelCost is the work (guesses times candidates) below which a scan
// runs on one goroutine.
const parallelCost = 1 << 18

// A stopRule names a score no guess can beat: the first guess that
// reaches it (a candidate, if Cons) ends a scan, since every later guess
// loses to it on the tie.
type stopRule struct {
	on   bool
	cons bool
	at   int64
}

// scan scores every guess of pool against s and returns the best Pick
// under o, a candidate's score lowered by bonus; stop may end it early.
// With fam, each family of guesses that share all their pegs but the last
// is bounded together (family.go).
// With workers above 1 a large scan is shared among that many goroutines.
// It returns ctx.Err() soon after ctx is done.
func (s *set) scan(ctx context.Context, pool pool, o Objective, bonus int64, stop stopRule, workers int, fam bool, sc *scratch) (Pick, error) {
	codes := s.v.sp.Len()
	// Chunk c is the word pool.lo + c of the pool's bits.
	chunks := pool.hi - pool.lo
	if pool.n*len(s.members) < parallelCost || chunks < 2 {
		workers = 1
	}
	var results []Pick
	var next, last atomic.Int64 // last: the chunk a stop ended the scan in
	last.Store(int64(chunks))
	var best atomic.Int64 // the lowest score of any guess scored in full
	best.Store(math.MaxInt64)
	// pre is the best member, when the members are scored first.
	var pre Pick
	if n := len(s.members); n*8 <= pool.n {
		// Any code's score bounds the best: the members', cheap to
		// find, let the scan drop most guesses from the start.
		// The lowest member that reaches a candidate's stop is the
		// answer: it is the lowest of its class, so in pool.
		sc.ready(s)
		for _, c := range s.members {
			if score, _, ok := sc.score(s, int(c), o, math.MaxInt64); ok {
				p := Pick{OK: true, Cons: true, Score: score - bonus, Index: int(c)}
				if stop.on && score == stop.at {
					return p, nil
				}
				if p.Better(pre, o.Tol()) {
					pre = p
				}
				best.Store(min(best.Load(), p.Score))
			}
		}
	} else if bonus != 0 && !stop.cons {
		// Scoring every member here would cost more than the scan (n
		// members against n, where the pool is a few codes), so a
		// code that is not a candidate reaching stop.at may still lose
		// to a candidate not yet scored, by the bonus: no such stop.
		stop.on = false
	}
	// A candidate wins with a score up to bonus above the best.
	margin := 4*o.Tol() + bonus
	tol := o.Tol()
	if cap(sc.results) < chunks {
		sc.results = make([]Pick, chunks)
	}
	results = sc.results[:chunks]
	clear(results)
	// Families need the sums of the sliced kernel, and a peg before the
	// last.
	fam = fam && s.sliced && s.v.P >= 2
	famSize := s.v.famSize()
	if fam {
		s.famReady(o)
	}
	// A set of a few candidates is scored straight by scoreSmall, the
	// path sc.score would take, without its calls a guess.
	small := s.small()
	// So is a set of one plane by scoreWord.
	word := s.sliced && s.words == 1
	work := func(sc *scratch) {
		sc.ready(s)
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks || int64(c) > last.Load() || ctx.Err() != nil {
				return
			}
			var top Pick
			low := best.Load() // the lowest score known
			// The chunk's guesses: bit i of x is code base + i.
			w := pool.lo + c
			base := w * scanChunk
			x := ^uint64(0)
			if pool.bits != nil {
				x = pool.bits[w]
			} else if base+scanChunk > codes {
				x >>= base + scanChunk - codes
			}
			famEnd := 0 // the end of the last family bounded
			for x != 0 {
				g := base + bits.TrailingZeros64(x)
				limit := int64(math.MaxInt64)
				if low != math.MaxInt64 {
					limit = low + margin
					if fam && g >= famEnd {
						// A new family: drop the guesses
						// its bound rules out.
						start := g - g%famSize
						famEnd = start + famSize
						d := sc.famDrop(s, g, o, limit)
						if at := start - base; at >= 0 {
							d <<= at
						} else {
							d >>= -at
						}
						sc.famDropped += int64(bits.OnesCount64(x & d))
						if x &^= d; x&(1<<(g-base)) == 0 {
							continue
						}
					}
				}
				x &= x - 1
				var score int64
				var cons, ok bool
				if small {
					score, cons, ok = s.scoreSmall(g, o, limit)
				} else if word {
					score, cons, ok = s.scoreWord(sc, g, o)
				} else {
					score, cons, ok = sc.score(s, g, o, limit)
				}
				if !ok {
					continue
				}
				p := Pick{OK: true, Cons: cons, Score: score, Index: g}
				if cons {
					p.Score -= bonus
				}
				if p.Better(top, tol) {
					top = p
				}
				low = min(low, p.Score)
				// With a bonus, the candidates a stop leaves out
				// are in pre.
				if stop.on && score == stop.at && (cons || !stop.cons) {
					for {
						old := last.Load()
						if old <= int64(c) || last.CompareAndSwap(old, int64(c)) {
							break
						}
					}
					break
				}
			}
			results[c] = top
			for {
				old := best.Load()
				if low >= old || best.CompareAndSwap(old, low) {
					break
				}
			}
		}
	}
	if workers <= 1 {
		work(sc)
	} else {
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Go(func() { work(&scratch{}) })
		}
		work(sc)
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return Pick{}, err
	}
	var top Pick
	if bonus != 0 {
		top = pre
	}
	for _, p := range results[:min(chunks, int(last.Load())+1)] {
		if p.Better(top, tol) {
			top = p
		}
	}
	return top, nil
}
