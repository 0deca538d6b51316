package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
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
	Strategy string   `json:"strategy"`
	Pegs     int      `json:"pegs"`
	Colors   int      `json:"colors"`
	Log10    float64  `json:"log10Size"`
	Games    int      `json:"games"`
	Won      *int     `json:"won,omitempty"` // with --max-guesses: games won within it
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	Mean     float64  `json:"mean"`
	PerGame  float64  `json:"secondsPerGame"`
	WonShare *float64 `json:"wonShare,omitempty"`
	Error    string   `json:"error,omitempty"` // why the cell has no figures
	short    string   // the same in a few words, for the table
}

func newGrid(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		pegs, colors string
		names        string
		yes          bool
		bf           = &benchFlags{games: 100}
	)
	cmd := &cobra.Command{
		Use:   "grid",
		Short: "Play strategies over a grid of sizes, as Bhushan's report does",
		Long: `grid plays each strategy on --games random secrets for every number of pegs
in --pegs and colours in --colors, and prints a table for each strategy, as
Arjun Bhushan's report "Mastermind Solver" did: length, colours, fewest,
most and mean guesses, and mean seconds per game. A size a strategy cannot
play (too large to enumerate, rules it does not support, or more pegs of
different colours than there are colours) is listed with the reason instead
of figures. Ranges are A:B, A:B:STEP or a list A,B,C; --rules gives the
sizes of a named game where --pegs or --colors is not given. With
--max-guesses N a game not won within N guesses counts as failed, and the
table gives the share won. --plot draws mean guesses against log10 of the
number of codes, as that report's graphs did.

With --all it plays every secret of every size instead, and prints one
table, as mikemag's tables of results do: a row per size, a column per
strategy with the mean guesses and the most (by default knuth,
expected-size, entropy and most-parts over ` + gridAllPegs + ` pegs and ` + gridAllColors + ` colours).
Playing every secret costs about the square of the number of codes: the
cells are guessed up front, and those past ` + roughly(gridAllBudget) + ` in all (the largest)
are refused, named in the table, unless --yes is given.`,
		Example: `  mastermind grid --pegs 2:10:2 --colors 3:15:3 --games 100 \
      --strategy incremental
  mastermind grid --pegs 2:6 --colors 3:8 --games 200 \
      --strategy random-consistent,incremental --csv
  mastermind grid --pegs 3:5 --colors 4:8 --distinct --strategy knuth \
      --max-guesses 6
  mastermind grid --all --pegs 2:4 --colors 2:6`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := findPreset(rf.preset)
			if err != nil {
				return err
			}
			changed := cmd.Flags().Changed
			if bf.all {
				if !changed("strategy") {
					names = defaultBench
				}
				if !changed("pegs") {
					pegs = gridAllPegs
				}
				if !changed("colors") {
					colors = gridAllColors
				}
			} else if yes {
				return fmt.Errorf("--yes plays every size of grid --all, however long; without --all it does not apply")
			}
			if changed("rules") && !changed("pegs") {
				pegs = strconv.Itoa(p.rules.Pegs)
			}
			if changed("rules") && !changed("colors") {
				colors = strconv.Itoa(p.rules.Colors)
			}
			ps, err := parseRange("pegs", pegs)
			if err != nil {
				return err
			}
			cs, err := parseRange("colors", colors)
			if err != nil {
				return err
			}
			if err := bf.check(cmd); err != nil {
				return err
			}
			if bf.all {
				bf.games = 0
			}
			symbols := p.alphabet
			if rf.alphabet != "" {
				symbols = rf.alphabet
			}
			a, err := parseAlphabet(symbols)
			if err != nil {
				return err
			}
			if symbols == "" && slices.Max(cs) > a.Len() {
				a = wideAlphabet // as rulesFlags.rules does past 35 colours
			}
			distinct := p.rules.Distinct
			if changed("distinct") {
				distinct = rf.distinct
			}
			var rules []mm.Rules
			for _, p := range ps {
				for _, c := range cs {
					r := mm.Rules{Colors: c, Pegs: p, Distinct: distinct}
					// Distinct rules with too few colours are a cell of
					// their own; any other bad size is bad input.
					if err := checkRules(mm.Rules{Colors: c, Pegs: p}); err != nil {
						return err
					}
					if c > a.Len() {
						return fmt.Errorf("--colors %d needs %d symbols, and the alphabet %s has %d", c, c, a.String(), a.Len())
					}
					rules = append(rules, r)
				}
			}
			// Every name (and --opening) is checked before any game is
			// played, on the first size that can be played and that no
			// strategy refuses at once as too large (optimal past 16384
			// codes): the sizes it refuses are cells that say so.
			first := rules[0]
			for _, r := range rules {
				if checkRules(r) == nil {
					first = r
					if _, _, err := strategyList(names, bf.so, r, a); !errors.Is(err, mm.ErrTooLarge) {
						break
					}
				}
			}
			names, _, err := strategyList(names, bf.so, first, a)
			if err != nil {
				return err
			}
			if err := checkStrategyFlags(cmd, names); err != nil {
				return err
			}
			frame, err := bf.frame(cmd, "mean guesses against the size of the space")
			if err != nil {
				return err
			}
			if frame.File != "" && e.full.MeanBySize == nil {
				return e.delegate("--plot")
			}
			sh, err := e.sharding(cmd, &bf.sf, "json", "csv", "plot", "plot-size")
			if err != nil {
				return err
			}
			var plan []gridUnit
			for _, name := range names {
				for _, r := range rules {
					plan = append(plan, gridUnit{name, r.Pegs, r.Colors, r.Distinct})
				}
			}
			refused := map[int]time.Duration{}
			if bf.all && !yes {
				refused, _ = refuseLong(plan, bf.workers)
				if note := allNote(plan, refused); note != "" {
					fmt.Fprintln(e.Stderr, note)
				}
			}
			// The games before each cell, for the progress bar.
			bases, total := make([]int, len(plan)), 0
			for k, u := range plan {
				bases[k] = total
				if _, no := refused[k]; !no {
					total += u.games(bf.games)
				}
			}
			var done func()
			bf.so.Progress, done = e.progressLine()
			defer done()
			var cells []gridCell
			switch {
			case sh.on:
				costs := make([]int64, len(plan))
				for k, u := range plan {
					costs[k] = u.cost(bf.games)
					if bf.all {
						costs[k] = int64(allSeconds(u.Strategy, u.rules()) * 1e6)
					}
				}
				return e.writeShard(cmd.Context(), cmd, sh, plan, costs, func(ctx context.Context, units []int, add func(int, float64, any) error) error {
					for _, k := range units {
						u, start := plan[k], time.Now()
						if d, no := refused[k]; no {
							cell := refusedCell(u, d)
							if err := add(k, 0, gridResult{cell, cell.short}); err != nil {
								return err
							}
							continue
						}
						cell, err := playCell(ctx, nil, bases[k], u.Strategy, u.rules(), a, bf)
						if err != nil {
							return err
						}
						if err := add(k, time.Since(start).Seconds(), gridResult{cell, cell.short}); err != nil {
							return err
						}
					}
					return nil
				})
			case sh.merged != nil:
				if cells, err = mergedCells(sh.merged, plan); err != nil {
					return err
				}
			default:
				bar := e.newRunBar(total)
				defer bar.stop()
				for k, u := range plan {
					if d, no := refused[k]; no {
						cells = append(cells, refusedCell(u, d))
						continue
					}
					cell, err := playCell(cmd.Context(), bar, bases[k], u.Strategy, u.rules(), a, bf)
					if err != nil {
						return err
					}
					cells = append(cells, cell)
				}
				bar.stop()
			}
			if frame.File != "" {
				var series []chart.Series
				for _, name := range names {
					sr := chart.Series{Name: name}
					for _, c := range cells {
						if c.Strategy == name && c.Error == "" && c.Games > 0 {
							sr.Points = append(sr.Points, chart.Point{Log10Size: c.Log10, Mean: c.Mean})
						}
					}
					series = append(series, sr)
				}
				if err := e.full.MeanBySize(frame, series); err != nil {
					return err
				}
			}
			switch {
			case bf.asJSON:
				return writeJSON(e.Stdout, struct {
					Games      int        `json:"games"`
					All        bool       `json:"all,omitempty"`
					Seed       uint64     `json:"seed"`
					MaxGuesses int        `json:"maxGuesses,omitempty"`
					Cells      []gridCell `json:"cells"`
				}{bf.games, bf.all, bf.seed, bf.maxGuesses, cells})
			case bf.asCSV:
				return writeGridCSV(e.Stdout, cells, bf.maxGuesses > 0)
			case bf.all:
				return writeGridAll(e.Stdout, names, cells)
			}
			return writeGridTables(e.Stdout, bf.games, bf.seed, bf.maxGuesses, cells)
		},
	}
	f := cmd.Flags()
	// These shadow the global --pegs and --colors: the grid takes ranges.
	f.StringVar(&pegs, "pegs", "2:10:2", "numbers of pegs: A:B, A:B:STEP or A,B,C")
	f.StringVar(&colors, "colors", "3:15:3", "numbers of colours: A:B, A:B:STEP or A,B,C")
	f.StringVar(&names, "strategy", "incremental", "comma-separated strategies")
	f.IntVar(&bf.games, "games", 100, "random secrets per size")
	f.BoolVar(&bf.all, "all", false, "play every secret of each size, in one table of mean and most guesses ("+defaultBench+" over "+gridAllPegs+" pegs and "+gridAllColors+" colours unless given)")
	f.BoolVar(&yes, "yes", false, "with --all, play every size, however long the guess made up front")
	f.Uint64Var(&bf.seed, "seed", 1, "seed of the secrets and of randomised strategies")
	f.IntVar(&bf.workers, "workers", 0, "games played at once (0: one per core)")
	f.IntVar(&bf.maxGuesses, "max-guesses", 0, "count a game not won within this many guesses as failed, and report the share won (0: no limit)")
	f.BoolVar(&bf.asJSON, "json", false, "print the cells as JSON")
	f.BoolVar(&bf.asCSV, "csv", false, "print the cells as CSV")
	bf.addPlotFlags(f, "mean guesses against log10(codes)")
	addStrategyFlags(f, &bf.so)
	bf.sf.add(f)
	return cmd
}

