package cli

import (
	"fmt"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/records"
)

// optimaGuess returns the wall time that the searches of rows took when
// the shipped table was made (records.ShippedOptima), each at most limit,
// past which a row is left for the next run, and how many rows the
// shipped table lacks, whose time it cannot guess.
func optimaGuess(rows []mm.Rules, limit time.Duration) (wall time.Duration, unknown int) {
	shipped, err := records.ShippedOptima()
	if err != nil {
		return 0, len(rows)
	}
	took := map[mm.Rules]time.Duration{}
	for _, o := range shipped {
		took[o.Rules] = time.Duration(o.WallSeconds * float64(time.Second))
	}
	for _, r := range rows {
		d, ok := took[r.WithDefaults()]
		if !ok {
			unknown++
			continue
		}
		wall += min(d, limit)
	}
	return wall, unknown
}

// announceOptima says how long optima's searches of rows will take, by
// the shipped table's times, where that is announceAfter or more, and
// refuses a run guessed past maxUnasked unless yes.
func (e *Env) announceOptima(rows []mm.Rules, limit time.Duration, yes bool) error {
	if len(rows) == 0 {
		return nil
	}
	d, unknown := optimaGuess(rows, limit)
	what := Plural(len(rows), "row") + " to solve"
	guess := fmt.Sprintf("about %s as the shipped table took them", roughly(d))
	if unknown > 0 {
		guess = fmt.Sprintf("more than %s: %d of them not in the shipped table", roughly(d), unknown)
	}
	if d > maxUnasked && !yes {
		return fmt.Errorf("%s, %s; pass --yes to start, or solve fewer (--max-codes N, --only ROWS) or in shards (--shard K/N)", what, guess)
	}
	if d >= announceAfter {
		fmt.Fprintf(e.Stderr, "%s, %s (--row-limit %v a row)\n", what, guess, limit)
	}
	return nil
}
