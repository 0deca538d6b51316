package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/chart"
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
	Rules   rulesJSON    `json:"rules"`
	Sampled bool         `json:"sampled"`
	Seed    *uint64      `json:"seed,omitempty"`
	Results []resultJSON `json:"results"`
}

// round returns x rounded to d decimals.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

func toResultJSON(r *eval.Report) resultJSON {
	return resultJSON{Strategy: r.Strategy, Games: r.Games, Total: r.Total,
		Mean: round(r.Mean(), 3), Median: r.Median(), StdDev: round(r.StdDev(), 3),
		Min: r.Min(), Max: r.Max, Histogram: histogram(r.Histogram), Seconds: round(r.Seconds(), 4)}
}

type benchFlags struct {
	strategies string
	all        bool
	games      int
	seed       uint64
	workers    int
	maxGuesses int
	asJSON     bool
	asCSV      bool
	plot       string
	so         strategy.Options
}

// addRunFlags adds the flags that choose the secrets and how they are
// played, shared by bench and openings.
func (bf *benchFlags) addRunFlags(f *pflag.FlagSet) {
	f.BoolVar(&bf.all, "all", false, "play every secret (the default for spaces of at most 100 000 codes)")
	f.IntVar(&bf.games, "games", 0, "play this many random secrets instead of all (default 1000 on large spaces)")
	f.Uint64Var(&bf.seed, "seed", 1, "seed of the random secrets and of randomised strategies")
	f.IntVar(&bf.workers, "workers", 0, "games played at once (0: one per core)")
	f.IntVar(&bf.maxGuesses, "max-guesses", 0, "count a game as failed after this many guesses (0: no limit)")
}

// check rejects contradictory or negative run flags.
func (bf *benchFlags) check(cmd *cobra.Command) error {
	if bf.all && cmd.Flags().Changed("games") {
		return fmt.Errorf("--all and --games exclude each other")
	}
	if bf.games < 0 || bf.workers < 0 || bf.maxGuesses < 0 {
		return fmt.Errorf("--games, --workers and --max-guesses must not be negative")
	}
	return nil
}

// options returns the harness options of the run flags.
func (bf *benchFlags) options() eval.Options {
	return eval.Options{All: bf.all, Games: bf.games, Seed: bf.seed, Workers: bf.workers, MaxGuesses: bf.maxGuesses}
}

