package large

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// DefaultBudget is the time Sampler aims to spend on one guess when no
// budget is given, on variants of more than 15 × 15; on those up to 15 × 15
// the default is SmallBudget (see DefaultBudgetFor).
const DefaultBudget = 250 * time.Millisecond

// SmallBudget is the default budget of a guess on variants of up to
// 15 × 15 (10^17.6 codes; see DefaultBudgetFor).
const SmallBudget = 60 * time.Millisecond

// smallLog10 is log₁₀ of the codes of 15 × 15, the largest variant whose
// default budget is SmallBudget.
var smallLog10 = mm.Rules{Colors: 15, Pegs: 15}.Log10Size()

// DefaultBudgetFor returns the time Sampler aims to spend on one guess on r
// when no budget is given: SmallBudget on variants of up to 15 × 15, and
// DefaultBudget on larger ones. Seeded games (BENCHMARKS.md) played no
// better with more up to 15 × 15, at a quarter of the time (60 ms against
// 250 ms a guess: 6.93 against 6.98 guesses on 8 × 8, 8.90 against 8.93 on
// 10 × 10, 14.43 against 14.93 on 15 × 15, within the noise of 30 to 60
// games; on 12 × 12, over 100 games, 11.27 against 11.11, and 11.20 at
// 1 s), but from 16 × 16 on the budget pays, late in the game, for
// listing the candidates and for keeping the sample alive (14 games of
// 16 × 16: 17.36 guesses at 60 ms against 16.00 at 250 ms; 18 × 18, 139
// ms against 250 ms: 19.36 against 18.14; 20 × 20, 6 games at 60, 120, 250
// and 500 ms: 27.5, 22.7, 21.0 and 21.3).
func DefaultBudgetFor(r mm.Rules) time.Duration {
	if r.Log10Size() <= smallLog10+1e-9 {
		return SmallBudget
	}
	return DefaultBudget
}

// Limits of Sampler's work per guess.
const (
	// maxPool and minPool bound the codes of the sample; within them its
	// size is what the budget lets the climb score.
	maxPool = 8000
	minPool = 64
	// maxAll is the most candidates scored exactly, every one a target.
	maxAll = 2000
	// maxList is the most candidates Sampler lists.
	maxList = 1 << 17
	// seeds is how many codes the constraint search draws when too few
	// survive to walk from.
	seeds = 16
	// minAccept is the least share of random codes that fit the turns
	// for drawing random codes to pay.
	minAccept = 1.0 / 256
	// burnIn is how many steps a walk takes from a code of the
	// constraint search, which are not uniform, before it records;
	// walkGap is how many steps a walk takes between looks.
	burnIn  = 2000
	walkGap = 20
)

// Shares of the budget: sampling (walks and searches) may spend
// sampleShare of it; listing is tried when it looks cheaper than
// listShare; the climb takes what is left.
const (
	sampleShare = 0.4
	listShare   = 0.3
	// searchShare is the most of its budget a guess spends looking for a
	// consistent code when the sample has none (past it, it plays the
	// code nearest to fitting it has met, see pool.closest), or walking
	// to more codes when the sample has fewer than seeds.
	searchShare = 1.4
	// solverShare is the most of its budget a guess spends in all when
	// the searches found no code that fits and the complete solver (see
	// solverCodes) looks for one.
	solverShare = 2.0
)

// Sampler plays variants too large to enumerate. Each turn it keeps a
// sample of the candidates, drawn uniformly at random from the codes
// consistent with the answers, or all of the candidates once they are few
// enough to list; and it plays the code that best splits them by feedback,
// by entropy, found by hill climbing over every code, not only over the
// candidates.
//
// The sample is a particle filter: the codes of last turn's sample that fit
// the new answer are a uniform sample of the new candidates. Sampler tops
// them up to the sample's size with random codes that fit, while a fair
// share of random codes does, and otherwise with the consistent codes that
// Metropolis walks started from them pass through (see chain), whose long
// run is uniform on the candidates. Only when too few codes survive does it
// seed the walks with codes drawn by constraint search (see Constraints);
// if that finds none, it anneals from a random code (see anneal), then
// searches on, in a fixed order and then with random restarts, until the
// guess has spent searchShare of its budget. A sample of fewer than seeds
// codes (one, after annealing) is walked on, up to searchShare too, until
// it holds seeds: a guess that splits one code is that code.
// Late in large games a search can take many budgets (ten seconds on some
// 20 × 20 histories), so past that Sampler plays the code nearest to
// fitting the answers that its walks met: a guess that cannot win but whose
// answer narrows the next turn's search. Every guess keeps to its budget.
// When the walks keep meeting the same codes, the candidates are few, and
// Sampler lists them all with the constraint search if that fits the
// budget.
//
// The guess: the sampled codes that split the sample best are starting
// points; from the best, a climb changes one peg's colour, or exchanges two
// pegs, while that lowers Σ n·ln n over the classes of the split (raises its
// entropy); then, while the budget lasts, the best guess is kicked by a few
// random recolourings and the climb resumed, keeping what is better. A
// guess played already, which would tell nothing, is never played again. Where every candidate is a target, a guess that could be the
// secret gains a bonus that prices the chance of winning at once (see
// bonus). Ties go to a candidate, then to the lowest code. The first guess
// is the best of the openings (mastermind.Rules.Openings) against a uniform
// sample of every code, computed once per variant and budget.
//
// The budget is turned into amounts of work by fixed costs measured on the
// reference machine, never by reading the clock, so a game is reproducible
// from its seed (st.Rand()) whatever the machine's speed.
type Sampler struct {
	// Budget is the time to aim for per guess; 0 means
	// DefaultBudgetFor(rules).
	Budget time.Duration
}

