package cli

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A status shows on a terminal how a long game goes: once it has run for
// statusAfter, a line on stderr, redrawn on a clock, with the guesses
// played, the codes left and the time, in place of nothing at all while a
// 30 × 30 game takes its 10 s. The strategy's own news (the optimal
// search's) passes through, and has the line while it is fresh. A nil
// *status does nothing.
type status struct {
	label string
	show  func(string) // the strategy's news: e.progressLine's
	done  func()
	halt  chan struct{}
	once  sync.Once

	mu      sync.Mutex
	start   time.Time
	guesses int
	left    int       // codes left after the last guess; −1 unknown
	news    time.Time // when the strategy's news was last shown
	stopped bool
}

// statusAfter is how long a game runs before its status shows.
const statusAfter = 2 * time.Second

// newStatus returns the status of a game played by the strategy label,
// and the function its strategy's news goes to. At a terminal the status
// draws itself from statusAfter on, until stop.
func (e *Env) newStatus(label string) (*status, func(string)) {
	show, done := e.progressLine()
	s := &status{label: label, show: show, done: done, halt: make(chan struct{}), start: time.Now(), left: -1}
	if e.StderrTTY {
		go s.clock()
	}
	return s, s.relay
}

// relay shows a line of the strategy's news.
func (s *status) relay(line string) {
	s.mu.Lock()
	s.news = time.Now()
	s.mu.Unlock()
	s.show(line)
}

// step notes a guess played.
func (s *status) step(st mm.Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guesses++
	s.left = st.Remaining
}

func (s *status) clock() {
	t := time.NewTicker(tickEvery)
	defer t.Stop()
	for {
		select {
		case <-s.halt:
			return
		case now := <-t.C:
			s.mu.Lock()
			if line, ok := s.line(now); ok && !s.stopped {
				s.show(line)
			}
			s.mu.Unlock()
		}
	}
}

// line returns the status at time now, and whether it is to be shown.
func (s *status) line(now time.Time) (string, bool) {
	elapsed := now.Sub(s.start)
	if elapsed < statusAfter || now.Sub(s.news) < 2*time.Second {
		return "", false
	}
	line := fmt.Sprintf("%s: %s played", s.label, Plural(s.guesses, "guess"))
	if s.left >= 0 {
		line += ", " + strconv.Itoa(s.left) + " codes left"
	}
	line += ", guess " + strconv.Itoa(s.guesses+1) + " under way, " + short(elapsed)
	return line, true
}

// stop ends the clock and clears the line.
func (s *status) stop() {
	s.once.Do(func() {
		s.mu.Lock() // a redraw under way ends first
		s.stopped = true
		s.mu.Unlock()
		close(s.halt)
		s.done()
	})
}
