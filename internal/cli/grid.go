package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// parseRange reads "A:B", "A:B:STEP" or "A,B,C" into the values it names.
func parseRange(flag, s string) ([]int, error) {
	bad := func() ([]int, error) {
		return nil, fmt.Errorf("--%s %q: want A:B, A:B:STEP or a list A,B,C", flag, s)
	}
	if strings.Contains(s, ",") {
		var out []int
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return bad()
			}
			out = append(out, n)
		}
		return out, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) < 1 || len(parts) > 3 {
		return bad()
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return bad()
		}
		nums[i] = n
	}
	if len(nums) == 1 {
		return nums, nil
	}
	step := 1
	if len(nums) == 3 {
		step = nums[2]
	}
	if step <= 0 || nums[1] < nums[0] || (nums[1]-nums[0])/step > 1000 {
		return bad()
	}
	var out []int
	for n := nums[0]; n <= nums[1]; n += step {
		out = append(out, n)
	}
	return out, nil
}

// gridCell is one strategy on one size.
type gridCell struct {
	Strategy string  `json:"strategy"`
	Pegs     int     `json:"pegs"`
	Colors   int     `json:"colors"`
	Log10    float64 `json:"log10Size"`
	Games    int     `json:"games"`
	Min      int     `json:"min"`
	Max      int     `json:"max"`
	Mean     float64 `json:"mean"`
	PerGame  float64 `json:"secondsPerGame"`
	Error    string  `json:"error,omitempty"` // why the cell has no figures
	short    string  // the same in a few words, for the table
}

func newGrid(e *env, rf *rulesFlags) *cobra.Command {
	var (
		pegs, colors string
		names        string
		games        int
		seed         uint64
		workers      int
		maxGuesses   int
		asJSON       bool
		asCSV        bool
		plot         string
		so           strategy.Options
	)
	cmd := &cobra.Command{
		Use:   "grid",
		Short: "Play strategies over a grid of sizes, as seeds/001's tables",
		Long: `grid plays each strategy on --games random secrets for every number of pegs
in --pegs and colours in --colors, and prints seeds/001's table for each
strategy: length, colours, fewest, most and mean guesses, and mean seconds
per game. A size a strategy cannot play (too large to enumerate, or rules
it does not support) is listed with the reason instead of figures. Ranges
are A:B, A:B:STEP or a list A,B,C. --plot draws mean guesses against
log10 of the number of codes, as seeds/001's graphs did.`,
		Example: `  mastermind grid --pegs 2:10:2 --colors 3:15:3 --games 100 --strategy incremental
  mastermind grid --pegs 2:6 --colors 3:8 --games 200 --strategy random-consistent,incremental --csv`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ps, err := parseRange("pegs", pegs)
			if err != nil {
				return err
			}
			cs, err := parseRange("colors", colors)
			if err != nil {
				return err
			}
			if asJSON && asCSV {
				return fmt.Errorf("--json and --csv exclude each other")
			}
			if games <= 0 {
				return fmt.Errorf("--games must be at least 1")
			}
			a, err := rf.symbols()
			if err != nil {
				return err
			}
			var rules []mm.Rules
			for _, p := range ps {
				for _, c := range cs {
					r := mm.Rules{Colors: c, Pegs: p, Distinct: rf.distinct}
					if err := checkRules(r); err != nil {
						return err
					}
					rules = append(rules, r)
				}
			}
			// Every name is checked before any game is played.
			names, _, err := strategyList(names, so, rules[0], a)
			if err != nil {
				return err
			}
			bar := e.newRunBar(len(rules) * len(names) * games)
			defer bar.stop()
			var done func()
			so.Progress, done = e.progressLine()
			defer done()
			var cells []gridCell
			k := 0
			for _, name := range names {
				for _, r := range rules {
					s, err := makeStrategy(name, so, r, a)
					if err != nil {
						return err
					}
					opts := eval.Options{Games: games, Seed: seed, Workers: workers, MaxGuesses: maxGuesses}
					bar.track(&opts, fmt.Sprintf("%s %s", name, r), k*games)
					k++
					cell := gridCell{Strategy: name, Pegs: r.Pegs, Colors: r.Colors, Log10: round(r.Log10Size(), 4)}
					rep, err := eval.Run(cmd.Context(), r, name, s, &opts)
					switch {
					case err == nil:
						cell.Games, cell.Min, cell.Max = rep.Games, rep.Min(), rep.Max
						cell.Mean = round(rep.Mean(), 3)
						cell.PerGame = rep.Seconds() / float64(rep.Games)
					case errors.Is(err, mm.ErrTooLarge):
						cell.short = "too large to enumerate"
					case errors.Is(err, mm.ErrUnsupported):
						cell.short = "not for these rules"
					case errors.Is(err, eval.ErrNotSolved):
						cell.short = "not solved"
					default:
						return fmt.Errorf("%s on %s: %w", name, r, err)
					}
					if err != nil {
						// A size or rules error is about the cell, not the
						// secret it showed up on.
						var ge *eval.GameError
						if !errors.Is(err, eval.ErrNotSolved) && errors.As(err, &ge) {
							err = ge.Err
						}
						cell.Error = strings.TrimPrefix(oneLine(err).Error(), "mastermind: ")
					}
					cells = append(cells, cell)
				}
			}
			bar.stop()
			if plot != "" {
				var series []chart.Series
				for _, name := range names {
					sr := chart.Series{Name: strings.TrimSpace(name)}
					for _, c := range cells {
						if c.Strategy == sr.Name && c.Error == "" {
							sr.Points = append(sr.Points, chart.Point{Log10Size: c.Log10, Mean: c.Mean})
						}
					}
					series = append(series, sr)
				}
				if err := chart.MeanBySize(plot, "mean guesses against the size of the space", series); err != nil {
					return err
				}
			}
			switch {
			case asJSON:
				return writeJSON(e.stdout, struct {
					Games int        `json:"games"`
					Seed  uint64     `json:"seed"`
					Cells []gridCell `json:"cells"`
				}{games, seed, cells})
			case asCSV:
				return writeGridCSV(e.stdout, cells)
			}
			return writeGridTables(e.stdout, games, seed, cells)
		},
	}
	f := cmd.Flags()
	// These shadow the global --pegs and --colors: the grid takes ranges.
	f.StringVar(&pegs, "pegs", "2:10:2", "numbers of pegs: A:B, A:B:STEP or A,B,C")
	f.StringVar(&colors, "colors", "3:15:3", "numbers of colours: A:B, A:B:STEP or A,B,C")
	f.StringVar(&names, "strategy", "incremental", "comma-separated strategies")
	f.IntVar(&games, "games", 100, "random secrets per size")
	f.Uint64Var(&seed, "seed", 1, "seed of the secrets and of randomised strategies")
	f.IntVar(&workers, "workers", 0, "games played at once (0: one per core)")
	f.IntVar(&maxGuesses, "max-guesses", 0, "count a game as failed after this many guesses (0: no limit)")
	f.BoolVar(&asJSON, "json", false, "print the cells as JSON")
	f.BoolVar(&asCSV, "csv", false, "print the cells as CSV")
	f.StringVar(&plot, "plot", "", "draw mean guesses against log10(codes) into this .svg or .png file")
	addStrategyFlags(f, &so)
	return cmd
}

