package cli

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

type openingJSON struct {
	Rank     int      `json:"rank"`
	Opening  string   `json:"opening"`
	Games    int      `json:"games"`
	Won      *int     `json:"won,omitempty"`
	WonShare *float64 `json:"wonShare,omitempty"`
	Total    int      `json:"total"`
	Mean     float64  `json:"mean"`
	Max      int      `json:"max"`
	Seconds  float64  `json:"seconds"`
}

type openingsJSON struct {
	Rules      rulesJSON     `json:"rules"`
	Strategy   string        `json:"strategy"`
	Sampled    bool          `json:"sampled"`
	Seed       *uint64       `json:"seed,omitempty"`
	MaxGuesses int           `json:"maxGuesses,omitempty"`
	Openings   []openingJSON `json:"openings"`
}

func newOpenings(e *Env, rf *rulesFlags) *cobra.Command {
	bf := &benchFlags{}
	var name string
	cmd := &cobra.Command{
		Use:   "openings",
		Short: "Rank every first guess by the guesses a strategy needs after it",
		Long: `openings plays the strategy from every possible first guess and ranks the
first guesses by the total guesses over every secret (or the mean over
--games N random secrets, the same secrets for every opening), then by the
worst case. Codes that renaming colours and permuting positions map onto each
other lead to the same results, so only one per class is played: 1111,
1112, 1122, 1123 and 1234 on classic Mastermind. This is the brute-force
search over all openings of "Informed Mastermind guessing with Max-Parts",
done once per class. With --max-guesses N, openings are ranked by the games
won within N guesses first.`,
		Example: `  mastermind openings --strategy knuth
  mastermind openings --rules super --strategy most-parts
  mastermind openings --rules super --strategy most-parts --games 2000 \
      --seed 3 --json`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := bf.check(cmd); err != nil {
				return err
			}
			name = strings.ToLower(strings.TrimSpace(name))
			var done func()
			bf.so.Progress, done = e.progressLine()
			defer done()
			s, err := MakeStrategy(name, bf.so, r, a)
			if err != nil {
				return err
			}
			if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			sh, err := e.sharding(cmd, &bf.sf, "json", "csv")
			if err != nil {
				return err
			}
			if m := r.NumOpenings(); m > maxOpenings {
				return fmt.Errorf("%s has %d openings (one per way to split the pegs among the colours), more than the %d openings tries; "+
					"take at most %d pegs", r, m, maxOpenings, mostOpeningPegs(r))
			}
			openings := r.Openings()
			works := make([]strategyWork, len(openings))
			names := make([]string, len(openings))
			strategies := make([]mm.Strategy, len(openings))
			for i, o := range openings {
				names[i] = a.Format(o)
				works[i] = strategyWork{names[i], strategy.Opening{First: o, Then: s}}
				strategies[i] = works[i].s
			}
			opts := bf.options()
			sizeGames(&opts, r, strategies)
			n, sampled, err := eval.Count(r, &opts)
			if err != nil {
				return err
			}
			var reports []*eval.Report
			switch {
			case sh.on:
				return e.writeWorksShard(cmd.Context(), cmd, sh, r, works, shard.Options{Eval: opts})
			case sh.merged != nil:
				if reports, err = sh.mergedReports(r, names, &opts); err != nil {
					return err
				}
			default:
				bar := e.newRunBar(n * len(openings))
				defer bar.stop()
				if err := e.announce(cmd.Context(), bar, r, []string{name + " after each of " + Plural(len(openings), "opening")}, strategies, n, sampled, opts.Workers, bf.yes); err != nil {
					return err
				}
				for i, w := range works {
					bar.track(&opts, w.name, i*n)
					rep, err := eval.Run(cmd.Context(), r, w.name, w.s, &opts)
					if err != nil {
						return runError("opening "+w.name, err)
					}
					reports = append(reports, rep)
				}
				bar.stop()
			}
			order := make([]int, len(openings))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(i, j int) int {
				ri, rj := reports[i], reports[j]
				return cmp.Or(cmp.Compare(rj.Games, ri.Games), cmp.Compare(ri.Total, rj.Total), cmp.Compare(ri.Max, rj.Max))
			})
			limited := bf.maxGuesses > 0
			var rows []openingJSON
			for rank, i := range order {
				rep := reports[i]
				j := toResultJSON(rep, limited)
				rows = append(rows, openingJSON{Rank: rank + 1, Opening: rep.Strategy, Games: j.Games, Won: j.Won, WonShare: j.WonShare,
					Total: rep.Total, Mean: round(rep.Mean(), 4), Max: rep.Max, Seconds: round(rep.Seconds(), 4)})
			}
			switch {
			case bf.asJSON:
				out := openingsJSON{Rules: toRulesJSON(r), Strategy: name, Sampled: sampled, MaxGuesses: bf.maxGuesses, Openings: rows}
				if sampled {
					out.Seed = &bf.seed
				}
				return writeJSON(e.Stdout, out)
			case bf.asCSV:
				return writeOpeningsCSV(e.Stdout, r, name, rows, limited)
			}
			what := "every secret"
			if sampled {
				what = fmt.Sprintf("%d random secrets, seed %d", n, bf.seed)
			}
			fmt.Fprintf(e.Stdout, "%s after each first guess, %s, %s", name, describeRules(r), what)
			if limited {
				fmt.Fprintf(e.Stdout, ", at most %s a game", Plural(bf.maxGuesses, "guess"))
			}
			fmt.Fprint(e.Stdout, "\n\n")
			t := newTable(e.Stdout)
			head := []string{"rank", "opening", "total", "mean", "max", "seconds"}
			if limited {
				head = []string{"rank", "opening", "won %", "total", "mean", "max", "seconds"}
			}
			t.row(head...)
			for _, o := range rows {
				row := []string{strconv.Itoa(o.Rank), o.Opening}
				if limited {
					row = append(row, strconv.FormatFloat(100**o.WonShare, 'f', 2, 64))
				}
				row = append(row, strconv.Itoa(o.Total), strconv.FormatFloat(o.Mean, 'f', 4, 64),
					strconv.Itoa(o.Max), strconv.FormatFloat(o.Seconds, 'f', 3, 64))
				t.row(row...)
			}
			return t.flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "strategy", "knuth", "strategy to play after the first guess")
	bf.addRunFlags(f)
	f.BoolVar(&bf.asJSON, "json", false, "print the ranking as JSON")
	f.BoolVar(&bf.asCSV, "csv", false, "print the ranking as CSV, one row per opening")
	addStrategyFlags(f, &bf.so)
	f.MarkHidden("opening") // every opening is tried
	bf.sf.add(f)
	return cmd
}

