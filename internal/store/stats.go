package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Stats returns the number of games played, won and lost for each variant,
// with the guesses of the won games, in the order of colours, pegs and
// distinct; a game still in play past its deadline at time now counts as
// lost. Deleted games count as they ended.
//
// Stats reads neither the games nor the database: the writer keeps the
// counters of each variant in memory as it commits them, with the sorted
// deadlines of the games in play. It costs microseconds (15 µs with
// 300,000 games in play) however many of them are past their deadline and
// wait for the sweep. Calls right after Open may wait for the deadlines to
// be read.
func (s *Store) Stats(ctx context.Context, now time.Time) ([]mm.GameStats, error) {
	select {
	case <-s.quit:
		return nil, ErrClosed
	default:
	}
	t := s.tally
	select {
	case <-t.loaded:
	case <-s.quit:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if t.err != nil {
		return nil, fmt.Errorf("mastermind: reading the deadlines of the games in play: %w", t.err)
	}
	return t.read(now.UnixMilli()), nil
}

// A tally is the statistics of the games as committed: the counters of the
// stats table, and the deadlines of the games in play that have one. The
// writer changes it after each commit, so that Stats sees a transaction
// whole or not at all.
//
// The deadlines are read in the background when the store opens (a few
// hundred milliseconds with 300,000 of them), from a snapshot taken before
// the writer starts; the changes committed meanwhile wait in pending, and
// Stats waits for the reading to end.
type tally struct {
	mu        sync.Mutex
	stats     map[mm.Rules]mm.GameStats
	deadlines map[mm.Rules]*deadlineSet
	pending   []timing // committed before the deadlines were read

	loaded chan struct{} // closed once the deadlines are read
	err    error         // of the reading; set before loaded is closed
	cancel context.CancelFunc
}

// read returns the counters of every variant, in order, with the games in
// play whose deadline is before now (Unix milliseconds) counted as lost.
func (t *tally) read(now int64) []mm.GameStats {
	t.mu.Lock()
	out := make([]mm.GameStats, 0, len(t.stats))
	for r, st := range t.stats {
		if d := t.deadlines[r]; d != nil {
			st.Lost += d.before(now)
		}
		out = append(out, st)
	}
	t.mu.Unlock()
	slices.SortFunc(out, func(a, b mm.GameStats) int {
		switch {
		case a.Rules.Colors != b.Rules.Colors:
			return a.Rules.Colors - b.Rules.Colors
		case a.Rules.Pegs != b.Rules.Pegs:
			return a.Rules.Pegs - b.Rules.Pegs
		case a.Rules.Distinct == b.Rules.Distinct:
			return 0
		case b.Rules.Distinct:
			return -1
		}
		return 1
	})
	return out
}

// A timing is a change to the deadlines of a tally: a game of rules r, in
// play until deadline (Unix milliseconds), that starts (add) or ends.
type timing struct {
	r        mm.Rules
	deadline int64
	add      bool
}

// apply adds the changes that a transaction committed.
func (t *tally) apply(stats map[mm.Rules]*mm.GameStats, timings []timing) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for r, d := range stats {
		st := t.stats[r]
		st.Rules = r
		st.Played += d.Played
		st.Won += d.Won
		st.Lost += d.Lost
		st.WonGuesses += d.WonGuesses
		t.stats[r] = st
	}
	select {
	case <-t.loaded:
	default:
		t.pending = append(t.pending, timings...)
		return
	}
	t.time(timings)
}

// time applies changes to the deadlines, with t.mu held.
func (t *tally) time(timings []timing) {
	for _, c := range timings {
		d := t.deadlines[c.r]
		if d == nil {
			d = &deadlineSet{}
			t.deadlines[c.r] = d
		}
		if c.add {
			d.add(c.deadline)
		} else {
			d.remove(c.deadline)
		}
	}
}

// startTally reads the counters of every variant from db, and starts
// reading the deadlines of the games in play (through the covering index
// games_expiring) in the background, in the same read transaction.
func startTally(db *sql.DB) (*tally, error) {
	// The transaction's own context is never cancelled: database/sql
	// would roll it back in a goroutine of its own, which Close does not
	// wait for. The reading checks stopping between rows instead.
	ctx := context.Background()
	stopping, cancel := context.WithCancel(ctx)
	t := &tally{stats: make(map[mm.Rules]mm.GameStats), deadlines: make(map[mm.Rules]*deadlineSet),
		loaded: make(chan struct{}), cancel: cancel}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		cancel()
		return nil, err
	}
	if err := t.readStats(ctx, tx); err != nil {
		tx.Rollback()
		cancel()
		return nil, err
	}
	go func() {
		deadlines, err := readDeadlines(ctx, tx, stopping)
		tx.Rollback() // before loaded is closed, which lets Close go on
		t.mu.Lock()
		defer t.mu.Unlock()
		t.deadlines, t.err = deadlines, err
		if err == nil {
			t.time(t.pending)
		}
		t.pending = nil
		close(t.loaded)
	}()
	return t, nil
}

