package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// clock is a settable clock for the server.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// firstConsistent is the hint solver of the tests: the lowest code that
// fits the history.
var firstConsistent = mm.StrategyFunc(func(st *mm.State) (mm.Code, error) {
	if st.Rules().Size() > 1<<16 {
		return mm.Code{}, fmt.Errorf("%w: the test solver takes at most 65536 codes", mm.ErrTooLarge)
	}
	s, err := st.Candidates()
	if err != nil {
		return mm.Code{}, err
	}
	return s.Code(0), nil
})

// env is a server on a real SQLite file, with a settable clock.
type env struct {
	*httptest.Server
	handler http.Handler
	store   *store.Store
	clock   *clock

	mu     sync.Mutex
	tokens map[string]string // of the games created through newGame
}

// newEnv starts a server; configure, if not nil, adjusts it first.
func newEnv(t testing.TB, configure func(*server.Server)) *env {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "games.db"), &store.Options{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	srv := &server.Server{Store: st, Hint: firstConsistent, Now: c.Now, Logf: t.Logf}
	if configure != nil {
		configure(srv)
	}
	h := srv.Handler()
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	return &env{Server: ts, handler: h, store: st, clock: c, tokens: map[string]string{}}
}

// call sends a request as the player would: a POST body as JSON, and the
// game's token if newGame created it. It returns the status, headers and
// body.
func (e *env) call(t testing.TB, method, path, body string) (int, http.Header, []byte) {
	t.Helper()
	hdr := http.Header{}
	if method == http.MethodPost {
		hdr.Set("Content-Type", "application/json")
	}
	if rest, ok := strings.CutPrefix(path, "/api/games/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		e.mu.Lock()
		token := e.tokens[id]
		e.mu.Unlock()
		if token != "" {
			hdr.Set("Authorization", "Bearer "+token)
		}
	}
	return e.send(t, method, path, body, hdr)
}