func writeOpeningsCSV(w io.Writer, r mm.Rules, name string, rows []openingJSON, limited bool) error {
	cw := csv.NewWriter(w)
	head := []string{"rank", "opening", "strategy", "colors", "pegs", "distinct", "games", "total", "mean", "max", "seconds"}
	if limited {
		head = append(head, "won", "won_share")
	}
	cw.Write(head)
	for _, o := range rows {
		row := []string{strconv.Itoa(o.Rank), o.Opening, name, strconv.Itoa(r.Colors), strconv.Itoa(r.Pegs), strconv.FormatBool(r.Distinct),
			strconv.Itoa(o.Games), strconv.Itoa(o.Total), strconv.FormatFloat(o.Mean, 'f', -1, 64), strconv.Itoa(o.Max),
			strconv.FormatFloat(o.Seconds, 'f', -1, 64)}
		if limited {
			row = append(row, strconv.Itoa(*o.Won), strconv.FormatFloat(*o.WonShare, 'f', -1, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// maxOpenings is the most first guesses openings plays, each against every
// secret or sample: 33 pegs of many colours have 10 143.
const maxOpenings = 10_000

// mostOpeningPegs returns the most pegs of r's colours whose openings
// number at most maxOpenings.
func mostOpeningPegs(r mm.Rules) int {
	p := r.Pegs
	for p > 1 && (mm.Rules{Colors: r.Colors, Pegs: p}).NumOpenings() > maxOpenings {
		p--
	}
	return p
}
