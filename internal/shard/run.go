package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/records"
)

// An Outcome is what a unit of a Work computed.
type Outcome struct {
	// Histogram[n] is the number of the unit's games won in n guesses,
	// and Failed the number not won within the guess limit.
	Histogram []int `json:"histogram,omitempty"`
	Failed    int   `json:"failed,omitempty"`
	// Total and Depth are, below a Choice, the total guesses over every
	// code that reaches the unit and the most any needs, counted from the
	// unit's node: what the choice weighs.
	Total int `json:"total,omitempty"`
	Depth int `json:"depth,omitempty"`
	// Refused says why an opening has no tree within the guess limit of
	// the optimal strategy's --max-depth.
	Refused string `json:"refused,omitempty"`
	// Tree is the tree below the unit's node in the form of package
	// records, with codes in the plan's alphabet, when Options.Trees.
	Tree json.RawMessage `json:"tree,omitempty"`
}

// Run computes the given units of the job and calls add with each one's
// outcome and the seconds it took. The job must have been planned in this
// process (Plan), not read from a partial. Units that only count the games
// of a strategy's own play are played together, one run of the harness
// for each work, so that a shard grows one decision tree for all its units
// of a work as the whole run would; their seconds are the run's, shared
// out by games.
func (j *Job) Run(ctx context.Context, units []int, add func(u int, seconds float64, out *Outcome) error) error {
	var order []*Work
	counted := map[*Work][]int{}
	played := 0 // games of the units done, for Options.Progress
	for _, u := range units {
		if u < 0 || u >= len(j.byNum) {
			return fmt.Errorf("shard: no unit %d", u)
		}
		w := j.byNum[u]
		if w.s == nil {
			return errors.New("shard: a job read from a partial cannot run")
		}
		if ui := w.units[u]; ui.node.Kind == kindRange || (!ui.choice && !w.opts.Trees) {
			if counted[w] == nil {
				order = append(order, w)
			}
			counted[w] = append(counted[w], u)
			continue
		}
		start := time.Now()
		w.base = played
		out, err := w.run(ctx, w.units[u])
		if err != nil {
			return err
		}
		played += out.played()
		if err := add(u, time.Since(start).Seconds(), out); err != nil {
			return err
		}
	}
	for _, w := range order {
		us := counted[w]
		start := time.Now()
		w.base = played
		outs, err := w.countUnits(ctx, us)
		if err != nil {
			return err
		}
		secs := time.Since(start).Seconds()
		games := 0
		for _, u := range us {
			games += outs[u].played()
		}
		played += games
		for _, u := range us {
			share := 1 / float64(len(us))
			if games > 0 {
				share = float64(outs[u].played()) / float64(games)
			}
			if err := add(u, secs*share, outs[u]); err != nil {
				return err
			}
		}
	}
	return nil
}

// countUnits plays the games of the units us of w, none below a choice,
// with the strategy, in one run, and tallies them by unit.
func (w *Work) countUnits(ctx context.Context, us []int) (map[int]*Outcome, error) {
	outs := make(map[int]*Outcome, len(us))
	for _, u := range us {
		outs[u] = &Outcome{}
	}
	opts := w.opts.Eval
	opts.Select = func(i int, secret mm.Code) bool {
		u, ok := w.route(i, secret)
		return ok && outs[u] != nil
	}
	opts.Selected = max(1, w.games(us)) // a shard's tree is of its own games
	opts.Record = func(i int, secret mm.Code, guesses int) {
		u, _ := w.route(i, secret)
		o := outs[u]
		if guesses == 0 {
			o.Failed++
			return
		}
		if guesses >= len(o.Histogram) {
			o.Histogram = append(o.Histogram, make([]int, guesses+1-len(o.Histogram))...)
		}
		o.Histogram[guesses]++
	}
	opts.Progress = nil
	if p := w.opts.Progress; p != nil {
		opts.Progress = func(done, _ int) { p(w.base + done) }
	}
	if _, err := eval.Run(ctx, w.rules, w.Name, w.s, &opts); err != nil {
		return nil, err
	}
	return outs, nil
}

// route returns the unit that game i, with secret, falls in, in a work
// without a choice.
func (w *Work) route(i int, secret mm.Code) (int, bool) {
	nd := w.Root
	for {
		switch nd.Kind {
		case kindUnit, kindRange:
			return nd.Unit, true
		case kindGames:
			k := sort.Search(len(nd.Kids), func(k int) bool { return nd.Kids[k].Hi > i })
			if k == len(nd.Kids) || nd.Kids[k].Lo > i {
				return 0, false
			}
			nd = nd.Kids[k]
		case kindSplit:
			f := mm.Score(secret, w.guesses[nd])
			next := (*Node)(nil)
			for _, k := range nd.Kids {
				if k.Black == f.Black && k.White == f.White {
					next = k
					break
				}
			}
			if next == nil {
				return 0, false
			}
			nd = next
		default:
			return 0, false
		}
	}
}

