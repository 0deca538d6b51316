package strategy

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/engine"
)

// MaxHeuristicSpace is the largest space on which the scoring strategies
// score every code as a guess against every candidate.
const MaxHeuristicSpace = 1 << 20

// MaxNearSpace is the largest space the scoring strategies accept. Past
// MaxHeuristicSpace they score only the codes near the candidates (see
// Entropy.Near): 8 × 8, 16 777 216 codes, is the largest of 8 pegs.
const MaxNearSpace = mm.MaxSpace

// nearSample is the rule of a near pool. Measured on 7 × 7 over every
// secret (entropy, win bonus 1.5; every code scored: 5 006 392 guesses in
// 2 775 s CPU): the candidates alone, 5 044 876 in 8 s; this rule,
// 5 009 152 in 85 s (EXPERIMENTS.md, "The near pool", weighs its parts).
var nearSample = engine.Sample{Work: 1 << 28, Top: 64, Mutate: 128, Near: 128, Climb: 3}

// An objective is a scoring strategy's rule for a partition of the
// candidates, with the name the strategy goes by.
type objective struct {
	name  string
	obj   engine.Objective
	bonus int64 // taken off a candidate's score, in obj's units
	near  bool  // score the codes near the candidates only
	all   bool  // score every code, past MaxHeuristicSpace too
	// rollout has guesses chosen by playing the best few out
	rollout engine.Rollout
}

var (
	minimax      = objective{name: "knuth", obj: engine.Largest}
	expectedSize = objective{name: "expected-size", obj: engine.SumSquares}
	entropy      = objective{name: "entropy", obj: engine.SumNLogN}
	mostParts    = objective{name: "most-parts", obj: engine.NegParts}
)

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
	// WinBonus, in nats, is what a guess's chance of being the secret
	// is worth beyond the class of one it makes: with n candidates a
	// candidate's entropy counts WinBonus/n more. 0 is Neuwirth's
	// entropy; about 1.5 plays best on the variants measured
	// (EXPERIMENTS.md). It must lie in [0, MaxWinBonus].
	WinBonus float64
	// Near scores, as guesses, only the candidates and codes near them:
	// at a node of n candidates, at most 2^28/n candidates (one per
	// class of the game's symmetries, evenly spread), the codes one peg
	// away from the best 64 of them, at nodes of at most 128 candidates
	// every code one or two pegs away from one, and then the codes one
	// peg from the best so far while they do better, three times at
	// most; with distinct colours, the candidates alone. It is how every scoring strategy plays past
	// MaxHeuristicSpace codes, up to MaxNearSpace; on 7 × 7 it plays
	// within 0.003 guesses a game of scoring every code, at a 30th of
	// the time.
	Near bool
	// AllCodes scores every code as a guess at every node past
	// MaxHeuristicSpace too, where the near pool is the default: on
	// 8 × 8 over every secret, hundreds of CPU hours (BENCHMARKS.md).
	// Near and AllCodes exclude each other.
	AllCodes bool
	// Rollout, when above 1, chooses the guess at each node of at least
	// 3 candidates (that no candidate splits into classes of one) by
	// playing out that many of the best: each is played to the end of
	// every game by the strategy's own rule, and the one whose games take
	// the fewest guesses in all is kept, the better scored on a tie (the
	// pilot method). The tree so never totals more than the strategy's
	// own, and costs about Rollout times as much at each level of it. It
	// must lie in [0, MaxRollout].
	Rollout int
	// RolloutMax, if not 0, plays out guesses only at nodes of at most
	// that many candidates: the play-outs near the root cost most, each
	// playing out most of the tree.
	RolloutMax int
	// RolloutSmall, if not 0, plays out SmallRollout guesses at nodes of at
	// most that many candidates (within RolloutMax), where play-outs cost
	// least.
	RolloutSmall int
	// NoBook has every guess computed, even where the toolkit ships a
	// book of these settings (Books): for writing one.
	NoBook bool
}

// MaxRollout is the most guesses Entropy.Rollout plays out at a node: a
// node's play-outs cost about that many times its subtree, so 1 024 on
// 8 × 5 is hours.
const MaxRollout = 1024

// SmallRollout is the number of guesses Entropy.RolloutSmall plays out at
// the small nodes it names.
const SmallRollout = 64

// MaxWinBonus is the largest Entropy.WinBonus accepted. The best bonuses
// measured lie between 1 and 2 nats; on 6 × 6, 3 nats already does worse
// than none.
const MaxWinBonus = 10

