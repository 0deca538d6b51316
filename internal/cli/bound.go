package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// boundMemory is the most memory bound may plan to take.
const boundMemory = 8 << 30

func newBound(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		depth, exactMax, cutoff, workers int
		limit                            time.Duration
		sf                               shardFlags
	)
	cmd := &cobra.Command{
		Use:   "bound",
		Short: "Prove a lower bound of the least total guesses of a large space",
		Long: `bound proves that no strategy finds every secret of the variant in fewer
guesses in all than the number it prints, any code being a guess. It tries
every guess, one per class of codes that the symmetries of the guesses
before it map onto each other, --depth guesses deep, and below them
counts: a set of n codes needs at least the total of the best case, where
each guess is one of the codes and splits the others into as many classes
as there are answers. The deeper, the higher the bound and the longer the
search: on 6 × 4, depth 1, 2 and 3 give 5196, 5429 and 5612 against the
optimum of 5625. It is the lower end of what is not known for variants
too large for optimal, such as 8 × 5.

--exact N bounds every set of at most N codes by its exact optimum, found
by the exact search, in place of the counting bound: higher, and slower
the larger N. --cutoff T stops where T is reached: give the total of a
known strategy, which no bound passes, and the search skips what cannot
come under it; the bound printed is then exact if below T.

Shards. --shard K/N (or a Slurm array task, as for bench) bounds the units
of the search that fall to shard K: a unit is the codes that give one
feedback to one first guess, bounded below it, and the units are dealt to
the shards by their size. The shard writes its partial result to --out
after every unit, whole or not at all, and a shard run again with the
same --out resumes from it, so that a run stopped by Ctrl-C, --run-limit
(exit status 3) or the cluster's time limit loses none of its units
done; of the units under way it keeps the classes below their second
guesses bounded so far in OUT.pieces (written every 10 s), so that a
unit longer than a run still ends. mastermind merge adds the partials
of every shard into the bound the whole search proves: the least, over
the first guesses, of the codes plus the bounds of its units. --out
without --shard keeps the journal of a whole run the same way. The
shards prune against --cutoff only (not against each other's first
guesses): give it.`,
		Example: `  mastermind bound --colors 6 --pegs 4 --depth 3
  mastermind bound --rules logik --depth 2
  mastermind bound --rules logik --depth 4 --exact 8 --cutoff 178545 \
      --shard 0/110 --out part-0.json --run-limit 2h
  mastermind merge part-*.json`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := atLeast(1, "depth", depth); err != nil {
				return err
			}
			if err := atLeast(0, "exact", exactMax, "cutoff", cutoff, "workers", workers); err != nil {
				return err
			}
			if limit < 0 {
				return fmt.Errorf("--run-limit %v: want a duration of 0 (none) or more", limit)
			}
			sh, err := e.sharding(cmd, &sf)
			if err != nil {
				return err
			}
			opts := &exact.BoundOptions{Exact: exactMax, Cutoff: cutoff}
			if sh.on || sh.merged != nil {
				plan, err := exact.PlanBound(r, depth, opts)
				if err != nil {
					return err
				}
				if sh.merged != nil {
					return e.mergeBound(plan, sh.merged, a)
				}
				return e.boundShard(cmd, sh, plan, workers, limit)
			}
			if limit > 0 {
				return fmt.Errorf("--run-limit stops a run that keeps its units: give --out FILE (or --shard K/N)")
			}
			if workers > 0 {
				return fmt.Errorf("--workers sets the units bounded at once, of a run with --out or --shard")
			}
			show, done := e.progressLine()
			defer done()
			start := time.Now()
			cpu0, cpuKnown := cpuTime()
			opts.Progress = func(p exact.BoundProgress) {
				line := fmt.Sprintf("bound %v, depth %d: first guess %s (%d of %d), %d sets", r, depth, a.Format(p.Guess), p.Tried, p.Guesses, p.Sets)
				if p.Best > 0 {
					line += fmt.Sprintf(", least so far %d", p.Best)
				}
				show(line + ", " + short(p.Elapsed))
			}
			b, err := exact.LowerBoundWith(cmd.Context(), r, depth, opts)
			done()
			if err != nil {
				return err
			}
			line := boundLine(r, a, b) + fmt.Sprintf("; %d sets, %.1f s", b.Sets, time.Since(start).Seconds())
			if cpu1, ok := cpuTime(); ok && cpuKnown {
				line += fmt.Sprintf(", %.1f s CPU", (cpu1 - cpu0).Seconds())
			}
			fmt.Fprintln(e.Stdout, line)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&depth, "depth", 2, "guesses tried in full before counting takes over")
	f.IntVar(&exactMax, "exact", 0, "solve sets of at most this many codes exactly (0: count them)")
	f.IntVar(&cutoff, "cutoff", 0, "stop where the bound reaches this total, as a known strategy's (0: none)")
	f.IntVar(&workers, "workers", 0, "with --out or --shard: units bounded at once (0: one per core)")
	f.DurationVar(&limit, "run-limit", 0, "with --out: stop after this long, the units done kept, exit status 3 (0: none)")
	sf.add(f)
	return cmd
}

