package server_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// solver is a hint solver for the tests: the lowest consistent code, after
// waiting for release (if not nil) or sleeping for delay. It counts its
// calls and how many ran at once. Wrapped in cancellable, it stops when
// its context is done.
type solver struct {
	release chan struct{}
	delay   time.Duration

	mu                   sync.Mutex
	calls, running, most int
	cancelled, completed int
}

func (s *solver) Guess(st *mm.State) (mm.Code, error) {
	return s.guess(context.Background(), st, false)
}

func (s *solver) guess(ctx context.Context, st *mm.State, honour bool) (mm.Code, error) {
	s.mu.Lock()
	s.calls++
	s.running++
	s.most = max(s.most, s.running)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
	}()
	done := ctx.Done()
	if !honour {
		done = nil
	}
	wait := s.release
	if wait == nil {
		t := time.NewTimer(s.delay)
		defer t.Stop()
		wait = make(chan struct{})
		go func() {
			select {
			case <-t.C:
				close(wait)
			case <-done:
			}
		}()
	}
	select {
	case <-wait:
	case <-done:
		s.mu.Lock()
		s.cancelled++
		s.mu.Unlock()
		return mm.Code{}, ctx.Err()
	}
	s.mu.Lock()
	s.completed++
	s.mu.Unlock()
	return firstConsistent(st)
}

// counts returns calls, most at once, cancelled and completed.
func (s *solver) counts() (calls, most, cancelled, completed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.most, s.cancelled, s.completed
}

// cancellable is a solver that stops when its context is done.
type cancellable struct{ *solver }

func (c cancellable) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	return c.guess(ctx, st, true)
}

var _ mm.ContextStrategy = cancellable{}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// A hint is computed once for each state of a game: requests that come
// while it is computed wait for it, and later ones get it remembered.
func TestHintOnce(t *testing.T) {
	s := &solver{release: make(chan struct{})}
	e := newEnv(t, func(srv *server.Server) { srv.Hint = s })
	g := e.newGame(t, `{}`)
	path := "/api/games/" + g.ID + "/hint"
	const clients = 8
	hints := make([]server.Hint, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() { e.callJSON(t, "GET", path, "", 200, &hints[i]) })
	}
	waitFor(t, "the solver to start", func() bool { c, _, _, _ := s.counts(); return c > 0 })
	time.Sleep(50 * time.Millisecond) // let the others arrive (or not: then they find it remembered)
	close(s.release)
	wg.Wait()
	for i, h := range hints {
		if h.Guess != "1111" {
			t.Errorf("client %d: hint %q; want 1111", i, h.Guess)
		}
	}
	if calls, _, _, _ := s.counts(); calls != 1 {
		t.Errorf("%d clients asking for one hint ran the solver %d times; want once", clients, calls)
	}
	// A new state is a new hint, then remembered too.
	e.callJSON(t, "POST", "/api/games/"+g.ID+"/guesses", `{"guess":"1111"}`, 200, nil)
	for range 3 {
		e.callJSON(t, "GET", path, "", 200, nil)
	}
	if calls, _, _, _ := s.counts(); calls != 2 {
		t.Errorf("three hints after one guess: %d solver runs in all; want 2", calls)
	}
}

// A hint that outlasts its timeout answers 503 in time, and the timeout
// reaches a solver that can be cancelled.
func TestHintTimeout(t *testing.T) {
	s := &solver{release: make(chan struct{})}
	defer close(s.release)
	e := newEnv(t, func(srv *server.Server) { srv.Hint, srv.HintTimeout = cancellable{s}, time.Second })
	g := e.newGame(t, `{}`)
	start := time.Now()
	status, _, b := e.call(t, "GET", "/api/games/"+g.ID+"/hint", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(string(b), "took too long") {
		t.Errorf("hint past its timeout: %d %s; want 503 took too long", status, b)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("hint with a 1 s timeout answered after %v", d)
	}
	waitFor(t, "the solver to see the cancellation", func() bool { _, _, c, _ := s.counts(); return c == 1 })
}

// A request that goes away cancels the hint it alone waited for.
func TestHintAbandoned(t *testing.T) {
	s := &solver{release: make(chan struct{})}
	defer close(s.release)
	e := newEnv(t, func(srv *server.Server) { srv.Hint = cancellable{s} })
	g := e.newGame(t, `{}`)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", e.URL+"/api/games/"+g.ID+"/hint", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+g.Token)
	if resp, err := e.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a hint that never comes answered %d", resp.StatusCode)
	}
	waitFor(t, "the solver to be cancelled", func() bool { _, _, c, _ := s.counts(); return c == 1 })
}