// A gridUnit is a cell of a grid as a unit of a job run in shards.
type gridUnit struct {
	Strategy string `json:"strategy"`
	Pegs     int    `json:"pegs"`
	Colors   int    `json:"colors"`
	Distinct bool   `json:"distinct"`
}

func (u gridUnit) rules() mm.Rules {
	return mm.Rules{Colors: u.Colors, Pegs: u.Pegs, Distinct: u.Distinct}
}

// cost estimates the work of the cell's games: it grows with the number
// of codes, up to the sizes strategies enumerate; past them they sample
// (or refuse the size at once).
func (u gridUnit) cost(games int) int64 {
	return int64(games) * int64(max(1, min(u.rules().Size(), maxGridSize)))
}

// games returns the games of the cell: games, or with --all (games 0)
// every secret, as many as the bar can count.
func (u gridUnit) games(games int) int {
	if games > 0 {
		return games
	}
	r := u.rules()
	if checkRules(r) != nil {
		return 0
	}
	return int(min(r.Size(), mm.MaxSpace))
}

// maxGridSize is the size of space past which the cost of a grid's cell
// no longer grows.
const maxGridSize = 1 << 24

// A gridResult is the cell a shard computed.
type gridResult struct {
	Cell  gridCell `json:"cell"`
	Short string   `json:"short,omitempty"`
}

