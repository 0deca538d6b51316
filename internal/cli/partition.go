package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
)

type partitionJSON struct {
	Guess string    `json:"guess"`
	Parts []mm.Part `json:"parts"`
}

func newPartition(e *Env, rf *rulesFlags) *cobra.Command {
	var asJSON, asCSV bool
	cmd := &cobra.Command{
		Use:   "partition GUESS...",
		Short: "Print how each guess divides all codes by feedback",
		Long: `partition prints, for each GUESS, how many of all the codes give each
feedback [black,white] to it: one column per guess, one row per feedback
that a guess can receive. On classic Mastermind,

  mastermind partition 1111 1112 1122 1123 1234

prints Table II of Anthony D. Rhodes's "Search Algorithms for Mastermind"
(Knuth's comparison of first guesses).`,
		Example: `  mastermind partition 1122
  mastermind partition --json 1122 1234
  mastermind partition --colors 8 --pegs 5 11223`,
		Args: argsBetween(1, -1, "at least one GUESS"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if asJSON && asCSV {
				return fmt.Errorf("--json and --csv exclude each other")
			}
			guesses := make([]mm.Code, len(args))
			for i, s := range args {
				if guesses[i], err = a.Parse(r, s); err != nil {
					return err
				}
			}
			sp, err := mm.SpaceOf(r)
			if err != nil {
				return err
			}
			parts := make([][]mm.Part, len(guesses))
			for i, g := range guesses {
				if parts[i], err = sp.All().Partition(g); err != nil {
					return err
				}
			}
			if asJSON {
				out := make([]partitionJSON, len(guesses))
				for i, g := range guesses {
					out[i] = partitionJSON{Guess: a.Format(g), Parts: parts[i]}
				}
				return writeJSON(e.Stdout, out)
			}
			if asCSV {
				cw := csv.NewWriter(e.Stdout)
				head := []string{"black", "white"}
				for _, g := range guesses {
					head = append(head, a.Format(g))
				}
				cw.Write(head)
				for _, f := range r.Feedbacks() {
					row := []string{strconv.Itoa(f.Black), strconv.Itoa(f.White)}
					for i := range guesses {
						row = append(row, strconv.Itoa(countOf(parts[i], f)))
					}
					cw.Write(row)
				}
				cw.Flush()
				return cw.Error()
			}
			t := newTable(e.Stdout)
			head := []string{""}
			for _, g := range guesses {
				head = append(head, a.Format(g))
			}
			t.row(head...)
			for _, f := range r.Feedbacks() {
				row := []string{fmt.Sprintf("[%d,%d]", f.Black, f.White)}
				for i := range guesses {
					row = append(row, strconv.Itoa(countOf(parts[i], f)))
				}
				t.row(row...)
			}
			return t.flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print [{"guess":…,"parts":[{"black":B,"white":W,"count":N},…]},…]`)
	cmd.Flags().BoolVar(&asCSV, "csv", false, "print the table as CSV: black, white, then a column per guess")
	return cmd
}

func countOf(parts []mm.Part, f mm.Feedback) int {
	for _, p := range parts {
		if p.Feedback == f {
			return p.Count
		}
	}
	return 0
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
