package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

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

// Run computes unit u of the job. The job must have been planned in this
// process (Plan), not read from a partial.
func (j *Job) Run(ctx context.Context, u int) (*Outcome, error) {
	if u < 0 || u >= len(j.byNum) {
		return nil, fmt.Errorf("shard: no unit %d", u)
	}
	w := j.byNum[u]
	if w.s == nil {
		return nil, errors.New("shard: a job read from a partial cannot run")
	}
	return w.run(ctx, w.units[u])
}

func (w *Work) run(ctx context.Context, ui *unitInfo) (*Outcome, error) {
	nd := ui.node
	if nd.Kind == kindRange {
		return w.count(ctx, w.s, func(i int, _ mm.Code) bool { return nd.Lo <= i && i < nd.Hi })
	}
	matches := func(_ int, secret mm.Code) bool {
		for _, t := range ui.path {
			if mm.Score(secret, t.Guess) != t.Feedback {
				return false
			}
		}
		return true
	}
	if !ui.choice && !w.opts.Trees {
		// The strategy itself plays the unit's games.
		return w.count(ctx, w.s, matches)
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
	counted, err := w.count(ctx, follow{chain}, matches)
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

// count plays the games that sel selects with s and returns their tally.
func (w *Work) count(ctx context.Context, s mm.Strategy, sel func(int, mm.Code) bool) (*Outcome, error) {
	opts := w.opts.Eval
	opts.Select = sel
	opts.Progress = nil
	if p := w.opts.Progress; p != nil {
		opts.Progress = func(done, _ int) { p(done) }
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