// send sends a request with the headers hdr and returns the status,
// headers and body.
func (e *env) send(t testing.TB, method, path, body string, hdr http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = hdr
	resp, err := e.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// callJSON sends a request, checks the status and decodes the answer.
func (e *env) callJSON(t testing.TB, method, path, body string, want int, out any) {
	t.Helper()
	status, h, b := e.call(t, method, path, body)
	if status != want {
		t.Fatalf("%s %s %s: status %d; want %d (%s)", method, path, body, status, want, b)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q; want JSON", method, path, ct)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// newGame creates a game and keeps its token for call.
func (e *env) newGame(t testing.TB, body string) *server.Game {
	t.Helper()
	var g server.Game
	e.callJSON(t, "POST", "/api/games", body, http.StatusCreated, &g)
	e.mu.Lock()
	e.tokens[g.ID] = g.Token
	e.mu.Unlock()
	return &g
}

// secret reads a game's secret from the store, as only a test may.
func (e *env) secret(t testing.TB, id string) string {
	t.Helper()
	g, err := e.store.Game(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.Secret.String()
}

// wrong returns a legal guess of the game other than the secret.
func wrong(secret string) string {
	if secret[0] == '1' {
		return "2" + secret[1:]
	}
	return "1" + secret[1:]
}

func TestCreateGame(t *testing.T) {
	e := newEnv(t, nil)
	status, h, b := e.call(t, "POST", "/api/games", `{"colors":8,"pegs":5,"distinct":false,"maxGuesses":35,"timeLimitMs":2000}`)
	if status != http.StatusCreated {
		t.Fatalf("status %d; want 201 (%s)", status, b)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"colors": 8.0, "pegs": 5.0, "distinct": false, "maxGuesses": 35.0,
		"timeLimitMs": 2000.0, "state": "playing", "guesses": 0.0, "remainingMs": 2000.0} {
		if raw[k] != want {
			t.Errorf("%s = %v; want %v in %s", k, raw[k], want, b)
		}
	}
	id, _ := raw["id"].(string)
	if len(id) != 16 {
		t.Errorf("id %q; want 16 characters", id)
	}
	if _, ok := raw["secret"]; ok {
		t.Errorf("a new game shows its secret: %s", b)
	}
	if loc := h.Get("Location"); loc != "/api/games/"+id {
		t.Errorf("Location %q; want /api/games/%s", loc, id)
	}

	// Defaults, with an empty object and with no body at all.
	for _, body := range []string{`{}`, ``, " \n"} {
		g := e.newGame(t, body)
		if g.Colors != 6 || g.Pegs != 4 || g.Distinct || g.MaxGuesses != 10 || g.TimeLimitMs != 0 || g.RemainingMs != nil {
			t.Errorf("POST /api/games %q = %+v; want classic rules, 10 guesses, no time limit", body, g)
		}
	}
	// Secrets are drawn at random and obey the rules.
	seen := map[string]bool{}
	for range 20 {
		g := e.newGame(t, `{"colors":10,"pegs":6,"distinct":true}`)
		s := e.secret(t, g.ID)
		if _, err := (mm.Rules{Colors: 10, Pegs: 6, Distinct: true}).ParseCode(s); err != nil {
			t.Errorf("secret %s: %v", s, err)
		}
		seen[s] = true
	}
	if len(seen) < 15 {
		t.Errorf("20 games drew only %d different secrets", len(seen))
	}
}

func TestCreateGameErrors(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		body   string
		status int
		msg    string // part of the error message
	}{
		{`{"colors":1}`, 422, "colours"},
		{`{"colors":36}`, 422, "colours"},
		{`{"colors":-3}`, 422, "colours"},
		{`{"pegs":21}`, 422, "pegs"},
		{`{"pegs":-1}`, 422, "pegs"},
		{`{"maxGuesses":1001}`, 422, "maxGuesses"},
		{`{"maxGuesses":-1}`, 422, "maxGuesses"},
		{`{"timeLimitMs":-1}`, 422, "timeLimitMs"},
		{`{"timeLimitMs":86400001}`, 422, "timeLimitMs"},
		{`{"colors":4,"pegs":5,"distinct":true}`, 422, "distinct"},
		{`{"colors":"8"}`, 422, "colors must be a whole number"},
		{`{"pegs":4.5}`, 422, "pegs must be a whole number"},
		{`{"distinct":"yes"}`, 422, "distinct must be a boolean"},
		{`{"colors":1e100}`, 422, "colors"},
		{`{"colours":8}`, 400, "unknown field"},
		{`{"colors":8`, 400, "JSON"},
		{`[1,2]`, 400, "JSON object"},
		{`{} {}`, 400, "more than one"},
		{`null`, 400, "JSON object"},
		{`"colors"`, 400, "JSON object"},
		{`8`, 400, "JSON object"},
		{`true`, 400, "JSON object"},
		{`{"colors":8}x`, 400, "JSON"},
		{`{"colors":8} `, 201, ""},
		{`{"pegs":5,"colors":8}` + strings.Repeat(" ", 70<<10), 413, ""},
		{strings.Repeat(`{"colors":8,`, 6000), 413, ""},
	}
	for _, tt := range tests {
		status, _, b := e.call(t, "POST", "/api/games", tt.body)
		name := tt.body
		if len(name) > 60 {
			name = name[:60] + "…"
		}
		if status != tt.status {
			t.Errorf("POST /api/games %s: status %d; want %d (%s)", name, status, tt.status, b)
			continue
		}
		if status < 400 {
			continue
		}
		var e server.Error
		if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
			t.Errorf("POST /api/games %s: body %s is not a JSON error", name, b)
		}
		if !strings.Contains(e.Error, tt.msg) {
			t.Errorf("POST /api/games %s: error %q; want it to mention %q", name, e.Error, tt.msg)
		}
	}
}

func TestPlayToTheEnd(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"colors":8,"pegs":5}`)
	secret := e.secret(t, g.ID)
	path := "/api/games/" + g.ID

	var f server.Feedback
	e.callJSON(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, wrong(secret)), 200, &f)
	if f.Guesses != 1 || f.State != "playing" || f.Secret != "" || f.Black != 4 {
		t.Errorf("first guess = %+v; want 4 black, 1 guess, playing, no secret", f)
	}
	var got server.Game
	e.callJSON(t, "GET", path, "", 200, &got)
	if got.Secret != "" || got.State != "playing" || len(got.History) != 1 || got.History[0].Guess != wrong(secret) {
		t.Errorf("GET during play = %+v", got)
	}

	// Spaces and commas between pegs are allowed.
	spaced := strings.Join(strings.Split(secret, ""), ", ")
	e.callJSON(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, spaced), 200, &f)
	want := server.Feedback{Black: 5, Guesses: 2, State: "won", Secret: secret}
	if f != want {
		t.Errorf("winning guess = %+v; want %+v", f, want)
	}
	e.callJSON(t, "GET", path, "", 200, &got)
	if got.Secret != secret || got.State != "won" || got.Guesses != 2 || len(got.History) != 2 ||
		got.History[1] != (server.Turn{Guess: secret, Black: 5}) {
		t.Errorf("GET after the end = %+v", got)
	}
	status, _, b := e.call(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, secret))
	if status != http.StatusConflict || !strings.Contains(string(b), "game over") {
		t.Errorf("guess after the end: %d %s; want 409 game over", status, b)
	}
	e.callJSON(t, "GET", path+"/hint", "", http.StatusConflict, nil)
}

func TestGuessErrors(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"colors":6,"pegs":4,"distinct":true}`)
	path := "/api/games/" + g.ID + "/guesses"
	tests := []struct {
		body   string
		status int
	}{
		{`{"guess":"123"}`, 422},
		{`{"guess":"12345"}`, 422},
		{`{"guess":"1237"}`, 422},
		{`{"guess":"1123"}`, 422}, // repeats a colour
		{`{"guess":"12x4"}`, 422},
		{`{"guess":"1234\u0000"}`, 422},
		{`{"guess":""}`, 422},
		{`{}`, 422},
		{``, 422},
		{`{"guess":1234}`, 422},
		{`{"guess":["1","2","3","4"]}`, 422},
		{`{"guess":"1234","extra":1}`, 400},
		{`guess=1234`, 400},
		{`{"guess":"` + strings.Repeat("1", 70<<10) + `"}`, 413},
	}
	for _, tt := range tests {
		status, _, b := e.call(t, "POST", path, tt.body)
		if status != tt.status {
			t.Errorf("POST %s: status %d; want %d (%s)", tt.body[:min(len(tt.body), 40)], status, tt.status, b)
		}
	}
	var got server.Game
	e.callJSON(t, "GET", "/api/games/"+g.ID, "", 200, &got)
	if got.Guesses != 0 || got.State != "playing" {
		t.Errorf("after bad guesses: %d guesses, %s; want 0, playing", got.Guesses, got.State)
	}
	e.tokens["nosuchgame"] = g.Token // any token: the game is not there
	e.callJSON(t, "POST", "/api/games/nosuchgame/guesses", `{"guess":"1234"}`, http.StatusNotFound, nil)
	e.callJSON(t, "GET", "/api/games/nosuchgame", "", http.StatusNotFound, nil)
	e.callJSON(t, "GET", "/api/games/nosuchgame/hint", "", http.StatusNotFound, nil)
}

