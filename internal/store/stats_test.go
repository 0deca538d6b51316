package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A deadlineSet counts as a sorted slice would, through adds and removes
// that split blocks and empty them.
func TestDeadlineSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var (
		d    deadlineSet
		want []int64
	)
	check := func(step int) {
		t.Helper()
		for _, ms := range []int64{-1, 0, 1, 500, 999, 1000, 5000, 1 << 40} {
			n, _ := slices.BinarySearch(want, ms)
			if got := d.before(ms); got != n {
				t.Fatalf("step %d: before(%d) = %d; want %d", step, ms, got, n)
			}
		}
	}
	for step := range 20_000 {
		ms := int64(rng.IntN(1000))
		if step > 5000 && step < 10_000 {
			ms = int64(step) // increasing, as deadlines mostly come
		}
		if rng.IntN(3) > 0 || len(want) == 0 {
			d.add(ms)
			i, _ := slices.BinarySearch(want, ms)
			want = slices.Insert(want, i, ms)
		} else {
			if rng.IntN(2) == 0 {
				ms = want[rng.IntN(len(want))] // one it has
			}
			d.remove(ms)
			if i, found := slices.BinarySearch(want, ms); found {
				want = slices.Delete(want, i, i+1)
			}
		}
		if step%97 == 0 {
			check(step)
		}
	}
	check(-1)
	if len(d.blocks) < 2 {
		t.Errorf("%d deadlines in %d blocks; want them split", len(want), len(d.blocks))
	}
	for i, b := range d.blocks {
		if len(b) == 0 || len(b) > deadlineBlock || !slices.IsSorted(b) || i > 0 && d.blocks[i-1][len(d.blocks[i-1])-1] > b[0] {
			t.Fatalf("block %d of %d is empty, too long or out of order", i, len(d.blocks))
		}
	}
}

// Stats counts games past their deadline as lost without reading the
// database, however many of them wait for the sweep: it answers with the
// readers closed, and as the database itself says, through games that
// start, win, run out of time, are swept, are deleted, and a reopening.
func TestStatsReadsNoGame(t *testing.T) {
	ctx := context.Background()
	t0 := time.UnixMilli(1_795_000_000_000)
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := Open(path, &Options{SweepEvery: -1, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	rng := rand.New(rand.NewPCG(3, 4))
	rules := []mm.Rules{mm.Classic, {Colors: 8, Pegs: 5}, {Colors: 6, Pegs: 4, Distinct: true}}
	secret := func(r mm.Rules) mm.Code { c, _ := r.ParseCode("12345"[:r.Pegs]); return c }
	wrong := func(r mm.Rules) mm.Code { c, _ := r.ParseCode("21345"[:r.Pegs]); return c }
	const games = 600
	for i := range games {
		r := rules[i%len(rules)]
		g := &mm.Game{ID: fmt.Sprintf("g%d", i), Rules: r, Secret: secret(r), MaxGuesses: 3,
			Created: t0.Add(time.Duration(rng.IntN(60_000)) * time.Millisecond)}
		if i%4 > 0 {
			g.TimeLimit = time.Duration(1+rng.IntN(60_000)) * time.Millisecond
		}
		if err := s.CreateGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		switch i % 5 {
		case 0: // won
			s.Guess(ctx, g.ID, nil, secret(r), g.Created)
		case 1: // a guess, maybe too late
			s.Guess(ctx, g.ID, nil, wrong(r), g.Created.Add(30*time.Second))
		}
	}
	// What the database says, as Stats read it before it kept a tally.
	fromDB := func(now time.Time) []mm.GameStats {
		t.Helper()
		var out []mm.GameStats
		rows, err := s.w.QueryContext(ctx, `SELECT s.colors, s.pegs, s.distinct_, played, won,
			lost + (SELECT COUNT(*) FROM games g WHERE g.colors = s.colors AND g.pegs = s.pegs AND g.distinct_ = s.distinct_
				AND status = 'playing' AND deadline_ms < ?), won_guesses
			FROM stats s ORDER BY 1, 2, 3`, now.UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var st mm.GameStats
			if err := rows.Scan(&st.Rules.Colors, &st.Rules.Pegs, &st.Rules.Distinct, &st.Played, &st.Won, &st.Lost, &st.WonGuesses); err != nil {
				t.Fatal(err)
			}
			out = append(out, st)
		}
		return out
	}
	check := func(what string) {
		t.Helper()
		for _, d := range []time.Duration{0, 20 * time.Second, 45 * time.Second, 2 * time.Minute, 3 * time.Hour} {
			got, err := s.Stats(ctx, t0.Add(d))
			if err != nil {
				t.Fatalf("%s: Stats: %v", what, err)
			}
			if want := fromDB(t0.Add(d)); !slices.Equal(got, want) {
				t.Fatalf("%s: Stats at t0+%v = %+v; the database says %+v", what, d, got, want)
			}
		}
	}
	check("after the games")
	// With the readers closed, Stats still answers: it reads nothing.
	s.r.Close()
	check("without readers")
	if s.r, err = sql.Open("sqlite", path+"?_pragma=query_only(1)"); err != nil {
		t.Fatal(err)
	}
	if sw, err := s.Sweep(ctx, t0.Add(40*time.Second)); err != nil || sw.Expired == 0 {
		t.Fatalf("Sweep = %+v, %v; want games expired", sw, err)
	}
	check("after a sweep")
	if sw, err := s.Sweep(ctx, t0.Add(3*time.Hour)); err != nil || sw.Deleted == 0 {
		t.Fatalf("Sweep = %+v, %v; want games deleted", sw, err)
	}
	check("after a sweep that deletes")
	s.Close()
	if s, err = Open(path, &Options{SweepEvery: -1, Retention: time.Hour}); err != nil {
		t.Fatal(err)
	}
	check("reopened")
}