// mergedCells returns the cells of a grid from its shards' partials, which
// must be of the cells of plan.
func mergedCells(p *shard.Partial, plan []gridUnit) ([]gridCell, error) {
	var got []gridUnit
	if err := json.Unmarshal(p.Plan, &got); err != nil {
		return nil, fmt.Errorf("the plan of the grid: %w", err)
	}
	if !slices.Equal(got, plan) || len(p.Results) != len(plan) {
		return nil, fmt.Errorf("the partials hold another grid than the flags give")
	}
	cells := make([]gridCell, len(plan))
	for k, r := range p.Results {
		var res gridResult
		if err := json.Unmarshal(r.Data, &res); err != nil {
			return nil, fmt.Errorf("the cell of unit %d: %w", k, err)
		}
		res.Cell.short = res.Short
		cells[k] = res.Cell
	}
	return cells, nil
}

// playCell plays the named strategy on one size, a cell of the grid after
// base games of the others. A size the strategy cannot play is a cell with the reason; any
// other error stops the grid.
func playCell(ctx context.Context, bar *runBar, base int, name string, r mm.Rules, a *mm.Alphabet, bf *benchFlags) (gridCell, error) {
	cell := gridCell{Strategy: name, Pegs: r.Pegs, Colors: r.Colors}
	if err := checkRules(r); err != nil {
		// No codes at all: log10Size stays 0.
		cell.short, cell.Error = "not playable", oneLineText(err)
		return cell, nil
	}
	cell.Log10 = round(r.Log10Size(), 4)
	s, err := MakeStrategy(name, bf.so, r, a)
	if err != nil && !errors.Is(err, mm.ErrTooLarge) {
		return cell, err
	}
	var rep *eval.Report
	if err == nil { // else a size the strategy refuses at once
		opts := eval.Options{All: bf.all, Games: bf.games, Seed: bf.seed, Workers: bf.workers, MaxGuesses: bf.maxGuesses}
		bar.track(&opts, fmt.Sprintf("%s %s", name, r), base)
		rep, err = eval.Run(ctx, r, name, s, &opts)
	}
	switch {
	case err == nil:
		cell.Games, cell.Min, cell.Max = rep.Played(), rep.Min(), rep.Max
		cell.Mean = round(rep.Mean(), 3)
		cell.PerGame = rep.Seconds() / float64(rep.Played())
		if bf.maxGuesses > 0 {
			won, share := rep.Games, round(rep.Won(), 4)
			cell.Won, cell.WonShare = &won, &share
		}
		return cell, nil
	case errors.Is(err, eval.ErrMemory):
		cell.short = "too large for memory"
	case errors.Is(err, mm.ErrTooLarge):
		cell.short = "too large to enumerate"
	case errors.Is(err, mm.ErrUnsupported):
		cell.short = "not for these rules"
	case errors.Is(err, eval.ErrNotSolved):
		cell.short = "not solved"
	default:
		return cell, runError(name+" on "+r.String(), err)
	}
	cell.Error = oneLineText(aboutRun(err))
	return cell, nil
}

