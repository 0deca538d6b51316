package cli

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// grid --all plays every secret of every size, each strategy a column of
// mean and most guesses, as mikemag's tables of results do. Its cost grows
// with the square of the space, so sizes past a budget are refused unless
// --yes is given.

// Defaults of grid --all where --pegs, --colors or --strategy are not
// given: the four scoring strategies over sizes of seconds each.
const (
	gridAllPegs   = "2:5"
	gridAllColors = "2:8"
)

// gridAllBudget is the estimated wall time grid --all plays without --yes:
// the cheapest cells first, until the next would pass it.
const gridAllBudget = 10 * time.Minute

// allSeconds guesses the CPU seconds of strategy name over every secret of
// r: a scoring strategy walks its tree, each level scoring up to every code
// against the candidates, about 3 ns a pair (8 × 5: 3.2 s, measured 1.3 to
// 2.7 s; 7 × 7 entropy 2,000 s, measured 2,850 s); the optimal search grows
// with about the cube (7 × 4 in 2.5 s, 8 × 4 in 14 to 30 s).
//
// The scoring strategies' guesses are strategy.TreeTime's, which bench and
// tree refuse long runs by.
func allSeconds(name string, r mm.Rules) float64 {
	if s, err := strategy.New(name, strategy.Options{}); err == nil {
		if d, ok := strategy.TreeTime(s, r, 0); ok {
			return max(d.Seconds(), 0.001)
		}
	}
	n := float64(r.Size())
	s := 3e-9 * n * n
	if name == "optimal" {
		s = 2.5 * math.Pow(n/2401, 3)
	}
	return max(s, 0.001)
}

// allWall guesses the wall time of a cell on workers cores (0: all).
func allWall(name string, r mm.Rules, workers int) time.Duration {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := allSeconds(name, r) / float64(workers)
	if s > 1e9 {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}

// refuseLong returns the units of plan past the budget, each with its
// guessed time: the cells in order of their guesses, cheapest first, are
// kept while the sum stays within gridAllBudget. Sizes that cannot be
// enumerated are kept: they fail at once. It also returns the guessed time
// of the cells kept.
func refuseLong(plan []gridUnit, workers int) (refused map[int]time.Duration, kept time.Duration) {
	order := make([]int, len(plan))
	guess := make([]time.Duration, len(plan))
	for k, u := range plan {
		order[k] = k
		if r := u.rules(); checkRules(r) == nil && r.Size() <= mm.MaxSpace {
			guess[k] = allWall(u.Strategy, r, workers)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(min(max(guess[a]-guess[b], -1), 1)) })
	refused = map[int]time.Duration{}
	for _, k := range order {
		if len(refused) == 0 && kept+guess[k] <= gridAllBudget && kept+guess[k] >= kept {
			kept += guess[k]
			continue
		}
		refused[k] = guess[k]
	}
	return refused, kept
}

// refusedCell is the cell of a unit refused for its guessed time d.
func refusedCell(u gridUnit, d time.Duration) gridCell {
	r := u.rules()
	return gridCell{Strategy: u.Strategy, Pegs: u.Pegs, Colors: u.Colors, Log10: round(r.Log10Size(), 4),
		Error: fmt.Sprintf("refused: every secret would take about %s, past the %s grid --all plays without --yes", roughly(d), roughly(gridAllBudget)),
		short: "refused"}
}

// allNote is what grid --all says on stderr before it plays, when it
// refuses cells: how many, the largest, and how to have them.
func allNote(plan []gridUnit, refused map[int]time.Duration) string {
	if len(refused) == 0 {
		return ""
	}
	worst, wk := time.Duration(-1), 0
	for k, d := range refused {
		if d > worst || (d == worst && k < wk) {
			worst, wk = d, k
		}
	}
	u := plan[wk]
	return fmt.Sprintf("grid --all: %s refused, past %s in all (the largest, %s on %d × %d, about %s); --yes plays them",
		Plural(len(refused), "cell"), roughly(gridAllBudget), u.Strategy, u.Colors, u.Pegs, roughly(worst))
}

// writeGridAll writes grid --all's table: a row per size, a column per
// strategy with the mean guesses over every secret and the most, in
// brackets; no more than four strategies a table, so that it fits 80
// columns.
func writeGridAll(w io.Writer, names []string, cells []gridCell) error {
	type size struct{ pegs, colors int }
	var sizes []size
	byCell := map[string]gridCell{}
	for _, c := range cells {
		s := size{c.Pegs, c.Colors}
		if !slices.Contains(sizes, s) {
			sizes = append(sizes, s)
		}
		byCell[fmt.Sprintf("%s %d %d", c.Strategy, c.Pegs, c.Colors)] = c
	}
	notes := map[string]bool{}
	for start := 0; start < len(names); start += 4 {
		group := names[start:min(start+4, len(names))]
		if start > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, "every secret of each size: mean guesses (most)\n\n")
		t := newTable(w)
		t.row(append([]string{"pegs", "colours", "codes"}, group...)...)
		for _, s := range sizes {
			r := mm.Rules{Colors: s.colors, Pegs: s.pegs}
			codes := "-"
			if checkRules(r) == nil {
				codes = strconv.FormatUint(r.Size(), 10)
			}
			row := []string{strconv.Itoa(s.pegs), strconv.Itoa(s.colors), codes}
			for _, name := range group {
				c := byCell[fmt.Sprintf("%s %d %d", name, s.pegs, s.colors)]
				switch {
				case c.Error != "":
					row = append(row, c.short)
					notes[c.short] = true
				default:
					row = append(row, fmt.Sprintf("%.3f (%d)", c.Mean, c.Max))
				}
			}
			t.row(row...)
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	if notes["refused"] {
		fmt.Fprintf(w, "\nrefused: past %s in all, by the guess made before playing; --yes plays them.\n", roughly(gridAllBudget))
	}
	var other []string
	for n := range notes {
		if n != "refused" {
			other = append(other, n)
		}
	}
	slices.Sort(other)
	if len(other) > 0 {
		_, err := fmt.Fprintf(w, "Cells not played: %s (--json says why).\n", strings.Join(other, "; "))
		return err
	}
	return nil
}