func TestGuessLimit(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"maxGuesses":2}`)
	secret := e.secret(t, g.ID)
	path := "/api/games/" + g.ID + "/guesses"
	var f server.Feedback
	body := fmt.Sprintf(`{"guess":%q}`, wrong(secret))
	e.callJSON(t, "POST", path, body, 200, &f)
	e.callJSON(t, "POST", path, body, 200, &f)
	if f.State != "lost" || f.Secret != secret || f.Guesses != 2 {
		t.Errorf("last guess = %+v; want lost, 2 guesses, secret %s", f, secret)
	}
	e.callJSON(t, "POST", path, body, http.StatusConflict, nil)
}

func TestTimeLimit(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"colors":8,"pegs":5,"maxGuesses":35,"timeLimitMs":2000}`)
	secret := e.secret(t, g.ID)
	path := "/api/games/" + g.ID
	body := fmt.Sprintf(`{"guess":%q}`, wrong(secret))

	e.clock.Add(1500 * time.Millisecond)
	e.callJSON(t, "POST", path+"/guesses", body, 200, nil)
	var got server.Game
	e.callJSON(t, "GET", path, "", 200, &got)
	if got.RemainingMs == nil || *got.RemainingMs != 500 || got.Secret != "" {
		t.Errorf("GET at 1.5 s = %+v; want 500 ms left, no secret", got)
	}
	// The server's clock alone decides: 2.001 s after creation is too late.
	e.clock.Add(501 * time.Millisecond)
	status, _, b := e.call(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, secret))
	if status != http.StatusConflict || !strings.Contains(string(b), "time is up") {
		t.Errorf("late guess: %d %s; want 409 time is up", status, b)
	}
	got = server.Game{}
	e.callJSON(t, "GET", path, "", 200, &got)
	if got.State != "lost" || got.Secret != secret || got.Guesses != 1 || got.RemainingMs != nil {
		t.Errorf("GET after time out = %+v; want lost with the secret and 1 guess", got)
	}

	// A game that times out with no guess since is lost as well.
	g2 := e.newGame(t, `{"timeLimitMs":1000}`)
	e.clock.Add(time.Second + time.Millisecond)
	e.callJSON(t, "GET", "/api/games/"+g2.ID, "", 200, &got)
	if got.State != "lost" || got.Secret == "" {
		t.Errorf("GET of an expired game = %+v; want lost with the secret", got)
	}
	e.callJSON(t, "GET", "/api/games/"+g2.ID+"/hint", "", http.StatusConflict, nil)
}

