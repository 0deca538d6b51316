package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

type openingJSON struct {
	Rank    int     `json:"rank"`
	Opening string  `json:"opening"`
	Games   int     `json:"games"`
	Total   int     `json:"total"`
	Mean    float64 `json:"mean"`
	Max     int     `json:"max"`
	Seconds float64 `json:"seconds"`
}

type openingsJSON struct {
	Rules    rulesJSON     `json:"rules"`
	Strategy string        `json:"strategy"`
	Sampled  bool          `json:"sampled"`
	Seed     *uint64       `json:"seed,omitempty"`
	Openings []openingJSON `json:"openings"`
}

func newOpenings(e *env, rf *rulesFlags) *cobra.Command {
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
search of seeds/003 over all openings, done once per class.`,
		Example: `  mastermind openings --strategy knuth
  mastermind openings --colors 8 --pegs 5 --strategy most-parts
  mastermind openings --colors 8 --pegs 5 --strategy most-parts --games 2000 --seed 3 --json`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules()
			if err != nil {
				return err
			}
			if err := bf.check(cmd); err != nil {
				return err
			}
			var done func()
			bf.so.Progress, done = e.progressLine()
			defer done()
			s, err := makeStrategy(name, bf.so, r, a)
			if err != nil {
				return err
			}
			opts := bf.options()
			secrets, sampled, err := eval.Secrets(r, &opts)
			if err != nil {
				return err
			}
			openings := r.Openings()
			bar := e.newRunBar(len(secrets) * len(openings))
			defer bar.stop()
			reports := make([]*eval.Report, len(openings))
			for i, o := range openings {
				bar.track(&opts, a.Format(o), i*len(secrets))
				rep, err := eval.Run(cmd.Context(), r, a.Format(o), strategy.Opening{First: o, Then: s}, &opts)
				if err != nil {
					return fmt.Errorf("opening %s: %w", a.Format(o), err)
				}
				reports[i] = rep
			}
			bar.stop()
			order := make([]int, len(openings))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(i, j int) int {
				return cmp.Or(cmp.Compare(reports[i].Total, reports[j].Total), cmp.Compare(reports[i].Max, reports[j].Max))
			})
			if bf.asJSON {
				out := openingsJSON{Rules: toRulesJSON(r), Strategy: name, Sampled: sampled}
				if sampled {
					out.Seed = &bf.seed
				}
				for rank, i := range order {
					rep := reports[i]
					out.Openings = append(out.Openings, openingJSON{Rank: rank + 1, Opening: rep.Strategy, Games: rep.Games,
						Total: rep.Total, Mean: round(rep.Mean(), 4), Max: rep.Max, Seconds: round(rep.Seconds(), 4)})
				}
				return writeJSON(e.stdout, out)
			}
			what := "every secret"
			if sampled {
				what = fmt.Sprintf("%d random secrets, seed %d", len(secrets), bf.seed)
			}
			fmt.Fprintf(e.stdout, "%s after each first guess, %s, %s\n\n", name, describeRules(r), what)
			t := newTable(e.stdout)
			t.row("rank", "opening", "total", "mean", "max", "seconds")
			for rank, i := range order {
				rep := reports[i]
				t.row(strconv.Itoa(rank+1), rep.Strategy, strconv.Itoa(rep.Total), strconv.FormatFloat(rep.Mean(), 'f', 4, 64),
					strconv.Itoa(rep.Max), strconv.FormatFloat(rep.Seconds(), 'f', 3, 64))
			}
			return t.flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "strategy", "knuth", "strategy to play after the first guess")
	bf.addRunFlags(f)
	f.BoolVar(&bf.asJSON, "json", false, "print the ranking as JSON")
	addStrategyFlags(f, &bf.so)
	f.MarkHidden("opening") // every opening is tried
	return cmd
}
