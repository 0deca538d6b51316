package server

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// createGame handles POST /api/games.
func (h *handler) createGame(w http.ResponseWriter, r *http.Request) {
	var req NewGame
	if err := decode(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	g, err := h.newGame(req, h.now())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if g.Adversary && h.open != nil {
		if err := h.open.add(clientKey(r), g, g.Created); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	token := newToken()
	ctx, cancel := received(r)
	defer cancel()
	if err := h.Store.CreateGame(ctx, g, tokenKey(token)); err != nil {
		if g.Adversary && h.open != nil {
			h.open.remove(g.ID)
		}
		h.writeError(w, r, err)
		return
	}
	out := gameJSON(g, g.Created)
	out.Token = token
	w.Header().Set("Location", "/api/games/"+g.ID)
	writeJSON(w, http.StatusCreated, out)
}

// received returns the context of the Store's work on request r, which
// has been received whole: it is answered even if the client stops
// listening meanwhile (net/http cancels r's context when a client
// half-closes its connection, which some do once their request is sent),
// within WriteTimeout, after which the answer could not be written.
func received(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(r.Context()), WriteTimeout)
}

// getGame handles GET /api/games/{id}, for anyone.
func (h *handler) getGame(w http.ResponseWriter, r *http.Request) {
	g, err := h.Store.Game(r.Context(), r.PathValue("id"), nil)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gameJSON(g, h.now()))
}

