package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/deep"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/records"
)

// optimaVariants returns the table's variants, the fewest codes first
// (then in the table's order): 3 to 6 pegs and 2 to 10 colours with
// repeats, 3 to 5 pegs of distinct colours (at least as many colours as
// pegs), each of at most maxCodes codes.
func optimaVariants(maxCodes uint64) []mm.Rules {
	var out []mm.Rules
	for _, distinct := range []bool{false, true} {
		pegs := []int{3, 4, 5, 6}
		if distinct {
			pegs = pegs[:3]
		}
		for _, p := range pegs {
			for c := 2; c <= 10; c++ {
				r := mm.Rules{Colors: c, Pegs: p, Distinct: distinct}
				if (distinct && c < p) || r.Size() > maxCodes {
					continue
				}
				out = append(out, r)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b mm.Rules) int { return cmp.Compare(a.Size(), b.Size()) })
	return out
}

// parseVariant reads a row's name, such as 6x4 or 10x4-distinct.
func parseVariant(s string) (mm.Rules, error) {
	var r mm.Rules
	name, distinct := strings.CutSuffix(strings.ToLower(strings.TrimSpace(s)), "-distinct")
	if _, err := fmt.Sscanf(name, "%dx%d", &r.Colors, &r.Pegs); err != nil || records.OptimumName(mm.Rules{Colors: r.Colors, Pegs: r.Pegs}) != name {
		return r, fmt.Errorf("--only %q: want COLORSxPEGS, such as 6x4 or 10x4-distinct", s)
	}
	r.Distinct = distinct
	return r, r.Validate()
}

func newOptima(e *Env) *cobra.Command {
	var (
		dir      string
		only     string
		maxCodes int
		limit    time.Duration
		redo     bool
		memory   int64
		list     bool
		yes      bool
		mode     optimaMode
		sf       shardFlags
	)
	cmd := &cobra.Command{
		Use:   "optima",
		Short: "Compute the table of exact optima, resuming where it stopped",
		Long: `optima solves exactly every variant of 3 to 6 pegs with 2 to 10 colours
(repeats allowed) and of 3 to 5 pegs of distinct colours that has at most
--max-codes codes, smallest first, and keeps the table in DIR/optimal.csv:
for each, the least total number of guesses over every secret and the worst
case of a strategy that reaches it, the fewest guesses that always suffice
and the least total within them, the tree of the least total (written to
DIR/optimal/, as tree --format json writes it, gzipped), the CPU and wall
seconds of the searches, and the best published value we know.

Each search goes first guess by first guess and, under each, feedback by
feedback, and keeps every part as soon as it is solved in
DIR/optimal/partial/ROW/, each file whole or not at all: a run stopped
midway (Ctrl-C, a session's end, a kill) loses only the part under way, and
the next run resumes there. A row is written, with its tree, as soon as it
is solved, and its partial directory then goes. --redo solves the rows of
--only again and rewrites them, byte for byte the same. A row that needs
more than --row-limit is left for the next run, its parts kept. Before
each search within a number of guesses, a whole run first asks whether any
strategy keeps to it at all: where none does, that settles the fewest
guesses that always suffice without the least totals of the parts that
fit. That search is kept too, in fits-D.json: the parts found to fit and,
in parts of 1000 codes or more, each second guess found unable to.

A row's searches can be shared out among processes, on one machine or on
a cluster's nodes that see DIR: --shard K/N (or --shard-count N in a Slurm
array task or a Kubernetes Indexed Job's pod) solves the parts of the
row's search under way that fall to shard K, keeping them in a journal of
its own beside the others, and stops; the search of the least total gives
up a first guess as soon as it cannot beat deep's tree. A row has up to
one search per worst case tried, each needing the last's result: when
every shard is done, run them again for the next search, until one of
them says the row is done; then --merge writes it, searching nothing (it
exits 3, saying what is left, while a search lacks parts; so does a run
stopped at --row-limit).
deploy/slurm/optima.sh does these rounds on Slurm.`,
		Example: `  mastermind optima --max-codes 1000
  mastermind optima --only 6x4,5x5 --redo
  mastermind optima --list
  mastermind optima --only 6x5 --shard 0/4   # then 1/4, 2/4, 3/4, in any order
  mastermind optima --only 6x5 --merge`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, name := range []string{"rules", "colors", "pegs", "distinct", "alphabet"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("--%s: optima solves the table's variants (3 to 6 pegs, 2 to 10 colours, repeats and distinct); name rows with --only, such as --only 8x4 or 6x4-distinct", name)
				}
			}
			if err := atLeast(1, "max-codes", maxCodes); err != nil {
				return err
			}
			// Only a shard flag makes a shard: a whole run or a merge
			// inside a Slurm task or a Kubernetes pod stays one.
			if sf.shard != "" || sf.count > 0 {
				spec, on, err := shard.Resolve(sf.shard, sf.count, os.Getenv)
				if err != nil {
					return err
				}
				mode.shard, mode.on = spec, on
			}
			switch {
			case mode.on && (mode.merge || redo || list):
				return fmt.Errorf("shard %v solves its parts of the rows' searches; --merge, --redo and --list run whole", mode.shard)
			case mode.merge && (redo || list):
				return fmt.Errorf("--merge writes the rows the shards finished; it takes neither --redo nor --list")
			}
			csvPath := filepath.Join(dir, "optimal.csv")
			rows, err := readOptima(csvPath)
			if err != nil {
				return err
			}
			if list {
				if _, err := os.Stat(csvPath); errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("--list: there is no table at %s; run optima in a clone of the repository, whose records/ holds it, or give --dir", csvPath)
				}
				return records.WriteOptimaMarkdown(e.Stdout, rows)
			}
			variants := optimaVariants(uint64(maxCodes))
			if only != "" {
				variants = nil
				for _, s := range strings.Split(only, ",") {
					r, err := parseVariant(s)
					if err != nil {
						return err
					}
					variants = append(variants, r)
				}
			} else if redo {
				return fmt.Errorf("--redo needs --only: it solves the rows named there again")
			}
			if !mode.on && !mode.merge {
				// Guessed before anything is written.
				var todo []mm.Rules
				for _, r := range variants {
					if redo || !slices.ContainsFunc(rows, func(o records.Optimum) bool { return o.Rules == r }) {
						todo = append(todo, r)
					}
				}
				if err := e.announceOptima(todo, limit, yes); err != nil {
					return err
				}
			}
			if err := os.MkdirAll(filepath.Join(dir, "optimal"), 0o755); err != nil {
				return err
			}
			// Shards run side by side and never write the table: they
			// share the lock that a whole run or a merge holds alone.
			unlock, err := lockDir(filepath.Join(dir, "optimal", ".lock"), mode.on)
			if err != nil {
				return err
			}
			defer unlock()
			// Read again under the lock: a run that ended just before
			// may have added rows.
			if rows, err = readOptima(csvPath); err != nil {
				return err
			}
			have := map[mm.Rules]bool{}
			for _, o := range rows {
				have[o.Rules] = true
				// A run killed between writing the row and removing
				// its parts left them.
				if !mode.on {
					if err := removePartial(dir, o.Rules); err != nil {
						return err
					}
				}
			}
			var unfinished, pending []string
			for _, r := range variants {
				if have[r] && !redo {
					if mode.on && only != "" {
						fmt.Fprintf(e.Stdout, "%s: in the table already\n", records.OptimumName(r))
					}
					continue
				}
				if redo {
					// Solved again from the start, not from the parts of
					// an earlier run.
					if err := removePartial(dir, r); err != nil {
						return err
					}
				}
				o, err := e.solveOptimum(cmd.Context(), r, dir, limit, memory, mode)
				var left *partsLeft
				switch {
				case errors.Is(err, context.DeadlineExceeded):
					unfinished = append(unfinished, records.OptimumName(r))
					continue
				case errors.As(err, &left):
					fmt.Fprintln(e.Stdout, left.report(mode))
					pending = append(pending, records.OptimumName(r))
					continue
				case errors.Is(err, errSearchesDone):
					fmt.Fprintf(e.Stdout, "%s: every search is done; mastermind optima --only %s --merge writes the row\n", records.OptimumName(r), records.OptimumName(r))
					continue
				case err != nil:
					return err
				}
				rows = replaceOptimum(rows, o)
				if err := shard.WriteAtomic(csvPath, func(w io.Writer) error { return records.WriteOptima(w, rows) }); err != nil {
					return err
				}
				if err := removePartial(dir, r); err != nil {
					return err
				}
				fmt.Fprintf(e.Stdout, "%s: %d codes, total %d (mean %.4f), worst %d; at most %d guesses: total %d; %.1f s CPU, %.1f s\n",
					records.OptimumName(r), o.Codes, o.Total, o.Mean(), o.Worst, o.MinWorst, o.MinWorstTotal, o.CPUSeconds, o.WallSeconds)
			}
			if len(unfinished) > 0 {
				what := "give a longer limit, or shard them"
				if mode.on {
					what = "run the shard again: it resumes"
				}
				return Pending(fmt.Errorf("not finished within --row-limit %v: %s; %s", limit, strings.Join(unfinished, ", "), what))
			}
			if mode.merge && len(pending) > 0 {
				return Pending(fmt.Errorf("searches not done: %s; run the shards again", strings.Join(pending, ", ")))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "records", "directory of optimal.csv and of the trees, under optimal/")
	f.StringVar(&only, "only", "", "solve only these rows, such as 6x4,10x4-distinct (default: every row not yet in the table)")
	f.IntVar(&maxCodes, "max-codes", 10000, "largest variant of the table, in codes")
	f.DurationVar(&limit, "row-limit", time.Hour, "leave out a row whose searches take longer than this")
	f.BoolVar(&redo, "redo", false, "solve the rows of --only again, though in the table")
	f.Var((*byteSize)(&memory), "memory", "memory for each search's table of solved sets, as 512K, 64M or 1G (0: the search's default)")
	f.BoolVar(&yes, "yes", false, "start searches guessed to take more than an hour in all (refused without it)")
	f.BoolVar(&list, "list", false, "print the table as Markdown, as records/README.md shows it, and solve nothing")
	f.StringVar(&sf.shard, "shard", "", "solve the parts of each row's search under way that fall to shard K of N (K from 0), and stop")
	f.IntVar(&sf.count, "shard-count", 0, "run as one of N shards, the shard chosen by "+shard.SlurmID+" (a Slurm array task) or "+
		shard.CompletionIndex+" (a Kubernetes Indexed Job's pod)")
	f.BoolVar(&mode.merge, "merge", false, "write the rows whose searches the shards have done, searching nothing; exit 3 while a search lacks parts")
	return cmd
}