// stop stops the reading of the deadlines, if it has not ended, and waits
// for it.
func (t *tally) stop() {
	t.cancel()
	<-t.loaded
}

// readStats reads the counters of every variant.
func (t *tally) readStats(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, statsQuery)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var st mm.GameStats
		if err := rows.Scan(&st.Rules.Colors, &st.Rules.Pegs, &st.Rules.Distinct, &st.Played, &st.Won, &st.Lost, &st.WonGuesses); err != nil {
			return err
		}
		t.stats[st.Rules] = st
	}
	return rows.Err()
}

// readDeadlines reads the deadlines of the games in play, by variant,
// until stopping is done.
func readDeadlines(ctx context.Context, tx *sql.Tx, stopping context.Context) (map[mm.Rules]*deadlineSet, error) {
	rows, err := tx.QueryContext(ctx, deadlinesQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	sets := make(map[mm.Rules]*deadlineSet)
	var (
		r   mm.Rules
		set *deadlineSet
	)
	for n := 0; rows.Next(); n++ {
		if n%4096 == 0 && stopping.Err() != nil {
			return nil, stopping.Err()
		}
		var (
			rr mm.Rules
			ms int64
		)
		if err := rows.Scan(&rr.Colors, &rr.Pegs, &rr.Distinct, &ms); err != nil {
			return nil, err
		}
		if set == nil || rr != r {
			r, set = rr, sets[rr]
			if set == nil {
				set = &deadlineSet{}
				sets[rr] = set
			}
		}
		set.add(ms)
	}
	return sets, rows.Err()
}

// The queries of startTally: the counters, and the deadlines of the games
// in play, in order (the partial index games_expiring holds them sorted).
const (
	statsQuery     = `SELECT colors, pegs, distinct_, played, won, lost, won_guesses FROM stats ORDER BY colors, pegs, distinct_`
	deadlinesQuery = `SELECT colors, pegs, distinct_, deadline_ms FROM games
		WHERE status = 'playing' AND deadline_ms IS NOT NULL ORDER BY deadline_ms`
)

// deadlineBlock is the most deadlines in one block of a deadlineSet.
const deadlineBlock = 512

// A deadlineSet is a sorted multiset of deadlines (Unix milliseconds), in
// blocks of at most deadlineBlock, so that adding or removing one costs
// O(deadlineBlock + blocks) and counting those before a time O(blocks +
// log deadlineBlock): a few microseconds for a million deadlines.
type deadlineSet struct {
	blocks [][]int64 // sorted, each non-empty and sorted
}

// find returns the index of the first block whose last deadline is not
// before ms, or the last block.
func (d *deadlineSet) find(ms int64) int {
	i, _ := slices.BinarySearchFunc(d.blocks, ms, func(b []int64, ms int64) int {
		if b[len(b)-1] < ms {
			return -1
		}
		return 1
	})
	return min(i, len(d.blocks)-1)
}

// add adds deadline ms. Deadlines mostly come in increasing order, and
// then land in the last block.
func (d *deadlineSet) add(ms int64) {
	if len(d.blocks) == 0 {
		d.blocks = append(d.blocks, []int64{ms})
		return
	}
	i := d.find(ms)
	b := d.blocks[i]
	j, _ := slices.BinarySearch(b, ms)
	b = slices.Insert(b, j, ms)
	if len(b) <= deadlineBlock {
		d.blocks[i] = b
		return
	}
	// Split a full block in two.
	half := len(b) / 2
	d.blocks[i] = b[:half:half]
	d.blocks = slices.Insert(d.blocks, i+1, slices.Clone(b[half:]))
}

// remove removes one deadline ms, if the set has one.
func (d *deadlineSet) remove(ms int64) {
	if len(d.blocks) == 0 {
		return
	}
	i := d.find(ms)
	b := d.blocks[i]
	j, found := slices.BinarySearch(b, ms)
	if !found {
		return
	}
	b = slices.Delete(b, j, j+1)
	if len(b) == 0 {
		d.blocks = slices.Delete(d.blocks, i, i+1)
	} else {
		d.blocks[i] = b
	}
}

// before returns the number of deadlines before ms.
func (d *deadlineSet) before(ms int64) int {
	n := 0
	for _, b := range d.blocks {
		if b[len(b)-1] < ms {
			n += len(b)
			continue
		}
		j, _ := slices.BinarySearch(b, ms)
		return n + j
	}
	return n
}
