// Package server is the Mastermind game server: an HTTP JSON API where the
// server holds the secret and answers guesses, and an embedded web page to
// play on it. Client plays any server of this API.
//
// # API
//
//	POST /api/games                 {"colors":8,"pegs":5,"distinct":false,"maxGuesses":35,"timeLimitMs":2000}
//	                                → 201 Game, state "playing", with its token
//	POST /api/games/{id}/guesses    {"guess":"11223"} → 200 Feedback (the player's token required)
//	GET  /api/games/{id}            → 200 Game with its history, for anyone
//	GET  /api/games/{id}/hint       → 200 {"guess":"…"}, the server's solver's next guess (the token required)
//	GET  /api/stats                 → 200 Stats, at most a second old
//	GET  /api/config                → 200 Config: the defaults and limits of new games
//
// Errors are JSON, {"error":"…"}: 400 for a body that is not a JSON object
// or breaks off, 401 for a guess or hint without "Authorization: Bearer
// TOKEN", 403 with another game's token, 404 for an unknown game, 405 for a
// method that the path does not take, 408 for a body still incomplete at
// the server's read timeout, 409 for a guess on a game that is over or out
// of time, 413 for a body over 64 KiB, 415 for a body that is not sent as
// application/json, 422 for bad rules or a malformed guess (not counted as
// a guess), 429 when one client sends too many requests, or asks for a
// hint, an assist or the coach with its share of the solver spent (never
// for a guess), 501 for a hint from a server that gives none, and 503 when
// the solver is busy or takes too long; 429 and the busy 503 say when to
// try again with Retry-After. Error messages quote at most about 100 bytes
// of the request.
//
// # Owners
//
// Creating a game answers with a token, shown only then: the player's
// proof of ownership, which guesses and hints must carry as "Authorization:
// Bearer TOKEN". The server keeps only its SHA-256. Reading a game needs no
// token, so that others may watch; the secret is shown only once the game
// is over. Guesses and new games must be sent as application/json, which a
// web page of another site cannot send without the browser asking this
// server first (CORS), and this server never agrees.
//
// # Fairness
//
// The secret is drawn with crypto/rand and leaves the server only once the
// game is over. The time limit runs on the server's clock from the game's
// creation; a guess counts at the moment its whole request has been read.
// Guesses on one game are serialised by the Store, and a guess is
// acknowledged only once it is durable.
//
// # Load
//
// A client is a remote IPv4 address, or an IPv6 /64 network, and may send
// Rate requests a second. Hints are computed at most once for each state
// of a game, by at most HintWorkers solvers at once, and one more for
// hints estimated cheap (a lane of their own, so that a hint on a small
// board never waits behind one on a large board), within HintTimeout of
// waiting and running. The solvers go round the clients in the order of
// the solver time each has had, so that a few clients cannot hold them;
// a few computations wait for each lane at most, and past that the one of
// the client that had the most is refused with 503 and Retry-After. Each
// client has a budget of the solver's time (HintShare) apart from its
// rate: hints, assists and the coach spend it, one at a time (a second
// under way is refused with 429 and Retry-After), and guesses never wait
// for it. While guesses come in,
// the solvers run 15% of the time at most, on threads of the lowest
// priority, so that the writer and the guesses always have the cores; a
// hint then takes about seven times as long, its pauses not counted in
// HintTimeout, but at most 25 s by the clock, within WriteTimeout. Stats
// cost O(variants) in the Store, and an answer is encoded once a second
// and reused; where there is a Rate, a client may read it 4 times a
// second. Every refusal that says when to try again is answered after a
// pause of 250 ms, so that a client that asks again at once, rather than
// after Retry-After, sends a few requests a second.
// With package store, an adversary game's guess costs O(codes) whatever
// its turns, worked out outside the writer, and one that meets too many
// others at once is answered 503 with Retry-After. A client may have
// MaxAdversary adversary games in play at once; a new one beyond is
// refused with 429 and Retry-After.
package server

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"log"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Store keeps the games. Its methods must be safe for concurrent use.
//
// A game's owner is known by a key, the SHA-256 of its token, which the
// Store keeps and compares; a nil key given to Game or Guess skips the
// check.
type Store interface {
	// CreateGame stores a new game, owned by key, durably.
	CreateGame(ctx context.Context, g *mm.Game, key []byte) error
	// Game returns a game, or an error wrapping mm.ErrUnknownGame, or
	// mm.ErrNotPlayer if key is not nil and not the owner's.
	Game(ctx context.Context, id string, key []byte) (*mm.Game, error)
	// Play plays guess c, made at time at, in game id (mm.Game.Guess),
	// serialised with every other guess of that game, and returns, once
	// the turn is durable, its answer, the number of turns the game has
	// with it and the game's status after it, without reading the game's
	// turns. Its errors wrap mm.ErrUnknownGame, mm.ErrNotPlayer,
	// mm.ErrInvalidCode, mm.ErrGameOver or mm.ErrTimeUp, or, for a guess
	// that met too many others at once, an error with a method
	// RetryAfter() time.Duration, answered 503 with Retry-After.
	Play(ctx context.Context, id string, key []byte, c mm.Code, at time.Time) (f mm.Feedback, turns int, status mm.GameStatus, err error)
	// Stats returns the games of each variant; a game in play past its
	// deadline at time now counts as lost.
	Stats(ctx context.Context, now time.Time) ([]mm.GameStats, error)
}

