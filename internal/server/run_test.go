package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/internal/store"
)

// Serve stops when its context is done, answering the requests under way
// first, and returns nil.
func TestServeDrains(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "games.db"), &store.Options{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &solver{delay: 500 * time.Millisecond}
	h := (&server.Server{Store: st, Hint: s, Logf: t.Logf}).Handler()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, ln, h, nil) }()
	url := "http://" + ln.Addr().String()
	c := &server.Client{URL: url}
	g, err := c.NewGame(context.Background(), server.NewGame{})
	if err != nil {
		t.Fatal(err)
	}

	// A hint under way when the server is told to stop.
	type answer struct {
		hint string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		h, err := c.Hint(context.Background(), g.ID, g.Token)
		got <- answer{h, err}
	}()
	waitFor(t, "the hint to start", func() bool { calls, _, _, _ := s.counts(); return calls == 1 })
	start := time.Now()
	stop()
	a := <-got
	if a.err != nil || a.hint != "1111" {
		t.Errorf("hint under way at the stop: %q, %v; want 1111", a.hint, a.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve returned %v; want nil", err)
		}
	case <-time.After(server.WriteTimeout):
		t.Fatal("Serve did not return within the write timeout")
	}
	t.Logf("stopped in %v", time.Since(start).Round(time.Millisecond))
	if resp, err := http.Get(url + "/api/stats"); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		t.Errorf("a request after the stop was answered %d", resp.StatusCode)
	}
}
