package cli

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// fakeBar returns a bar of total games on a clock of the test's own,
// started at the clock's zero, and a function that returns its last line.
func fakeBar(total int) (*bar, *time.Time, func() string, *bytes.Buffer) {
	var out bytes.Buffer
	b := newBar(&out, total)
	b.throttled = 0
	now := time.Unix(0, 0)
	b.now = func() time.Time { return now }
	b.start = now
	last := func() string {
		s := out.String()
		return s[strings.LastIndex(s, "\r\033[K")+4:]
	}
	return b, &now, last, &out
}

// TestBarEstimate drives the bar with a clock of its own: the time left is
// shown once a game is done, and, once the rate of the last seconds
// settles, close to the truth though the first game was slow.
func TestBarEstimate(t *testing.T) {
	b, now, last, out := fakeBar(1000)
	b.label = "knuth"
	b.set(0)
	if strings.Contains(last(), "left") {
		t.Errorf("before any game, with no guess up front, the bar shows a time left: %q", last())
	}
	// The first game takes 30 s (a strategy's first guesses cost the
	// most); the rest take 10 ms each, 10 s in all.
	*now = now.Add(30 * time.Second)
	b.set(1)
	if !strings.Contains(last(), "30s, about 8h19m30s left") {
		t.Errorf("after one game of 30 s the bar shows %q; want 30s, about 8h19m30s left", last())
	}
	for i := 2; i <= 999; i++ {
		*now = now.Add(10 * time.Millisecond)
		b.set(i)
		// A second after the slow game, at game 101: 899 games of 10 ms.
		if l := last(); i == 101 && (!strings.Contains(l, "101/1000  10%") || !strings.Contains(l, "about 9.0s left")) {
			t.Errorf("at game 101 the bar shows %q; want 101/1000, about 9.0s left", l)
		}
	}
	if l := last(); !strings.Contains(l, "knuth  [") || !strings.Contains(l, "999/1000  99%") || !strings.Contains(l, "about 0.0s left") {
		t.Errorf("last line %q; want the label, 999/1000, 99%% and about 0.0s left", l)
	}
	b.clear()
	if !strings.HasSuffix(out.String(), "\r\033[K") {
		t.Errorf("clear did not erase the line")
	}
	n := out.Len()
	b.tick()
	b.set(1000)
	if out.Len() != n {
		t.Errorf("the bar drew %q after it was cleared", out.String()[n:])
	}
}

// TestBarPrior checks the time guessed before the first game: it counts
// down with the clock until a game is done, then gives way to the rate.
func TestBarPrior(t *testing.T) {
	b, now, last, _ := fakeBar(40)
	b.label, b.prior = "auto", 2*time.Minute
	b.tick()
	if !strings.Contains(last(), "0/40  0%  0.0s, about 2m0s left") {
		t.Errorf("at the start the bar shows %q; want about 2m0s left", last())
	}
	*now = now.Add(20 * time.Second)
	b.tick()
	if !strings.Contains(last(), "20s, about 1m40s left") {
		t.Errorf("20 s in, no game done, the bar shows %q; want 20s, about 1m40s left", last())
	}
	*now = now.Add(5 * time.Minute)
	b.tick()
	if strings.Contains(last(), "left") {
		t.Errorf("past the guess, no game done, the bar shows %q; want no time left", last())
	}
	b.set(10) // 10 games in 5m20s
	if !strings.Contains(last(), "about 16m0s left") {
		t.Errorf("after 10 games in 5m20s the bar shows %q; want about 16m0s left", last())
	}
}

// TestBarWidth checks that no line reaches the last column, whatever the
// label and the figures, at the width found or 80.
func TestBarWidth(t *testing.T) {
	for _, tc := range []struct {
		width, total, done int
		label              string
	}{
		{80, 1296, 523, "knuth"},
		{80, 16777216, 1234567, "auto"},
		{80, 16777216, 1, "knuth,expected-size,entropy,most-parts,first-consistent"},
		{40, 16777216, 1, "entropy"},
		{21, 1000, 999, "a label of many words, longer than the line"},
	} {
		b, now, last, _ := fakeBar(tc.total)
		b.width, b.label = tc.width, tc.label
		*now = now.Add(90 * time.Hour)
		b.set(tc.done)
		if l := last(); utf8.RuneCountInString(l) >= tc.width || !strings.Contains(l, strconv.Itoa(tc.done)+"/") {
			t.Errorf("width %d, %d/%d %q: line %q of %d columns; want fewer than %d, with the count",
				tc.width, tc.done, tc.total, tc.label, l, utf8.RuneCountInString(l), tc.width)
		}
	}
}

// TestRunBarClock checks that the bar is redrawn while no game ends: the
// time counts on from the start.
func TestRunBarClock(t *testing.T) {
	var out syncBuffer
	e := &Env{Stderr: &out, StderrTTY: true}
	r := e.newRunBar(10)
	defer r.stop()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(out.String(), "0/10") {
			r.stop()
			return
		}
	}
	t.Fatalf("no game ended and the bar was not drawn in 10 s: %q", out.String())
}