// Limits bound the games a server accepts. Zero fields take the defaults
// in DefaultLimits.
type Limits struct {
	MaxColors         int           // at most the 35 symbols of the default alphabet
	MaxPegs           int           // pegs of a code
	MaxGuesses        int           // the largest guess limit a game may ask for
	DefaultMaxGuesses int           // the guess limit of a game that does not ask
	MaxTimeLimit      time.Duration // the longest time limit a game may ask for
	// MaxLog10Codes is log₁₀ of the most codes a game's variant may have:
	// hints on a game must be computable.
	MaxLog10Codes float64
}

// DefaultLimits are the limits of a server whose Limits are zero.
var DefaultLimits = Limits{
	MaxColors:         len(mm.DefaultSymbols),
	MaxPegs:           20,
	MaxGuesses:        1000,
	DefaultMaxGuesses: 10,
	MaxTimeLimit:      24 * time.Hour,
	// 30 × 30, the largest variant the sampler that hints on large games
	// plays (large.MaxLog10Size; a test keeps the two equal). Within
	// MaxPegs and MaxColors the largest game is 35 colours × 20 pegs.
	MaxLog10Codes: mm.Rules{Colors: 30, Pegs: 30}.Log10Size(),
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxColors <= 0 || l.MaxColors > d.MaxColors {
		l.MaxColors = d.MaxColors
	}
	if l.MaxPegs <= 0 || l.MaxPegs > mm.MaxPegs {
		l.MaxPegs = d.MaxPegs
	}
	if l.MaxLog10Codes <= 0 || l.MaxLog10Codes > d.MaxLog10Codes {
		l.MaxLog10Codes = d.MaxLog10Codes
	}
	if l.MaxGuesses <= 0 {
		l.MaxGuesses = d.MaxGuesses
	}
	if l.DefaultMaxGuesses <= 0 {
		l.DefaultMaxGuesses = min(d.DefaultMaxGuesses, l.MaxGuesses)
	}
	if l.MaxTimeLimit <= 0 {
		l.MaxTimeLimit = d.MaxTimeLimit
	}
	return l
}

// MaxBody is the largest request body the server reads.
const MaxBody = 64 << 10

// DefaultHintShare is the HintShare of a Server that leaves it zero: a
// client may keep the solver busy 5% of the time, which covers a person
// asking for a hint every turn on the largest board the web page offers
// (up to about 0.8 s of solver on 35 × 20 with serve's solver, one turn
// in 15 s or more), where 2% stopped one on 10 × 8 at the fourth hint;
// a script gets a hint of that size every 16 s. The solvers' fair share
// among clients, not this, keeps many clients from crowding one out.
const DefaultHintShare = 0.05

// DefaultHintBurst is the HintBurst of a Server that leaves it zero: a
// dozen hints of the largest games in a row.
const DefaultHintBurst = 10 * time.Second