// optimaMode is how optima runs: whole, as one shard of the rows'
// searches, or as the merge of what the shards did.
type optimaMode struct {
	shard shard.Spec
	on    bool // run shard
	merge bool // search nothing: write the rows the shards finished
}

// errSearchesDone ends a shard's run of a row whose every search is done:
// the merge writes it.
var errSearchesDone = errors.New("every search of the row is done")

// partsLeft ends a shard's or a merge's run of a row whose search under
// way lacks parts.
type partsLeft struct {
	name, phase string
	kept        int // parts this shard kept, in this run
	missing     int // parts no process has kept yet
	spec        shard.Spec
}

func (p *partsLeft) Error() string {
	return fmt.Sprintf("%s, %s: %s missing", p.name, p.phase, Plural(p.missing, "part"))
}

// report says where the row stands, after a shard's run or a merge.
func (p *partsLeft) report(m optimaMode) string {
	if !m.on {
		return fmt.Sprintf("%s, %s: %s of the search not kept yet by any shard", p.name, p.phase, Plural(p.missing, "part"))
	}
	s := fmt.Sprintf("%s, %s: shard %v kept %s", p.name, p.phase, p.spec, Plural(p.kept, "part"))
	if p.missing == 0 {
		return s + "; the search is done: run the shards again for the next"
	}
	return s + fmt.Sprintf("; %s left to the other shards", Plural(p.missing, "part"))
}