// slowBody is a request body that lets the clock pass before it gives its
// content, as a client holding back the body of a guess would: on the
// first read it calls wait, then reads what body returns.
type slowBody struct {
	wait func() (body string)
	r    io.Reader
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.r == nil {
		b.r = strings.NewReader(b.wait())
	}
	return b.r.Read(p)
}

// TestTimeLimitSlowBody sends the headers of a guess in time and its body
// after the deadline, once GET has shown the secret of the lost game: the
// guess must be late, not a win.
func TestTimeLimitSlowBody(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"timeLimitMs":2000}`)
	path := "/api/games/" + g.ID
	var leaked string
	body := &slowBody{wait: func() string {
		e.clock.Add(2001 * time.Millisecond)
		var got server.Game
		e.callJSON(t, "GET", path, "", 200, &got)
		leaked = got.Secret
		return fmt.Sprintf(`{"guess":%q}`, leaked)
	}}
	req, err := http.NewRequest("POST", e.URL+path+"/guesses", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+g.Token)
	resp, err := e.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if leaked == "" {
		t.Fatal("GET after the deadline did not show the secret")
	}
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("guess whose body came after the deadline: %d %s; want 409", resp.StatusCode, b)
	}
}

func TestHint(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{}`)
	path := "/api/games/" + g.ID
	var h server.Hint
	e.callJSON(t, "GET", path+"/hint", "", 200, &h)
	if h.Guess != "1111" {
		t.Errorf("first hint %q; want 1111", h.Guess)
	}
	// Following the hints wins the game: each is consistent with the history.
	for range 10 {
		var f server.Feedback
		e.callJSON(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, h.Guess), 200, &f)
		if f.State != "playing" {
			if f.State != "won" {
				t.Fatalf("following the hints: %+v", f)
			}
			break
		}
		e.callJSON(t, "GET", path+"/hint", "", 200, &h)
	}
	// Too large for the solver: a clear error, not a hang.
	big := e.newGame(t, `{"colors":20,"pegs":10}`)
	status, _, b := e.call(t, "GET", "/api/games/"+big.ID+"/hint", "")
	if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), "too large") {
		t.Errorf("hint on 20x10: %d %s; want 422 space too large", status, b)
	}

	// No solver, no hints.
	e2 := newEnv(t, func(s *server.Server) { s.Hint = nil })
	g2 := e2.newGame(t, `{}`)
	e2.callJSON(t, "GET", "/api/games/"+g2.ID+"/hint", "", http.StatusNotImplemented, nil)

	// A solver that fails for another reason is the server's fault.
	e3 := newEnv(t, func(s *server.Server) {
		s.Hint = mm.StrategyFunc(func(*mm.State) (mm.Code, error) { return mm.Code{}, errors.New("broken") })
	})
	g3 := e3.newGame(t, `{}`)
	e3.callJSON(t, "GET", "/api/games/"+g3.ID+"/hint", "", http.StatusInternalServerError, nil)
}