// Server serves the API and the web page. Fill in its fields, then serve
// Handler(); the fields must not change afterwards.
type Server struct {
	// Store keeps the games. It is required.
	Store Store
	// Defaults is the variant of a new game whose request leaves it out,
	// and the one the web page offers first; zero fields mean classic
	// Mastermind's. It must be valid under Limits.
	Defaults mm.Rules
	// Hint is the solver behind GET /api/games/{id}/hint; nil disables
	// hints. It sees only what the player sees (the rules and the history),
	// never the secret. It is asked through mm.GuessContext, so a
	// ContextStrategy stops when a hint's time is up; it must bound its own
	// cost, failing with an error that wraps mm.ErrTooLarge for variants it
	// will not take on.
	Hint mm.Strategy
	// Strategies are the strategies that POST /api/assist may be asked
	// for by name, besides Hint, which it plays when asked for none; GET
	// /api/config lists their names. Each must bound its cost as Hint
	// must. Nil offers Hint alone.
	Strategies map[string]mm.Strategy
	// HintTimeout bounds the time of a hint, an assist or the coach:
	// queueing for a solver and the solver's running time, not the pauses
	// its pace adds while guesses come in, which a wall of 25 s by the
	// clock bounds (or HintTimeout, if longer); 0 means 10 seconds.
	HintTimeout time.Duration
	// HintWorkers is the number of hints computed at once, besides one
	// for hints estimated cheap; 0 means one less than GOMAXPROCS, and at
	// least one, so that hints never take every core from the guesses.
	HintWorkers int
	// HintShare is the share of one core that a client may keep the solver
	// busy for, on average, when the server has a Rate: each client has a
	// budget of the solver's time, apart from its rate of requests, which
	// fills at HintShare seconds a second up to HintBurst, and which each
	// hint, assist or coach pays for the solver's time it took. A client
	// whose budget is spent is refused those (429) until it fills again,
	// but may still guess: the server's help never locks a player out of
	// a game. A hint already computed for the same state of the game costs
	// nothing. 0 means DefaultHintShare.
	HintShare float64
	// HintBurst is the most solver time a client's budget holds; 0 means
	// DefaultHintBurst.
	HintBurst time.Duration
	// Limits bound the games the server accepts.
	Limits Limits
	// Rate is the number of requests per second one client (one remote
	// IPv4 address or IPv6 /64 network) may make, with bursts of Burst;
	// 0 means no limit.
	Rate  float64
	Burst int
	// MaxAdversary is the most adversary games one client (as for Rate)
	// may have in play at once; 0 means no limit. A game stops counting
	// when it ends, when its time is up, and once it has gone
	// AdversaryIdle without a guess; a new one beyond the most is refused
	// with 429 and Retry-After, saying so. The count is kept in memory,
	// and a restart forgets it.
	MaxAdversary int
	// Now is the server's clock; nil means time.Now.
	Now func() time.Time
	// Logf logs errors that are the server's fault; nil means log.Printf.
	Logf func(format string, args ...any)
}

//go:embed web
var webFS embed.FS

// Handler returns the handler of the API and the web page. Each call
// returns a new handler with its own rate limits and hint cache. It panics
// if Defaults are not valid under Limits.
func (s *Server) Handler() http.Handler {
	h := &handler{Server: s, limits: s.Limits.withDefaults(), now: s.Now, logf: s.Logf}
	if h.now == nil {
		h.now = time.Now
	}
	if h.logf == nil {
		h.logf = log.Printf
	}
	h.defaults = s.Defaults.WithDefaults()
	if err := h.checkRules(h.defaults); err != nil {
		panic("server: Defaults: " + err.Error())
	}
	if s.Rate > 0 {
		h.limiter = newLimiter(rate.Limit(s.Rate), max(1, s.Burst), h.now)
		h.statsLimiter = newLimiter(statsRate, statsBurst, h.now)
	}
	if s.MaxAdversary > 0 {
		h.open = newOpenGames(s.MaxAdversary, AdversaryIdle, h.now())
	}
	if s.Hint != nil {
		timeout := s.HintTimeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		workers := s.HintWorkers
		if workers <= 0 {
			workers = max(1, runtime.GOMAXPROCS(0)-1)
		}
		var budget *limiter
		if s.Rate > 0 {
			budget = newHintBudget(s.HintShare, s.HintBurst, h.now)
		}
		h.hints = newHinter(s.Hint, timeout, workers, budget)
	}
	api := http.NewServeMux()
	api.HandleFunc("POST /api/games", h.createGame)
	api.HandleFunc("GET /api/games/{id}", h.getGame)
	api.HandleFunc("POST /api/games/{id}/guesses", h.guess)
	api.HandleFunc("GET /api/games/{id}/hint", h.hint)
	api.HandleFunc("GET /api/games/{id}/coach", h.coach)
	api.HandleFunc("POST /api/assist", h.assist)
	api.HandleFunc("GET /api/stats", h.stats)
	api.HandleFunc("GET /api/config", h.config)

	web, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree is part of the binary
	}
	files := http.FileServerFS(web)

	mux := http.NewServeMux()
	mux.Handle("/api/", jsonNotFound(api))
	mux.Handle("/", pageHeaders(files))
	mux.Handle("/favicon.ico", pageHeaders(http.HandlerFunc(serveFavicon)))

	if h.limiter != nil {
		return rateLimit(mux, h.limiter)
	}
	return mux
}

