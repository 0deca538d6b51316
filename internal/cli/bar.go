package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/mastermind-toolkit/mastermind/eval"
)

// A bar draws the progress of games on a terminal, in place on one line
// that never reaches the terminal's last column (80 where it cannot be
// read), so it never wraps:
//
//	knuth  [=========>            ]  523/1296  40%  3s, about 4s left
//
// Its time counts from the bar's making, before the first game (a
// strategy's set-up is part of the wait), and a clock redraws it while no
// game ends. The time left comes from the rate of the last few seconds,
// not since the start, which the first games rule (a strategy's first
// guesses cost the most), where those seconds count enough games to
// settle (minRecent); it is shown as soon as a game is done and a
// second has passed, and before that from a guess made up front (prior),
// if there is one.
type bar struct {
	w     io.Writer
	width int // columns of the terminal
	total int
	now   func() time.Time

	mu        sync.Mutex
	label     string
	done      int
	start     time.Time
	drawn     time.Time // when the line was last drawn
	recent    []sample  // the last rateWindow of progress, oldest first
	shown     bool
	cleared   bool // the run is over: no more drawing
	throttled time.Duration
	prior     time.Duration // the whole run's time guessed up front; 0 for none
	log       bool          // stderr is not a terminal: a line now and then
	logged    time.Time     // when the last line was written
}

// A sample is the work done at a time.
type sample struct {
	at   time.Time
	done int
}

// rateWindow is how far back the rate of the time left looks.
const rateWindow = 5 * time.Second

// minRecent is the fewest games the rate of the last rateWindow must
// count to stand for the time left. With fewer, games of seconds each
// (auto on big variants) made the estimate swing from one game to the
// next, from 1 386 to 8 302 hours on 16 × 6 (issue 45); the rate since
// the start settles instead.
const minRecent = 16

// termWidth returns the columns of the terminal w writes to, or 80 where
// it cannot tell.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 20 {
			return c
		}
	}
	return 80
}

func newBar(w io.Writer, total int) *bar {
	width := termWidth(w)
	return &bar{w: w, width: width, total: total, now: time.Now, start: time.Now(), throttled: 100 * time.Millisecond}
}

// set records n games done of the total and redraws at most ten times a
// second.
func (b *bar) set(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	// Counts from several goroutines may come out of order.
	b.done = max(b.done, min(n, b.total))
	if b.cleared || now.Sub(b.drawn) < b.throttled && b.done < b.total {
		return
	}
	b.recent = append(b.recent, sample{now, b.done})
	for len(b.recent) > 2 && now.Sub(b.recent[0].at) > rateWindow {
		b.recent = b.recent[1:]
	}
	b.draw(now)
}

// tick redraws the bar as time passes with no game ending.
func (b *bar) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done < b.total && !b.cleared {
		b.draw(b.now())
	}
}

// draw writes the bar at time now, or in a log a line every logEvery.
func (b *bar) draw(now time.Time) {
	b.drawn = now
	if b.log {
		// A log, not a screen: a line every logEvery of a long run,
		// without the bar itself; none while no game is done and there
		// is no guess of the time, which says nothing that the
		// strategy's own line (the optimal search's sets, first guess
		// and best so far) does not.
		if b.done == 0 && b.prior == 0 {
			return
		}
		if now.Sub(b.start) >= logEvery && now.Sub(b.logged) >= logEvery && b.done < b.total {
			fmt.Fprintln(b.w, b.logLine(now))
			b.logged = now
		}
		return
	}
	fmt.Fprintf(b.w, "\r\033[K%s", b.line(now))
	b.shown = true
}

// logLine returns the bar's news as a line of a log at time now.
func (b *bar) logLine(now time.Time) string {
	line := fmt.Sprintf("%s: %d/%d games, %d%%, %s", b.label, b.done, b.total, 100*b.done/max(1, b.total), short(now.Sub(b.start)))
	if est, ok := b.estimate(now); ok {
		line += ", about " + short(est) + " left"
	}
	return line
}

