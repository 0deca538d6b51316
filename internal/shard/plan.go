package shard

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/deep"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
	"github.com/mastermind-toolkit/mastermind/symmetry"
)

// A Work is the games of one strategy under one set of rules — what one
// report of bench or openings, or one tree, comes from — as a plan of
// units. A Work read back from a partial has no strategy: it can merge
// results, not compute them.
type Work struct {
	Name  string    `json:"name"`
	Rules rulesJSON `json:"rules"`
	Root  *Node     `json:"root"`

	rules   mm.Rules
	s       mm.Strategy
	opts    Options
	units   map[int]*unitInfo // by unit number
	guesses map[*Node]mm.Code // the guess of each split
	base    int               // games of the job's units done before this run, for Progress
}

type rulesJSON struct {
	Colors   int  `json:"colors"`
	Pegs     int  `json:"pegs"`
	Distinct bool `json:"distinct"`
}

// The kinds of Node.
const (
	// kindSplit: the guess Guess is played at the node; Kids are the
	// classes of the codes that reach it by its feedback, the win's
	// included, in (black, white) order.
	kindSplit = "split"
	// kindChoice: Kids are ways the strategy could open, each a split or
	// a unit with Guess; it plays the best — the least total over every
	// secret, then, if WorstCase, the smaller worst case, then the first.
	kindChoice = "choice"
	// kindGames: Kids are ranges of games whose counts add up.
	kindGames = "games"
	// kindUnit: the games whose secrets reach the node, and the tree below
	// it; with Guess set, the tree of the strategy opening with Guess.
	kindUnit = "unit"
	// kindRange: the games numbered Lo to Hi-1.
	kindRange = "range"
)

// A Node is a node of a plan.
type Node struct {
	Kind string `json:"kind"`
	// Black and White are the feedback that leads to the node from the
	// split above it.
	Black int `json:"black,omitempty"`
	White int `json:"white,omitempty"`
	// Size is the number of codes that reach the node.
	Size  int    `json:"size,omitempty"`
	Guess string `json:"guess,omitempty"`
	// Unit is the unit's number in the job, for Unit and Range.
	Unit      int     `json:"unit,omitempty"`
	Lo        int     `json:"lo,omitempty"`
	Hi        int     `json:"hi,omitempty"`
	WorstCase bool    `json:"worstCase,omitempty"`
	Kids      []*Node `json:"kids,omitempty"`
}

func (n *Node) feedback() mm.Feedback { return mm.Feedback{Black: n.Black, White: n.White} }

// wire is the alphabet of codes in plans and partial trees: the default
// symbols first, so that codes of up to 35 colours read as usual, and
// enough more for mm.MaxColors.
var wire = func() *mm.Alphabet {
	a, err := mm.NewAlphabet(mm.DefaultSymbols + "abcdefghijklmnopqrstuvwxyz0@#")
	if err != nil {
		panic(err)
	}
	return a
}()

// Options say how works are planned and run.
type Options struct {
	// Eval chooses the games: All, Games, Seed, MaxGuesses, and Workers
	// for the games a unit plays at once. Its Select and Progress are
	// the work's own.
	Eval eval.Options
	// Shards is the number of shards the job is dealt to: with many,
	// the large classes of the first guess are split again below the
	// second.
	Shards int
	// Trees has the units build their trees, for Work.Tree; otherwise
	// they count their games, for Work.Report.
	Trees bool
	// Progress, if not nil, is called after each game of a unit with the
	// games that the units of Job.Run have played so far.
	Progress func(done int)
}

// unitInfo is what a shard needs to run a unit.
type unitInfo struct {
	node   *Node
	path   []mm.Turn // the guesses and feedbacks of the splits above it
	choice bool      // below a Choice: its tree's cost decides
}

// Cost estimates. The constants only weigh units of one kind against
// each other; Normalize makes works of unlike kinds comparable.
const (
	splitMin   = 64 // the smallest class split again below its guess
	winCost    = 1  // a class that the guess wins at once
	maxUnitLog = 40 // costs stay below 2^40
)