// guess handles POST /api/games/{id}/guesses, for the game's player.
func (h *handler) guess(w http.ResponseWriter, r *http.Request) {
	key, err := playerKey(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var req Guess
	if err := decode(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	c, err := parseGuess(req.Guess)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if h.hints != nil {
		h.hints.pace.guessed()
	}
	// The guess counts once its body is read: timed at the request's
	// arrival, a body held back past the deadline could carry the secret
	// that GET shows once the game is lost.
	ctx, cancel := received(r)
	defer cancel()
	id := r.PathValue("id")
	now := h.now()
	f, turns, status, err := h.Store.Play(ctx, id, key, c, now)
	if h.open != nil {
		switch {
		case err == nil:
			h.open.played(id, status == mm.Playing, now)
		case errors.Is(err, mm.ErrGameOver), errors.Is(err, mm.ErrTimeUp), errors.Is(err, mm.ErrUnknownGame):
			h.open.played(id, false, now)
		}
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	out := &Feedback{Black: f.Black, White: f.White, Guesses: turns, State: status.String()}
	if status != mm.Playing {
		// Once a game: the code to show is read from the whole game,
		// which no guess changes any more. The turn is stored: should
		// the read fail, it is answered without the code, which GET
		// shows.
		if g, err := h.Store.Game(ctx, id, key); err == nil {
			out.Secret = revealed(g)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// hint handles GET /api/games/{id}/hint, for the game's player.
func (h *handler) hint(w http.ResponseWriter, r *http.Request) {
	if h.hints == nil {
		h.writeError(w, r, errNoHints)
		return
	}
	key, err := playerKey(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	g, err := h.Store.Game(r.Context(), r.PathValue("id"), key)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if s := g.StatusAt(h.now()); s != mm.Playing {
		h.writeError(w, r, fmt.Errorf("%w: the game is %s", mm.ErrGameOver, s))
		return
	}
	c, err := h.hints.guess(r.Context(), clientKey(r), g)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, Hint{Guess: c.String(), Unfit: unfit(g.Rules, c, g.Turns)})
}

// stats handles GET /api/stats, from memory: the answer, encoded, is
// reused for up to statsFor, and made again by one request while the
// others take the one before, so that many clients reading the statistics
// cost the store one read a second and each of them a copy of bytes.
func (h *handler) stats(w http.ResponseWriter, r *http.Request) {
	if h.statsLimiter != nil {
		if wait := h.statsLimiter.reserve(clientKey(r)); wait > 0 {
			h.writeError(w, r, &retryError{&statusError{http.StatusTooManyRequests, fmt.Errorf(
				"mastermind: the statistics change once a second; read them at most %d times a second", int(statsRate))}, wait})
			return
		}
	}
	c := &h.statsCache
	now := h.now()
	stale := func(a *statsAnswer) bool { return a == nil || now.Sub(a.at) >= statsFor || now.Before(a.at) }
	a := c.last.Load()
	if stale(a) {
		// One request makes the new answer; while it does, the others
		// take the one before, if there is one.
		locked := a != nil && c.mu.TryLock()
		if a == nil {
			c.mu.Lock()
			locked = true
		}
		if locked {
			if a = c.last.Load(); stale(a) {
				stats, err := h.Store.Stats(r.Context(), now)
				if err != nil {
					c.mu.Unlock()
					h.writeError(w, r, err)
					return
				}
				body, _ := json.Marshal(statsJSON(stats))
				a = &statsAnswer{at: now, body: append(body, '\n')}
				c.last.Store(a)
			}
			c.mu.Unlock()
		}
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	w.Write(a.body)
}

// statsFor is how long an answer to GET /api/stats is reused.
const statsFor = time.Second

// statsRate and statsBurst bound each client's reads of GET /api/stats,
// where the server has a rate limit, far below that limit: the answer
// changes once a second, and 16 clients reading it at the rate of
// requests, 200 a second each, took a third of the guesses (issue 46).
const (
	statsRate  = 4
	statsBurst = 8
)

// statsCache is the last answer to GET /api/stats; mu is held to make a
// new one.
type statsCache struct {
	mu   sync.Mutex
	last atomic.Pointer[statsAnswer]
}

// A statsAnswer is an answer to GET /api/stats, encoded, never changed
// once made.
type statsAnswer struct {
	at   time.Time
	body []byte
}

// config handles GET /api/config.
func (h *handler) config(w http.ResponseWriter, r *http.Request) {
	d, l := h.defaults, h.limits
	names := []string{}
	if h.hints != nil {
		names = append(names, h.strategyNames()...)
	}
	writeJSON(w, http.StatusOK, Config{
		Defaults: GameDefaults{Colors: d.Colors, Pegs: d.Pegs, Distinct: d.Distinct, MaxGuesses: l.DefaultMaxGuesses},
		Limits: GameLimits{MaxColors: l.MaxColors, MaxPegs: l.MaxPegs, MaxGuesses: l.MaxGuesses,
			MaxTimeLimitMs: l.MaxTimeLimit.Milliseconds()},
		Hints: h.hints != nil, Strategies: names,
	})
}

// playerKey returns the key of the bearer token of r, or a 401 error if r
// has none.
func playerKey(r *http.Request) ([]byte, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, &statusError{http.StatusUnauthorized,
			errors.New("mastermind: send the game's token, as Authorization: Bearer TOKEN; POST /api/games gave it")}
	}
	return tokenKey(token), nil
}

// tokenKey returns the key the store keeps for token: its SHA-256, so that
// the database does not hold what would let anyone play.
func tokenKey(token string) []byte {
	k := sha256.Sum256([]byte(token))
	return k[:]
}

// decode reads the JSON body of r into v: one object of known fields, at
// most MaxBody bytes, sent as application/json. An empty body leaves v as
// it is.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	if r.ContentLength > MaxBody {
		return &http.MaxBytesError{Limit: MaxBody}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		return bodyError(err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] != '{' {
		return &statusError{http.StatusBadRequest, errors.New("mastermind: the body must be a JSON object")}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		// Nothing may follow the object.
		if _, err = dec.Token(); errors.Is(err, io.EOF) {
			return nil
		} else if err == nil {
			err = errors.New("more than one JSON value")
		}
	}
	if errors.Is(err, mm.ErrInvalidRules) {
		return err // a field given a value it cannot take ("pegs":0)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return &statusError{http.StatusUnprocessableEntity, fmt.Errorf("mastermind: %s must be a %s", te.Field, jsonType(te.Type.Kind().String()))}
	}
	return &statusError{http.StatusBadRequest, fmt.Errorf("mastermind: the body is not a JSON object of this endpoint: %s", clip(err.Error(), 100))}
}

// bodyError returns the error to answer for err, an error reading a
// request body. A body that stops coming is the client's doing, not the
// server's: answered 408 once the server's read timeout has passed, and
// 400 if the connection breaks or the body's framing is wrong, so that
// neither is logged as the server's error.
func bodyError(err error) error {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &statusError{http.StatusRequestTimeout, errors.New("mastermind: the request body came too slowly; send it all at once")}
	}
	return &statusError{http.StatusBadRequest, fmt.Errorf("mastermind: the request body ended early: %s", clip(err.Error(), 100))}
}

// requireJSON checks that the body of r is sent as application/json, in
// UTF-8. A web page of another site can send a body as text/plain, or as
// form data, without the browser asking this server first; not as JSON.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && mt == "application/json" {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	return &statusError{http.StatusUnsupportedMediaType,
		fmt.Errorf("mastermind: send the body as Content-Type: application/json, not %q", clip(ct, 60))}
}

func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "whole number, not too large"
	case strings.HasPrefix(kind, "float"):
		return "number"
	case kind == "bool":
		return "boolean"
	}
	return kind
}