func writeGridTables(w io.Writer, games int, seed uint64, maxGuesses int, cells []gridCell) error {
	var cur string
	var t *table
	flush := func() error {
		if t == nil {
			return nil
		}
		return t.flush()
	}
	limited := maxGuesses > 0
	for _, c := range cells {
		if c.Strategy != cur {
			if err := flush(); err != nil {
				return err
			}
			if t != nil {
				fmt.Fprintln(w) // a blank line between tables, none after the last
			}
			cur = c.Strategy
			fmt.Fprintf(w, "%s, %d random secrets per size, seed %d", cur, games, seed)
			if limited {
				fmt.Fprintf(w, ", at most %s a game", Plural(maxGuesses, "guess"))
			}
			fmt.Fprint(w, "\n\n")
			t = newTable(w)
			head := []string{"length", "colours", "min", "max", "mean", "seconds/game"}
			if limited {
				head = append(head, "won %")
			}
			t.row(head...)
		}
		if c.Error != "" {
			row := []string{strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), "-", "-", "-", "-"}
			if limited {
				row = append(row, "-")
			}
			t.noted("("+c.short+")", row...)
			continue
		}
		row := []string{strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), dash(c.Min), dash(c.Max),
			strconv.FormatFloat(c.Mean, 'f', 3, 64), strconv.FormatFloat(c.PerGame, 'e', 2, 64)}
		if limited {
			row = append(row, strconv.FormatFloat(100**c.WonShare, 'f', 1, 64))
		}
		t.row(row...)
	}
	return flush()
}

// dash writes n, or "-" for 0 (no game won).
func dash(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func writeGridCSV(w io.Writer, cells []gridCell, limited bool) error {
	cw := csv.NewWriter(w)
	head := []string{"strategy", "pegs", "colors", "log10_size", "games", "min", "max", "mean", "seconds_per_game", "error"}
	if limited {
		head = append(head, "won", "won_share")
	}
	cw.Write(head)
	for _, c := range cells {
		row := []string{c.Strategy, strconv.Itoa(c.Pegs), strconv.Itoa(c.Colors), strconv.FormatFloat(c.Log10, 'f', -1, 64),
			strconv.Itoa(c.Games), strconv.Itoa(c.Min), strconv.Itoa(c.Max), strconv.FormatFloat(c.Mean, 'f', -1, 64),
			strconv.FormatFloat(c.PerGame, 'g', 4, 64), c.Error}
		if limited {
			won, share := "", ""
			if c.Won != nil {
				won, share = strconv.Itoa(*c.Won), strconv.FormatFloat(*c.WonShare, 'f', -1, 64)
			}
			row = append(row, won, share)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
