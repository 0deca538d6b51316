package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newBook(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		name string
		min  int
		out  string
		so   strategy.Options
	)
	cmd := &cobra.Command{
		Use:   "book",
		Short: "Write a book: a strategy's guesses at the top of its tree",
		Long: `book writes a deterministic strategy's guess at every node of its tree that
more than --min candidates reach, one node a line, the shortest paths
first: the turns that lead there (guess:feedback), then the guess.

The toolkit ships books in strategy/books/ and plays from them wherever a
game stays in one: 8 × 8 with entropy and a win bonus of 1.5 is played in
under a second that way, where computing its first two guesses takes three
and a half (the node of 16.7 M codes, then of 2.1 M). A book is computed
without reading any shipped book (as with --no-book), and go test
./strategy checks the shipped ones against the strategy.`,
		Example: `  mastermind book --colors 8 --pegs 8 --strategy entropy --win-bonus 1.5 \
      --min 10000 --out strategy/books/8x8-entropy.txt
  mastermind book --strategy knuth --min 10`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if err := atLeast(1, "min", min); err != nil {
				return err
			}
			name = strings.ToLower(strings.TrimSpace(name))
			if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			so.NoBook = true
			s, err := MakeStrategy(name, so, r, a)
			if err != nil {
				return err
			}
			show, done := e.progressLine()
			start := time.Now()
			b, err := strategy.BuildBook(cmd.Context(), name, s, r, min, func(n strategy.BookNews) {
				show(fmt.Sprintf("book of %s on %s: %d nodes written, %d found to do, now %d guesses in (%d candidates), %s",
					name, r, n.Done, n.Pending, n.Depth, n.Size, time.Since(start).Round(time.Second)))
			})
			done()
			if err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err := b.WriteTo(e.Stdout)
				return err
			}
			return shard.WriteAtomic(out, func(w io.Writer) error {
				_, err := b.WriteTo(w)
				return err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "strategy", "entropy", "deterministic strategy whose book to write")
	f.IntVar(&min, "min", 10000, "nodes of more than `N` candidates are in the book")
	f.StringVar(&out, "out", "", "write the book to `FILE`, replacing it whole once done (default: standard output)")
	addStrategyFlags(f, &so)
	return cmd
}