// boundLine says what bound b proves of r.
func boundLine(r mm.Rules, a *mm.Alphabet, b *exact.Bound) string {
	n := r.Size()
	if b.First.Len() == 0 {
		return fmt.Sprintf("%s: every strategy needs at least %d guesses in all (mean %.4f), the --cutoff, by every guess %d deep",
			describeRules(r), b.Total, float64(b.Total)/float64(n), b.Depth)
	}
	return fmt.Sprintf("%s: every strategy needs at least %d guesses in all (mean %.4f), by every guess %d deep; the least from first guess %s",
		describeRules(r), b.Total, float64(b.Total)/float64(n), b.Depth, a.Format(b.First))
}

// boundPlanVersion stands in partials of bound for the version of
// mastermind: the version of the plan and of what its units compute.
// Change it when either changes.
const boundPlanVersion = "bound-plan/1"

// boundPlanJSON is a BoundPlan in a partial result: merge checks that the
// shards planned what it plans.
type boundPlanJSON struct {
	Rules  rulesJSON         `json:"rules"`
	Depth  int               `json:"depth"`
	Exact  int               `json:"exact"`
	Cutoff int               `json:"cutoff"`
	Codes  int               `json:"codes"`
	Firsts []boundFirstJSON  `json:"firsts"`
	Units  []boundPlanUnitJS `json:"units"`
}

type boundFirstJSON struct {
	Guess  string `json:"guess"`
	Static int    `json:"static"`
}

type boundPlanUnitJS struct {
	First int `json:"first"`
	Black int `json:"black"`
	White int `json:"white"`
	Codes int `json:"codes"`
	Fill  int `json:"fill"`
	Room  int `json:"room,omitempty"`
}

// boundUnitJSON is the result of a unit in a partial.
type boundUnitJSON struct {
	Value int   `json:"value"`
	Cut   bool  `json:"cut,omitempty"`
	Sets  int64 `json:"sets"`
	// CPU is the CPU seconds of the process while it bounded the unit,
	// of a run that bounds one unit at a time (--workers 1): what the
	// unit costs, for estimating larger runs.
	CPU *float64 `json:"cpu_seconds,omitempty"`
}

func toBoundPlanJSON(p *exact.BoundPlan) (*boundPlanJSON, []int64) {
	out := &boundPlanJSON{Rules: toRulesJSON(p.Rules), Depth: p.Depth, Exact: p.Exact, Cutoff: p.Cutoff, Codes: p.Codes,
		Firsts: []boundFirstJSON{}, Units: []boundPlanUnitJS{}}
	for _, f := range p.Firsts {
		out.Firsts = append(out.Firsts, boundFirstJSON{f.Guess.String(), f.Static})
	}
	costs := make([]int64, len(p.Units))
	for i, u := range p.Units {
		out.Units = append(out.Units, boundPlanUnitJS{u.First, u.Feedback.Black, u.Feedback.White, u.Codes, u.Fill, u.Room})
		costs[i] = u.Cost
	}
	return out, costs
}

