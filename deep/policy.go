package deep

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/records"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// A player is the strategy for one variant and one set of settings, with
// what it has worked out so far.
type player struct {
	config
	rules mm.Rules

	mu    sync.Mutex
	nodes map[string]*node // by history (History.key)
	size  int              // nodes held

	sem  chan struct{} // slots for extra goroutines building subtrees
	book *mm.Tree      // a shipped tree of these settings, or nil

	// News for the progress line.
	done, solved atomic.Int64 // nodes decided, exact tails solved
	// settled counts the codes of the subtrees one guess below the
	// start of tree that are built, goal those it will build: each
	// guess weighed at the start covers every code.
	settled, goal atomic.Int64
}

// node is what the player knows of one node of its tree: the decision and,
// once built, the subtree below it.
type node struct {
	once  sync.Once
	guess mm.Code  // the guess played here (the exact tree's root for a tail)
	exact *mm.Tree // for a tail: the optimal tree of its candidates
	err   error

	sub    sync.Once // builds tree and cost
	tree   *mm.Tree
	cost   int
	subErr error
}

// worstBudget bounds the work a tail spends lowering its worst case, in
// sets searched: a few tails would otherwise take hours.
const worstBudget = 10_000

// maxNodes bounds the nodes a player keeps; past it they are all dropped.
const maxNodes = 1 << 20

var players struct {
	sync.Mutex
	m map[playerKey]*player
}

type playerKey struct {
	rules mm.Rules
	cfg   config
}

// player returns the player of s for r, made on first use and kept.
func (s Strategy) player(r mm.Rules) (*player, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := check(r); err != nil {
		return nil, err
	}
	if large(r) {
		return nil, errLargeTree(r)
	}
	cfg, err := s.resolve(r)
	if err != nil {
		return nil, err
	}
	k := playerKey{r, cfg}
	players.Lock()
	defer players.Unlock()
	if players.m == nil {
		players.m = make(map[playerKey]*player)
	}
	if p := players.m[k]; p != nil {
		return p, nil
	}
	p := &player{config: cfg, rules: r, nodes: make(map[string]*node),
		sem: make(chan struct{}, max(0, runtime.GOMAXPROCS(0)-1))}
	if f, ok := records.Find(r, "deep", s.Settings(r)); ok && !cfg.noBook {
		p.book = f.Tree
	}
	players.m[k] = p
	return p, nil
}

// historyKey names a node by the turns that lead to it.
func historyKey(st *mm.State) string {
	var b strings.Builder
	for i := 0; i < st.Len(); i++ {
		t := st.Turn(i)
		b.WriteString(t.Guess.String())
		fmt.Fprintf(&b, ":%d%d;", t.Feedback.Black, t.Feedback.White)
	}
	return b.String()
}

// at returns the player's node for st, made empty on first use.
func (p *player) at(st *mm.State) *node {
	k := historyKey(st)
	p.mu.Lock()
	defer p.mu.Unlock()
	if nd := p.nodes[k]; nd != nil {
		return nd
	}
	if p.size >= maxNodes {
		p.nodes, p.size = make(map[string]*node), 0
	}
	nd := &node{}
	p.nodes[k] = nd
	p.size++
	return nd
}

// guess returns the policy's guess at st. Below a tail — the first node of
// the game with at most Exact candidates — it follows the tail's optimal
// tree while the game does; a game that leaves it is a new tail.
func (p *player) guess(ctx context.Context, st *mm.State) (mm.Code, error) {
	if t := follow(p.book, st); t != nil {
		return t.Guess, nil
	}
	if st.Remaining() > p.exact {
		nd, err := p.decide(ctx, st)
		if err != nil {
			return mm.Code{}, err
		}
		return nd.guess, nil
	}
	// Find the tail the game entered: replay the turns from the start.
	cur, err := mm.NewState(st.Rules(), nil)
	if err != nil {
		return mm.Code{}, err
	}
	for i := 0; i <= st.Len(); i++ {
		if cur.Remaining() <= p.exact {
			nd, err := p.decide(ctx, cur)
			if err != nil {
				return mm.Code{}, err
			}
			if t := followFrom(nd.exact, st, i); t != nil {
				return t.Guess, nil
			}
			break // off the tail's tree: st starts a tail of its own
		}
		if i == st.Len() {
			break
		}
		turn := st.Turn(i)
		if cur, err = cur.Play(turn.Guess, turn.Feedback); err != nil {
			return mm.Code{}, err
		}
	}
	nd, err := p.decide(ctx, st)
	if err != nil {
		return mm.Code{}, err
	}
	return nd.guess, nil
}