// newHintBudget returns the budget of each client's share of the solver,
// in milliseconds of its time, for Server.HintShare and HintBurst.
func newHintBudget(share float64, burst time.Duration, now func() time.Time) *limiter {
	if share <= 0 {
		share = DefaultHintShare
	}
	if burst <= 0 {
		burst = DefaultHintBurst
	}
	return newLimiter(rate.Limit(share*1000), max(1, int(burst.Milliseconds())), now)
}

// handler holds what Handler derives from a Server.
type handler struct {
	*Server
	limits   Limits
	defaults mm.Rules
	limiter  *limiter // nil without a rate limit
	// statsLimiter bounds each client's reads of /api/stats, whose
	// answer changes once a second; nil without a rate limit.
	statsLimiter *limiter
	hints        *hinter    // nil without a solver
	open         *openGames // nil without MaxAdversary
	statsCache   statsCache
	now          func() time.Time
	logf         func(format string, args ...any)
}

// jsonNotFound answers requests that no API route matches with a JSON
// error: 404, or 405 with Allow when the path exists for other methods.
func jsonNotFound(api *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := api.Handler(r)
		if pattern != "" {
			api.ServeHTTP(w, r) // which sets the path values
			return
		}
		rec := &statusRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if allow := rec.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		status := rec.status
		if status == 0 || status == http.StatusOK {
			status = http.StatusNotFound
		}
		writeJSON(w, status, Error{Error: "no such endpoint: " + r.Method + " " + r.URL.Path})
	})
}

// statusRecorder keeps the status and headers of ServeMux's own 404 and
// 405 answers, and drops their text bodies.
type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(status int)      { r.status = status }

// pageHeaders serves the web page's files to GET and HEAD requests with
// security headers: its script and style come from the server itself, and
// nothing else. A path that is not UTF-8 names no file: 404.
func pageHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.Set("Content-Security-Policy", "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if !utf8.ValidString(r.URL.Path) {
			// No file has such a name; the file server would answer 500.
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// statusError is an error with the HTTP status it calls for.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// retryError is an error whose answer says when to try again, with
// Retry-After.
type retryError struct {
	err   error
	after time.Duration
}

func (e *retryError) Error() string             { return e.err.Error() }
func (e *retryError) Unwrap() error             { return e.err }
func (e *retryError) RetryAfter() time.Duration { return e.after }

// A retrier is an error that says when to try again: a retryError, or one
// of the Store's for a request that met too many others at once (such as
// store.BusyError), which is answered 503 with Retry-After, not logged.
type retrier interface {
	error
	RetryAfter() time.Duration
}

// seconds returns d in whole seconds, rounded up, at least 1: what
// Retry-After says.
func seconds(d time.Duration) int { return max(1, int(math.Ceil(d.Seconds()))) }

// errorStatus returns the HTTP status for err.
func errorStatus(err error) int {
	var se *statusError
	var mbe *http.MaxBytesError
	var re retrier
	switch {
	case errors.As(err, &se):
		return se.status
	case errors.As(err, &re):
		return http.StatusServiceUnavailable
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, mm.ErrUnknownGame):
		return http.StatusNotFound
	case errors.Is(err, mm.ErrNotPlayer):
		return http.StatusForbidden
	case errors.Is(err, mm.ErrGameOver), errors.Is(err, mm.ErrTimeUp):
		return http.StatusConflict
	case errors.Is(err, mm.ErrInvalidCode), errors.Is(err, mm.ErrInvalidRules), errors.Is(err, mm.ErrTooLarge),
		errors.Is(err, mm.ErrInvalidFeedback), errors.Is(err, mm.ErrInconsistent):
		return http.StatusUnprocessableEntity
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// maxMessage bounds the text of an error answer: the messages quote at
// most about 100 bytes of the request, and this is a last guard.
const maxMessage = 300

// writeError answers with err as a JSON error. Errors that are the
// server's fault are logged and not shown.
func (h *handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := errorStatus(err)
	msg := message(err)
	if status == http.StatusInternalServerError {
		h.logf("mastermind: %s %s: %v", r.Method, clip(r.URL.Path, 100), err)
		msg = "internal error"
	}
	var re retrier
	if errors.As(err, &re) {
		wait := hold(r, re.RetryAfter())
		if wait < 0 {
			return // gone
		}
		w.Header().Set("Retry-After", strconv.Itoa(seconds(wait)))
	}
	switch status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="mastermind"`)
	case http.StatusUnsupportedMediaType:
		w.Header().Set("Accept-Post", "application/json")
	}
	writeJSON(w, status, Error{Error: clip(msg, maxMessage)})
}

// clip returns s cut to at most n bytes, on a character boundary, with an
// ellipsis if it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