// boundShard bounds the units of plan that fall to shard sh.spec, with
// those its --out file already holds, and writes the partial after each.
func (e *Env) boundShard(cmd *cobra.Command, sh *sharding, plan *exact.BoundPlan, workers int, limit time.Duration) error {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if mem := plan.Memory(workers); mem > boundMemory {
		fit := 0
		for w := workers - 1; w >= 1; w-- {
			if plan.Memory(w) <= boundMemory {
				fit = w
				break
			}
		}
		if fit == 0 {
			return fmt.Errorf("bound --exact %d of %v would take about %s with one worker, more than the %s allowed: give a smaller --exact",
				plan.Exact, plan.Rules, gib(plan.Memory(1)), gib(boundMemory))
		}
		return fmt.Errorf("bound --exact %d of %v with %d workers would take about %s, more than the %s allowed: give --workers %d",
			plan.Exact, plan.Rules, workers, gib(mem), gib(boundMemory), fit)
	}
	pj, costs := toBoundPlanJSON(plan)
	p, err := shard.NewPartial(cmd.Name(), shardSettings(cmd), sh.spec, pj, costs)
	if err != nil {
		return err
	}
	// Any build computes the same values of the same plan, which merge
	// checks: shards of a long job may run on different commits.
	if err := p.SetToolkit(boundPlanVersion); err != nil {
		return err
	}
	if sh.out != "" {
		if err := resumeBound(p, sh.out); err != nil {
			return err
		}
		// Written at once: the file says what the shard is to do.
		if err := shard.WriteFile(sh.out, p); err != nil {
			return err
		}
	}
	var todo []int
	kept := map[int]bool{}
	for _, r := range p.Results {
		kept[r.Unit] = true
	}
	mine := p.Mine()
	for _, u := range mine {
		if !kept[u] {
			todo = append(todo, u)
		}
	}
	ctx := cmd.Context()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	show, done := e.progressLine()
	defer done()
	what := fmt.Sprintf("bound %v, depth %d, shard %v", plan.Rules, plan.Depth, sh.spec)
	before := len(mine) - len(todo)
	show(fmt.Sprintf("%s: %d units of %d, %d done before", what, len(mine), len(costs), before))
	start := time.Now()
	lastCPU, cpuKnown := cpuTime()
	var pieces *boundPieces
	ro := &exact.BoundRunOptions{Workers: workers}
	if sh.out != "" {
		if pieces, err = openPieces(sh.out+".pieces", p); err != nil {
			return err
		}
		ro.Pieces = pieces
		if n := pieces.len(); n > 0 {
			show(fmt.Sprintf("%s: %d pieces of units under way kept", what, n))
		}
	}
	ro.Progress = func(pr exact.BoundRunProgress) {
		line := fmt.Sprintf("shard %v: %d of %d units", sh.spec, before+pr.Done, len(mine))
		if pr.CostDone > 0 && pr.CostDone < pr.Cost {
			left := time.Duration(float64(pr.Elapsed) * float64(pr.Cost-pr.CostDone) / float64(pr.CostDone))
			line += fmt.Sprintf(" (%.0f%% of the work, about %s left)", 100*float64(pr.CostDone)/float64(pr.Cost), short(left))
		}
		line += fmt.Sprintf(", %d sets, %s", pr.Sets, short(pr.Elapsed))
		if len(pr.Going) > 0 && pr.Going[0].Tried+pr.Going[0].Open > 0 {
			// The largest unit under way: its second guesses.
			g := pr.Going[0]
			line += fmt.Sprintf("; unit %d, %d codes: 2nd guess %d of at most %d", g.Unit, plan.Units[g.Unit].Codes, g.Tried+1, g.Tried+g.Open)
		}
		show(line)
	}
	err = plan.Run(ctx, todo, ro, func(u int, seconds float64, v exact.BoundValue) error {
		res := boundUnitJSON{Value: v.Value, Cut: v.Cut, Sets: v.Sets}
		if cpu, ok := cpuTime(); ok && cpuKnown && workers == 1 {
			secs := math.Round((cpu-lastCPU).Seconds()*1000) / 1000
			res.CPU = &secs
			lastCPU = cpu
		}
		if err := p.Add(u, seconds, res); err != nil {
			return err
		}
		if sh.out == "" {
			return nil
		}
		if err := shard.WriteFile(sh.out, p); err != nil {
			return err
		}
		return pieces.finished(u)
	})
	done()
	if pieces != nil {
		if err2 := pieces.flush(); err == nil {
			err = err2
		}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && cmd.Context().Err() == nil {
			return Pending(fmt.Errorf("%s: stopped at --run-limit %v with %d of %d units done, kept in %s: run it again to go on",
				what, limit, len(p.Results), len(mine), sh.out))
		}
		if sh.out != "" && ctx.Err() != nil {
			fmt.Fprintf(e.Stderr, "%s: %d of %d units done, kept in %s: run it again to go on\n", what, len(p.Results), len(mine), sh.out)
		}
		return err
	}
	if sh.out == "" {
		return shard.Write(e.Stdout, p)
	}
	if err := shard.WriteFile(sh.out, p); err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "%s: %d units done (%d in this run, %.1f s), kept in %s\n",
		what, len(mine), len(todo), time.Since(start).Seconds(), sh.out)
	return nil
}