// parseGuess reads a code in the default alphabet, of any length; the game
// checks it against its rules. An error quotes at most 100 bytes of s.
func parseGuess(s string) (mm.Code, error) {
	if s == "" {
		return mm.Code{}, fmt.Errorf("%w: no guess; send {\"guess\":\"1122\"}", mm.ErrInvalidCode)
	}
	var c mm.Code
	err := c.UnmarshalText([]byte(s))
	var pe *mm.ParseError
	if errors.As(err, &pe) && len(pe.Input) > 100 {
		short := *pe
		short.Input = clip(pe.Input, 100)
		return c, &short
	}
	return c, err
}

// checkRules checks that r is valid and within the server's limits.
func (h *handler) checkRules(r mm.Rules) error {
	l := h.limits
	switch {
	case r.Colors < 2 || r.Colors > l.MaxColors:
		return fmt.Errorf("%w: %d colours; this server takes 2 to %d", mm.ErrInvalidRules, r.Colors, l.MaxColors)
	case r.Pegs < 1 || r.Pegs > l.MaxPegs:
		return fmt.Errorf("%w: %d pegs; this server takes 1 to %d", mm.ErrInvalidRules, r.Pegs, l.MaxPegs)
	case r.Log10Size() > l.MaxLog10Codes+1e-9:
		return fmt.Errorf("%w: %v has about 10^%.1f codes; this server takes up to 10^%.1f (20 colours × 20 pegs)", mm.ErrInvalidRules, r, r.Log10Size(), l.MaxLog10Codes)
	}
	return r.Validate()
}

// newGame returns the game that req asks for, created at now, with a
// fresh ID and secret.
func (h *handler) newGame(req NewGame, now time.Time) (*mm.Game, error) {
	l := h.limits
	r := h.defaults
	if req.Colors != 0 {
		r.Colors = req.Colors
	}
	if req.Pegs != 0 {
		r.Pegs = req.Pegs
	}
	if req.Distinct != nil {
		r.Distinct = *req.Distinct
	}
	if err := h.checkRules(r); err != nil {
		return nil, err
	}
	switch {
	case req.MaxGuesses < 0 || req.MaxGuesses > l.MaxGuesses:
		return nil, fmt.Errorf("%w: maxGuesses %d; this server takes 0 (the default, %d) to %d", mm.ErrInvalidRules, req.MaxGuesses, l.DefaultMaxGuesses, l.MaxGuesses)
	case req.TimeLimitMs < 0 || req.TimeLimitMs > l.MaxTimeLimit.Milliseconds():
		return nil, fmt.Errorf("%w: timeLimitMs %d; this server takes 0 (none) to %d", mm.ErrInvalidRules, req.TimeLimitMs, l.MaxTimeLimit.Milliseconds())
	}
	if req.Adversary && r.Size() > MaxAdversaryCodes {
		return nil, fmt.Errorf("%w: an adversary game has at most %d codes, and %d colours × %d pegs have more",
			mm.ErrInvalidRules, MaxAdversaryCodes, r.Colors, r.Pegs)
	}
	guesses := req.MaxGuesses
	if guesses == 0 {
		guesses = l.DefaultMaxGuesses
	}
	// An adversary's secret is a placeholder that the store keeps; it is
	// never used.
	return &mm.Game{ID: newID(), Rules: r, Secret: randomCode(r), MaxGuesses: guesses,
		TimeLimit: time.Duration(req.TimeLimitMs) * time.Millisecond, Created: now, Adversary: req.Adversary}, nil
}

// cryptoSource is a rand.Source drawing on crypto/rand, so that secrets
// cannot be predicted from earlier ones.
type cryptoSource struct{}

func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	crand.Read(b[:]) // never fails: see crypto/rand.Read
	return binary.LittleEndian.Uint64(b[:])
}

// randomCode returns a code drawn uniformly from the codes of r.
func randomCode(r mm.Rules) mm.Code {
	return mm.RandomCode(r, rand.New(cryptoSource{}))
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns a random game ID of 16 characters (80 bits), too many to
// guess another player's game.
func newID() string {
	var b [10]byte
	crand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}

// newToken returns a random token of 26 characters (128 bits).
func newToken() string {
	var b [16]byte
	crand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}