// follow returns the node of t that st's turns lead to, or nil if they
// leave t (or t is nil).
func follow(t *mm.Tree, st *mm.State) *mm.Tree { return followFrom(t, st, 0) }

// followFrom is follow from st's turn i on.
func followFrom(t *mm.Tree, st *mm.State, i int) *mm.Tree {
	for j := i; j < st.Len() && t != nil; j++ {
		turn := st.Turn(j)
		if t.Guess != turn.Guess {
			return nil
		}
		t = t.Child(turn.Feedback)
	}
	return t
}

// decide returns st's node with its decision made.
func (p *player) decide(ctx context.Context, st *mm.State) (*node, error) {
	nd := p.at(st)
	nd.once.Do(func() { nd.err = p.choose(ctx, st, nd) })
	if nd.err != nil {
		// A failed or cancelled decision is not kept.
		p.forget(st)
		return nil, nd.err
	}
	return nd, nil
}

func (p *player) forget(st *mm.State) {
	p.mu.Lock()
	delete(p.nodes, historyKey(st))
	p.mu.Unlock()
}

// choose makes the decision at st.
func (p *player) choose(ctx context.Context, st *mm.State, nd *node) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cands, err := st.Candidates()
	if err != nil {
		return err
	}
	n := cands.Len()
	switch {
	case n == 0:
		return fmt.Errorf("mastermind: no code fits the answers")
	case n <= 2:
		nd.guess = cands.Code(0)
		return nil
	case n <= p.exact:
		// One worker, so that the budget of the worst case gives the same
		// tree from run to run; the subtrees run in parallel instead.
		res, err := exact.Solve(ctx, st, &exact.Options{Workers: 1, AnyWorstCase: !p.worst, WorstCaseBudget: worstBudget})
		if err != nil {
			return err
		}
		nd.exact, nd.guess = res.Tree, res.Tree.Guess
		p.solved.Add(1)
		return nil
	}
	ranked, err := p.openings(st)
	if err != nil {
		return err
	}
	if len(ranked) == 0 {
		return fmt.Errorf("mastermind: no guess to rank")
	}
	nd.guess = ranked[0]
	if len(ranked) > 1 {
		// Play each out in full and keep the cheapest.
		best := -1
		for _, g := range ranked {
			cost, err := p.playOut(ctx, st, g)
			if err != nil {
				return err
			}
			if best < 0 || cost < best {
				best, nd.guess = cost, g
			}
		}
	}
	p.done.Add(1)
	return nil
}

// openings returns the guesses choose weighs at st, best ranked first.
func (p *player) openings(st *mm.State) ([]mm.Code, error) {
	k := 1
	if st.Len() < p.plies {
		k = p.top
	}
	ranked, err := strategy.Rank(st, "entropy", k, false)
	if err != nil {
		return nil, err
	}
	out := make([]mm.Code, len(ranked))
	for i, r := range ranked {
		out[i] = r.Guess
	}
	return out, nil
}

// opening returns the policy's tree below st when g is played there.
func (p *player) opening(ctx context.Context, st *mm.State, g mm.Code) (*mm.Tree, error) {
	if _, err := p.playOut(ctx, st, g); err != nil {
		return nil, err
	}
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return nil, err
	}
	t := &mm.Tree{Guess: g, Size: st.Remaining()}
	for i, f := range fbs {
		if f.Solved(st.Rules().Pegs) {
			continue
		}
		sub, _, err := p.subtree(ctx, kids[i])
		if err != nil {
			return nil, err
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: f, Next: sub})
	}
	return t, nil
}

// playOut returns the total number of guesses the policy needs for every
// candidate of st when g is played there.
func (p *player) playOut(ctx context.Context, st *mm.State, g mm.Code) (int, error) {
	fbs, kids, err := st.Branch(g)
	if err != nil {
		return 0, err
	}
	total := st.Remaining()
	costs := make([]int, len(kids))
	errs := make([]error, len(kids))
	p.each(kids, fbs, st.Rules().Pegs, func(i int, kid *mm.State) {
		_, costs[i], errs[i] = p.subtree(ctx, kid)
	})
	for i := range kids {
		if errs[i] != nil {
			return 0, errs[i]
		}
		total += costs[i]
	}
	return total, nil
}

// subtree returns the policy's tree below st and its total number of
// guesses.
func (p *player) subtree(ctx context.Context, st *mm.State) (*mm.Tree, int, error) {
	nd, err := p.decide(ctx, st)
	if err != nil {
		return nil, 0, err
	}
	nd.sub.Do(func() {
		nd.tree, nd.cost, nd.subErr = p.build(ctx, st, nd)
		if nd.subErr == nil && st.Len() == 1 {
			p.settled.Add(int64(st.Remaining()))
		}
	})
	if nd.subErr != nil {
		err := nd.subErr
		p.forget(st)
		return nil, 0, err
	}
	return nd.tree, nd.cost, nil
}

