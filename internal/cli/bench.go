package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/records"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// defaultBench is the strategies bench compares when none is named: the
// four classic scoring strategies.
const defaultBench = "knuth,expected-size,entropy,most-parts"

// histogram marshals to a JSON object from guess count to games, keys in
// numeric order, non-zero counts only.
type histogram []int

func (h histogram) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for n, c := range h {
		if c == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, `"%d":%d`, n, c)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

type resultJSON struct {
	Strategy  string    `json:"strategy"`
	Games     int       `json:"games"`
	Won       *int      `json:"won,omitempty"`      // with a guess limit: games won within it
	WonShare  *float64  `json:"wonShare,omitempty"` // the share of games won
	Total     int       `json:"total"`
	Mean      float64   `json:"mean"`
	Median    float64   `json:"median"`
	StdDev    float64   `json:"stddev"`
	Min       int       `json:"min"`
	Max       int       `json:"max"`
	Histogram histogram `json:"histogram"`
	Seconds   float64   `json:"seconds"`
}

type benchJSON struct {
	Rules      rulesJSON    `json:"rules"`
	Sampled    bool         `json:"sampled"`
	Seed       *uint64      `json:"seed,omitempty"`
	MaxGuesses int          `json:"maxGuesses,omitempty"`
	Results    []resultJSON `json:"results"`
}

// round returns x rounded to d decimals.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// toResultJSON returns the JSON of a report. limited says that games had
// a guess limit: then games counts every game played, won those won
// within it, and the other figures are of the games won.
func toResultJSON(r *eval.Report, limited bool) resultJSON {
	out := resultJSON{Strategy: r.Strategy, Games: r.Games, Total: r.Total,
		Mean: round(r.Mean(), 3), Median: r.Median(), StdDev: round(r.StdDev(), 3),
		Min: r.Min(), Max: r.Max, Histogram: histogram(r.Histogram), Seconds: round(r.Seconds(), 4)}
	if limited {
		won, share := r.Games, round(r.Won(), 4)
		out.Games, out.Won, out.WonShare = r.Played(), &won, &share
	}
	return out
}

type benchFlags struct {
	strategies string
	all        bool
	games      int
	seed       uint64
	workers    int
	maxGuesses int
	yes        bool
	asJSON     bool
	asCSV      bool
	plot       string
	plotSize   string
	trees      []string
	so         strategy.Options
	sf         shardFlags
}

// maxGames is the most games one run plays: sampled secrets are drawn one
// at a time, so memory is no limit, but time is.
const maxGames = 1_000_000_000

// addRunFlags adds the flags that choose the secrets and how they are
// played, shared by bench and openings.
func (bf *benchFlags) addRunFlags(f *pflag.FlagSet) {
	f.BoolVar(&bf.all, "all", false, "play every secret (the default for spaces of at most 100 000 codes)")
	countVar(f, &bf.games, "games", 0, "play this many random secrets instead of all, 1 to 1 000 000 000, such as 5000 or 1e9 (default on spaces of over 100 000 codes: 1000, or as many as take auto, sampler, fit or split about a minute on two cores, at least 10)")
	f.Uint64Var(&bf.seed, "seed", 1, "seed of the random secrets and of randomised strategies")
	f.IntVar(&bf.workers, "workers", 0, "games played at once (0: one per core)")
	f.IntVar(&bf.maxGuesses, "max-guesses", 0, "count a game not won within this many guesses as failed, and report the share won (0: no limit)")
	f.BoolVar(&bf.yes, "yes", false, "start a run guessed to take more than an hour (refused without it)")
}

// check rejects contradictory or out-of-range run flags.
func (bf *benchFlags) check(cmd *cobra.Command) error {
	if bf.all && cmd.Flags().Changed("games") {
		return fmt.Errorf("--all and --games exclude each other")
	}
	if cmd.Flags().Changed("games") {
		if err := atLeast(1, "games", bf.games); err != nil {
			return err
		}
		if bf.games > maxGames {
			return fmt.Errorf("--games %d: want at most %d", bf.games, maxGames)
		}
	}
	if err := atLeast(0, "workers", bf.workers, "max-guesses", bf.maxGuesses); err != nil {
		return err
	}
	if bf.asJSON && bf.asCSV {
		return fmt.Errorf("--json and --csv exclude each other")
	}
	return nil
}

// options returns the harness options of the run flags.
func (bf *benchFlags) options() eval.Options {
	return eval.Options{All: bf.all, Games: bf.games, Seed: bf.seed, Workers: bf.workers, MaxGuesses: bf.maxGuesses}
}