var (
	_ mm.Strategy        = Sampler{}
	_ mm.Randomized      = Sampler{}
	_ mm.ContextStrategy = Sampler{}
)

func (Sampler) String() string { return "sampler" }

// Randomized reports true: the sample comes from st.Rand().
func (Sampler) Randomized() bool { return true }

func (s Sampler) budget(r mm.Rules) float64 {
	if s.Budget <= 0 {
		return float64(DefaultBudgetFor(r))
	}
	return float64(s.Budget)
}

// Guess returns the code that best splits a sample of the candidates, or
// all of them when they are few.
func (s Sampler) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

// GuessContext is Guess; it returns ctx.Err() soon after ctx is done.
func (s Sampler) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	r := st.Rules()
	if err := CheckSize(r); err != nil {
		return mm.Code{}, err
	}
	m := &meter{budget: s.budget(r)}
	if st.Len() == 0 {
		o, err := openingOf(ctx, r, m.budget)
		if err != nil {
			return mm.Code{}, err
		}
		st.Attach(poolKey{}, &pool{pegs: r.Pegs, codes: o.targets, frac: 1, full: true})
		return toCode(o.guess), nil
	}
	t, err := s.targets(ctx, st, m)
	if err != nil {
		return mm.Code{}, err
	}
	if t.closest != nil {
		return toCode(unplayed(st, t.closest)), nil
	}
	if t.all && t.n <= 2 {
		return toCode(t.codes[:r.Pegs]), nil
	}
	var c *Constraints
	if !st.Known() {
		c = ConstraintsOf(st)
	}
	g, err := climb(ctx, t, r, m, st.Rand(), func(x []uint8) bool {
		return !t.all && c != nil && c.fits(x)
	})
	if err != nil {
		return mm.Code{}, err
	}
	g = unplayed(st, g)
	return toCode(g), nil
}

type poolKey struct{}

// MaxLog10Size is log₁₀ of the most codes Sampler plays: 30 pegs × 30
// colours, the largest variant it has been measured on (see
// BENCHMARKS.md); every guess keeps to its budget, so a game's time grows
// with its guesses only.
var MaxLog10Size = mm.Rules{Colors: 30, Pegs: 30}.Log10Size()

// CheckSize returns an error wrapping mm.ErrTooLarge if r has more codes
// than Sampler plays, saying how many it plays.
func CheckSize(r mm.Rules) error {
	if l := r.Log10Size(); l > MaxLog10Size+1e-9 {
		return fmt.Errorf("%w: the sampler plays variants of up to 10^%.1f codes (30 pegs × 30 colours), and %s has about 10^%.1f; "+
			"take fewer colours or pegs", mm.ErrTooLarge, MaxLog10Size, r, l)
	}
	return nil
}

// unplayed returns g, or if g has been played already, which would tell
// nothing, the next code after it, in the order of codes, that the rules
// allow and that has not.
func unplayed(st *mm.State, g []uint8) []uint8 {
	r := st.Rules()
	k := r.Colors
	for {
		if c := toCode(g); r.Check(c) == nil && !st.Guessed(c) {
			return g
		}
		g = slices.Clone(g)
		for j := len(g) - 1; j >= 0; j-- { // the next code, with carries
			g[j]++
			if int(g[j]) < k {
				break
			}
			g[j] = 0
		}
	}
}