// solveOptimum solves r's row: the least total and its tree, written to
// dir, then the least total within each smaller worst case until there is
// none. Each search goes first guess by first guess (exact.SolveOpenings),
// its units kept in dir/optimal/partial/NAME as they are solved, so that a
// run stopped midway resumes there; the directory goes once the row is
// written. The searches stop at limit with context.DeadlineExceeded.
//
// A shard (m.on) solves its share of the first search that lacks parts
// and returns a *partsLeft, or errSearchesDone when none does; a merge
// returns a *partsLeft for the first search that lacks parts, and solves
// nothing.
func (e *Env) solveOptimum(ctx context.Context, r mm.Rules, dir string, limit time.Duration, memory int64, m optimaMode) (records.Optimum, error) {
	name := records.OptimumName(r)
	partial := filepath.Join(dir, "optimal", "partial", name)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// Lines on stderr go through nl, so that none lands on the news.
	nl := e.newsLine()
	show, done := nl.show, nl.done
	defer done()
	start := time.Now()
	st, err := mm.NewState(r, nil)
	if err != nil {
		return records.Optimum{}, err
	}
	self := -1
	if m.on {
		self = m.shard.Index
		if err := os.MkdirAll(partial, 0o755); err != nil {
			return records.Optimum{}, err
		}
		unlock, err := lockDir(filepath.Join(partial, fmt.Sprintf(".shard-%d.lock", self)), false)
		var held *lockedError
		if errors.As(err, &held) {
			return records.Optimum{}, fmt.Errorf("%s: shard %d of the row runs already", name, self)
		}
		if err != nil {
			return records.Optimum{}, err
		}
		defer unlock()
	}
	phase := "least total"
	var (
		mu    sync.Mutex // the progress reports come from another goroutine
		best  int
		added int // parts solved in this run
		steps int // steps of the searches of whether a limit fits, this run
		// The seconds spent on the row's searches, by every process
		// and run.
		cpu, wall float64
	)
	// The journals of the searches done so far, each looser than the
	// next: what they solved bounds what the next search can find, and
	// their units that keep to its limit it need not solve again.
	var looser []*fileJournal
	solve := func(depth int) (*exact.Result, error) {
		progress := func(p exact.Progress) {
			mu.Lock()
			best = p.Best
			mu.Unlock()
			line := fmt.Sprintf("%s (%d codes), %s: first guess %s (%d of %d)", name, st.Remaining(), phase, p.Guess, p.Tried, p.Guesses)
			if p.Parts > 0 {
				line += fmt.Sprintf(", part %d/%d %db%dw (%d codes)", p.PartsDone+1, p.Parts, p.Part.Black, p.Part.White, p.PartCodes)
			}
			if p.NextGuesses > 0 {
				line += fmt.Sprintf(", second guess %s (%d of %d)", p.Next, p.NextTried, p.NextGuesses)
			}
			line += fmt.Sprintf(", %d sets searched", p.Nodes)
			if m.on {
				line = fmt.Sprintf("%s (%d codes), %s, shard %v: first guess %s (part %d of %d), %d sets searched", name, st.Remaining(), phase, m.shard, p.Guess, p.Tried, p.Guesses, p.Nodes)
			}
			if p.Best > 0 && !m.on {
				line += fmt.Sprintf(", best total %d so far", p.Best)
			}
			show(line + ", " + short(time.Since(start)))
		}
		opts := &exact.Options{MaxDepth: depth, Memory: memory, AnyWorstCase: depth > 0, Progress: progress}
		if depth > 0 {
			// A whole run asks; a shard or a merge takes an answer kept.
			fr, err := e.fitsOptimum(ctx, nl, st, depth, opts, partial, looser, &phase, !m.on && !m.merge)
			steps += fr.steps
			cpu += fr.cpu
			wall += fr.wall
			if err != nil {
				return nil, err
			}
			if !fr.fits {
				return nil, fmt.Errorf("%s: no strategy within %d guesses: %w", name, depth, exact.ErrDepth)
			}
		}
		j, err := openJournal(partial, r, depth, self)
		if err != nil {
			return nil, err
		}
		j.looser = slices.Clone(looser)
		looser = append(looser, j)
		if n := j.Units(); n > 0 && !m.merge {
			nl.printf("%s, %s: resuming, %d parts solved before\n", name, phase, n)
		}
		before := j.Kept()
		defer func() {
			added += j.Kept() - before
			if !m.merge {
				j.Record() // the time, on the next run's account if this fails
			}
			c, w := j.Seconds()
			cpu += c
			wall += w
		}()
		if m.on || m.merge {
			missing, err := exact.Missing(st, opts, j)
			if err != nil {
				return nil, err
			}
			if len(missing) > 0 {
				left := &partsLeft{name: name, phase: phase, missing: len(missing), spec: m.shard}
				if m.merge {
					return nil, left
				}
				if left.kept, err = e.shareOptimum(ctx, st, opts, j, m.shard, depth == 0); err != nil {
					return nil, err
				}
				missing, err = exact.Missing(st, opts, j)
				left.missing = len(missing)
				return nil, cmp.Or(err, error(left))
			}
		}
		return exact.SolveOpenings(ctx, st, opts, j)
	}
	stopped := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		if best > 0 && !m.on { // (a shard's is deep's bound)
			what += fmt.Sprintf(" (best total so far %d, not proved)", best)
		}
		if added == 0 && steps == 0 {
			nl.printf("%s: %s within %v, and no part of its search finished: give a longer --row-limit\n", name, what, limit)
			return
		}
		kept := Plural(added, "part") + " solved"
		if steps > 0 {
			kept = fmt.Sprintf("%s and %s of whether fewer guesses suffice", kept, Plural(steps, "step"))
		}
		nl.printf("%s: %s within %v; the %s are kept in %s for the next run\n", name, what, limit, kept, partial)
	}
	res, err := solve(0)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			stopped("no least total")
		}
		return records.Optimum{}, err
	}
	o := records.Optimum{Rules: r, Codes: st.Remaining(), Total: res.Total, Worst: res.Depth,
		MinWorst: res.Depth, MinWorstTotal: res.Total, File: records.OptimumFile(r)}
	_, o.Published, _ = records.Published(r)
	f := records.NewFile(r, "optimal", nil, res.Tree)
	var buf bytes.Buffer
	if err := records.WriteOptimumTree(&buf, f); err != nil {
		return o, err
	}
	// Fewer guesses at most, while some strategy keeps to them.
	for d := o.MinWorst - 1; d >= 1; d-- {
		phase = fmt.Sprintf("at most %d guesses", d)
		res, err := solve(d)
		if errors.Is(err, exact.ErrDepth) {
			break
		}
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				stopped(fmt.Sprintf("least total %d found, but not the fewest guesses that suffice", o.Total))
			}
			return o, err
		}
		o.MinWorst, o.MinWorstTotal = res.Depth, res.Total
		d = res.Depth
	}
	if m.on {
		return o, errSearchesDone
	}
	if err := writeBytes(filepath.Join(dir, filepath.FromSlash(o.File)), buf.Bytes()); err != nil {
		return o, err
	}
	o.CPUSeconds, o.WallSeconds = cpu, wall
	return o, nil
}