// build makes the subtree of a decided node.
func (p *player) build(ctx context.Context, st *mm.State, nd *node) (*mm.Tree, int, error) {
	if nd.exact != nil {
		total, _ := nd.exact.Cost()
		return nd.exact, total, nil
	}
	n := st.Remaining()
	t := &mm.Tree{Guess: nd.guess, Size: n}
	fbs, kids, err := st.Branch(nd.guess)
	if err != nil {
		return nil, 0, err
	}
	pegs := st.Rules().Pegs
	if n > 2 {
		for i, f := range fbs {
			if !f.Solved(pegs) && kids[i].Remaining() == n {
				return nil, 0, fmt.Errorf("mastermind: deep: %v learns nothing at %v", nd.guess, st.Turns())
			}
		}
	}
	subs := make([]*mm.Tree, len(kids))
	costs := make([]int, len(kids))
	errs := make([]error, len(kids))
	p.each(kids, fbs, pegs, func(i int, kid *mm.State) {
		subs[i], costs[i], errs[i] = p.subtree(ctx, kid)
	})
	total := n
	for i, f := range fbs {
		if f.Solved(pegs) {
			continue
		}
		if errs[i] != nil {
			return nil, 0, errs[i]
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: f, Next: subs[i]})
		total += costs[i]
	}
	return t, total, nil
}

// each calls f for every child state but the win's, on idle cores when
// there are some, largest first so that the work evens out.
func (p *player) each(kids []*mm.State, fbs []mm.Feedback, pegs int, f func(i int, kid *mm.State)) {
	order := make([]int, 0, len(kids))
	for i := range kids {
		if !fbs[i].Solved(pegs) {
			order = append(order, i)
		}
	}
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && kids[order[b]].Remaining() > kids[order[b-1]].Remaining(); b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	var wg sync.WaitGroup
	for _, i := range order {
		select {
		case p.sem <- struct{}{}:
			wg.Go(func() {
				defer func() { <-p.sem }()
				f(i, kids[i])
			})
		default:
			f(i, kids[i])
		}
	}
	wg.Wait()
}

// tree returns the policy's whole tree below st, calling progress, if not
// nil, every second with a line of news.
func (p *player) tree(ctx context.Context, st *mm.State, progress func(string)) (*mm.Tree, error) {
	if t := follow(p.book, st); t != nil {
		return t, nil
	}
	var stop func()
	if progress != nil {
		weighed := 1
		if p.plies > 0 {
			weighed = p.top
		}
		p.settled.Store(0)
		p.goal.Store(int64(weighed * st.Remaining()))
		if st.Len() > 0 || st.Remaining() <= p.exact {
			p.goal.Store(0) // no estimate: not the tree of a whole variant
		}
		stop = p.report(ctx, progress)
	}
	t, _, err := p.subtree(ctx, st)
	if stop != nil {
		stop()
	}
	return t, err
}

// report calls progress with a line of news every second until the
// returned function is called: the nodes decided, the exact tails solved,
// the time so far and, once a subtree one guess below the start is built,
// an estimate of the time left, from the share of the codes under such
// subtrees built (rough: the largest are built first, and the last
// guesses weighed at the start may cost more or less than the first).
func (p *player) report(ctx context.Context, progress func(string)) func() {
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				line := fmt.Sprintf("deep %v: %d nodes decided, %d exact tails solved, %s",
					p.rules, p.done.Load(), p.solved.Load(), time.Since(start).Round(time.Second))
				if left, ok := estimateLeft(time.Since(start), p.settled.Load(), p.goal.Load()); ok {
					line += ", " + leftText(left)
				}
				progress(line)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// estimateLeft returns the time left to build goal codes' subtrees after
// elapsed for settled of them, at the same pace, once there is a pace.
func estimateLeft(elapsed time.Duration, settled, goal int64) (time.Duration, bool) {
	if goal <= 0 || settled <= 0 {
		return 0, false
	}
	f := min(1, float64(settled)/float64(goal))
	return time.Duration(float64(elapsed) * (1 - f) / f), true
}

// leftText says how long is left, to the minute.
func leftText(d time.Duration) string {
	if d < time.Minute {
		return "under a minute left"
	}
	return fmt.Sprintf("about %d min left", int(d.Round(time.Minute)/time.Minute))
}
