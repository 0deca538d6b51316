package strategy

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/score"
)

// Limits of Sampler's work per guess when not set.
const (
	// MaxSamples is the most consistent codes Sampler draws per guess.
	MaxSamples = 128
	// MaxExact is the most candidates Sampler enumerates and scores
	// exactly.
	MaxExact = 6000
)

// maxList is the most candidates Sampler lists when drawing them one at a
// time proves slow: listing them once lets Play filter the list at every
// later turn.
const maxList = 1 << 17

// maxOpenings is the most first guesses, one per class, that Sampler
// scores at the start of a game, against openingTargets codes drawn
// uniformly.
const (
	maxOpenings    = 2000
	openingTargets = 4096
)

// Sampler plays variants too large to enumerate. Each turn it draws codes
// consistent with the history — from the candidates where the variant is
// small enough to enumerate (at most 2²⁰ codes), otherwise by constraint
// search (mastermind.Constraints: backtracking over colour counts and
// positions, propagating the counts' bounds and the positions' exclusions
// that the feedback implies) — and plays the drawn code that splits the
// drawn codes best, by entropy or, with MostParts, by the number of classes.
// The first guess is also chosen from one code of each class of openings
// (Rules.Openings), scored against uniformly drawn codes.
//
// When the codes drawn repeat one another, few candidates are left: Sampler
// then enumerates them, and once they are at most Exact it plays the exact
// heuristic instead, the candidate that splits all the candidates best.
// Every guess is thus consistent with the history. Ties go to the lowest
// code.
//
// Sampler draws on st.Rand(), so a game is reproducible from its seed. Its
// cost per guess is about Samples searches (a few dozen nodes each, more
// late in a hard game) plus Samples² scorings, or Exact² scorings in the
// exact phase. The searches spend a small pilot and then at most Effort
// nodes where codes are easy to find, and at most Effort + Effort/2 where
// they are hard (a listing of Effort nodes, then draws of Effort/2; see
// draw). If they find no code within that effort Sampler searches on
// without a limit, since a guess must be played.
type Sampler struct {
	// Budget is the time to aim for per guess, turned into the amounts
	// below when they are zero by fixed costs (see Auto); 0 means
	// DefaultBudget.
	Budget    time.Duration
	Samples   int  // codes drawn per guess; 0: as the budget allows, at most MaxSamples
	Exact     int  // enumerate and score exactly at most this many candidates; 0: as the budget allows, at most MaxExact
	Effort    int  // search nodes per guess for drawing, and for enumerating; 0: the budget's worth
	MostParts bool // score by the number of classes instead of entropy
}

var (
	_ mm.Strategy   = Sampler{}
	_ mm.Randomized = Sampler{}
)

func (Sampler) String() string { return "sampler" }

// Randomized reports true: the codes drawn come from st.Rand().
func (Sampler) Randomized() bool { return true }

// withDefaults fills in the amounts of work left zero: as many codes drawn,
// and as many candidates scored exactly, as half the budget allows each,
// and the whole budget's worth of search nodes.
func (s Sampler) withDefaults(r mm.Rules) Sampler {
	b := float64(s.Budget)
	if b <= 0 {
		b = float64(DefaultBudget)
	}
	pc := pairCost(r)
	if s.Samples <= 0 {
		s.Samples = max(16, int(min(MaxSamples, b/2/sampleCost)))
	}
	if s.Exact <= 0 {
		s.Exact = max(16, int(min(MaxExact, math.Sqrt(b/2/pc))))
	}
	if s.Effort <= 0 {
		s.Effort = max(1<<10, int(min(1<<24, b/nodeNanos)))
	}
	return s
}

func (s Sampler) objective() objective {
	if s.MostParts {
		return mostParts
	}
	return entropy
}

// Guess returns the consistent code that best splits a sample of the
// candidates, or all of them when they are few.
func (s Sampler) Guess(st *mm.State) (mm.Code, error) {
	r := st.Rules()
	s = s.withDefaults(r)
	rng := st.Rand()
	obj := s.objective()
	if st.Len() == 0 {
		return s.opening(r, rng, obj), nil
	}
	var all, sample []mm.Code // every candidate if known; a sample else
	switch l, listed := st.Listed(); {
	case st.Known():
		cands, err := st.Candidates()
		if err != nil {
			return mm.Code{}, err
		}
		if cands.Len() <= s.Exact {
			all = cands.Codes()
			break
		}
		sample = make([]mm.Code, s.Samples)
		for i := range sample {
			sample[i] = cands.Code(rng.IntN(cands.Len()))
		}
	case listed:
		// Listed at an earlier turn and filtered since.
		all = l
	default:
		var err error
		if sample, all, err = s.draw(st, rng); err != nil {
			return mm.Code{}, err
		}
	}
	if all != nil {
		if len(all) <= s.Exact {
			return bestSplit(r, all, all, obj), nil
		}
		sample = make([]mm.Code, s.Samples)
		for i := range sample {
			sample[i] = all[rng.IntN(len(all))]
		}
	}
	return bestSplit(r, distinct(sample), sample, obj), nil
}