// fitsRun is what a search of whether a row keeps to a number of guesses
// found, and what it cost: steps kept in this run, and the seconds of all
// its runs.
type fitsRun struct {
	fits      bool
	steps     int
	cpu, wall float64
}

// fitsOptimum asks whether some strategy finds every code of st within
// depth guesses, by exact.FitsOpenings, kept in the row's partial
// directory as fits-DEPTH.json: where one does, it finds one at once,
// and where none does it says so without the least totals of the parts
// that do fit (10 x 4 within 6: opening 1234's 0 black 1 white took over
// 50 min of CPU to minimise, and never finished). known are the row's
// journals of least totals so far; phase names the search in the progress
// lines, and nl writes its own lines on stderr without landing on them.
// Unless search, it only reads the answer an earlier run kept, and
// reports that depth may fit where none was kept.
func (e *Env) fitsOptimum(ctx context.Context, nl *news, st *mm.State, depth int, opts *exact.Options, partial string, known []*fileJournal, phase *string, search bool) (fitsRun, error) {
	r := st.Rules()
	name := records.OptimumName(r)
	// The parts the search within depth solved before fit too.
	same, err := openJournal(partial, r, depth, -1)
	if err != nil {
		return fitsRun{}, err
	}
	fj, err := openFitsJournal(partial, r, depth, append(slices.Clone(known), same))
	if err != nil {
		return fitsRun{}, err
	}
	var out fitsRun
	fits, answered := fj.Answer()
	switch {
	case answered:
	case !search:
		fits = true // not known not to: the search within depth goes on
	default:
		before := fj.Steps()
		if before > 0 {
			nl.printf("%s, %s: resuming whether any strategy keeps to them, %s kept before\n", name, *phase, Plural(before, "step"))
		}
		was := *phase
		*phase += ", whether any strategy keeps to them"
		fits, err = exact.FitsOpenings(ctx, st, depth, opts, fj)
		*phase = was
		if err == nil {
			err = fj.Answered(fits)
		} else {
			fj.Record() // the time, on the next run's account if this fails
		}
		out.steps = fj.Steps() - before
	}
	out.fits = fits
	out.cpu, out.wall = fj.Seconds()
	if err == nil && !fits {
		how := ""
		if answered {
			how = "found before; "
		}
		// Seconds as the row's line writes them, CPU first: not 11m40s
		// beside 500 s.
		nl.printf("%s: no strategy keeps to %d guesses (%s%.0f s CPU, %.0f s, over every run)\n", name, depth, how, out.cpu, out.wall)
		// The search of the least total within depth, if one ran
		// before, is the row's time too; it will not be opened again.
		c, w := same.Seconds()
		out.cpu += c
		out.wall += w
	}
	return out, err
}

