package records

import (
	"bytes"
	"cmp"
	"compress/gzip"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// An Optimum is a row of the table of exact optima, optimal.csv: for a
// variant, the least total number of guesses over every secret and the
// worst case of a strategy that reaches it, the fewest guesses that always
// suffice and the least total within them, the tree file of the least
// total (under optimal/), and what the search cost.
type Optimum struct {
	Rules         mm.Rules
	Codes         int
	Total         int
	Worst         int
	MinWorst      int
	MinWorstTotal int
	File          string  // under the table's directory, such as optimal/6x4.json.gz
	CPUSeconds    float64 // user and system time of the searches, over every run and shard; 0 where unknown
	WallSeconds   float64 // wall time of the runs, added up: shards that ran side by side each count
	Published     string  // the best published value and its source, or "none found"
}

//go:embed optimal.csv
var shippedOptima []byte

// ShippedOptima returns the table of exact optima shipped with the
// toolkit, records/optimal.csv, with what each row's searches cost: what
// optima guesses a run's time by, wherever it runs.
func ShippedOptima() ([]Optimum, error) { return ReadOptima(bytes.NewReader(shippedOptima)) }

// Mean returns the mean guesses of the least total.
func (o Optimum) Mean() float64 { return float64(o.Total) / float64(o.Codes) }

var optimaHeader = []string{"colors", "pegs", "distinct", "codes", "total", "mean", "worst", "min_worst", "min_worst_total",
	"file", "cpu_seconds", "wall_seconds", "published"}

// OptimumName returns the name of r's row: 6x4, or 10x4-distinct.
func OptimumName(r mm.Rules) string {
	r = r.WithDefaults()
	name := fmt.Sprintf("%dx%d", r.Colors, r.Pegs)
	if r.Distinct {
		name += "-distinct"
	}
	return name
}

// OptimumFile returns the tree file of r's row, under the table's
// directory.
func OptimumFile(r mm.Rules) string { return "optimal/" + OptimumName(r) + ".json.gz" }

// SortOptima puts rows in the table's order: repeated colours first, then
// by pegs and colours.
func SortOptima(rows []Optimum) {
	slices.SortFunc(rows, compareOptima)
}

func compareOptima(a, b Optimum) int {
	da, db := 0, 0
	if a.Rules.Distinct {
		da = 1
	}
	if b.Rules.Distinct {
		db = 1
	}
	return cmp.Or(cmp.Compare(da, db), cmp.Compare(a.Rules.Pegs, b.Rules.Pegs), cmp.Compare(a.Rules.Colors, b.Rules.Colors))
}

// WriteOptima writes rows as optimal.csv, in the table's order.
func WriteOptima(w io.Writer, rows []Optimum) error {
	rows = slices.Clone(rows)
	SortOptima(rows)
	cw := csv.NewWriter(w)
	cw.Write(optimaHeader)
	for _, o := range rows {
		cw.Write([]string{strconv.Itoa(o.Rules.Colors), strconv.Itoa(o.Rules.Pegs), strconv.FormatBool(o.Rules.Distinct),
			strconv.Itoa(o.Codes), strconv.Itoa(o.Total), strconv.FormatFloat(o.Mean(), 'f', 4, 64), strconv.Itoa(o.Worst),
			strconv.Itoa(o.MinWorst), strconv.Itoa(o.MinWorstTotal), o.File,
			strconv.FormatFloat(o.CPUSeconds, 'f', 1, 64), strconv.FormatFloat(o.WallSeconds, 'f', 1, 64), o.Published})
	}
	cw.Flush()
	return cw.Error()
}

// ReadOptima reads optimal.csv as WriteOptima writes it.
func ReadOptima(r io.Reader) ([]Optimum, error) {
	recs, err := readTable(r, "optimal.csv", optimaHeader)
	if err != nil {
		return nil, err
	}
	var out []Optimum
	for i, rec := range recs {
		bad := func(what string) error {
			return fmt.Errorf("mastermind: optimal.csv line %d: %s", i+2, what)
		}
		var n [9]int
		if err := atois(rec, optimaHeader, []int{0, 1, 3, 4, 6, 7, 8}, n[:], bad); err != nil {
			return nil, err
		}
		distinct, err := strconv.ParseBool(rec[2])
		if err != nil {
			return nil, bad("distinct is not true or false")
		}
		cpu, err1 := strconv.ParseFloat(rec[10], 64)
		wall, err2 := strconv.ParseFloat(rec[11], 64)
		if err1 != nil || err2 != nil {
			return nil, bad("cpu_seconds or wall_seconds is not a number")
		}
		o := Optimum{Rules: mm.Rules{Colors: n[0], Pegs: n[1], Distinct: distinct}, Codes: n[2], Total: n[3], Worst: n[4],
			MinWorst: n[5], MinWorstTotal: n[6], File: rec[9], CPUSeconds: cpu, WallSeconds: wall, Published: rec[12]}
		if err := o.Rules.Validate(); err != nil {
			return nil, bad(err.Error())
		}
		out = append(out, o)
	}
	return out, nil
}

// WriteOptimumTree writes the tree file of a row: the JSON of Write,
// gzipped at the best compression with no name or time in its header, so
// that the same tree makes the same bytes.
func WriteOptimumTree(w io.Writer, f *File) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := Write(zw, f, nil); err != nil {
		return err
	}
	return zw.Close()
}

