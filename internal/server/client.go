package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Client talks to a server of this package's API: this one, or any other
// that speaks it. Its methods are safe for concurrent use.
type Client struct {
	// URL is the server's base URL, such as "http://127.0.0.1:8080".
	URL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Retries is the number of times a request refused with 429 Too Many
	// Requests is sent again, after waits that double from 50 ms up to the
	// Retry-After the server asks for; 0 means 5. A refused request was
	// not processed, so sending it again is safe.
	Retries int
}

// APIError is an error answer from the server. It unwraps to the
// mastermind error that the status stands for, so that errors.Is(err,
// mm.ErrGameOver) works across the network.
type APIError struct {
	Status  int    // the HTTP status
	Message string // the server's "error" text
}

// Error returns the status and the server's message on one line.
func (e *APIError) Error() string {
	msg := strings.TrimPrefix(e.Message, "mastermind: ")
	return fmt.Sprintf("mastermind: server answered %d %s: %s", e.Status, http.StatusText(e.Status), msg)
}

// Unwrap returns mm.ErrNotPlayer for 401 and 403, mm.ErrUnknownGame for
// 404, mm.ErrGameOver for 409 and mm.ErrInvalidCode for 422, and nil
// otherwise. It goes by the status
// alone, so it may name another error than the server's: the server also
// answers 409 to a guess after the time limit (mm.ErrTimeUp), and 422 to
// invalid rules (mm.ErrInvalidRules), a variant too large (mm.ErrTooLarge)
// or a body field of the wrong JSON type.
func (e *APIError) Unwrap() error {
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return mm.ErrNotPlayer
	case http.StatusNotFound:
		return mm.ErrUnknownGame
	case http.StatusConflict:
		return mm.ErrGameOver
	case http.StatusUnprocessableEntity:
		return mm.ErrInvalidCode
	}
	return nil
}

// NewGame creates a game. The answer carries the game's token, which
// Guess and Hint need.
func (c *Client) NewGame(ctx context.Context, req NewGame) (*Game, error) {
	var g Game
	if err := c.do(ctx, http.MethodPost, "/api/games", "", req, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// Game returns game id with its history; anyone may read it.
func (c *Client) Game(ctx context.Context, id string) (*Game, error) {
	var g Game
	if err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id), "", nil, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// Guess plays guess in game id, whose token NewGame gave.
func (c *Client) Guess(ctx context.Context, id, token, guess string) (*Feedback, error) {
	var f Feedback
	if err := c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(id)+"/guesses", token, Guess{Guess: guess}, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// Hint asks the server's solver for the next guess in game id, whose
// token NewGame gave.
func (c *Client) Hint(ctx context.Context, id, token string) (string, error) {
	var h Hint
	if err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id)+"/hint", token, nil, &h); err != nil {
		return "", err
	}
	return h.Guess, nil
}

// Stats returns the server's statistics.
func (c *Client) Stats(ctx context.Context) (*Stats, error) {
	var s Stats
	if err := c.do(ctx, http.MethodGet, "/api/stats", "", nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// do sends a request with body in as JSON, and token if it is not empty,
// and decodes the answer into out.
func (c *Client) do(ctx context.Context, method, path, token string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	retries := c.Retries
	if retries <= 0 {
		retries = 5
	}
	base := strings.TrimSuffix(c.URL, "/")
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("mastermind: %w", err)
		}
		if in != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return fmt.Errorf("mastermind: %w", err)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("mastermind: %s %s: %w", method, path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && try < retries {
			wait := 50 * time.Millisecond << try
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
				wait = min(wait, time.Duration(s)*time.Second)
			}
			select {
			case <-time.After(wait):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if resp.StatusCode >= 300 {
			var e Error
			if json.Unmarshal(b, &e) != nil || e.Error == "" {
				e.Error = strings.TrimSpace(string(b))
				if len(e.Error) > 200 {
					e.Error = e.Error[:200] + "…"
				}
			}
			return &APIError{Status: resp.StatusCode, Message: e.Error}
		}
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("mastermind: %s %s: the answer is not the JSON expected: %v", method, path, err)
		}
		return nil
	}
}

// A Result is the outcome of one game played by Play.
type Result struct {
	ID         string
	MaxGuesses int           // the guess limit the server set; 0 for none
	TimeLimit  time.Duration // the time limit the server set; 0 for none
	Secret     string        // as the server revealed it at the end
	Status     mm.GameStatus // Won or Lost
	Guesses    int
	Elapsed    time.Duration // from the request creating the game to the last answer
}

// Play creates a game with req and plays it to the end with strategy s,
// drawing on rng if s is randomised (nil means a fixed seed). It returns
// the result of a game won or lost; a game lost to the clock is a result
// too, not an error. It fails if the server's answers contradict each
// other, or on any other error.
func (c *Client) Play(ctx context.Context, req NewGame, s mm.Strategy, rng *rand.Rand) (*Result, error) {
	start := time.Now()
	g, err := c.NewGame(ctx, req)
	if err != nil {
		return nil, err
	}
	r := mm.Rules{Colors: g.Colors, Pegs: g.Pegs, Distinct: g.Distinct}
	st, err := mm.NewState(r, rng)
	if err != nil {
		return nil, fmt.Errorf("mastermind: the server created game %s with %w", g.ID, err)
	}
	res := &Result{ID: g.ID, Status: mm.Playing, MaxGuesses: g.MaxGuesses,
		TimeLimit: time.Duration(g.TimeLimitMs) * time.Millisecond}
	for res.Status == mm.Playing {
		guess, err := mm.GuessContext(ctx, s, st)
		if err != nil {
			return nil, fmt.Errorf("mastermind: game %s, guess %d: %w", g.ID, st.Len()+1, err)
		}
		f, err := c.Guess(ctx, g.ID, g.Token, guess.String())
		switch {
		case errors.Is(err, mm.ErrGameOver):
			// Out of time: the server says so with 409; it shows the secret.
			end, gerr := c.Game(ctx, g.ID)
			if gerr != nil {
				return nil, gerr
			}
			if end.State != mm.Lost.String() {
				return nil, fmt.Errorf("mastermind: game %s: %w, but the server says it is %s", g.ID, err, end.State)
			}
			res.Status, res.Secret, res.Guesses = mm.Lost, end.Secret, end.Guesses
			res.Elapsed = time.Since(start)
			return res, nil
		case err != nil:
			return nil, err
		}
		if f.Guesses != st.Len()+1 {
			return nil, fmt.Errorf("mastermind: game %s: the server counts guess %d as number %d", g.ID, st.Len()+1, f.Guesses)
		}
		fb := mm.Feedback{Black: f.Black, White: f.White}
		if st, err = st.Play(guess, fb); err != nil {
			return nil, fmt.Errorf("mastermind: game %s: the server's feedback: %w", g.ID, err)
		}
		res.Guesses = st.Len()
		if err := res.Status.UnmarshalText([]byte(f.State)); err != nil {
			return nil, fmt.Errorf("mastermind: game %s: %w", g.ID, err)
		}
		if (res.Status == mm.Won) != st.Solved() {
			return nil, fmt.Errorf("mastermind: game %s: the server says %s after %s scored %v", g.ID, f.State, guess, fb)
		}
		res.Secret = f.Secret
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