// played returns the number of games the outcome counts.
func (o *Outcome) played() int {
	n := o.Failed
	for _, c := range o.Histogram {
		n += c
	}
	return n
}

func (w *Work) run(ctx context.Context, ui *unitInfo) (*Outcome, error) {
	matches := func(_ int, secret mm.Code) bool {
		for _, t := range ui.path {
			if mm.Score(secret, t.Guess) != t.Feedback {
				return false
			}
		}
		return true
	}
	t, out, err := w.subtree(ctx, ui)
	if err != nil || out.Refused != "" {
		return out, err
	}
	out.Total, out.Depth = t.Cost()
	if w.opts.Trees {
		if t != nil {
			var b bytes.Buffer
			if err := records.Write(&b, records.NewFile(w.rules, w.Name, nil, t), wire); err != nil {
				return nil, err
			}
			out.Tree = bytes.TrimSpace(b.Bytes())
		}
		return out, nil
	}
	// Below a choice, the games follow the unit's tree, reached along its
	// path.
	chain := t
	for i := len(ui.path) - 1; i >= 0; i-- {
		turn := ui.path[i]
		top := &mm.Tree{Guess: turn.Guess}
		if !turn.Feedback.Solved(w.rules.Pegs) {
			top.Branches = []mm.TreeBranch{{Feedback: turn.Feedback, Next: chain}}
		}
		chain = top
	}
	counted, err := w.count(ctx, follow{chain}, matches, ui.node.Size)
	if err != nil {
		return nil, err
	}
	counted.Total, counted.Depth = out.Total, out.Depth
	return counted, nil
}

// subtree builds the tree below the unit's node: the strategy's tree when
// it opens with the unit's guess, or the tree below the state the unit's
// path leads to, nil for a class its last guess wins.
func (w *Work) subtree(ctx context.Context, ui *unitInfo) (*mm.Tree, *Outcome, error) {
	nd := ui.node
	if nd.Guess != "" {
		g, err := wire.Parse(w.rules, nd.Guess)
		if err != nil {
			return nil, nil, err
		}
		op, _, _, ok := openerOf(w.s)
		if !ok {
			return nil, nil, fmt.Errorf("shard: %s cannot build the tree of an opening", w.Name)
		}
		t, err := op.Opening(ctx, w.rules, g)
		if errors.Is(err, exact.ErrDepth) {
			return nil, &Outcome{Refused: err.Error()}, nil
		}
		return t, &Outcome{}, err
	}
	if n := len(ui.path); n > 0 && ui.path[n-1].Feedback.Solved(w.rules.Pegs) {
		return nil, &Outcome{}, nil
	}
	st, err := mm.NewState(w.rules, nil)
	if err != nil {
		return nil, nil, err
	}
	for _, turn := range ui.path {
		if st, err = st.Play(turn.Guess, turn.Feedback); err != nil {
			return nil, nil, err
		}
	}
	t, err := eval.BuildTreeFrom(ctx, st, w.s)
	return t, &Outcome{}, err
}

// count plays the games that sel selects, about games of them, with s and
// returns their tally.
func (w *Work) count(ctx context.Context, s mm.Strategy, sel func(int, mm.Code) bool, games int) (*Outcome, error) {
	opts := w.opts.Eval
	opts.Select = sel
	opts.Selected = max(1, games)
	opts.Progress = nil
	if p := w.opts.Progress; p != nil {
		opts.Progress = func(done, _ int) { p(w.base + done) }
	}
	rep, err := eval.Run(ctx, w.rules, w.Name, s, &opts)
	if err != nil {
		return nil, err
	}
	return &Outcome{Histogram: rep.Histogram, Failed: rep.Failed}, nil
}

// follow plays a tree: the guess of the node the history leads to.
type follow struct{ t *mm.Tree }

func (f follow) Guess(st *mm.State) (mm.Code, error) {
	n := f.t
	for i := 0; i < st.Len() && n != nil; i++ {
		turn := st.Turn(i)
		if n.Guess != turn.Guess {
			n = nil
			break
		}
		n = n.Child(turn.Feedback)
	}
	if n == nil {
		return mm.Code{}, fmt.Errorf("shard: the game left the tree of its unit after %v", st.Turns())
	}
	return n.Guess, nil
}