func TestStats(t *testing.T) {
	e := newEnv(t, nil)
	var s server.Stats
	e.callJSON(t, "GET", "/api/stats", "", 200, &s)
	if s.Played != 0 || len(s.Rules) != 0 {
		t.Errorf("stats of an empty server = %+v", s)
	}
	win := func(body string, wrongs int) {
		g := e.newGame(t, body)
		secret := e.secret(t, g.ID)
		for range wrongs {
			e.callJSON(t, "POST", "/api/games/"+g.ID+"/guesses", fmt.Sprintf(`{"guess":%q}`, wrong(secret)), 200, nil)
		}
		e.callJSON(t, "POST", "/api/games/"+g.ID+"/guesses", fmt.Sprintf(`{"guess":%q}`, secret), 200, nil)
	}
	win(`{}`, 2)
	win(`{}`, 3)
	win(`{"colors":8,"pegs":5}`, 0)
	e.newGame(t, `{"colors":8,"pegs":5,"timeLimitMs":10}`)
	e.newGame(t, `{"colors":8,"pegs":5}`)
	e.clock.Add(time.Second)
	e.callJSON(t, "GET", "/api/stats", "", 200, &s)
	want := server.Stats{Played: 5, Won: 3, Lost: 1, MeanGuesses: 2.667, Rules: []server.RulesStats{
		{Colors: 6, Pegs: 4, Played: 2, Won: 2, MeanGuesses: 3.5},
		{Colors: 8, Pegs: 5, Played: 3, Won: 1, Lost: 1, MeanGuesses: 1},
	}}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Errorf("stats = %+v; want %+v", s, want)
	}
	// An answer is reused for a second.
	e.newGame(t, `{}`)
	e.clock.Add(999 * time.Millisecond)
	e.callJSON(t, "GET", "/api/stats", "", 200, &s)
	if s.Played != 5 {
		t.Errorf("stats 999 ms later: %d played; want the 5 of the answer reused", s.Played)
	}
	e.clock.Add(time.Millisecond)
	e.callJSON(t, "GET", "/api/stats", "", 200, &s)
	if s.Played != 6 {
		t.Errorf("stats a second later: %d played; want 6", s.Played)
	}
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, func(s *server.Server) { s.Rate, s.Burst = 1, 3 })
	for i := range 3 {
		e.callJSON(t, "GET", "/api/stats", "", 200, nil)
		_ = i
	}
	status, h, b := e.call(t, "GET", "/api/stats", "")
	if status != http.StatusTooManyRequests || h.Get("Retry-After") != "1" || !strings.Contains(string(b), `"error"`) {
		t.Errorf("fourth request: %d, Retry-After %q, %s; want 429, 1, a JSON error", status, h.Get("Retry-After"), b)
	}
	// The server's clock refills the bucket.
	e.clock.Add(time.Second)
	e.callJSON(t, "GET", "/api/stats", "", 200, nil)

	// An IPv6 client is its /64: its addresses share one bucket.
	from := func(addr string) int {
		r := httptest.NewRequest("GET", "/api/stats", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, r)
		return w.Code
	}
	for i := range 3 {
		if code := from(fmt.Sprintf("[2001:db8:0:1::%x]:443", i+1)); code != 200 {
			t.Fatalf("request %d from 2001:db8:0:1::/64: %d; want 200", i+1, code)
		}
	}
	if code := from("[2001:db8:0:1:ffff::9]:443"); code != http.StatusTooManyRequests {
		t.Errorf("fourth request from 2001:db8:0:1::/64, from a new address: %d; want 429", code)
	}
	if code := from("[2001:db8:0:2::1]:443"); code != 200 {
		t.Errorf("request from the next /64: %d; want 200", code)
	}
	for i := range 3 {
		if code := from(fmt.Sprintf("192.0.2.%d:80", i+1)); code != 200 {
			t.Errorf("first request from 192.0.2.%d: %d; want 200: IPv4 addresses are clients of their own", i+1, code)
		}
	}
}

