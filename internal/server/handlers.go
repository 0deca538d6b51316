package server

import (
	"context"
	crand "crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
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
	if err := h.Store.CreateGame(r.Context(), g); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/games/"+g.ID)
	writeJSON(w, http.StatusCreated, gameJSON(g, g.Created))
}

// getGame handles GET /api/games/{id}.
func (h *handler) getGame(w http.ResponseWriter, r *http.Request) {
	g, err := h.Store.Game(r.Context(), r.PathValue("id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gameJSON(g, h.now()))
}

// guess handles POST /api/games/{id}/guesses.
func (h *handler) guess(w http.ResponseWriter, r *http.Request) {
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
	// The guess counts once its body is read: timed at the request's
	// arrival, a body held back past the deadline could carry the secret
	// that GET shows once the game is lost.
	g, err := h.Store.Guess(r.Context(), r.PathValue("id"), c, h.now())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, feedbackJSON(g))
}

// hint handles GET /api/games/{id}/hint.
func (h *handler) hint(w http.ResponseWriter, r *http.Request) {
	if h.Hint == nil {
		h.writeError(w, r, &statusError{http.StatusNotImplemented, errors.New("mastermind: this server gives no hints")})
		return
	}
	g, err := h.Store.Game(r.Context(), r.PathValue("id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if s := g.StatusAt(h.now()); s != mm.Playing {
		h.writeError(w, r, fmt.Errorf("%w: the game is %s", mm.ErrGameOver, s))
		return
	}
	c, err := h.solve(r.Context(), g.Rules, g.Turns)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, Hint{Guess: c.String()})
}

// solve asks the Hint strategy for the next guess after turns, with no
// more than cap(h.hints) at work at once. A computation that outlasts the
// request runs on to its end in the background, still holding its slot.
func (h *handler) solve(ctx context.Context, r mm.Rules, turns []mm.Turn) (mm.Code, error) {
	ctx, cancel := context.WithTimeout(ctx, h.hintTimeout)
	defer cancel()
	select {
	case h.hints <- struct{}{}:
	case <-ctx.Done():
		return mm.Code{}, &statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver is busy; try again")}
	}
	type answer struct {
		c   mm.Code
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() { <-h.hints }()
		// The solver sees the rules and the history, never the secret.
		st, err := mm.NewState(r, rand.New(cryptoSource{}))
		if err != nil {
			done <- answer{err: err}
			return
		}
		for _, t := range turns {
			if st, err = st.Play(t.Guess, t.Feedback); err != nil {
				done <- answer{err: err}
				return
			}
		}
		c, err := h.Hint.Guess(st)
		done <- answer{c, err}
	}()
	select {
	case a := <-done:
		if a.err != nil && !errors.Is(a.err, mm.ErrTooLarge) {
			return mm.Code{}, fmt.Errorf("mastermind: no hint: %w", a.err)
		}
		return a.c, a.err
	case <-ctx.Done():
		return mm.Code{}, &statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver took too long")}
	}
}

// stats handles GET /api/stats.
func (h *handler) stats(w http.ResponseWriter, r *http.Request) {
	stats, err := h.Store.Stats(r.Context(), h.now())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, statsJSON(stats))
}

// decode reads the JSON body of r into v: one object of known fields, at
// most MaxBody bytes. An empty body leaves v as it is.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	if r.ContentLength > MaxBody {
		return &http.MaxBytesError{Limit: MaxBody}
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err == nil {
		// Nothing may follow the object.
		if _, err = dec.Token(); errors.Is(err, io.EOF) {
			return nil
		} else if err == nil {
			err = errors.New("more than one JSON value")
		}
	}
	var mbe *http.MaxBytesError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.As(err, &te):
		return &statusError{http.StatusUnprocessableEntity, fmt.Errorf("mastermind: %s must be a %s", te.Field, jsonType(te.Type.Kind().String()))}
	}
	return &statusError{http.StatusBadRequest, fmt.Errorf("mastermind: the body is not a JSON object of this endpoint: %v", err)}
}

func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "number"
	case kind == "bool":
		return "boolean"
	}
	return kind
}

// parseGuess reads a code in the default alphabet, of any length; the game
// checks it against its rules.
func parseGuess(s string) (mm.Code, error) {
	if s == "" {
		return mm.Code{}, fmt.Errorf("%w: no guess; send {\"guess\":\"1122\"}", mm.ErrInvalidCode)
	}
	var c mm.Code
	err := c.UnmarshalText([]byte(s))
	return c, err
}

// newGame returns the game that req asks for, created at now, with a
// fresh ID and secret.
func (h *handler) newGame(req NewGame, now time.Time) (*mm.Game, error) {
	l := h.limits
	r := mm.Rules{Colors: req.Colors, Pegs: req.Pegs, Distinct: req.Distinct}.WithDefaults()
	switch {
	case r.Colors < 2 || r.Colors > l.MaxColors:
		return nil, fmt.Errorf("%w: %d colours; this server takes 2 to %d", mm.ErrInvalidRules, r.Colors, l.MaxColors)
	case r.Pegs < 1 || r.Pegs > l.MaxPegs:
		return nil, fmt.Errorf("%w: %d pegs; this server takes 1 to %d", mm.ErrInvalidRules, r.Pegs, l.MaxPegs)
	case req.MaxGuesses < 0 || req.MaxGuesses > l.MaxGuesses:
		return nil, fmt.Errorf("%w: maxGuesses %d; this server takes 0 (the default, %d) to %d", mm.ErrInvalidRules, req.MaxGuesses, l.DefaultMaxGuesses, l.MaxGuesses)
	case req.TimeLimitMs < 0 || req.TimeLimitMs > l.MaxTimeLimit.Milliseconds():
		return nil, fmt.Errorf("%w: timeLimitMs %d; this server takes 0 (none) to %d", mm.ErrInvalidRules, req.TimeLimitMs, l.MaxTimeLimit.Milliseconds())
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	guesses := req.MaxGuesses
	if guesses == 0 {
		guesses = l.DefaultMaxGuesses
	}
	return &mm.Game{ID: newID(), Rules: r, Secret: randomCode(r), MaxGuesses: guesses,
		TimeLimit: time.Duration(req.TimeLimitMs) * time.Millisecond, Created: now}, nil
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