// targets returns the codes to score guesses against at st: every
// candidate when they are known or listed and few, else a uniform sample.
func (s Sampler) targets(ctx context.Context, st *mm.State, m *meter) (*targets, error) {
	r := st.Rules()
	p := r.Pegs
	rng := st.Rand()
	size := poolSize(r, m)
	var all []uint8
	switch l, ok := listed(st); {
	case st.Known():
		cands, err := st.Candidates()
		if err != nil {
			return nil, err
		}
		if cands.Len() <= maxAll {
			all = flatten(cands.Codes(), p)
			break
		}
		var out []uint8
		for range size {
			out = appendCode(out, cands.Code(rng.IntN(cands.Len())))
		}
		return newTargets(p, r.Colors, out, false), nil
	case ok:
		all = l
	default:
		codes, listed, err := s.draw(ctx, st, size, m)
		if err != nil {
			return nil, err
		}
		if len(codes) == 0 {
			// No consistent code found in the budget.
			pl := st.Attached(poolKey{}).(*pool)
			return &targets{pegs: p, colors: r.Colors, closest: pl.closest}, nil
		}
		if !listed {
			return newTargets(p, r.Colors, codes, false), nil
		}
		all = codes
	}
	if n := len(all) / p; n > maxAll {
		var out []uint8
		for range size {
			i := rng.IntN(n)
			out = append(out, all[i*p:(i+1)*p]...)
		}
		return newTargets(p, r.Colors, out, false), nil
	}
	return newTargets(p, r.Colors, all, true), nil
}

// poolSize returns the sample's size for r: as many codes as the climb can
// afford to look at, about pegs steps of every move, with the budget left
// after sampling, within minPool and maxPool.
func poolSize(r mm.Rules, m *meter) int {
	perCode := costMove * float64(moves(r.Pegs, r.Colors)*(r.Pegs+2))
	return max(minPool, min(maxPool, int(m.budget*(1-sampleShare)/perCode)))
}