func TestRoutes(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		method, path string
		status       int
		ctype        string
		contains     string
	}{
		{"GET", "/", 200, "text/html", "<title>Mastermind</title>"},
		{"GET", "/app.js", 200, "text/javascript", "/api/games"},
		{"GET", "/style.css", 200, "text/css", ".peg"},
		{"POST", "/", 405, "text/plain", ""},
		{"GET", "/nothing.html", 404, "text/plain", ""},
		// Not UTF-8: 404 as for any page not there, not 500.
		{"GET", "/%ff", 404, "text/plain", ""},
		{"GET", "/a%80b", 404, "text/plain", ""},
		{"GET", "/api/%ff", 404, "application/json", `"error"`},
		{"GET", "/api/nothing", 404, "application/json", `"error"`},
		{"GET", "/api/games", 405, "application/json", `"error"`},
		{"DELETE", "/api/games/x", 405, "application/json", `"error"`},
		{"PUT", "/api/stats", 405, "application/json", `"error"`},
	}
	for _, tt := range tests {
		status, h, b := e.call(t, tt.method, tt.path, "")
		if status != tt.status || !strings.HasPrefix(h.Get("Content-Type"), tt.ctype) || !strings.Contains(string(b), tt.contains) {
			t.Errorf("%s %s = %d %s %.80q; want %d %s containing %q", tt.method, tt.path, status, h.Get("Content-Type"), b, tt.status, tt.ctype, tt.contains)
		}
		if status == 405 && h.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tt.method, tt.path)
		}
	}
	_, h, _ := e.call(t, "GET", "/", "")
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("page CSP %q; want default-src 'self'", csp)
	}
}

// TestAdversaryGame plays a game whose codemaker holds no code: knuth's
// line is answered as Set.Evade answers it and wins at the fifth guess; a
// game lost reveals a code consistent with every answer; big variants are
// refused.
func TestAdversaryGame(t *testing.T) {
	e := newEnv(t, nil)
	g := e.newGame(t, `{"adversary":true}`)
	if !g.Adversary {
		t.Errorf("created game = %+v; want adversary", g)
	}
	path := "/api/games/" + g.ID
	var f server.Feedback
	for i, guess := range []string{"1122", "3345", "3636", "4544", "5455"} {
		e.callJSON(t, "POST", path+"/guesses", fmt.Sprintf(`{"guess":%q}`, guess), 200, &f)
		if i < 4 && f.State != "playing" {
			t.Fatalf("guess %s = %+v; want playing", guess, f)
		}
	}
	if f.State != "won" || f.Secret != "5455" {
		t.Errorf("knuth's fifth guess = %+v; want won, secret 5455", f)
	}

	lost := e.newGame(t, `{"adversary":true,"maxGuesses":2}`)
	for _, guess := range []string{"1122", "3456"} {
		e.callJSON(t, "POST", "/api/games/"+lost.ID+"/guesses", fmt.Sprintf(`{"guess":%q}`, guess), 200, &f)
	}
	var got server.Game
	e.callJSON(t, "GET", "/api/games/"+lost.ID, "", 200, &got)
	secret, err := mm.Classic.ParseCode(got.Secret)
	if got.State != "lost" || err != nil {
		t.Fatalf("lost game = %+v (%v)", got, err)
	}
	for _, turn := range got.History {
		c, _ := mm.Classic.ParseCode(turn.Guess)
		if fb := mm.Score(secret, c); fb.Black != turn.Black || fb.White != turn.White {
			t.Errorf("revealed %s gives %v to %s, not %d %d", secret, fb, turn.Guess, turn.Black, turn.White)
		}
	}
	status, _, b := e.call(t, "POST", "/api/games", `{"adversary":true,"colors":9,"pegs":6}`)
	if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), "at most 65536 codes") {
		t.Errorf("adversary on 9 x 6: %d %s; want 422 naming the size", status, b)
	}
}