// At most HintWorkers solvers run at once on hints not estimated cheap
// (those on large boards), and one more on cheap ones.
// A solver that cannot be cancelled keeps its slot past its timeout, so
// that the limit holds, and its hint, once found, is remembered.
func TestHintWorkers(t *testing.T) {
	for _, tt := range []struct {
		game  string
		delay time.Duration
		most  int
	}{
		{`{"colors":8,"pegs":5}`, 80 * time.Millisecond, 2},
		{`{}`, 30 * time.Millisecond, 3},
	} {
		s := &solver{delay: tt.delay}
		e := newEnv(t, func(srv *server.Server) { srv.Hint, srv.HintWorkers = s, 2 })
		var wg sync.WaitGroup
		for range 6 {
			g := e.newGame(t, tt.game)
			wg.Go(func() { e.callJSON(t, "GET", "/api/games/"+g.ID+"/hint", "", 200, nil) })
		}
		wg.Wait()
		if calls, most, _, _ := s.counts(); calls != 6 || most > tt.most {
			t.Errorf("6 hints of %v on %s: %d solver runs, %d at once; want 6, at most %d", tt.delay, tt.game, calls, most, tt.most)
		}
	}

	stuck := &solver{release: make(chan struct{})}
	e := newEnv(t, func(srv *server.Server) { srv.Hint, srv.HintWorkers, srv.HintTimeout = stuck, 1, time.Second })
	a, b := e.newGame(t, `{"colors":8,"pegs":5}`), e.newGame(t, `{"colors":8,"pegs":5}`)
	status, _, body := e.call(t, "GET", "/api/games/"+a.ID+"/hint", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "took too long") {
		t.Errorf("hint from a stuck solver: %d %s; want 503 took too long", status, body)
	}
	status, _, body = e.call(t, "GET", "/api/games/"+b.ID+"/hint", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "busy") {
		t.Errorf("hint while the only solver is stuck: %d %s; want 503 busy", status, body)
	}
	close(stuck.release)
	waitFor(t, "the stuck solver to finish", func() bool { _, _, _, c := stuck.counts(); return c == 1 })
	var h server.Hint
	waitFor(t, "a's hint to be remembered", func() bool {
		status, _, body := e.call(t, "GET", "/api/games/"+a.ID+"/hint", "")
		return status == 200 && strings.Contains(string(body), "1111")
	})
	e.callJSON(t, "GET", "/api/games/"+b.ID+"/hint", "", 200, &h)
	if calls, most, _, _ := stuck.counts(); calls != 2 || most != 1 {
		t.Errorf("stuck solver: %d runs, %d at once; want 2 (a once, b once), 1", calls, most)
	}
}

