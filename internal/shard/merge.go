package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/records"
)

// ReadJob returns the job of a partial's plan, whose works can merge the
// results of its units.
func ReadJob(plan json.RawMessage) (*Job, error) {
	var j Job
	if err := json.Unmarshal(plan, &j); err != nil {
		return nil, fmt.Errorf("shard: the plan: %w", err)
	}
	for _, w := range j.Works {
		if w == nil || w.Root == nil {
			return nil, errors.New("shard: the plan has a work without units")
		}
		w.rules = mm.Rules{Colors: w.Rules.Colors, Pegs: w.Rules.Pegs, Distinct: w.Rules.Distinct}
		if err := w.rules.Validate(); err != nil {
			return nil, fmt.Errorf("shard: the plan of %s: %w", w.Name, err)
		}
		if err := w.index(); err != nil {
			return nil, err
		}
	}
	return &j, nil
}

// value is what a node of a plan comes to.
type value struct {
	stats        eval.Stats
	total, depth int
	tree         *mm.Tree
	refused      string
}

// Report returns the statistics of w's games, and the seconds its units
// took in all, from the results of the job's units, indexed by unit as
// Collect returns them: exactly what one run of the whole work counts.
func (w *Work) Report(results []Result) (eval.Stats, float64, error) {
	v, secs, err := w.merge(results, false)
	return v.stats, secs, err
}

// Tree returns w's tree from the results of the job's units, built with
// Options.Trees: exactly the tree of one run of the whole work.
func (w *Work) Tree(results []Result) (*mm.Tree, error) {
	v, _, err := w.merge(results, true)
	return v.tree, err
}

func (w *Work) merge(results []Result, trees bool) (value, float64, error) {
	secs := 0.0
	var walk func(nd *Node) (value, error)
	walk = func(nd *Node) (value, error) {
		switch nd.Kind {
		case kindUnit, kindRange:
			if nd.Unit < 0 || nd.Unit >= len(results) {
				return value{}, fmt.Errorf("shard: no result of unit %d", nd.Unit)
			}
			r := results[nd.Unit]
			secs += r.Seconds
			var o Outcome
			dec := json.NewDecoder(bytes.NewReader(r.Data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&o); err != nil {
				return value{}, fmt.Errorf("shard: the result of unit %d: %w", nd.Unit, err)
			}
			v := value{stats: tally(&o), total: o.Total, depth: o.Depth, refused: o.Refused}
			if trees && len(o.Tree) > 0 {
				f, err := records.Read(bytes.NewReader(o.Tree), wire)
				if err != nil {
					return value{}, fmt.Errorf("shard: the tree of unit %d: %w", nd.Unit, err)
				}
				v.tree = f.Tree
			}
			if trees && v.tree == nil && v.refused == "" && nd.Size > 1 {
				return value{}, fmt.Errorf("shard: unit %d has no tree", nd.Unit)
			}
			return v, nil
		case kindGames:
			var v value
			for _, k := range nd.Kids {
				kv, err := walk(k)
				if err != nil {
					return value{}, err
				}
				v.stats.Merge(kv.stats)
			}
			return v, nil
		case kindSplit:
			g, err := wire.Parse(w.rules, nd.Guess)
			if err != nil {
				return value{}, err
			}
			v := value{total: nd.Size, tree: &mm.Tree{Guess: g, Size: nd.Size}}
			deepest := 0
			for _, k := range nd.Kids {
				kv, err := walk(k)
				if err != nil {
					return value{}, err
				}
				if kv.refused != "" {
					v.refused = kv.refused
				}
				v.stats.Merge(kv.stats)
				v.total += kv.total
				deepest = max(deepest, kv.depth)
				if f := k.feedback(); !f.Solved(w.rules.Pegs) && kv.tree != nil {
					v.tree.Branches = append(v.tree.Branches, mm.TreeBranch{Feedback: f, Next: kv.tree})
				}
			}
			v.depth = deepest + 1
			return v, nil
		case kindChoice:
			var best value
			found := false
			refused := ""
			for _, k := range nd.Kids {
				kv, err := walk(k)
				if err != nil {
					return value{}, err
				}
				if kv.refused != "" {
					refused = kv.refused
					continue
				}
				if !found || kv.total < best.total || (nd.WorstCase && kv.total == best.total && kv.depth < best.depth) {
					best, found = kv, true
				}
			}
			if !found {
				return value{}, fmt.Errorf("mastermind: no opening of %s finds every secret within the guess limit (%s)", w.Name, refused)
			}
			return best, nil
		}
		return value{}, fmt.Errorf("shard: the plan of %s has a node of kind %q", w.Name, nd.Kind)
	}
	v, err := walk(w.Root)
	return v, secs, err
}

// tally returns the statistics an outcome's histogram counts.
func tally(o *Outcome) eval.Stats {
	s := eval.Stats{Failed: o.Failed}
	for n, c := range o.Histogram {
		if c <= 0 {
			continue
		}
		s.Games += c
		s.Total += n * c
		s.Max = n
	}
	s.Histogram = append([]int(nil), o.Histogram[:min(len(o.Histogram), s.Max+1)]...)
	if s.Games == 0 {
		s.Histogram = nil
	}
	return s
}