// shareOptimum solves the parts of a row's search that fall to shard sp,
// dealt by their sizes, and returns how many it kept. The search of the
// least total (least) gives up a first guess that cannot beat the total
// of deep's tree.
func (e *Env) shareOptimum(ctx context.Context, st *mm.State, opts *exact.Options, j *fileJournal, sp shard.Spec, least bool) (int, error) {
	parts, err := exact.Parts(st, opts)
	if err != nil {
		return 0, err
	}
	costs := make([]int64, len(parts))
	for i, p := range parts {
		costs[i] = int64(p.Size) * int64(p.Size)
		if _, ok := j.fromLooser(p.Guess, p.Feedback); ok {
			costs[i] = 0 // nothing to solve, alike in every shard
		}
	}
	owner := shard.Assign(costs, sp.Count)
	sh := exact.Share{Mine: func(k int) bool { return owner[k] == sp.Index }, Refresh: j.Refresh}
	if least {
		// A strategy's total, to give up first guesses that cannot beat
		// it; without one, every first guess is solved whole.
		if t, err := (deep.Strategy{}).Tree(st.Rules()); err == nil {
			sh.Bound, _ = t.Cost()
		} else if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
	return exact.SolveShare(ctx, st, opts, j, sh)
}

// lockedError says that another process holds a lock (lockDir).
type lockedError struct{ msg string }

func (e *lockedError) Error() string { return e.msg }

// readOptima reads the table at path; no file is an empty table.
func readOptima(path string) ([]records.Optimum, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return records.ReadOptima(f)
}

// replaceOptimum returns rows with o in place of the row of its rules, or
// added.
func replaceOptimum(rows []records.Optimum, o records.Optimum) []records.Optimum {
	for i := range rows {
		if rows[i].Rules == o.Rules {
			rows[i] = o
			return rows
		}
	}
	return append(rows, o)
}

// removePartial removes the journals of r's searches, and the partial
// directory once no row has any.
func removePartial(dir string, r mm.Rules) error {
	partial := filepath.Join(dir, "optimal", "partial")
	if err := os.RemoveAll(filepath.Join(partial, records.OptimumName(r))); err != nil {
		return err
	}
	os.Remove(partial) // only if empty
	return nil
}