// opening returns the first guess: the opening (Rules.Openings: one code of
// each class that renaming colours and permuting positions map onto each
// other, the lowest of its class) that best splits every code where there
// are at most s.Exact of them, or else openingTargets codes drawn
// uniformly — many, since drawing costs nothing at the start.
func (s Sampler) opening(r mm.Rules, rng *rand.Rand, obj objective) mm.Code {
	var targets []mm.Code
	if r.Size() <= uint64(s.Exact) {
		if sp, err := mm.SpaceOf(r); err == nil {
			targets = sp.All().Codes()
		}
	}
	if targets == nil {
		targets = make([]mm.Code, openingTargets)
		for i := range targets {
			targets[i] = mm.RandomCode(r, rng)
		}
	}
	pool := r.Openings()
	if len(pool) > maxOpenings {
		pool = distinct(targets[:min(len(targets), s.Samples)])
	}
	return bestSplit(r, pool, targets, obj)
}

// draw draws s.Samples codes consistent with st's turns, or lists every
// candidate when listing them looks cheaper: at most maxList of them when
// codes are hard to find, at most s.Exact when the draws repeat. A list is
// kept by st, and Play filters it for the turns that follow.
//
// A pilot of a few codes tells how hard the search is. Where codes are
// hard to find, the candidates are few and sparse in a large search tree:
// one pass that lists them all costs less than drawing them one at a time,
// so draw lists first, with s.Effort nodes, and draws with s.Effort/2 only
// if the listing fails. Where codes are easy to find but the draws repeat
// one another, the candidates are few too, and draw lists them afterwards:
// drawing and listing then have s.Effort/2 each.
func (s Sampler) draw(st *mm.State, rng *rand.Rand) (sample, all []mm.Code, err error) {
	c := st.Constraints()
	pegs, colors := c.Rules().Pegs, c.Rules().Colors
	pilotEffort := pilotCodes * pilotNodes * (pegs + colors)
	sample, err = c.Sample(rng, min(pilotCodes, s.Samples), pilotEffort)
	if errors.Is(err, mm.ErrInconsistent) {
		return nil, nil, err
	}
	listed := false
	var partial []mm.Code
	if err != nil {
		listed = true
		l, lerr := st.ListCandidates(maxList, s.Effort)
		if lerr == nil {
			return nil, l, nil
		}
		partial = l
	}
	more, err := c.Sample(rng, s.Samples-len(sample), s.Effort/2)
	sample = append(sample, more...)
	if errors.Is(err, mm.ErrInconsistent) {
		return nil, nil, err
	}
	if len(sample) < s.Samples && len(partial) > 0 {
		// Too few codes drawn: add a spread of those the listing found,
		// which are consistent too though close to one another.
		step := max(1, len(partial)/(s.Samples-len(sample)))
		for i := 0; i < len(partial) && len(sample) < s.Samples; i += step {
			sample = append(sample, partial[i])
		}
	}
	if len(sample) == 0 {
		// The search gave up: look on without a limit, which ends.
		if sample, err = c.Sample(rng, 1, 0); err != nil {
			return nil, nil, err
		}
	}
	if !listed && len(distinct(sample)) < len(sample)*4/5 {
		if all, err := st.ListCandidates(s.Exact, s.Effort/2); err == nil {
			return nil, all, nil
		}
	}
	return sample, nil, nil
}

// Sampler's pilot: pilotCodes codes drawn in at most pilotNodes nodes per
// peg and colour each; beyond that the search counts as hard.
const (
	pilotCodes = 8
	pilotNodes = 8
)

// distinct returns the codes of cs without repeats, in ascending order.
func distinct(cs []mm.Code) []mm.Code {
	out := slices.Clone(cs)
	slices.SortFunc(out, mm.Code.Compare)
	return slices.Compact(out)
}

// bestSplit returns the code of pool that splits targets best under obj,
// the lowest on a tie. pool must be ascending and not empty. It costs
// O(len(pool)·len(targets)) scorings of packed codes.
func bestSplit(r mm.Rules, pool, targets []mm.Code, obj objective) mm.Code {
	if len(pool) == 1 || len(targets) <= 2 {
		return pool[0]
	}
	pk := score.New(r.Pegs, r.Colors)
	st := pk.Stride()
	data := make([]uint64, len(targets)*st)
	buf := make([]uint8, r.Pegs)
	packCode := func(dst []uint64, c mm.Code) {
		for i := range buf {
			buf[i] = uint8(c.Peg(i))
		}
		pk.Pack(dst, buf)
	}
	for i, c := range targets {
		packCode(data[i*st:(i+1)*st], c)
	}
	g := make([]uint64, st)
	counts := make([]uint32, pk.Keys())
	var best pick
	for i, c := range pool {
		packCode(g, c)
		clear(counts)
		pk.Count(g, data, counts)
		p := pick{ok: true, cons: true, score: obj.score(counts), index: i}
		if p.better(best, obj.tol) {
			best = p
		}
	}
	return pool[best.index]
}