// addPlotFlags adds --plot and --plot-size.
func (bf *benchFlags) addPlotFlags(f *pflag.FlagSet, what string) {
	f.StringVar(&bf.plot, "plot", "", "also draw "+what+" into this file: .png or .svg (or .pdf, .eps, .jpg, .tif)")
	f.StringVar(&bf.plotSize, "plot-size", fmt.Sprintf("%dx%d", chart.DefaultWidth, chart.DefaultHeight), "size of the --plot figure in pixels, WIDTHxHEIGHT")
}

// frame checks the plot flags and returns the figure's frame, with no
// file when there is no --plot.
func (bf *benchFlags) frame(cmd *cobra.Command, title string) (chart.Frame, error) {
	if bf.plot == "" {
		if cmd.Flags().Changed("plot-size") {
			return chart.Frame{}, fmt.Errorf("--plot-size needs --plot")
		}
		return chart.Frame{}, nil
	}
	if err := chart.CheckFile(bf.plot); err != nil {
		return chart.Frame{}, err
	}
	w, h, err := chart.ParseSize(bf.plotSize)
	if err != nil {
		return chart.Frame{}, fmt.Errorf("--plot-size: %w", err)
	}
	return chart.Frame{File: bf.plot, Title: title, Width: w, Height: h}, nil
}

func newBench(e *Env, rf *rulesFlags) *cobra.Command {
	bf := &benchFlags{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Play strategies against every secret or samples, and compare them",
		Long: `bench plays each strategy against every secret (--all, the default where
the space has at most 100 000 codes) or against --games N random secrets
drawn with --seed, and prints a table side by side: games, total and mean
guesses, median, standard deviation, worst case, the histogram of guesses,
and wall seconds. With --max-guesses N a game not won within N guesses
counts as failed, and the table says how many games were won and their
share; the other figures are of the games won.

Deterministic strategies are played through their decision tree, computed
once however many games pass through each node; every core works at once
(--workers). A progress bar is drawn on stderr when it is a terminal.`,
		Example: `  mastermind bench
  mastermind bench --strategy knuth --json
  mastermind bench --rules super --strategy most-parts,entropy --plot hist.png
  mastermind bench --strategy random-consistent --games 5000 --seed 7 --csv
  mastermind bench --strategy knuth,random-consistent --max-guesses 5
  mastermind bench --tree records/8x5-deep.json.gz`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := bf.check(cmd); err != nil {
				return err
			}
			sh, err := e.sharding(cmd, &bf.sf, "json", "csv", "plot", "plot-size")
			if err != nil {
				return err
			}
			var (
				reports    []*eval.Report
				sampled    bool
				what       = "every secret"
				names      []string
				strategies []mm.Strategy
				opts       = bf.options()
				n          int
			)
			if len(bf.trees) > 0 {
				if sh.on {
					return fmt.Errorf("--tree: a tree file plays back in one run, not in shards")
				}
				if r, reports, err = replayTrees(cmd, r, a, bf.trees); err != nil {
					return err
				}
			} else {
				var done func()
				bf.so.Progress, done = e.progressLine()
				defer done()
				if names, strategies, err = strategyList(adaptStrategy(cmd, bf.strategies, r), bf.so, r, a); err != nil {
					return err
				}
				if err := checkStrategyFlags(cmd, names); err != nil {
					return err
				}
				sizeGames(&opts, r, strategies)
				if n, sampled, err = eval.Count(r, &opts); err != nil {
					return err
				}
				if sh.on {
					if err := e.announceShard(cmd.Context(), sh.spec, r, names, strategies, n, sampled, opts.Workers, bf.yes); err != nil {
						return err
					}
					works := make([]strategyWork, len(names))
					for i := range names {
						works[i] = strategyWork{names[i], strategies[i]}
					}
					return e.writeWorksShard(cmd.Context(), cmd, sh, r, works, shard.Options{Eval: opts})
				}
				if sampled {
					what = fmt.Sprintf("random secrets, seed %d", bf.seed)
				}
			}
			frame, err := bf.frame(cmd, describeRules(r)+", "+what+": guesses per game")
			if err != nil {
				return err
			}
			if frame.File != "" && e.full.Histograms == nil {
				return e.delegate("--plot")
			}
			switch {
			case sh.merged != nil:
				if reports, err = sh.mergedReports(r, names, &opts); err != nil {
					return err
				}
			case len(strategies) > 0:
				bar := e.newRunBar(n * len(strategies))
				defer bar.stop()
				if err := e.announce(cmd.Context(), bar, r, names, strategies, n, sampled, opts.Workers, bf.yes); err != nil {
					return err
				}
				for i, s := range strategies {
					bar.track(&opts, names[i], i*n)
					rep, err := eval.Run(cmd.Context(), r, names[i], s, &opts)
					if err != nil {
						return runError(names[i], err)
					}
					reports = append(reports, rep)
				}
				bar.stop()
			}
			if frame.File != "" {
				var hs []chart.Histogram
				for _, rep := range reports {
					hs = append(hs, chart.Histogram{Name: rep.Strategy, Counts: rep.Histogram})
				}
				if err := e.full.Histograms(frame, hs); err != nil {
					return err
				}
			}
			limited := bf.maxGuesses > 0
			switch {
			case bf.asJSON:
				out := benchJSON{Rules: toRulesJSON(r), Sampled: sampled, MaxGuesses: bf.maxGuesses}
				if sampled {
					out.Seed = &bf.seed
				}
				for _, rep := range reports {
					out.Results = append(out.Results, toResultJSON(rep, limited))
				}
				return writeJSON(e.Stdout, out)
			case bf.asCSV:
				return writeBenchCSV(e.Stdout, r, reports, limited)
			}
			return writeBenchTable(e.Stdout, r, what, bf.maxGuesses, reports)
		},
	}
	f := cmd.Flags()
	f.StringVar(&bf.strategies, "strategy", defaultBench, "comma-separated strategies to compare (auto where a variant has more than 2^20 codes)")
	f.StringArrayVar(&bf.trees, "tree", nil, "instead of strategies, play the tree of this file (tree --format json or irving, gzipped or not) against every secret of its rules; repeat to compare")
	bf.addRunFlags(f)
	f.BoolVar(&bf.asJSON, "json", false, "print the results as JSON")
	f.BoolVar(&bf.asCSV, "csv", false, "print the results as CSV, one row per strategy")
	bf.addPlotFlags(f, "the histograms side by side")
	addStrategyFlags(f, &bf.so)
	bf.sf.add(f)
	return cmd
}

