package records

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A BoundRow is a row of bounds.csv: for a variant, the best lower bound
// proved of the least total number of guesses over every secret, the
// command that proves it and its CPU time, and the total of the best tree
// shipped, an upper bound: the optimum lies between them.
type BoundRow struct {
	Rules mm.Rules
	Lower int // no strategy finds every secret in fewer guesses in all
	Upper int // the total of Tree
	// Tree is the tree file whose total is Upper, under records/: the
	// optimum's tree for a variant of the table of optima, else the best
	// tree shipped.
	Tree     string
	Command  string  // the command that proves Lower
	CPUHours float64 // the CPU time it took
}

var boundsHeader = []string{"colors", "pegs", "distinct", "lower", "upper", "tree", "command", "cpu_hours"}

// WriteBounds writes rows as bounds.csv, in the order of the table of
// optima (repeated colours first, then by pegs and colours).
func WriteBounds(w io.Writer, rows []BoundRow) error {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b BoundRow) int { return compareRules(a.Rules, b.Rules) })
	cw := csv.NewWriter(w)
	cw.Write(boundsHeader)
	for _, b := range rows {
		cw.Write([]string{strconv.Itoa(b.Rules.Colors), strconv.Itoa(b.Rules.Pegs), strconv.FormatBool(b.Rules.Distinct),
			strconv.Itoa(b.Lower), strconv.Itoa(b.Upper), b.Tree, b.Command, strconv.FormatFloat(b.CPUHours, 'f', 6, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// ReadBounds reads bounds.csv as WriteBounds writes it.
func ReadBounds(r io.Reader) ([]BoundRow, error) {
	recs, err := readTable(r, "bounds.csv", boundsHeader)
	if err != nil {
		return nil, err
	}
	var out []BoundRow
	for i, rec := range recs {
		bad := func(what string) error {
			return fmt.Errorf("mastermind: bounds.csv line %d: %s", i+2, what)
		}
		var n [4]int
		if err := atois(rec, boundsHeader, []int{0, 1, 3, 4}, n[:], bad); err != nil {
			return nil, err
		}
		distinct, err := strconv.ParseBool(rec[2])
		if err != nil {
			return nil, bad("distinct is not true or false")
		}
		cpu, err := strconv.ParseFloat(rec[7], 64)
		if err != nil || cpu < 0 {
			return nil, bad("cpu_hours is not a number of hours")
		}
		b := BoundRow{Rules: mm.Rules{Colors: n[0], Pegs: n[1], Distinct: distinct}, Lower: n[2], Upper: n[3],
			Tree: rec[5], Command: rec[6], CPUHours: cpu}
		if err := b.Rules.Validate(); err != nil {
			return nil, bad(err.Error())
		}
		out = append(out, b)
	}
	return out, nil
}

// compareRules orders variants as the table of optima does.
func compareRules(a, b mm.Rules) int {
	return compareOptima(Optimum{Rules: a}, Optimum{Rules: b})
}
