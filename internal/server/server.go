// Package server is the Mastermind game server: an HTTP JSON API where the
// server holds the secret and answers guesses, and an embedded web page to
// play on it. Client plays any server of this API.
//
// # API
//
//	POST /api/games                 {"colors":8,"pegs":5,"distinct":false,"maxGuesses":35,"timeLimitMs":2000}
//	                                → 201 Game, state "playing"
//	POST /api/games/{id}/guesses    {"guess":"11223"} → 200 Feedback
//	GET  /api/games/{id}            → 200 Game with its history
//	GET  /api/games/{id}/hint       → 200 {"guess":"…"}, the server's solver's next guess
//	GET  /api/stats                 → 200 Stats
//
// Errors are JSON, {"error":"…"}: 400 for a body that is not JSON, 404 for
// an unknown game, 405 for a method that the path does not take, 409 for a
// guess on a game that is over or out of time, 413 for a body over 64 KiB,
// 422 for bad rules or a malformed guess (not counted as a guess), 429 when
// one client sends too many requests, 501 for a hint from a server that
// gives none, and 503 when the solver is busy or takes too long.
//
// # Fairness
//
// The secret is drawn with crypto/rand and leaves the server only once the
// game is over. The time limit runs on the server's clock from the game's
// creation; a guess counts at the moment its whole request has been read. Guesses on
// one game are serialised by the Store, and a guess is acknowledged only
// once it is durable.
package server

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"log"
	"net/http"
	"runtime"
	"time"

	"golang.org/x/time/rate"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Store keeps the games. Its methods must be safe for concurrent use.
type Store interface {
	// CreateGame stores a new game durably.
	CreateGame(ctx context.Context, g *mm.Game) error
	// Game returns a game, or an error wrapping mm.ErrUnknownGame.
	Game(ctx context.Context, id string) (*mm.Game, error)
	// Guess plays guess c, made at time at, in game id (mm.Game.Guess),
	// serialised with every other guess of that game, and returns the game
	// once the turn is durable. Its errors wrap mm.ErrUnknownGame,
	// mm.ErrInvalidCode, mm.ErrGameOver or mm.ErrTimeUp.
	Guess(ctx context.Context, id string, c mm.Code, at time.Time) (*mm.Game, error)
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
}

// DefaultLimits are the limits of a server whose Limits are zero.
var DefaultLimits = Limits{
	MaxColors:         len(mm.DefaultSymbols),
	MaxPegs:           20,
	MaxGuesses:        1000,
	DefaultMaxGuesses: 10,
	MaxTimeLimit:      24 * time.Hour,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxColors <= 0 || l.MaxColors > d.MaxColors {
		l.MaxColors = d.MaxColors
	}
	if l.MaxPegs <= 0 || l.MaxPegs > mm.MaxPegs {
		l.MaxPegs = d.MaxPegs
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

// Server serves the API and the web page. Fill in its fields, then serve
// Handler(); the fields must not change afterwards.
type Server struct {
	// Store keeps the games. It is required.
	Store Store
	// Hint is the solver behind GET /api/games/{id}/hint; nil disables
	// hints. It sees only what the player sees (the rules and the history),
	// never the secret. It must bound its own cost, failing with an error
	// that wraps mm.ErrTooLarge for variants it will not take on.
	Hint mm.Strategy
	// HintTimeout bounds the wait for a hint; 0 means 10 seconds. At most
	// GOMAXPROCS hints are computed at once.
	HintTimeout time.Duration
	// Limits bound the games the server accepts.
	Limits Limits
	// Rate is the number of requests per second one client (one remote IP
	// address) may make, with bursts of Burst; 0 means no limit.
	Rate  float64
	Burst int
	// Now is the server's clock; nil means time.Now.
	Now func() time.Time
	// Logf logs errors that are the server's fault; nil means log.Printf.
	Logf func(format string, args ...any)
}

//go:embed web
var webFS embed.FS

// Handler returns the handler of the API and the web page. Each call
// returns a new handler with its own rate limits.
func (s *Server) Handler() http.Handler {
	h := &handler{Server: s, limits: s.Limits.withDefaults(),
		hints: make(chan struct{}, runtime.GOMAXPROCS(0)), now: s.Now, logf: s.Logf}
	if h.now == nil {
		h.now = time.Now
	}
	if h.logf == nil {
		h.logf = log.Printf
	}
	if h.HintTimeout <= 0 {
		h.hintTimeout = 10 * time.Second
	} else {
		h.hintTimeout = h.HintTimeout
	}
	api := http.NewServeMux()
	api.HandleFunc("POST /api/games", h.createGame)
	api.HandleFunc("GET /api/games/{id}", h.getGame)
	api.HandleFunc("POST /api/games/{id}/guesses", h.guess)
	api.HandleFunc("GET /api/games/{id}/hint", h.hint)
	api.HandleFunc("GET /api/stats", h.stats)

	web, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree is part of the binary
	}
	files := http.FileServerFS(web)

	mux := http.NewServeMux()
	mux.Handle("/api/", jsonNotFound(api))
	mux.Handle("/", pageHeaders(files))

	var next http.Handler = mux
	if s.Rate > 0 {
		next = rateLimit(next, newLimiter(rate.Limit(s.Rate), max(1, s.Burst), h.now))
	}
	return next
}

// handler holds what Handler derives from a Server.
type handler struct {
	*Server
	limits      Limits
	hints       chan struct{} // semaphore of hint computations
	hintTimeout time.Duration
	now         func() time.Time
	logf        func(format string, args ...any)
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
// nothing else.
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

// errorStatus returns the HTTP status for err.
func errorStatus(err error) int {
	var se *statusError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &se):
		return se.status
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, mm.ErrUnknownGame):
		return http.StatusNotFound
	case errors.Is(err, mm.ErrGameOver), errors.Is(err, mm.ErrTimeUp):
		return http.StatusConflict
	case errors.Is(err, mm.ErrInvalidCode), errors.Is(err, mm.ErrInvalidRules), errors.Is(err, mm.ErrTooLarge):
		return http.StatusUnprocessableEntity
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// writeError answers with err as a JSON error. Errors that are the
// server's fault are logged and not shown.
func (h *handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := errorStatus(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		h.logf("mastermind: %s %s: %v", r.Method, r.URL.Path, err)
		msg = "mastermind: internal error"
	}
	writeJSON(w, status, Error{Error: msg})
}