// resumeBound adds to p the results that the partial in file out holds,
// if there is one: it must be of the same job and shard.
func resumeBound(p *shard.Partial, out string) error {
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	prev, err := shard.ReadFile(out)
	if err != nil {
		return fmt.Errorf("%w; remove it, or give another --out", err)
	}
	if prev.Inputs != p.Inputs || prev.Shard != p.Shard {
		return fmt.Errorf("%s is the partial of another job or shard (%s %v, %v): remove it, or give another --out",
			out, prev.Command, prev.Settings, prev.Shard)
	}
	p.Results = prev.Results
	return nil
}

// mergeBound prints the bound that the units of the merged partial
// prove.
func (e *Env) mergeBound(plan *exact.BoundPlan, merged *shard.Partial, a *mm.Alphabet) error {
	pj, _ := toBoundPlanJSON(plan)
	want, err := json.Marshal(pj)
	if err != nil {
		return err
	}
	var got bytes.Buffer
	if err := json.Compact(&got, merged.Plan); err != nil {
		return err
	}
	if !bytes.Equal(got.Bytes(), want) {
		return fmt.Errorf("the partials hold another plan of the bound than this mastermind makes of their flags: merge them with the version that ran them")
	}
	values := make([]exact.BoundValue, len(merged.Results))
	var seconds, cpu float64
	cpuAll := true
	for i, r := range merged.Results {
		var v boundUnitJSON
		if err := json.Unmarshal(r.Data, &v); err != nil {
			return fmt.Errorf("unit %d: %w", r.Unit, err)
		}
		values[i] = exact.BoundValue{Value: v.Value, Cut: v.Cut, Sets: v.Sets}
		seconds += r.Seconds
		if v.CPU != nil {
			cpu += *v.CPU
		}
		cpuAll = cpuAll && v.CPU != nil
	}
	b, err := plan.Merge(values)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%s; %d sets, %.1f s in %s of %s", boundLine(plan.Rules, a, b), b.Sets, seconds,
		Plural(len(values), "unit"), Plural(merged.Shard.Count, "shard"))
	if cpuAll && len(values) > 0 {
		line += fmt.Sprintf(", %.1f s CPU", cpu)
	}
	fmt.Fprintln(e.Stdout, line)
	return nil
}

// gib writes a size in bytes in GiB.
func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// piecesEvery is how often a shard of bound writes the pieces of its
// units under way, at most: a run killed outright loses no more.
const piecesEvery = 10 * time.Second

