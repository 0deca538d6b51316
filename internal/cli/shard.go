package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// shardFlags are the flags of the commands a cluster can run in shards:
// bench, tree, openings, grid and bound.
type shardFlags struct {
	shard string
	count int
	out   string
}

func (sf *shardFlags) add(f *pflag.FlagSet) {
	f.StringVar(&sf.shard, "shard", "", "run shard K of N (K from 0) of the job and write its partial result for merge; "+
		"without it, "+shard.SlurmID+" (of "+shard.SlurmCount+", or of --shard-count) chooses the shard, and without that "+
		shard.CompletionIndex+" (of --shard-count): --shard wins over Slurm's, Slurm's over Kubernetes'")
	f.IntVar(&sf.count, "shard-count", 0, "the number of shards, for "+shard.CompletionIndex+" (Kubernetes Indexed Jobs) and reruns of some tasks of a Slurm array")
	f.StringVar(&sf.out, "out", "", "write the shard's partial result into this file, complete or not at all (%k: the shard's index, %n: the count; default stdout)")
}

// noShardFlags are the flags that do not shape a job's result, left out of
// the settings a partial records.
var noShardFlags = []string{"shard", "shard-count", "out", "workers", "run-limit", "json", "csv", "format", "plot", "plot-size", "help"}

// sharding is how a command runs: whole, as one shard of a job, or as the
// merge of its shards' partials.
type sharding struct {
	spec   shard.Spec
	on     bool // run one shard and write its partial
	out    string
	merged *shard.Partial // the collected partials, when merge runs the command
}

// sharding returns how cmd runs, from its shard flags and the environment.
// A shard writes a partial result, not the command's output: the output
// flags given are refused, for merge to take instead.
func (e *Env) sharding(cmd *cobra.Command, sf *shardFlags, output ...string) (*sharding, error) {
	if e.merged != nil {
		return &sharding{merged: e.merged}, nil
	}
	spec, on, err := shard.Resolve(sf.shard, sf.count, os.Getenv)
	if err != nil {
		return nil, err
	}
	if !on && sf.out != "" {
		// A partial of the whole job, for merge.
		spec, on = shard.Spec{Index: 0, Count: 1}, true
	}
	if !on {
		return &sharding{}, nil
	}
	for _, name := range output {
		if cmd.Flags().Changed(name) {
			return nil, fmt.Errorf("--%s: shard %v writes a partial result; give --%s to mastermind merge", name, spec, name)
		}
	}
	out, err := shard.OutPath(sf.out, spec)
	if err != nil {
		return nil, err
	}
	return &sharding{spec: spec, on: true, out: out}, nil
}

// shardSettings returns the flags given to cmd that shape its result, as
// a partial records them: merge gives them back to the command.
func shardSettings(cmd *cobra.Command) map[string]string {
	m := map[string]string{}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !slices.Contains(noShardFlags, f.Name) {
			m[f.Name] = f.Value.String()
		}
	})
	return m
}

// writeShard runs, with run, the units of the job that fall to the shard
// — the job whose plan is plan and whose units cost costs — and writes the
// shard's partial result.
func (e *Env) writeShard(ctx context.Context, cmd *cobra.Command, sh *sharding, plan any, costs []int64,
	run func(ctx context.Context, units []int, add func(u int, seconds float64, data any) error) error) error {
	return e.writeShardGames(ctx, cmd, sh, plan, costs, nil, run)
}

// gameNews, once set, hears how many games a shard's units have played.
type gameNews struct {
	games func(units []int) int // the games of units
	hear  func(done int)
}

// progress is a shard.Options.Progress that passes the count to the news.
func (g *gameNews) progress(done int) {
	if g.hear != nil {
		g.hear(done)
	}
}