// objective returns entropy with s's bonus, or an error if it is out of
// range.
func (s Entropy) objective() (objective, error) {
	b := s.WinBonus
	if !(b >= 0 && b <= MaxWinBonus) {
		return objective{}, fmt.Errorf("mastermind: entropy's win bonus %v: want 0 to %d nats", b, MaxWinBonus)
	}
	o := entropy
	o.bonus = int64(math.Round(b * (1 << 32)))
	if s.Near && s.AllCodes {
		return objective{}, fmt.Errorf("mastermind: entropy: the near pool and every code as a guess exclude each other")
	}
	o.near, o.all = s.Near, s.AllCodes
	if s.Rollout < 0 || s.Rollout > MaxRollout {
		return objective{}, fmt.Errorf("mastermind: entropy's play-outs %d: want 0 to %d guesses", s.Rollout, MaxRollout)
	}
	if s.RolloutMax < 0 || s.RolloutMax > 0 && s.RolloutMax < 3 {
		return objective{}, fmt.Errorf("mastermind: entropy's largest node played out, %d candidates: want 0 (every node) or at least 3", s.RolloutMax)
	}
	if s.RolloutSmall < 0 {
		return objective{}, fmt.Errorf("mastermind: entropy's largest node of 64 play-outs, %d candidates: want 0 (none) or more", s.RolloutSmall)
	}
	if s.Rollout > 1 {
		o.rollout = engine.Rollout{Top: s.Rollout, Min: 3, Max: math.MaxInt}
		if s.RolloutMax > 0 {
			o.rollout.Max = s.RolloutMax
		}
		if s.RolloutSmall > 0 {
			o.rollout.Small, o.rollout.SmallTop = s.RolloutSmall, SmallRollout
		}
	}
	return o, nil
}