// boundPieces keeps the pieces of a shard's units under way
// (exact.BoundPieces) in a file beside its partial, OUT.pieces, written
// whole or not at all, at most every piecesEvery and when the run ends,
// and removed when no unit is under way.
type boundPieces struct {
	path   string
	inputs string
	shard  shard.Spec

	mu    sync.Mutex
	m     map[pieceKey]pieceValue
	dirty bool
	saved time.Time
}

type pieceKey struct {
	unit         int
	guess        string
	black, white int
	room         int
}

type pieceValue struct {
	value int
	sets  int64
}

type piecesFile struct {
	Inputs string      `json:"inputs"` // the partial's
	Shard  shard.Spec  `json:"shard"`
	Pieces []pieceJSON `json:"pieces"`
}

type pieceJSON struct {
	Unit  int    `json:"unit"`
	Guess string `json:"guess"`
	Black int    `json:"black"`
	White int    `json:"white"`
	Room  int    `json:"room"`
	Value int    `json:"value"`
	Sets  int64  `json:"sets"`
}

// openPieces returns the pieces kept in path for partial p, if any.
func openPieces(path string, p *shard.Partial) (*boundPieces, error) {
	bp := &boundPieces{path: path, inputs: p.Inputs, shard: p.Shard, m: map[pieceKey]pieceValue{}, saved: time.Now()}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return bp, nil
	} else if err != nil {
		return nil, err
	}
	var f piecesFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w; remove it (it only saves time)", path, err)
	}
	if f.Inputs != p.Inputs || f.Shard != p.Shard {
		return nil, fmt.Errorf("%s holds the pieces of another job or shard: remove it (it only saves time)", path)
	}
	done := map[int]bool{}
	for _, r := range p.Results {
		done[r.Unit] = true
	}
	for _, x := range f.Pieces {
		if !done[x.Unit] {
			bp.m[pieceKey{x.Unit, x.Guess, x.Black, x.White, x.Room}] = pieceValue{x.Value, x.Sets}
		}
	}
	return bp, nil
}

func (bp *boundPieces) len() int {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	return len(bp.m)
}

func (bp *boundPieces) Piece(u int, g mm.Code, f mm.Feedback, room int) (int, int64, bool) {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	v, ok := bp.m[pieceKey{u, g.String(), f.Black, f.White, room}]
	return v.value, v.sets, ok
}

func (bp *boundPieces) Keep(u int, g mm.Code, f mm.Feedback, room, value int, sets int64) error {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	bp.m[pieceKey{u, g.String(), f.Black, f.White, room}] = pieceValue{value, sets}
	bp.dirty = true
	if time.Since(bp.saved) < piecesEvery {
		return nil
	}
	return bp.save()
}

// finished drops the pieces of unit u, now kept whole in the partial.
func (bp *boundPieces) finished(u int) error {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	for k := range bp.m {
		if k.unit == u {
			delete(bp.m, k)
			bp.dirty = true
		}
	}
	if len(bp.m) == 0 {
		bp.dirty = false
		if err := os.Remove(bp.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// flush writes the pieces not written yet.
func (bp *boundPieces) flush() error {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	if !bp.dirty {
		return nil
	}
	return bp.save()
}

// save writes the pieces; bp.mu is held.
func (bp *boundPieces) save() error {
	f := piecesFile{Inputs: bp.inputs, Shard: bp.shard, Pieces: make([]pieceJSON, 0, len(bp.m))}
	for k, v := range bp.m {
		f.Pieces = append(f.Pieces, pieceJSON{k.unit, k.guess, k.black, k.white, k.room, v.value, v.sets})
	}
	slices.SortFunc(f.Pieces, func(a, b pieceJSON) int {
		return cmp.Or(cmp.Compare(a.Unit, b.Unit), cmp.Compare(a.Guess, b.Guess), cmp.Compare(a.Black, b.Black),
			cmp.Compare(a.White, b.White), cmp.Compare(a.Room, b.Room))
	})
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := writeBytes(bp.path, append(b, '\n')); err != nil {
		return err
	}
	bp.dirty, bp.saved = false, time.Now()
	return nil
}
