package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// A server on an SQLite file, and a client that plays it with the lowest
// consistent code each turn, as the command's client does with any
// strategy.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "games.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	ts := httptest.NewServer((&server.Server{Store: st}).Handler())
	defer ts.Close()

	lowest := mm.StrategyFunc(func(s *mm.State) (mm.Code, error) {
		cands, err := s.Candidates()
		if err != nil {
			return mm.Code{}, err
		}
		return cands.Code(0), nil
	})
	c := &server.Client{URL: ts.URL}
	res, err := c.Play(context.Background(), server.NewGame{Colors: 8, Pegs: 5, MaxGuesses: 35, TimeLimitMs: 2000}, lowest, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _ := c.Game(context.Background(), res.ID)
	fmt.Println(res.Status, g.State, res.Secret == g.Secret, res.Guesses == len(g.History))
	// Output: won won true true
}
