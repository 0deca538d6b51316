package exact

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// A BoundPlan is LowerBoundWith cut into units of work that run apart —
// the shards of a cluster job, or runs of one process that a journal
// resumes — and whose values Merge adds up into exactly the bound that
// LowerBoundWith proves with the same options.
//
// The split. The bound of the whole space of N codes is
//
//	min over first guesses f of ( N + Σ over the classes c that f makes: B(c) )
//
// where B(c) is the bound of class c, depth−1 guesses deep. A unit is one
// term B(c) of one first guess's sum: the codes that give one feedback to
// one first guess, bounded on their own. The sums and the least of them
// are left to Merge, so that no unit needs another's value. The min over
// guesses below the first stays inside its unit, with all its pruning:
// a unit's value is its class's bound, whichever process computes it.
//
// What a split search cannot share is the pruning across first guesses:
// the whole search gives a first guess up once its sum reaches the least
// of the first guesses before it, known only when they are done. A plan
// prunes instead against BoundOptions.Cutoff, fixed before the work
// starts (0: none, every unit bounded in full): a first guess whose
// counting bound reaches it has no units, and the unit of class c of f
// stops at the room Cutoff − (the counting bound of f less c's own),
// its value then being that room, at least Cutoff for f's sum. So the
// merged bound is LowerBoundWith's whenever that is below Cutoff (the
// room of a unit of the best first guess is never reached), and at least
// Cutoff otherwise: Cutoff is best a total a strategy is known to reach,
// which no bound passes.
type BoundPlan struct {
	Rules  mm.Rules
	Depth  int // guesses tried in full
	Exact  int // BoundOptions.Exact
	Cutoff int // BoundOptions.Cutoff, 0 for none
	Codes  int // the codes of the space
	// Firsts are the first guesses, one per class of codes the symmetries
	// map onto each other, that split the codes, least counting bound
	// first; those whose counting bound reaches Cutoff are left out.
	Firsts []BoundFirst
	Units  []BoundUnit
}

// A BoundFirst is a first guess of a BoundPlan.
type BoundFirst struct {
	Guess mm.Code
	// Static is the first guess's counting bound: the codes plus the
	// counting bounds of the classes it makes.
	Static int
}

// A BoundUnit is a unit of a BoundPlan: the codes that give Feedback to
// first guess First (an index into Firsts).
type BoundUnit struct {
	First    int
	Feedback mm.Feedback
	Codes    int
	Fill     int // the counting bound of the unit's codes
	// Room is where the unit's search stops, at least its value then
	// (0: no cutoff).
	Room int
	// Cost is an estimate of the unit's work, for dealing the units to
	// shards and estimating the time left: the square root of its codes,
	// in thousandths. (The units of 8 × 5 three deep took from 7.7 s of
	// CPU for 35 codes to 79 s for 7051, near that in proportion;
	// a class of many symmetries takes less, 3.5 s for 11234's 1024
	// codes with no peg of its colours.)
	Cost int64
}

// A BoundValue is what a unit of a BoundPlan computed.
type BoundValue struct {
	// Value is the bound of the unit's codes, depth−1 guesses deep, or
	// the unit's Room if that is as low (Cut).
	Value int
	Cut   bool
	// Sets is the number of sets bounded.
	Sets int64
}

// PlanBound plans LowerBoundWith(ctx, r, depth, opts) in units (see
// BoundPlan). opts.Progress is not used; Run takes its own.
func PlanBound(r mm.Rules, depth int, opts *BoundOptions) (*BoundPlan, error) {
	lb, err := newLower(r, depth, opts, false)
	if err != nil {
		return nil, err
	}
	var sets int64
	firsts := lb.order(context.Background(), lb.sp.All(), lb.firstPool(), &sets)
	p := &BoundPlan{Rules: lb.r, Depth: depth, Exact: lb.exact, Cutoff: opts.cutoff(), Codes: lb.sp.Len()}
	root := lb.sp.All()
	for _, f := range firsts {
		if p.Cutoff > 0 && f.static >= p.Cutoff {
			break
		}
		fi := len(p.Firsts)
		p.Firsts = append(p.Firsts, BoundFirst{Guess: lb.sp.Code(f.guess), Static: f.static})
		if depth == 1 {
			continue
		}
		for _, b := range root.Split(f.guess) {
			if lb.sp.Key(b.Feedback) == lb.win {
				continue
			}
			n := b.Set.Len()
			u := BoundUnit{First: fi, Feedback: b.Feedback, Codes: n, Fill: lb.fill[n], Cost: int64(math.Round(1000 * math.Sqrt(float64(n))))}
			if p.Cutoff > 0 {
				u.Room = p.Cutoff - (f.static - u.Fill)
			}
			p.Units = append(p.Units, u)
		}
	}
	return p, nil
}