func writeGridTables(w io.Writer, games int, seed uint64, cells []gridCell) error {
	var cur string
	var t *table
	flush := func() error {
		if t == nil {
			return nil
		}
		return t.flush()
	}
	for _, c := range cells {
		if c.Strategy != cur {
			if err := flush(); err != nil {
				return err
			}
			if t != nil {
				fmt.Fprintln(w) // a blank line between tables, none after the last
			}
			cur = c.Strategy
			fmt.Fprintf(w, "%s, %d random secrets per size, seed %d\n\n", cur, games, seed)
			t = newTable(w)
			t.row("length", "colours", "min", "max", "mean", "seconds/game")
		}
		if c.Error != "" {
			t.noted("("+c.short+")", strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), "-", "-", "-", "-")
			continue
		}
		t.row(strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), strconv.Itoa(c.Min), strconv.Itoa(c.Max),
			strconv.FormatFloat(c.Mean, 'f', 3, 64), strconv.FormatFloat(c.PerGame, 'e', 2, 64))
	}
	return flush()
}

func writeGridCSV(w io.Writer, cells []gridCell) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"strategy", "pegs", "colors", "log10_size", "games", "min", "max", "mean", "seconds_per_game", "error"})
	for _, c := range cells {
		cw.Write([]string{c.Strategy, strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), strconv.FormatFloat(c.Log10, 'f', -1, 64),
			strconv.Itoa(c.Games), strconv.Itoa(c.Min), strconv.Itoa(c.Max), strconv.FormatFloat(c.Mean, 'f', -1, 64),
			strconv.FormatFloat(c.PerGame, 'g', 4, 64), c.Error})
	}
	cw.Flush()
	return cw.Error()
}
