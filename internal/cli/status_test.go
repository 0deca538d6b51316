package cli

import (
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestStatusLine checks what a long game shows, and when: nothing in its
// first statusAfter or while the strategy's own news is fresh; else the
// guesses played, the codes left when known, and the time.
func TestStatusLine(t *testing.T) {
	start := time.Unix(0, 0)
	s := &status{label: "auto", start: start, left: -1}
	if line, ok := s.line(start.Add(time.Second)); ok {
		t.Errorf("a second in, the status shows %q; want nothing yet", line)
	}
	s.step(mm.Step{Remaining: -1})
	if line, ok := s.line(start.Add(3 * time.Second)); !ok || line != "auto: 1 guess played, guess 2 under way, 3.0s" {
		t.Errorf("3 s in, one guess played, the status is %q, %v", line, ok)
	}
	s.step(mm.Step{Remaining: 1234})
	s.step(mm.Step{Remaining: 56})
	if line, ok := s.line(start.Add(12 * time.Second)); !ok || line != "auto: 3 guesses played, 56 codes left, guess 4 under way, 12s" {
		t.Errorf("12 s in, three guesses played, the status is %q, %v", line, ok)
	}
	s.news = start.Add(11 * time.Second)
	if line, ok := s.line(start.Add(12 * time.Second)); ok {
		t.Errorf("a second after the strategy's news, the status shows %q; want the news kept", line)
	}
}

// TestProgressLineWidth checks that a line of news, the status's or a
// strategy's, is cut short of the terminal's last column (80 where the
// width cannot be read), so that rewriting it in place never wraps.
func TestProgressLineWidth(t *testing.T) {
	var out syncBuffer
	e := &Env{Stderr: &out, StderrTTY: true}
	show, done := e.progressLine()
	show(strings.Repeat("a long line of news ", 10))
	done()
	line := strings.Split(out.String(), "\r\033[K")[1]
	if n := len([]rune(line)); n != 79 {
		t.Errorf("the line shown has %d columns; want 79 on a terminal of 80", n)
	}
}

// TestStatusQuietOffTerminal checks that a status whose stderr is not a
// terminal draws nothing of its own, however long the game.
func TestStatusQuietOffTerminal(t *testing.T) {
	var out syncBuffer
	e := &Env{Stderr: &out}
	s, _ := e.newStatus("auto")
	s.start = s.start.Add(-time.Hour)
	time.Sleep(3 * tickEvery)
	s.stop()
	if out.String() != "" {
		t.Errorf("off a terminal the status wrote %q; want nothing", out.String())
	}
}

// screen returns the lines a terminal shows for out, written by news: a
// carriage return and erase-line start the line again.
func screen(out string) (lines []string, cur string) {
	for _, part := range strings.SplitAfter(out, "\n") {
		text, nl := strings.CutSuffix(part, "\n")
		if i := strings.LastIndex(text, "\r\033[K"); i >= 0 {
			cur, text = "", text[i+len("\r\033[K"):]
		}
		cur += text
		if nl {
			lines, cur = append(lines, cur), ""
		}
	}
	return lines, cur
}

// TestNewsPrintf checks that a line written while news is shown, such as
// optima's "resuming" or "no strategy keeps to", takes the news's place
// rather than landing on its end, and that the news comes back after it.
func TestNewsPrintf(t *testing.T) {
	var out syncBuffer
	e := &Env{Stderr: &out, StderrTTY: true}
	n := e.newsLine()
	n.show(strings.Repeat("a long line of news ", 10))
	n.printf("6x5, least total: resuming, %d parts solved before\n", 3)
	n.show("news again")
	lines, cur := screen(out.String())
	if len(lines) != 1 || lines[0] != "6x5, least total: resuming, 3 parts solved before" || cur != "news again" {
		t.Errorf("the terminal shows %q, then %q; want the line alone, then the news", lines, cur)
	}
	n.done()
	if _, cur := screen(out.String()); cur != "" {
		t.Errorf("after done the terminal shows %q; want the news cleared", cur)
	}
}