// A hint costs the client its share of the solver's time, apart from its
// rate of requests: after a costly hint its next guess goes through at
// once, and only its next hint of a new state waits; a remembered hint
// costs nothing.
func TestHintBudget(t *testing.T) {
	s := &solver{delay: 300 * time.Millisecond}
	// 10 requests a second, and a hint may take 5% of a core with 100 ms
	// at once: 300 ms of solver put the client 200 ms, 4 s, in debt.
	e := newEnv(t, func(srv *server.Server) {
		srv.Hint, srv.Rate, srv.Burst, srv.HintShare, srv.HintBurst = s, 10, 20, 0.05, 100*time.Millisecond
	})
	g := e.newGame(t, `{}`)
	path := "/api/games/" + g.ID
	e.callJSON(t, "GET", path+"/hint", "", 200, nil)
	if status, h, b := e.call(t, "POST", path+"/guesses", `{"guess":"1122"}`); status != 200 {
		t.Fatalf("guess right after a 300 ms hint: %d, Retry-After %q, %s; want 200", status, h.Get("Retry-After"), b)
	}
	e.callJSON(t, "GET", "/api/stats", "", 200, nil)
	status, h, b := e.call(t, "GET", path+"/hint", "")
	wait, _ := strconv.Atoi(h.Get("Retry-After"))
	if status != http.StatusTooManyRequests || wait < 4 || wait > 120 || !strings.Contains(string(b), "guesses are not limited") {
		t.Errorf("hint of a new state after a 300 ms hint: %d, Retry-After %q, %s; want 429 and 4 s, more if the solver was slowed", status, h.Get("Retry-After"), b)
	}
	if status, _, b := e.call(t, "POST", path+"/guesses", `{"guess":"3344"}`); status != 200 {
		t.Errorf("guess while the hint budget is spent: %d %s; want 200", status, b)
	}
	// The budget fills again with time; the hint of a state already
	// computed costs nothing.
	e.clock.Add(time.Duration(wait) * time.Second)
	e.callJSON(t, "GET", path+"/hint", "", 200, nil)
	for range 5 {
		e.callJSON(t, "GET", path+"/hint", "", 200, nil)
	}
	if calls, _, _, _ := s.counts(); calls != 2 {
		t.Errorf("the solver ran %d times; want twice", calls)
	}
}

// Hints and the web page's form follow the server's defaults.
func TestDefaults(t *testing.T) {
	e := newEnv(t, func(srv *server.Server) {
		srv.Defaults = mm.Rules{Colors: 8, Pegs: 5, Distinct: true}
		srv.Limits.DefaultMaxGuesses = 12
	})
	var c server.Config
	e.callJSON(t, "GET", "/api/config", "", 200, &c)
	want := server.Config{Defaults: server.GameDefaults{Colors: 8, Pegs: 5, Distinct: true, MaxGuesses: 12},
		Limits: server.GameLimits{MaxColors: 35, MaxPegs: 20, MaxGuesses: 1000, MaxTimeLimitMs: 86_400_000}, Hints: true,
		Strategies: []string{}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("GET /api/config = %+v; want %+v", c, want)
	}
	tests := []struct {
		body                  string
		colors, pegs, guesses int
		distinct              bool
	}{
		{`{}`, 8, 5, 12, true},
		{`{"colors":10}`, 10, 5, 12, true},
		{`{"pegs":3,"maxGuesses":20}`, 8, 3, 20, true},
		{`{"distinct":false}`, 8, 5, 12, false},
		{`{"colors":6,"pegs":4,"distinct":false}`, 6, 4, 12, false},
	}
	for _, tt := range tests {
		g := e.newGame(t, tt.body)
		if g.Colors != tt.colors || g.Pegs != tt.pegs || g.Distinct != tt.distinct || g.MaxGuesses != tt.guesses {
			t.Errorf("POST /api/games %s = %d × %d, distinct %v, %d guesses; want %d × %d, %v, %d",
				tt.body, g.Colors, g.Pegs, g.Distinct, g.MaxGuesses, tt.colors, tt.pegs, tt.distinct, tt.guesses)
		}
	}
	// Distinct by default, so 4 colours cannot fill 5 pegs.
	e.callJSON(t, "POST", "/api/games", `{"colors":4}`, http.StatusUnprocessableEntity, nil)

	// A server without hints says so.
	e2 := newEnv(t, func(srv *server.Server) { srv.Hint = nil })
	e2.callJSON(t, "GET", "/api/config", "", 200, &c)
	if c.Hints || c.Defaults.Colors != 6 || c.Defaults.Pegs != 4 || c.Defaults.Distinct || c.Defaults.MaxGuesses != 10 {
		t.Errorf("GET /api/config without hints nor defaults = %+v", c)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Handler with Defaults of 40 colours did not panic")
			}
		}()
		(&server.Server{Defaults: mm.Rules{Colors: 40, Pegs: 4}}).Handler()
	}()
}