// BoundRunProgress is a report on a running BoundPlan.Run.
type BoundRunProgress struct {
	Elapsed time.Duration
	Sets    int64 // bounded so far by the run
	// Done units of Units, their estimated costs CostDone of Cost.
	Done, Units    int
	CostDone, Cost int64
	// Going are the units under way, the costliest first.
	Going []BoundGoing
}

// A BoundGoing is a unit under way: of the guesses after its first guess
// whose counting bound is below the unit's best so far, Tried have been
// tried and at most Open are left (0 and 0 before the first is tried, or
// when the unit is too small to count them).
type BoundGoing struct {
	Unit, Tried, Open int
}

// BoundRunOptions control BoundPlan.Run; nil gives the defaults.
type BoundRunOptions struct {
	// Workers is the number of units computed at once (0: GOMAXPROCS).
	Workers int
	// Progress, if not nil, is called every second from another
	// goroutine.
	Progress func(BoundRunProgress)
	// Pieces, if not nil, keeps the pieces of the units under way, so
	// that a unit of hours stopped midway resumes where it was.
	Pieces BoundPieces
}

// A BoundPieces keeps pieces of the units of a BoundPlan under way: below
// a unit's first guess and a second guess, the bound of the codes that
// give one feedback to the second, as the unit's search asked for it,
// with the room it gave. The search of a unit asks for the same pieces in
// the same order with the same rooms on every run, so that a piece kept
// is what it would compute again. Its methods are called from several
// goroutines at once.
type BoundPieces interface {
	// Piece returns the value and the sets counted of the piece, if
	// kept.
	Piece(u int, second mm.Code, f mm.Feedback, room int) (value int, sets int64, ok bool)
	// Keep keeps a piece just computed.
	Keep(u int, second mm.Code, f mm.Feedback, room, value int, sets int64) error
}