// syncBuffer is a bytes.Buffer safe for use by the bar's clock and the
// test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestShort(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{1500 * time.Millisecond, "1.5s"}, {37 * time.Second, "37s"}, {12*time.Hour + 23*time.Minute, "12h23m0s"}, {53*24*time.Hour + 5*time.Hour, "53 days"}} {
		if got := short(tt.d); got != tt.want {
			t.Errorf("short(%v) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

// TestBarLog checks the bar when stderr is not a terminal: no line in
// the first logEvery, then whole lines, one per logEvery, with no
// terminal codes, and none once the games are done.
func TestBarLog(t *testing.T) {
	b, now, _, out := fakeBar(100)
	b.label, b.log = "entropy", true
	for i := 0; i < 100; i++ {
		b.set(i)
		*now = now.Add(time.Second)
	}
	b.set(100)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || strings.Contains(out.String(), "\033") {
		t.Fatalf("log of 100 games at one a second = %q; want 3 lines (at 30, 60 and 90 s), no escapes", out.String())
	}
	if want := "entropy: 30/100 games, 30%, 30s, about 1m10s left"; lines[0] != want {
		t.Errorf("first line %q; want %q", lines[0], want)
	}
	// A search with no guess of its time and no game done yet (optimal's
	// tree): its own line says how far it got, the bar nothing.
	b, now, _, out = fakeBar(4096)
	b.label, b.log = "optimal", true
	for range 100 {
		b.set(0)
		*now = now.Add(time.Second)
	}
	if out.Len() != 0 {
		t.Errorf("log of a search with no game done in 100 s = %q; want nothing", out.String())
	}
	// With a guess, the log says how long is left.
	b, now, _, out = fakeBar(20)
	b.label, b.log, b.prior = "auto", true, 2*time.Minute
	for range 40 {
		b.set(0)
		*now = now.Add(time.Second)
	}
	if want := "auto: 0/20 games, 0%, 30s, about 1m30s left\n"; out.String() != want {
		t.Errorf("log of a run guessed at 2 min, no game done in 40 s = %q; want %q", out.String(), want)
	}
}

// TestBarPriorLarge checks the guess up front of a long run of many games:
// no overflow into a negative time left.
func TestBarPriorLarge(t *testing.T) {
	b, now, last, _ := fakeBar(1_000_000)
	b.prior = 50_000 * time.Second
	b.set(0)
	*now = now.Add(500 * time.Millisecond)
	b.set(10) // a game done, but not a second gone: still the guess
	if !strings.Contains(last(), "about 13h53m20s left") {
		t.Errorf("10 of a million games into a run guessed at 50 000 s, the bar shows %q", last())
	}
	if d, ok := runGuess(context.Background(), mm.Rules{Colors: 20, Pegs: 100}, []mm.Strategy{strategy.Auto{}, strategy.Auto{}}, 1_000_000_000, true, 1); !ok || d <= 0 {
		t.Errorf("a billion games guessed at %v, %v; want a positive time", d, ok)
	}
}

// TestBarEstimateSettles checks the time left of a run of slow games,
// a few seconds each, ending at uneven times: the rate of the last
// seconds counts too few of them, and the estimate must not swing with
// each (issue 45: 1 386 to 8 302 hours on 16 × 6).
func TestBarEstimateSettles(t *testing.T) {
	b, now, last, _ := fakeBar(1_000_000)
	b.log = false
	var lefts []float64
	for i := 1; i <= 200; i++ {
		// Games of 1 to 7 s, in a fixed uneven pattern: 4 s on average.
		*now = now.Add(time.Duration(1+(i*5)%7) * time.Second)
		b.set(i)
		l := last()
		k := strings.Index(l, "about ")
		if k < 0 {
			t.Fatalf("after game %d the bar shows %q; want a time left", i, l)
		}
		if i > 50 {
			d, err := time.ParseDuration(strings.Fields(l[k+6:])[0])
			if err != nil {
				// Days: read the count.
				n, err := strconv.ParseFloat(strings.Fields(l[k+6:])[0], 64)
				if err != nil {
					t.Fatalf("after game %d the bar shows %q", i, l)
				}
				d = time.Duration(n * 24 * float64(time.Hour))
			}
			lefts = append(lefts, d.Hours())
		}
	}
	lo, hi := lefts[0], lefts[0]
	for _, h := range lefts {
		lo, hi = min(lo, h), max(hi, h)
	}
	if hi > 1.2*lo {
		t.Errorf("the time left swings from %.0f to %.0f hours over games of 1 to 7 s; want it settled within 20%%", lo, hi)
	}
	if !strings.Contains(last(), " days left") {
		t.Errorf("a run of about 46 days shows %q; want the time left in days", last())
	}
}