// line returns the bar's text at time now, at most b.width−1 columns.
func (b *bar) line(now time.Time) string {
	pct := 100 * b.done / max(1, b.total)
	tail := fmt.Sprintf("  %d/%d  %d%%  %s", b.done, b.total, pct, short(now.Sub(b.start)))
	if est, ok := b.estimate(now); ok {
		tail += ", about " + short(est) + " left"
	}
	head := b.label
	cols := b.width - 1
	room := cols - runes(head) - runes(tail) - 4
	if room < 10 {
		// No room for the bar: the label, cut to fit, and the figures.
		if keep := cols - runes(tail); keep < runes(head) {
			head = cut(head, keep)
		}
		return cut(head+tail, cols)
	}
	room = min(room, 40)
	fill := room * b.done / max(1, b.total)
	arrow := ""
	if fill < room {
		arrow = ">"
	}
	return head + "  [" + strings.Repeat("=", fill) + arrow + strings.Repeat(" ", room-fill-len(arrow)) + "]" + tail
}

// runes returns the columns of s, a column a rune.
func runes(s string) int { return utf8.RuneCountInString(s) }

// cut returns s cut to at most n runes.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if runes(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// estimate returns the time left at time now, and whether there is one:
// from the rate of the recent samples, or since the start while they show
// no progress, once a game is done and a second has passed; before that,
// from the guess made up front.
func (b *bar) estimate(now time.Time) (time.Duration, bool) {
	if b.done >= b.total {
		return 0, false
	}
	elapsed := now.Sub(b.start)
	if b.done == 0 || elapsed < time.Second {
		if b.prior <= 0 {
			return 0, false
		}
		left := time.Duration(float64(b.prior) * float64(b.total-b.done) / float64(b.total))
		if b.done == 0 {
			left = b.prior - elapsed
		}
		return left, left > 0
	}
	perGame := float64(elapsed) / float64(b.done)
	if n := len(b.recent); n >= 2 {
		first, last := b.recent[0], b.recent[n-1]
		if span := last.at.Sub(first.at); span >= time.Second && last.done-first.done >= minRecent {
			perGame = float64(span) / float64(last.done-first.done)
		}
	}
	return time.Duration(perGame * float64(b.total-b.done)), true
}

// short writes d to the second, or to the tenth under ten seconds, and
// in days from two days on.
func short(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= 48*time.Hour:
		return roughly(d)
	}
	return d.Round(time.Second).String()
}

// clear removes the line, for good.
func (b *bar) clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cleared = true
	if b.shown {
		fmt.Fprint(b.w, "\r\033[K")
		b.shown = false
	}
}

// runBar shows on stderr the progress of several runs of games one after
// another; a nil *runBar does nothing.
type runBar struct {
	b    *bar
	base int
	halt chan struct{} // closed by stop, which ends the clock
	once sync.Once
}

// tickEvery is how often the clock redraws a bar: often enough that the
// time counts on by the second.
const tickEvery = 250 * time.Millisecond

// newRunBar returns a bar for total games in all, drawn from now on, and
// redrawn by a clock until stop. When stderr is not a terminal it writes
// a line of news every logEvery of a long run instead.
func (e *Env) newRunBar(total int) *runBar {
	b := newBar(e.Stderr, total)
	b.log = !e.StderrTTY
	r := &runBar{b: b, halt: make(chan struct{})}
	go func() {
		t := time.NewTicker(tickEvery)
		defer t.Stop()
		for {
			select {
			case <-r.halt:
				return
			case <-t.C:
				b.tick()
			}
		}
	}()
	return r
}

// label names the run on the bar.
func (r *runBar) label(label string) {
	if r != nil {
		r.b.mu.Lock()
		r.b.label = label
		r.b.mu.Unlock()
	}
}

// guess gives the bar the whole run's time as guessed before it starts,
// shown as the time left until games are measured.
func (r *runBar) guess(d time.Duration) {
	if r != nil {
		r.b.mu.Lock()
		r.b.prior = d
		r.b.mu.Unlock()
	}
}

// track makes opts report a run labelled label whose games come after the
// first base games.
func (r *runBar) track(opts *eval.Options, label string, base int) {
	if r == nil {
		return
	}
	r.b.mu.Lock()
	r.b.label, r.base = label, base
	r.b.mu.Unlock()
	opts.Progress = func(done, _ int) { r.b.set(base + done) }
}

// add counts n more games done.
func (r *runBar) add(n int) {
	if r != nil {
		r.b.mu.Lock()
		r.base += n
		d := r.base
		r.b.mu.Unlock()
		r.b.set(d)
	}
}

// stop ends the clock and clears the bar, finished or not; calls after
// the first do nothing.
func (r *runBar) stop() {
	if r != nil {
		r.once.Do(func() {
			close(r.halt)
			r.b.clear()
		})
	}
}