// A publishedOptimum is an optimum we found in print: the least total
// over every secret, and who published it.
type publishedOptimum struct {
	total  int
	source string
}

// published are the optima of the table's variants that we found
// published. Each is checked against the engine's (TestOptima), which
// computes the table; none is taken from here.
var published = map[mm.Rules]publishedOptimum{
	{Colors: 6, Pegs: 4}:                  {5625, "Koyama and Lai, 1993"},
	{Colors: 7, Pegs: 4}:                  {11228, "Ville, An Optimal Mastermind (4,7) Strategy and More Results in the Expected Case, 2013"},
	{Colors: 8, Pegs: 4}:                  {20471, "arfst23, 2023"},
	{Colors: 9, Pegs: 3}:                  {3596, "fancidev/mastermind's tests, 2012"},
	{Colors: 9, Pegs: 4, Distinct: true}:  {14914, "fancidev/mastermind, 2012"},
	{Colors: 10, Pegs: 4, Distinct: true}: {26274, "fancidev/mastermind (Bulls and Cows), 2012"},
}

// Published returns the published least total of r's row, if we found
// one, and the text of the table's published column: "5625 (Koyama and
// Lai, 1993)", or "none found".
func Published(r mm.Rules) (total int, text string, ok bool) {
	p, ok := published[r.WithDefaults()]
	if !ok {
		return 0, "none found", false
	}
	return p.total, fmt.Sprintf("%d (%s)", p.total, p.source), true
}

// WriteOptimaMarkdown writes rows as the table of records/README.md, in
// the table's order, with links to the trees.
func WriteOptimaMarkdown(w io.Writer, rows []Optimum) error {
	rows = slices.Clone(rows)
	SortOptima(rows)
	fmt.Fprintln(w, "| variant | codes | least total | mean | its worst case | fewest guesses that suffice | least total within them | CPU s | published |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, o := range rows {
		variant := fmt.Sprintf("%d × %d", o.Rules.Colors, o.Rules.Pegs)
		if o.Rules.Distinct {
			variant += " distinct"
		}
		if _, err := fmt.Fprintf(w, "| [%s](%s) | %d | %d | %.4f | %d | %d | %d | %.1f | %s |\n", variant, o.File, o.Codes, o.Total, o.Mean(),
			o.Worst, o.MinWorst, o.MinWorstTotal, o.CPUSeconds, o.Published); err != nil {
			return err
		}
	}
	return nil
}

// readTable reads a CSV file of the records, name for errors, whose first
// line must be header, and returns its other lines.
func readTable(r io.Reader, name string, header []string) ([][]string, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("mastermind: %s: %w", name, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		return nil, fmt.Errorf("mastermind: %s: the first line is not %s", name, strings.Join(header, ","))
	}
	return recs[1:], nil
}

// atois parses the columns cols of rec as integers into n, in order; a
// column that is not one is reported by bad with its header's name.
func atois(rec, header []string, cols []int, n []int, bad func(string) error) error {
	for k, col := range cols {
		v, err := strconv.Atoi(rec[col])
		if err != nil {
			return bad(header[col] + " is not a number")
		}
		n[k] = v
	}
	return nil
}