// Run computes the given units of p, several at once, and calls done with
// each one's value and the seconds it took, one call at a time, as each
// finishes: a unit done is kept by done before the next is reported, and
// one under way when ctx is done is lost, but for the pieces that
// opts.Pieces kept of it. The units are taken costliest first.
func (p *BoundPlan) Run(ctx context.Context, units []int, opts *BoundRunOptions, done func(u int, seconds float64, v BoundValue) error) error {
	if opts == nil {
		opts = &BoundRunOptions{}
	}
	workers, progress := opts.Workers, opts.Progress
	lb, err := newLower(p.Rules, p.Depth, &BoundOptions{Exact: p.Exact, Cutoff: p.Cutoff}, len(units) > 0)
	if err != nil {
		return err
	}
	if lb.whole != nil {
		defer lb.whole.release()
	}
	var cost int64
	for _, u := range units {
		if u < 0 || u >= len(p.Units) {
			return fmt.Errorf("mastermind: bound plan has no unit %d", u)
		}
		cost += p.Units[u].Cost
	}
	order := slices.Clone(units)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.Units[b].Cost, p.Units[a].Cost) })
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	root := lb.sp.All()
	splits := make([]func() []mm.Branch, len(p.Firsts))
	for i, f := range p.Firsts {
		g, ok := lb.sp.Index(f.Guess)
		if !ok {
			return fmt.Errorf("mastermind: bound plan: first guess %v is not a code", f.Guess)
		}
		splits[i] = sync.OnceValue(func() []mm.Branch { return root.Split(g) })
	}
	var (
		mu       sync.Mutex // serializes done, and guards what follows
		first    error
		finished int
		costDone int64
		next     atomic.Int64
		wg       sync.WaitGroup
		start    = time.Now()
	)
	going := make([]atomic.Pointer[BoundGoing], min(workers, len(order))) // each worker's unit
	if progress != nil {
		stop, stopped := make(chan struct{}), make(chan struct{})
		defer func() { close(stop); <-stopped }() // no news after the return
		go func() {
			defer close(stopped)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					mu.Lock()
					pr := BoundRunProgress{Elapsed: time.Since(start), Sets: lb.sets.Load(), Done: finished, Units: len(units), CostDone: costDone, Cost: cost}
					mu.Unlock()
					for w := range going {
						if g := going[w].Load(); g != nil {
							pr.Going = append(pr.Going, *g)
						}
					}
					slices.SortStableFunc(pr.Going, func(a, b BoundGoing) int { return cmp.Compare(p.Units[b.Unit].Cost, p.Units[a.Unit].Cost) })
					progress(pr)
				}
			}
		}()
	}
	for w := range going {
		wg.Go(func() {
			defer going[w].Store(nil)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(order) {
					return
				}
				mu.Lock()
				failed := first != nil
				mu.Unlock()
				if failed {
					return
				}
				u := order[i]
				t0 := time.Now()
				going[w].Store(&BoundGoing{Unit: u})
				note := func(tried, open int) { going[w].Store(&BoundGoing{Unit: u, Tried: tried, Open: open}) }
				v, err := p.run(ctx, lb, splits, u, opts.Pieces, note)
				mu.Lock()
				if err == nil && first == nil {
					err = done(u, time.Since(t0).Seconds(), v)
					finished++
					costDone += p.Units[u].Cost
				}
				if err != nil {
					first = cmpErr(first, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// run computes unit u.
func (p *BoundPlan) run(ctx context.Context, lb *lower, splits []func() []mm.Branch, u int, pc BoundPieces, note func(tried, open int)) (BoundValue, error) {
	unit := p.Units[u]
	f := p.Firsts[unit.First]
	var set *mm.Set
	for _, b := range splits[unit.First]() {
		if b.Feedback == unit.Feedback {
			set = b.Set
		}
	}
	if set == nil || set.Len() != unit.Codes {
		return BoundValue{}, fmt.Errorf("mastermind: bound plan: unit %d, feedback %v to %v, is not a class of %d codes", u, unit.Feedback, f.Guess, unit.Codes)
	}
	room := math.MaxInt
	if unit.Room > 0 {
		room = unit.Room
	}
	var sets int64
	v, err := lb.boundPieces(ctx, set, []mm.Code{f.Guess}, p.Depth-1, room, &sets, lb.whole, u, pc, note)
	if err != nil {
		return BoundValue{}, err
	}
	out := BoundValue{Value: v, Sets: sets}
	if unit.Room > 0 && v >= unit.Room {
		out.Value, out.Cut = unit.Room, true
	}
	return out, nil
}

// Merge adds the values of every unit of p, in unit order, into the bound
// that LowerBoundWith proves with p's options (if below p.Cutoff; see
// BoundPlan): the least, over the first guesses, of the codes plus the
// values of its units, the first guess in p's order on a tie. Its Sets
// counts the sets the units bounded, and the space's.
func (p *BoundPlan) Merge(values []BoundValue) (*Bound, error) {
	if len(values) != len(p.Units) {
		return nil, fmt.Errorf("mastermind: bound plan of %d units merged with %d values", len(p.Units), len(values))
	}
	b := &Bound{Total: math.MaxInt, Depth: p.Depth, Sets: 1}
	if p.Cutoff > 0 {
		b.Total = p.Cutoff
	}
	totals := make([]int, len(p.Firsts))
	for i, f := range p.Firsts {
		totals[i] = f.Static
		if p.Depth > 1 {
			totals[i] = p.Codes
		}
	}
	for u, v := range values {
		unit := p.Units[u]
		if v.Value < unit.Fill || (unit.Room > 0 && v.Value > unit.Room) || v.Cut != (unit.Room > 0 && v.Value == unit.Room) {
			return nil, fmt.Errorf("mastermind: bound plan: unit %d has value %d, out of its range (%d to room %d)", u, v.Value, unit.Fill, unit.Room)
		}
		totals[unit.First] += v.Value
		b.Sets += v.Sets
	}
	for i, t := range totals {
		if t < b.Total {
			b.Total, b.First = t, p.Firsts[i].Guess
		}
	}
	if b.Total == math.MaxInt {
		return nil, fmt.Errorf("mastermind: bound plan of %v has no first guess", p.Rules)
	}
	return b, nil
}

// firstPool returns the first guesses of lb's space: one per class of
// codes its symmetries map onto each other.
func (lb *lower) firstPool() []int {
	st, _ := mm.NewState(lb.r, nil)
	return symmetry.Of(st).Guesses(lb.sp)
}

// Memory returns about the most memory, in bytes, that Run takes with
// workers units at once: each worker's exact search of the sets it meets
// (with BoundOptions.Exact), the table of every code where that fits, and
// the space and the sets of the search.
func (p *BoundPlan) Memory(workers int) int64 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	codes := int64(p.Codes)
	base := 64<<20 + 64*codes // the space, the first guesses' classes, the sets below
	if p.Exact == 0 {
		return base
	}
	if codes*codes <= wholeTable {
		return base + codes*codes + min(DefaultMemory, 4*codes*codes)
	}
	var most int64
	for _, u := range p.Units {
		most = max(most, int64(u.Codes))
	}
	// A set whose table fits gets its own search, shared below it; a set
	// larger has none, and each of its classes may have one.
	n := min(most, leafTable/codes)
	return base + int64(workers)*(n*codes+min(DefaultMemory, 4*n*n))
}

// boundPieces is bound for the set of unit u, keeping in pc each class
// below a guess of set as its bound is found, and taking from pc the
// classes kept. It is bound's search, step for step: the same guesses in
// the same order, each class given the same room. note, if not nil, hears
// how many guesses have been tried and how many at most are left.
// Without pc, it keeps nothing.
func (lb *lower) boundPieces(ctx context.Context, set *mm.Set, hist []mm.Code, depth int, cutoff int, sets *int64, ex *leafSearch, u int, pc BoundPieces, note func(tried, open int)) (int, error) {
	n := set.Len()
	if n <= 2 || n <= lb.exact || depth <= 1 {
		return lb.bound(ctx, set, hist, depth, cutoff, sets, ex) // no deeper pieces worth keeping
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if lb.exact > 0 && ex == nil && int64(n)*int64(lb.sp.Len()) <= leafTable {
		var err error
		if ex, err = newLeafSearch(lb.sp, set); err != nil {
			return 0, err
		}
		defer ex.release()
	}
	pool := symmetry.New(lb.r, hist).Guesses(lb.sp)
	order := lb.order(ctx, set, pool, sets)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if pc == nil {
		pc = noPieces{}
	}
	best := cutoff
	for i, sg := range order {
		if sg.static >= best {
			break
		}
		if note != nil {
			// order is by counting bound: those below best are a prefix.
			open := sort.Search(len(order), func(j int) bool { return order[j].static >= best })
			note(i, open-i)
		}
		total := n
		g := lb.sp.Code(sg.guess)
		next := append(hist[:len(hist):len(hist)], g)
		for _, b := range set.Split(sg.guess) {
			if lb.sp.Key(b.Feedback) == lb.win {
				continue
			}
			room := best - total
			v, s, ok := pc.Piece(u, g, b.Feedback, room)
			if ok {
				*sets += s
			} else {
				var err error
				s = 0
				if v, err = lb.bound(ctx, b.Set, next, depth-1, room, &s, ex); err != nil {
					return 0, err
				}
				// What passes the room does not count: the guess is
				// given up either way.
				v = min(v, room)
				*sets += s
				if err := pc.Keep(u, g, b.Feedback, room, v, s); err != nil {
					return 0, err
				}
			}
			if total += v; total >= best {
				break
			}
		}
		best = min(best, total)
	}
	return best, nil
}

// noPieces keeps nothing.
type noPieces struct{}

func (noPieces) Piece(int, mm.Code, mm.Feedback, int) (int, int64, bool) { return 0, 0, false }
func (noPieces) Keep(int, mm.Code, mm.Feedback, int, int, int64) error   { return nil }