// Settings returns the bonus, when there is one, the pool, when it is
// near, and the play-outs, when there are some, as tree files record them;
// nil without any.
func (s Entropy) Settings(r mm.Rules) map[string]string {
	m := map[string]string{}
	if s.WinBonus != 0 {
		m["win-bonus"] = strconv.FormatFloat(s.WinBonus, 'g', -1, 64)
	}
	switch big := r.WithDefaults().Size() > MaxHeuristicSpace; {
	case s.Near || big && !s.AllCodes:
		m["pool"] = "near"
	case big && s.AllCodes:
		m["pool"] = "all"
	}
	if s.Rollout > 1 {
		m["rollout"] = strconv.Itoa(s.Rollout)
		if s.RolloutMax > 0 {
			m["rollout-max"] = strconv.Itoa(s.RolloutMax)
		}
		if s.RolloutSmall > 0 {
			m["rollout-small"] = strconv.Itoa(s.RolloutSmall)
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
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
	o, err := s.objective()
	if err != nil {
		return mm.Code{}, err
	}
	if !s.NoBook && !s.ConsistentOnly {
		settings := func() map[string]string { return s.Settings(st.Rules()) }
		if g, ok := shippedGuess("entropy", settings, st); ok {
			return g, nil
		}
	}
	return bestGuess(ctx, st, o, s.ConsistentOnly)
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

// choosers keeps a Chooser for each variant and objective, so that the
// guess pools it lists are reused from one guess to the next.
var choosers struct {
	sync.Mutex
	m map[chooserKey]*engine.Chooser
}

type chooserKey struct {
	rules          mm.Rules
	obj            engine.Objective
	bonus          int64
	consistentOnly bool
	near           bool
	rollout        engine.Rollout
}

// chooser returns the engine's chooser of sp's guesses under obj.
func chooser(sp *mm.Space, obj objective, consistentOnly bool) *engine.Chooser {
	if consistentOnly {
		obj.bonus = 0 // every guess is a candidate: the bonus changes nothing
	}
	near := obj.near || sp.Len() > MaxHeuristicSpace && !obj.all
	key := chooserKey{sp.Rules(), obj.obj, obj.bonus, consistentOnly, near, obj.rollout}
	choosers.Lock()
	defer choosers.Unlock()
	if ch := choosers.m[key]; ch != nil {
		return ch
	}
	if choosers.m == nil || len(choosers.m) >= 16 {
		choosers.m = make(map[chooserKey]*engine.Chooser)
	}
	ch := &engine.Chooser{V: engine.For(sp), Obj: obj.obj, ConsistentOnly: consistentOnly, Bonus: obj.bonus, Rollout: obj.rollout}
	if near {
		ch.Sample = nearSample // the candidates alone if consistentOnly
	}
	choosers.m[key] = ch
	return ch
}

// members returns the space indices of s's members, ascending.
func members(s *mm.Set) []uint32 {
	out := make([]uint32, s.Len())
	for i := range out {
		out[i] = uint32(s.Index(i))
	}
	return out
}

// history returns the guesses of st.
func history(st *mm.State) []mm.Code {
	h := make([]mm.Code, st.Len())
	for i := range h {
		h[i] = st.Turn(i).Guess
	}
	return h
}

// bestGuess returns the guess that scores best under obj, with the tie rule
// of the package: a candidate first, then the lowest code.
func bestGuess(ctx context.Context, st *mm.State, obj objective, consistentOnly bool) (mm.Code, error) {
	s, err := candidates(st, obj.name, MaxNearSpace)
	if err != nil {
		return mm.Code{}, err
	}
	ch := chooser(s.Space(), obj, consistentOnly)
	g, err := ch.Choose(ctx, members(s), history(st), runtime.GOMAXPROCS(0))
	if err != nil {
		return mm.Code{}, err
	}
	return s.Space().Code(g), nil
}

// walk plays obj against every secret of r that want accepts, depth first
// (see eval.Walker).
func walk(ctx context.Context, r mm.Rules, obj objective, consistentOnly bool, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walkFrom(ctx, r, obj, consistentOnly, nil, want, progress, workers)
}

// walkFrom is walk with every game opening with first, if not nil.
func walkFrom(ctx context.Context, r mm.Rules, obj objective, consistentOnly bool, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	if n := r.WithDefaults().Size(); n > MaxNearSpace {
		return nil, fmt.Errorf("%w: %s enumerates every code, and %s has %s, more than %d",
			mm.ErrTooLarge, obj.name, r, sizeText(r), MaxNearSpace)
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g := -1
	if first != nil {
		i, ok := sp.Index(*first)
		if !ok {
			return nil, fmt.Errorf("opening %v: not a code of %s", *first, r)
		}
		g = i
	}
	return chooser(sp, obj, consistentOnly).WalkFrom(ctx, g, want, progress, workers)
}

// Walks reports whether Walk takes r: spaces of at most MaxNearSpace
// codes.
func (Knuth) Walks(r mm.Rules) bool { return walks(r) }

// Walks reports whether Walk takes r.
func (ExpectedSize) Walks(r mm.Rules) bool { return walks(r) }

// Walks reports whether Walk takes r.
func (Entropy) Walks(r mm.Rules) bool { return walks(r) }

// Walks reports whether Walk takes r.
func (MostParts) Walks(r mm.Rules) bool { return walks(r) }

func walks(r mm.Rules) bool {
	r = r.WithDefaults()
	return r.Validate() == nil && r.Size() <= MaxNearSpace
}

// Walk plays every secret of r depth first and returns the guesses each
// game takes, by space index (see eval.Walker).
func (s Knuth) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walk(ctx, r, minimax, s.ConsistentOnly, want, progress, workers)
}

// Walk plays every secret of r depth first (see eval.Walker).
func (s ExpectedSize) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walk(ctx, r, expectedSize, s.ConsistentOnly, want, progress, workers)
}

// Walk plays every secret of r depth first (see eval.Walker).
func (s Entropy) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	o, err := s.objective()
	if err != nil {
		return nil, err
	}
	return walk(ctx, r, o, s.ConsistentOnly, want, progress, workers)
}

// fromWalker is a scoring strategy that can walk every secret from a first
// guess it is given: what Opening walks through.
type fromWalker interface {
	Walks(r mm.Rules) bool
	walkFrom(ctx context.Context, r mm.Rules, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error)
}

func (s Knuth) walkFrom(ctx context.Context, r mm.Rules, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walkFrom(ctx, r, minimax, s.ConsistentOnly, first, want, progress, workers)
}

func (s ExpectedSize) walkFrom(ctx context.Context, r mm.Rules, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walkFrom(ctx, r, expectedSize, s.ConsistentOnly, first, want, progress, workers)
}

func (s Entropy) walkFrom(ctx context.Context, r mm.Rules, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	o, err := s.objective()
	if err != nil {
		return nil, err
	}
	return walkFrom(ctx, r, o, s.ConsistentOnly, first, want, progress, workers)
}

func (s MostParts) walkFrom(ctx context.Context, r mm.Rules, first *mm.Code, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walkFrom(ctx, r, mostParts, s.ConsistentOnly, first, want, progress, workers)
}

// Walk plays every secret of r depth first (see eval.Walker).
func (s MostParts) Walk(ctx context.Context, r mm.Rules, want func(int) bool, progress func(int), workers int) ([]uint8, error) {
	return walk(ctx, r, mostParts, s.ConsistentOnly, want, progress, workers)
}