// busyStore answers every guess with the Store's error for a guess that
// met too many others at once.
type busyStore struct{ *store.Store }

func (busyStore) Play(context.Context, string, []byte, mm.Code, time.Time) (mm.Feedback, int, mm.GameStatus, error) {
	return mm.Feedback{}, 0, mm.Playing, &store.BusyError{Err: errors.New("mastermind: game x: too many guesses at once on an adversary game; try again"), After: 2 * time.Second}
}

// A guess that meets too many others at once in the Store, as on an
// adversary game, is answered 503 with the Store's Retry-After, and is not
// logged as the server's error.
func TestGuessBusy(t *testing.T) {
	e := newEnv(t, nil)
	srv := &server.Server{Store: busyStore{e.store}, Now: e.clock.Now, Logf: func(format string, args ...any) {
		t.Errorf("logged: "+format, args...)
	}}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	e.Server = ts
	g := e.newGame(t, `{}`)
	status, h, b := e.call(t, "POST", "/api/games/"+g.ID+"/guesses", `{"guess":"1234"}`)
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") != "2" || !strings.Contains(string(b), "too many guesses at once") {
		t.Errorf("guess the Store found busy: %d, Retry-After %q, %s; want 503, Retry-After 2", status, h.Get("Retry-After"), b)
	}
}

// Reads of /api/stats, whose answer changes once a second, are bounded
// far below the rate of requests, per client, and a refusal, like every
// refusal that says when to try again, is answered after a pause: a
// client that asks again at once sends a few requests a second, not
// thousands (issue 46: 16 clients reading stats at 200 a second, or
// asking again at once when refused, took a third of the guesses).
func TestStatsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *server.Server) { s.Rate, s.Burst = 1000, 1000 })
	ctx := context.Background()
	a, b := fromAddr(e, "127.6.0.1"), fromAddr(e, "127.6.0.2")
	answered := 0
	var refused *server.APIError
	for range 20 {
		_, err := a.Stats(ctx)
		if err == nil {
			answered++
			continue
		}
		if !errors.As(err, &refused) {
			t.Fatal(err)
		}
		break
	}
	if answered > 8 || refused == nil || refused.Status != http.StatusTooManyRequests || !strings.Contains(refused.Message, "once a second") {
		t.Fatalf("20 reads of /api/stats at once: %d answered, then %v; want at most 8, then 429", answered, refused)
	}
	if _, err := b.Stats(ctx); err != nil {
		t.Errorf("another client's read of /api/stats: %v", err)
	}
	// The server's clock lets the client read again.
	e.clock.Add(time.Second)
	if _, err := a.Stats(ctx); err != nil {
		t.Errorf("a read of /api/stats a second later: %v", err)
	}
	// A refusal comes after a pause, whether of stats' bound (answered
	// by the handler) or of the rate (by the limit before it).
	e2 := newEnv(t, func(s *server.Server) { s.Rate, s.Burst = 1, 1 })
	for _, c := range []struct {
		what string
		e    *env
		path string
	}{
		{"/api/stats over its bound", e, "/api/stats"},
		{"a request over the rate", e2, "/api/config"},
	} {
		for i := 0; ; i++ {
			start := time.Now()
			status, h, _ := c.e.call(t, "GET", c.path, "")
			if status == 200 && i < 20 {
				continue
			}
			if d := time.Since(start); status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || d < 200*time.Millisecond {
				t.Errorf("%s: %d, Retry-After %q, after %v; want 429 with Retry-After after a pause", c.what, status, h.Get("Retry-After"), d)
			}
			break
		}
	}
}