// writeShardGames is writeShard; with news, the progress line counts the
// shard's games as they end and estimates the time left from them.
func (e *Env) writeShardGames(ctx context.Context, cmd *cobra.Command, sh *sharding, plan any, costs []int64, news *gameNews,
	run func(ctx context.Context, units []int, add func(u int, seconds float64, data any) error) error) error {
	p, err := shard.NewPartial(cmd.Name(), shardSettings(cmd), sh.spec, plan, costs)
	if err != nil {
		return err
	}
	show, done := e.progressLine()
	defer done()
	mine := p.Mine()
	show(fmt.Sprintf("shard %v: %d units of %d", sh.spec, len(mine), len(costs)))
	if news != nil {
		total, start := news.games(mine), time.Now()
		news.hear = func(played int) {
			line := fmt.Sprintf("shard %v: %d of %d games, %s", sh.spec, played, total, time.Since(start).Round(time.Second))
			if played > 0 && played < total {
				left := time.Duration(float64(time.Since(start)) * float64(total-played) / float64(played))
				line += ", about " + left.Round(time.Second).String() + " left"
			}
			show(line)
		}
	}
	err = run(ctx, mine, func(u int, seconds float64, data any) error {
		show(fmt.Sprintf("shard %v: unit %d done, %d of %d", sh.spec, u, len(p.Results)+1, len(mine)))
		return p.Add(u, seconds, data)
	})
	if err != nil {
		return err
	}
	if sh.out == "" {
		return shard.Write(e.Stdout, p)
	}
	return shard.WriteFile(sh.out, p)
}

// A strategyWork is one work of a job of strategies: a report of bench or
// openings, the tree of tree.
type strategyWork struct {
	name string
	s    mm.Strategy
}

// writeWorksShard plans the works under r, each spread over the shards,
// and runs the shard's part of them.
func (e *Env) writeWorksShard(ctx context.Context, cmd *cobra.Command, sh *sharding, r mm.Rules, works []strategyWork, o shard.Options) error {
	o.Shards = sh.spec.Count
	if !o.Trees {
		// A tree of the shard's share of the games must fit, which the
		// harness checks again, games known, once the plan is made.
		n, _, err := eval.Count(r, &o.Eval)
		if err != nil {
			return err
		}
		opts := o.Eval
		opts.Selected = max(1, n/max(1, o.Shards))
		for _, w := range works {
			if err := eval.CheckMemory(r, w.s, &opts); err != nil {
				return runError(w.name, err)
			}
		}
	}
	job := &shard.Job{}
	news := &gameNews{games: job.Games}
	o.Progress = news.progress
	for _, w := range works {
		plan, costs, err := shard.Plan(ctx, w.name, r, w.s, &o)
		if err != nil {
			return runError(w.name, err)
		}
		if err := job.Add(plan, costs, true); err != nil {
			return err
		}
	}
	return e.writeShardGames(ctx, cmd, sh, job, job.Costs, news, func(ctx context.Context, units []int, add func(int, float64, any) error) error {
		err := job.Run(ctx, units, func(u int, seconds float64, out *shard.Outcome) error { return add(u, seconds, out) })
		if err != nil {
			return runError(fmt.Sprintf("shard %v", sh.spec), err)
		}
		return nil
	})
}

// mergedWorks returns the works of the merged job, which must be named
// names, in order.
func (sh *sharding) mergedWorks(names []string) ([]*shard.Work, error) {
	job, err := shard.ReadJob(sh.merged.Plan)
	if err != nil {
		return nil, err
	}
	var got []string
	for _, w := range job.Works {
		got = append(got, w.Name)
	}
	if !slices.Equal(got, names) {
		return nil, fmt.Errorf("the partials hold %s, not %s", strings.Join(got, ", "), strings.Join(names, ", "))
	}
	return job.Works, nil
}

// mergedReports returns the reports of the merged works named names, as
// one run of each would: the seconds are the sum of their units'.
func (sh *sharding) mergedReports(r mm.Rules, names []string, opts *eval.Options) ([]*eval.Report, error) {
	works, err := sh.mergedWorks(names)
	if err != nil {
		return nil, err
	}
	_, sampled, err := eval.Count(r, opts)
	if err != nil {
		return nil, err
	}
	var out []*eval.Report
	for _, w := range works {
		stats, secs, err := w.Report(sh.merged.Results)
		if err != nil {
			return nil, err
		}
		out = append(out, &eval.Report{Strategy: w.Name, Rules: r.WithDefaults(), Sampled: sampled, Seed: opts.Seed,
			Stats: stats, Elapsed: time.Duration(secs * float64(time.Second))})
	}
	return out, nil
}