// A client has one computation of the solver, waiting or at work, at a
// time: a second, even on another game, is refused with 429 and
// Retry-After, so that one client never holds every place in the queue;
// once the first is answered, the client may ask again.
func TestHintOnePerClient(t *testing.T) {
	s := &solver{release: make(chan struct{})}
	e := newEnv(t, func(srv *server.Server) { srv.Hint, srv.Rate, srv.Burst, srv.HintWorkers = s, 100, 200, 1 })
	a, b := e.newGame(t, `{}`), e.newGame(t, `{}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.callJSON(t, "GET", "/api/games/"+a.ID+"/hint", "", 200, nil)
	}()
	waitFor(t, "the solver to start", func() bool { c, _, _, _ := s.counts(); return c > 0 })
	for _, path := range []string{"/api/games/" + b.ID + "/hint", "/api/assist"} {
		status, h, body := e.call(t, map[bool]string{true: "POST", false: "GET"}[path == "/api/assist"], path, `{"history":[]}`)
		if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(string(body), `"error":"a hint, an assist or the coach of yours is under way`) {
			t.Errorf("%s while the client's hint is under way: %d, Retry-After %q, %s; want 429, Retry-After, under way", path, status, h.Get("Retry-After"), body)
		}
	}
	close(s.release)
	<-done
	e.callJSON(t, "GET", "/api/games/"+b.ID+"/hint", "", 200, nil)
}

// slowOnLarge is a solver that takes a while on boards of more than 4096
// codes, stopping when its context is done, and none on smaller ones.
type slowOnLarge struct{ delay time.Duration }

func (s slowOnLarge) Guess(st *mm.State) (mm.Code, error) {
	return s.GuessContext(context.Background(), st)
}

func (s slowOnLarge) GuessContext(ctx context.Context, st *mm.State) (mm.Code, error) {
	if st.Rules().Size() > 4096 {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return mm.Code{}, ctx.Err()
		}
	}
	return firstConsistent(st)
}

// fromAddr returns a client of e whose connections come from the loopback
// address addr: a client of its own to the server's limits.
func fromAddr(e *env, addr string) *server.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	return &server.Client{URL: e.URL, Retries: -1, HTTP: &http.Client{Timeout: time.Minute,
		Transport: &http.Transport{DialContext: d.DialContext}}}
}

// A few addresses asking for expensive hints do not lock others out of
// cheap ones (issue 46: a 6 × 4 hint was refused 503 beside 20 clients
// asking 10 × 8 hints, one solver and a queue of 5): cheap hints have a
// lane of their own, and the queue, shared fairly, takes a newcomer.
func TestHintCheapBesideExpensive(t *testing.T) {
	e := newEnv(t, func(srv *server.Server) {
		srv.Now, srv.Hint, srv.HintWorkers, srv.HintTimeout = nil, slowOnLarge{2 * time.Second}, 1, 30*time.Second
		srv.Rate, srv.Burst, srv.HintShare, srv.HintBurst = 1000, 1000, 1, time.Minute
	})
	ctx := context.Background()
	attack, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	const attackers = 20
	var started atomic.Int64
	for i := range attackers {
		c := fromAddr(e, fmt.Sprintf("127.3.0.%d", i+1))
		g, err := c.NewGame(ctx, server.NewGame{Colors: 8, Pegs: 5})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			started.Add(1)
			c.Hint(attack, g.ID, g.Token) // answered or refused: either will do
		})
	}
	waitFor(t, "the attackers to ask", func() bool { return started.Load() == attackers })
	time.Sleep(100 * time.Millisecond) // their requests in the queue
	victim := fromAddr(e, "127.4.0.1")
	for range 3 {
		g, err := victim.NewGame(ctx, server.NewGame{Colors: 6, Pegs: 4})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := victim.Hint(ctx, g.ID, g.Token); err != nil {
			t.Errorf("a 6 × 4 hint beside %d clients asking 8 × 5 hints: %v; want it answered", attackers, err)
		}
	}
}