func newBench(e *env, rf *rulesFlags) *cobra.Command {
	bf := &benchFlags{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Play strategies against every secret, or seeded samples, and compare them",
		Long: `bench plays each strategy against every secret (--all, the default where
the space has at most 100 000 codes) or against --games N random secrets
drawn with --seed, and prints a table side by side: games, total and mean
guesses, median, standard deviation, worst case, the histogram of guesses,
and wall seconds.

Deterministic strategies are played through their decision tree, computed
once however many games pass through each node; every core works at once
(--workers). A progress bar is drawn on stderr when it is a terminal.`,
		Example: `  mastermind bench
  mastermind bench --strategy knuth --json
  mastermind bench --colors 8 --pegs 5 --strategy most-parts,entropy
  mastermind bench --strategy random-consistent --games 5000 --seed 7 --csv`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules()
			if err != nil {
				return err
			}
			if err := bf.check(cmd); err != nil {
				return err
			}
			if bf.asJSON && bf.asCSV {
				return fmt.Errorf("--json and --csv exclude each other")
			}
			var done func()
			bf.so.Progress, done = e.progressLine()
			defer done()
			names, strategies, err := strategyList(bf.strategies, bf.so, r, a)
			if err != nil {
				return err
			}
			opts := bf.options()
			secrets, sampled, err := eval.Secrets(r, &opts)
			if err != nil {
				return err
			}
			bar := e.newRunBar(len(secrets) * len(strategies))
			defer bar.stop()
			var reports []*eval.Report
			for i, s := range strategies {
				bar.track(&opts, names[i], i*len(secrets))
				rep, err := eval.Run(cmd.Context(), r, names[i], s, &opts)
				if err != nil {
					return fmt.Errorf("%s: %w", names[i], err)
				}
				reports = append(reports, rep)
			}
			bar.stop()
			if bf.plot != "" {
				var hs []chart.Histogram
				for _, rep := range reports {
					hs = append(hs, chart.Histogram{Name: rep.Strategy, Counts: rep.Histogram})
				}
				title := describeRules(r) + ": guesses per game"
				if err := chart.Histograms(bf.plot, title, hs); err != nil {
					return err
				}
			}
			switch {
			case bf.asJSON:
				out := benchJSON{Rules: toRulesJSON(r), Sampled: sampled}
				if sampled {
					out.Seed = &bf.seed
				}
				for _, rep := range reports {
					out.Results = append(out.Results, toResultJSON(rep))
				}
				return writeJSON(e.stdout, out)
			case bf.asCSV:
				return writeBenchCSV(e.stdout, r, reports)
			}
			return writeBenchTable(e.stdout, r, sampled, bf.seed, reports)
		},
	}
	f := cmd.Flags()
	f.StringVar(&bf.strategies, "strategy", defaultBench, "comma-separated strategies to compare")
	bf.addRunFlags(f)
	f.BoolVar(&bf.asJSON, "json", false, "print the results as JSON")
	f.BoolVar(&bf.asCSV, "csv", false, "print the results as CSV, one row per strategy")
	f.StringVar(&bf.plot, "plot", "", "also draw the histograms side by side into this .svg or .png file")
	addStrategyFlags(f, &bf.so)
	return cmd
}

func writeBenchTable(w io.Writer, r mm.Rules, sampled bool, seed uint64, reports []*eval.Report) error {
	what := "every secret"
	if sampled {
		what = fmt.Sprintf("random secrets, seed %d", seed)
	}
	fmt.Fprintf(w, "%s, %s\n\n", describeRules(r), what)
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
	add("games", func(r *eval.Report) string { return strconv.Itoa(r.Games) })
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
		label := strconv.Itoa(lo) + " guess"
		if width > 1 {
			label = strconv.Itoa(lo) + "–" + strconv.Itoa(top) + " guesses"
		} else if lo > 1 {
			label += "es"
		}
		add(label, func(r *eval.Report) string {
			n := 0
			for g := lo; g <= top && g < len(r.Histogram); g++ {
				n += r.Histogram[g]
			}
			return strconv.Itoa(n)
		})
	}
	add("seconds", func(r *eval.Report) string { return strconv.FormatFloat(r.Seconds(), 'f', 3, 64) })
	return t.flush()
}

func writeBenchCSV(w io.Writer, r mm.Rules, reports []*eval.Report) error {
	cw := csv.NewWriter(w)
	hi := 0
	for _, rep := range reports {
		hi = max(hi, rep.Max)
	}
	head := []string{"strategy", "colors", "pegs", "distinct", "games", "total", "mean", "median", "stddev", "min", "max", "seconds"}
	for g := 1; g <= hi; g++ {
		head = append(head, strconv.Itoa(g))
	}
	cw.Write(head)
	for _, rep := range reports {
		j := toResultJSON(rep)
		row := []string{rep.Strategy, strconv.Itoa(r.Colors), strconv.Itoa(r.Pegs), strconv.FormatBool(r.Distinct),
			strconv.Itoa(j.Games), strconv.Itoa(j.Total), strconv.FormatFloat(j.Mean, 'f', -1, 64),
			strconv.FormatFloat(j.Median, 'f', -1, 64), strconv.FormatFloat(j.StdDev, 'f', -1, 64),
			strconv.Itoa(j.Min), strconv.Itoa(j.Max), strconv.FormatFloat(j.Seconds, 'f', -1, 64)}
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