// Plan returns the plan of the games of strategy s, called name, under r.
// Deterministic strategies over every secret are split by the classes of
// their first guess (and large classes by those of the second); the
// optimal strategy and deep's higher efforts, which choose their first
// guess by building the tree of each of several, are split by those
// openings first; randomised strategies and sampled games are split by
// game number. The units are numbered from 0; Job.Add renumbers them.
func Plan(ctx context.Context, name string, r mm.Rules, s mm.Strategy, o *Options) (*Work, []int64, error) {
	r = r.WithDefaults()
	w := &Work{Name: name, Rules: rulesJSON{r.Colors, r.Pegs, r.Distinct}, rules: r, s: s, opts: *o}
	n, sampled, err := eval.Count(r, &o.Eval)
	if err != nil {
		return nil, nil, err
	}
	var costs []int64
	unit := func(nd *Node, cost int64) {
		nd.Unit = len(costs)
		costs = append(costs, max(1, min(cost, 1<<maxUnitLog)))
	}
	if mm.IsRandomized(s) || sampled {
		if o.Trees {
			return nil, nil, fmt.Errorf("mastermind: %v is randomised and has no fixed decision tree", s)
		}
		w.Root = &Node{Kind: kindGames}
		k := max(1, min(n, o.Shards))
		for i := range k {
			nd := &Node{Kind: kindRange, Lo: i * n / k, Hi: (i + 1) * n / k}
			unit(nd, int64(nd.Hi-nd.Lo))
			w.Root.Kids = append(w.Root.Kids, nd)
		}
		return w, costs, w.index()
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, nil, err
	}
	if op, whole, worst, ok := openerOf(s); ok {
		openings, err := op.Openings(r)
		if err != nil {
			return nil, nil, err
		}
		if whole || len(openings) > 1 {
			w.Root = &Node{Kind: kindChoice, WorstCase: worst}
			for _, g := range openings {
				if whole {
					nd := &Node{Kind: kindUnit, Guess: wire.Format(g), Size: st.Remaining()}
					c, err := openingCost(st, g)
					if err != nil {
						return nil, nil, err
					}
					unit(nd, c)
					w.Root.Kids = append(w.Root.Kids, nd)
					continue
				}
				nd, err := split(st, g, func(kid *Node, _ *mm.State) error {
					unit(kid, deepCost(kid))
					return nil
				})
				if err != nil {
					return nil, nil, err
				}
				w.Root.Kids = append(w.Root.Kids, nd)
			}
			return w, costs, w.index()
		}
	}
	// One first guess: split by its classes, and the large ones by the
	// classes of the second guess, which the strategy is asked for.
	g, err := mm.GuessContext(ctx, s, st)
	if err != nil {
		return nil, nil, err
	}
	if err := r.Check(g); err != nil {
		return nil, nil, fmt.Errorf("strategy returned an illegal guess: %w", err)
	}
	var total int64
	_, kids, err := st.Branch(g)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range kids {
		total += classCost(k.Remaining())
	}
	tail := tailSize(s, r)
	w.Root, err = split(st, g, func(kid *Node, kst *mm.State) error {
		c := classCost(kid.Size)
		if o.Shards <= 1 || kid.Size < splitMin || kid.Size <= tail || 2*c*int64(o.Shards) < total {
			unit(kid, c)
			return nil
		}
		g2, err := mm.GuessContext(ctx, s, kst)
		if err != nil {
			return err
		}
		if err := r.Check(g2); err != nil {
			return fmt.Errorf("strategy returned an illegal guess: %w", err)
		}
		sub, err := split(kst, g2, func(k2 *Node, _ *mm.State) error {
			unit(k2, classCost(k2.Size))
			return nil
		})
		if err != nil {
			return err
		}
		sub.Black, sub.White = kid.Black, kid.White
		*kid = *sub
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return w, costs, w.index()
}

// split returns a Split node of g at st, calling each for every class
// with its node (Kind Unit, Size and feedback set) and state.
func split(st *mm.State, g mm.Code, each func(kid *Node, kst *mm.State) error) (*Node, error) {
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return nil, err
	}
	nd := &Node{Kind: kindSplit, Guess: wire.Format(g), Size: st.Remaining()}
	for i, f := range fbs {
		kid := &Node{Kind: kindUnit, Black: f.Black, White: f.White, Size: kids[i].Remaining()}
		if err := each(kid, kids[i]); err != nil {
			return nil, err
		}
		nd.Kids = append(nd.Kids, kid)
	}
	return nd, nil
}

// classCost estimates the work of a heuristic's tree below a class of n
// codes: n games of a few guesses, scored against classes that shrink.
func classCost(n int) int64 {
	if n <= 1 {
		return winCost
	}
	return int64(n) * int64(bits.Len(uint(n)))
}

// deepCost estimates deep's work below a class: entropy ranks and exact
// tails, growing faster than the class.
func deepCost(nd *Node) int64 {
	if nd.Size <= 1 {
		return winCost
	}
	return int64(nd.Size) * isqrt(nd.Size)
}

// openingCost estimates the exact search of the tree that opens with g
// at st: the classes it leaves, each costing more than its size, times
// the guesses worth trying after g — one per class of the codes that the
// symmetries g leaves intact relate.
func openingCost(st *mm.State, g mm.Code) (int64, error) {
	_, kids, err := st.Branch(g)
	if err != nil {
		return 0, err
	}
	sp, err := st.Space()
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, k := range kids {
		sum += int64(k.Remaining()) * isqrt(k.Remaining())
	}
	pool := len(symmetry.New(st.Rules(), []mm.Code{g}).Guesses(sp))
	return sum * int64(max(1, pool)), nil
}

func isqrt(n int) int64 {
	x := int64(1) << ((bits.Len(uint(n)) + 1) / 2)
	for {
		y := (x + int64(n)/x) / 2
		if y >= x {
			return x
		}
		x = y
	}
}

// opener is a strategy that chooses its first guess by building its
// whole tree after each of a few: strategy.Optimal and deep.Strategy.
type opener interface {
	Openings(r mm.Rules) ([]mm.Code, error)
	Opening(ctx context.Context, r mm.Rules, g mm.Code) (*mm.Tree, error)
}

var (
	_ opener = strategy.Optimal{}
	_ opener = deep.Strategy{}
)

// openerOf returns s as an opener, with how its openings are shared out:
// whole, each by its own exact search (optimal), or by the classes each
// leaves, whose trees the strategy builds apart (deep); and whether ties in
// total go to the smaller worst case.
func openerOf(s mm.Strategy) (op opener, whole, worstCase, ok bool) {
	switch v := s.(type) {
	case strategy.Optimal:
		return v, true, true, true
	case deep.Strategy:
		return v, false, false, true
	}
	return nil, false, false, false
}

// tailSize returns the largest class whose guess costs as much as its
// whole tree, which planning must not ask for: deep's exact tails.
func tailSize(s mm.Strategy, r mm.Rules) int {
	if o, ok := s.(strategy.Opening); ok {
		s = o.Then
	}
	if d, ok := s.(deep.Strategy); ok {
		n, _ := strconv.Atoi(d.Settings(r)["exact"])
		return n
	}
	return 0
}

// index fills w.units from the plan.
func (w *Work) index() error {
	w.units, w.guesses = map[int]*unitInfo{}, map[*Node]mm.Code{}
	var walk func(nd *Node, path []mm.Turn, choice bool) error
	walk = func(nd *Node, path []mm.Turn, choice bool) error {
		switch nd.Kind {
		case kindUnit, kindRange:
			if _, dup := w.units[nd.Unit]; dup {
				return fmt.Errorf("shard: unit %d twice in the plan of %s", nd.Unit, w.Name)
			}
			w.units[nd.Unit] = &unitInfo{node: nd, path: path, choice: choice}
			return nil
		case kindSplit:
			g, err := wire.Parse(w.rules, nd.Guess)
			if err != nil {
				return fmt.Errorf("shard: the plan of %s: %w", w.Name, err)
			}
			w.guesses[nd] = g
			for _, k := range nd.Kids {
				p := append(path[:len(path):len(path)], mm.Turn{Guess: g, Feedback: k.feedback()})
				if err := walk(k, p, choice); err != nil {
					return err
				}
			}
			return nil
		case kindChoice, kindGames:
			for _, k := range nd.Kids {
				if err := walk(k, path, choice || nd.Kind == kindChoice); err != nil {
					return err
				}
			}
			return nil
		}
		return fmt.Errorf("shard: the plan of %s has a node of kind %q", w.Name, nd.Kind)
	}
	if w.Root == nil {
		return errors.New("shard: a work without a plan")
	}
	return walk(w.Root, nil, false)
}

// A Job is the works of one command, their units numbered in order across
// them, with their costs.
type Job struct {
	Works []*Work `json:"works"`
	Costs []int64 `json:"-"`
	byNum []*Work // the work of each unit
}

// normalTotal is the cost that Add gives each work it normalises.
const normalTotal = 1 << 30

// Games returns the number of games the units play: the codes that reach
// a unit's node, or its range of games.
func (j *Job) Games(units []int) int {
	n := 0
	for _, u := range units {
		if u >= 0 && u < len(j.byNum) {
			n += j.byNum[u].games([]int{u})
		}
	}
	return n
}

// games returns the number of games of w's units us.
func (w *Work) games(us []int) int {
	n := 0
	for _, u := range us {
		if ui := w.units[u]; ui != nil {
			if nd := ui.node; nd.Kind == kindRange {
				n += nd.Hi - nd.Lo
			} else {
				n += nd.Size
			}
		}
	}
	return n
}

// Add appends work w, whose units cost costs, to the job, renumbering its
// units after the job's. With normalize, its costs are scaled to a fixed
// total, so that works of unlike estimates are each spread evenly over the
// shards.
func (j *Job) Add(w *Work, costs []int64, normalize bool) error {
	if normalize {
		costs = Normalize(costs, normalTotal)
	}
	base := len(j.Costs)
	var walk func(nd *Node)
	walk = func(nd *Node) {
		if nd.Kind == kindUnit || nd.Kind == kindRange {
			nd.Unit += base
		}
		for _, k := range nd.Kids {
			walk(k)
		}
	}
	walk(w.Root)
	if err := w.index(); err != nil {
		return err
	}
	j.Works = append(j.Works, w)
	j.Costs = append(j.Costs, costs...)
	for range costs {
		j.byNum = append(j.byNum, w)
	}
	return nil
}