// replayTrees plays the tree files against every secret of their rules,
// which must be the same for all and agree with any rules flags given, and
// returns a report for each.
func replayTrees(cmd *cobra.Command, r mm.Rules, a *mm.Alphabet, files []string) (mm.Rules, []*eval.Report, error) {
	flags := cmd.Flags()
	for _, name := range []string{"strategy", "games", "seed", "all", "max-guesses", "workers"} {
		if flags.Changed(name) {
			return r, nil, fmt.Errorf("--tree plays every secret through the tree: --%s does not apply", name)
		}
	}
	rulesGiven := flags.Changed("rules") || flags.Changed("colors") || flags.Changed("pegs") || flags.Changed("distinct")
	var reports []*eval.Report
	seen := map[string]bool{}
	for i, path := range files {
		start := time.Now()
		f, err := readTree(path, a, r)
		if err != nil {
			return r, nil, err
		}
		switch {
		case i == 0 && !rulesGiven:
			r = f.Rules
		case f.Rules != r.WithDefaults():
			return r, nil, fmt.Errorf("--tree %s: the tree is for %v, not %v", path, f.Rules, r)
		}
		guesses, err := records.Replay(f)
		if err != nil {
			return r, nil, fmt.Errorf("--tree %s: %w", path, err)
		}
		label := f.Strategy
		if label == "" || seen[label] {
			label = filepath.Base(path)
		}
		seen[label] = true
		reports = append(reports, &eval.Report{Strategy: label, Rules: r, Stats: eval.Summarize(guesses), Elapsed: time.Since(start)})
	}
	return r, reports, nil
}

// readTree reads a tree file; r are the rules of a file that does not
// say its own.
func readTree(path string, a *mm.Alphabet, r mm.Rules) (*records.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--tree: %w", err)
	}
	defer fh.Close()
	f, err := records.ReadFor(fh, a, r)
	if err != nil {
		return nil, fmt.Errorf("--tree %s: %w", path, err)
	}
	return f, nil
}

// runError is the error of a run of the named strategy: a failure when
// the strategy could not win a game, bad input when the rules or sizes do
// not fit it.
func runError(name string, err error) error {
	err = fmt.Errorf("%s: %w", name, aboutRun(err))
	if errors.Is(err, eval.ErrNotSolved) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Failure(err)
	}
	return err
}

