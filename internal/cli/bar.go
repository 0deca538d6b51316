package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/mastermind-toolkit/mastermind/eval"
)

// A bar draws the progress of games on a terminal, in place on one line:
//
//	knuth  [=========>            ]  523/1296  40%  3s, about 4s left
//
// The time left comes from the rate of the last few seconds, not since the
// start, which the first games rule (a strategy's first guesses cost the
// most), and is shown once it has settled: with a twentieth of the work
// done and a second of history behind the rate.
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
	throttled time.Duration
	log       bool      // stderr is not a terminal: a line now and then
	logged    time.Time // when the last line was written
}

// A sample is the work done at a time.
type sample struct {
	at   time.Time
	done int
}

// rateWindow is how far back the rate of the time left looks.
const rateWindow = 5 * time.Second

func newBar(w io.Writer, total int) *bar {
	width := 80
	if f, ok := w.(*os.File); ok {
		if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 20 {
			width = c
		}
	}
	return &bar{w: w, width: width, total: total, now: time.Now, throttled: 100 * time.Millisecond}
}

// set records n games done of the total and redraws at most ten times a
// second.
func (b *bar) set(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if b.start.IsZero() {
		b.start = now
	}
	b.done = min(n, b.total)
	if now.Sub(b.drawn) < b.throttled && b.done < b.total {
		return
	}
	b.drawn = now
	b.recent = append(b.recent, sample{now, b.done})
	for len(b.recent) > 2 && now.Sub(b.recent[0].at) > rateWindow {
		b.recent = b.recent[1:]
	}
	if b.log {
		// A log, not a screen: a line every logEvery of a long run,
		// without the bar itself.
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
	if est, ok := b.estimate(); ok {
		line += ", about " + short(est) + " left"
	}
	return line
}

// line returns the bar's text at time now.
func (b *bar) line(now time.Time) string {
	elapsed := now.Sub(b.start)
	pct := 100 * b.done / max(1, b.total)
	tail := fmt.Sprintf("  %d/%d  %d%%  %s", b.done, b.total, pct, short(elapsed))
	if est, ok := b.estimate(); ok {
		tail += ", about " + short(est) + " left"
	}
	head := b.label
	room := b.width - len([]rune(head)) - len([]rune(tail)) - 5
	if room < 10 {
		return strings.TrimSpace(head + tail)
	}
	room = min(room, 40)
	fill := room * b.done / max(1, b.total)
	arrow := ""
	if fill < room {
		arrow = ">"
	}
	return head + "  [" + strings.Repeat("=", fill) + arrow + strings.Repeat(" ", room-fill-len(arrow)) + "]" + tail
}

// estimate returns the time left at the rate of the recent samples, and
// whether it has settled enough to show.
func (b *bar) estimate() (time.Duration, bool) {
	if b.done == 0 || b.done >= b.total || len(b.recent) < 2 {
		return 0, false
	}
	first, last := b.recent[0], b.recent[len(b.recent)-1]
	span := last.at.Sub(first.at)
	if span < time.Second || last.done <= first.done || b.done*20 < b.total {
		return 0, false
	}
	perGame := float64(span) / float64(last.done-first.done)
	return time.Duration(perGame * float64(b.total-b.done)), true
}

// short writes d to the second, or to the tenth under ten seconds.
func short(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// clear removes the line.
func (b *bar) clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
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
}

// newRunBar returns a bar for total games in all. When stderr is not a
// terminal it writes a line of news every logEvery of a long run instead.
func (e *Env) newRunBar(total int) *runBar {
	b := newBar(e.Stderr, total)
	b.log = !e.StderrTTY
	return &runBar{b: b}
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

// stop clears the bar, finished or not.
func (r *runBar) stop() {
	if r != nil {
		r.b.clear()
	}
}