// draw tops the pool on st up to size codes, attaching one to st if it
// has none, and returns its codes; or, when the candidates look few enough,
// lists them and returns them all, with listed true.
func (s Sampler) draw(ctx context.Context, st *mm.State, size int, m *meter) (codes []uint8, listed bool, err error) {
	r := st.Rules()
	p := r.Pegs
	c := ConstraintsOf(st)
	if !c.Possible() {
		return nil, false, c.inconsistent()
	}
	pl := st.Attach(poolKey{}, &pool{pegs: p, frac: -1}).(*pool)
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.full {
		return pl.codes, false, nil // empty if pl.closest is to be played
	}
	w := newWalker(c, st.Rand(), m)
	frac := pl.frac
	perNode := nodeCost(c)
	limit := m.budget * sampleShare
	list := func() ([]uint8, bool, error) {
		effort := max(1, int(math.Min(m.budget*listShare, m.left()*0.6)/perNode))
		l, nodes, err := listCandidates(ctx, st, maxList, effort)
		m.spend(float64(nodes) * perNode)
		switch {
		case err == nil:
			return l, true, nil
		case errors.Is(err, mm.ErrInconsistent), ctx.Err() != nil:
			return nil, false, err
		}
		return nil, false, nil // too many, or too hard: sample
	}
	// Few candidates: list them, if the search looks cheap enough. It
	// visits a few nodes a candidate and some hundreds of dead ends.
	if frac >= 0 {
		est := frac * math.Pow(10, r.Log10Size())
		if est <= maxList && (4*est+float64(300*(p+r.Colors)))*perNode <= m.budget*listShare {
			if l, ok, err := list(); ok || err != nil {
				return l, ok, err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	// The survivors are a uniform sample: keep them, and draw the rest
	// by rejection while random codes fit often enough, else by walks
	// from the survivors, or from codes of the constraint search when
	// too few survived.
	smp := newSample(p)
	smp.addAll(pl.codes)
	if need := size - smp.len(); need > 0 && (frac < 0 || frac >= minAccept) {
		tries := need * 4
		if frac > 0 {
			tries = int(math.Min(float64(need)/frac*2, float64(need)/minAccept))
		}
		drawn, n := w.random(nil, need, tries)
		smp.addAll(drawn)
		if n > 0 && (frac < 0 || n >= 256) {
			frac = float64(len(drawn)/p) / float64(n)
		}
	}
	perStep := w.stepCost()
	if smp.len() < seeds && len(pl.near) > 0 {
		// Too few survived: walk from the near misses, which are a
		// step or two from consistent codes.
		most := int(math.Max(0, limit/2-m.spent) / perStep)
		if _, _, err := w.walk(ctx, smp, pl.near, seeds, walkGap, most); err != nil {
			return nil, false, err
		}
	}
	if smp.len() < seeds {
		// The constraint search, guided by the near misses.
		effort := max(256, int((limit-m.spent)/2/perNode))
		found, nodes, err := c.sampleNear(ctx, st.Rand(), seeds-smp.len(), effort, nil, pl.near)
		m.spend(float64(nodes) * perNode)
		if smp.len() == 0 && len(found) == 0 && err != nil && !errors.Is(err, mm.ErrInconsistent) && ctx.Err() == nil {
			// Not one consistent code yet: search on, without hints (on
			// 20 × 20 the hint's colours, tried first at every restart,
			// lead into the same dead ends more often than not), while
			// the guess has spent less than searchShare of its budget.
			// First annealing, from a random code, with two thirds of
			// all but the last quarter budget: on 30 × 30 it finds a
			// code where the searches take ten times as long or fail
			// (see anneal). Then half of what is left on one search in
			// a fixed order, and restarts in random orders: each is much
			// the faster on some late 20 × 20 histories (7.5k nodes
			// against 726k on one, 1.8M against a few hundred thousand
			// on another); the last quarter budget on walks from the
			// codes nearest to fitting.
			if most := int((m.budget*(searchShare-0.25) - m.spent) * 2 / 3 / perStep); most > 0 {
				x, aerr := w.anneal(ctx, most)
				if aerr != nil {
					return nil, false, aerr
				}
				if x != nil {
					found, err = x, nil
				}
			}
			if effort := int((m.budget*(searchShare-0.25) - m.spent) / perNode); len(found) == 0 && effort > 0 {
				var x []uint8
				x, nodes, err = c.findInOrder(ctx, effort/2)
				m.spend(float64(nodes) * perNode)
				if x != nil {
					found = x
				} else if err == nil || errors.Is(err, ErrSearchLimit) {
					found, nodes, err = c.sampleNear(ctx, st.Rand(), 1, effort-nodes, nil, nil)
					m.spend(float64(nodes) * perNode)
				}
			}
			if len(found) == 0 && err != nil && !errors.Is(err, mm.ErrInconsistent) && ctx.Err() == nil {
				start := append(w.lowCodes(), pl.near...)
				most := int(math.Max(0, m.budget*searchShare-m.spent) / perStep)
				if _, _, err := w.walk(ctx, smp, start, 1, walkGap, most); err != nil {
					return nil, false, err
				}
			}
		}
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if errors.Is(err, mm.ErrInconsistent) {
			return nil, false, err
		}
		// Codes from the search are not uniform: walk from them a while
		// before they join.
		w.burn(found, burnIn)
		smp.addAll(found)
	}
	if smp.len() == 0 && useSolver {
		// The searches found no code that fits: ask the complete solver,
		// within what is left of solverShare budgets, for up to seeds.
		found, err := solverCodes(ctx, st, m, seeds)
		if err != nil {
			return nil, false, err
		}
		w.burn(found, burnIn)
		smp.addAll(found)
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	// grow walks from the sample's codes until it holds want codes or the
	// guess has spent upto; if the walks keep meeting the same codes, the
	// candidates are few, and it lists them if that fits.
	grow := func(want int, upto float64) ([]uint8, bool, error) {
		n := smp.len()
		start := append([]uint8(nil), smp.codes...)
		most := int(math.Max(0, upto-m.spent) / perStep)
		_, seen, err := w.walk(ctx, smp, start, want, walkGap, most)
		if err != nil || smp.len() == want || seen <= 4*(smp.len()-n) {
			return nil, false, err
		}
		return list()
	}
	if n := smp.len(); n > 0 && n < seeds {
		// Too few codes for a guess to split: grow them within the
		// sampling share; if that neither fills nor lists them, walk
		// on from them, up to searchShare of the budget, until there
		// are seeds. Walking on at once, where the candidates were few
		// and now are listed, cost 18 × 18 0.65 guesses a game.
		start := append([]uint8(nil), smp.codes...)
		if l, ok, err := grow(seeds, limit); ok || err != nil {
			return l, ok, err
		}
		if smp.len() < seeds {
			most := int(math.Max(0, m.budget*searchShare-m.spent) / perStep)
			if _, _, err := w.walk(ctx, smp, start, seeds, walkGap, most); err != nil {
				return nil, false, err
			}
		}
	}
	if n := smp.len(); n > 0 && n < size {
		if l, ok, err := grow(size, limit); ok || err != nil {
			return l, ok, err
		}
	}
	if frac < 0 {
		frac = 1 / math.Pow(10, r.Log10Size())
	}
	if smp.len() == 0 {
		// No consistent code within the budget: play the code nearest to
		// fitting that the walks met, or a random code if they met none.
		// Its answer narrows the next turn's search as a candidate's
		// would.
		var x []uint8
		if len(w.lows) > 0 {
			x = w.lows[0].x
			// The next turn's walks start from them.
			pl.near = w.lowCodes()
		} else {
			x = make([]uint8, p)
			w.randomCode(x)
		}
		pl.closest, pl.frac, pl.full = x, frac, true
		return nil, false, nil
	}
	pl.codes, pl.frac, pl.full = smp.codes, frac, true
	return smp.codes, false, nil
}