// aboutRun drops the secret from an error of eval.Run that is about the
// run, not the game it showed up in: a space too large for the strategy or
// for memory, or rules the strategy does not play.
func aboutRun(err error) error {
	var ge *eval.GameError
	if errors.As(err, &ge) && (errors.Is(err, mm.ErrTooLarge) || errors.Is(err, eval.ErrMemory) || errors.Is(err, mm.ErrUnsupported)) {
		return ge.Err
	}
	return err
}

func writeBenchTable(w io.Writer, r mm.Rules, what string, maxGuesses int, reports []*eval.Report) error {
	fmt.Fprintf(w, "%s, %s", describeRules(r), what)
	if maxGuesses > 0 {
		fmt.Fprintf(w, ", at most %s a game", Plural(maxGuesses, "guess"))
	}
	fmt.Fprint(w, "\n\n")
	t := newTable(w)
	head := []string{""}
	for _, rep := range reports {
		head = append(head, rep.Strategy)
	}
	t.row(head...)
	add := func(label string, cell func(*eval.Report) string) {
		row := []string{label}
		for _, rep := range reports {
			row = append(row, cell(rep))
		}
		t.row(row...)
	}
	if maxGuesses > 0 {
		add("games", func(r *eval.Report) string { return strconv.Itoa(r.Played()) })
		add("won", func(r *eval.Report) string { return strconv.Itoa(r.Games) })
		add("won %", func(r *eval.Report) string { return strconv.FormatFloat(100*r.Won(), 'f', 2, 64) })
	} else {
		add("games", func(r *eval.Report) string { return strconv.Itoa(r.Games) })
	}
	add("total", func(r *eval.Report) string { return strconv.Itoa(r.Total) })
	add("mean", func(r *eval.Report) string { return strconv.FormatFloat(r.Mean(), 'f', 3, 64) })
	add("median", func(r *eval.Report) string { return strconv.FormatFloat(r.Median(), 'f', -1, 64) })
	add("std", func(r *eval.Report) string { return strconv.FormatFloat(r.StdDev(), 'f', 3, 64) })
	add("max", func(r *eval.Report) string { return strconv.Itoa(r.Max) })
	hi := 0
	for _, rep := range reports {
		hi = max(hi, rep.Max)
	}
	// One row per guess count, or bins when the counts spread widely.
	width := max(1, (hi+19)/20)
	for lo := 1; lo <= hi; lo += width {
		top := min(hi, lo+width-1)
		label := Plural(lo, "guess")
		if width > 1 {
			label = strconv.Itoa(lo) + "–" + strconv.Itoa(top) + " guesses"
		}
		add(label, func(r *eval.Report) string {
			n := 0
			for g := lo; g <= top && g < len(r.Histogram); g++ {
				n += r.Histogram[g]
			}
			return strconv.Itoa(n)
		})
	}
	if maxGuesses > 0 {
		add("failed", func(r *eval.Report) string { return strconv.Itoa(r.Failed) })
	}
	add("seconds", func(r *eval.Report) string { return strconv.FormatFloat(r.Seconds(), 'f', 3, 64) })
	return t.flush()
}

func writeBenchCSV(w io.Writer, r mm.Rules, reports []*eval.Report, limited bool) error {
	cw := csv.NewWriter(w)
	hi := 0
	for _, rep := range reports {
		hi = max(hi, rep.Max)
	}
	head := []string{"strategy", "colors", "pegs", "distinct", "games", "total", "mean", "median", "stddev", "min", "max", "seconds"}
	if limited {
		head = append(head, "won", "won_share")
	}
	for g := 1; g <= hi; g++ {
		head = append(head, strconv.Itoa(g))
	}
	cw.Write(head)
	for _, rep := range reports {
		j := toResultJSON(rep, limited)
		row := []string{rep.Strategy, strconv.Itoa(r.Colors), strconv.Itoa(r.Pegs), strconv.FormatBool(r.Distinct),
			strconv.Itoa(j.Games), strconv.Itoa(j.Total), strconv.FormatFloat(j.Mean, 'f', -1, 64),
			strconv.FormatFloat(j.Median, 'f', -1, 64), strconv.FormatFloat(j.StdDev, 'f', -1, 64),
			strconv.Itoa(j.Min), strconv.Itoa(j.Max), strconv.FormatFloat(j.Seconds, 'f', -1, 64)}
		if limited {
			row = append(row, strconv.Itoa(*j.Won), strconv.FormatFloat(*j.WonShare, 'f', -1, 64))
		}
		for g := 1; g <= hi; g++ {
			n := 0
			if g < len(rep.Histogram) {
				n = rep.Histogram[g]
			}
			row = append(row, strconv.Itoa(n))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
