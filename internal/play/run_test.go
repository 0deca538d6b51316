package play_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunTUI runs the real terminal program over a pipe: the answers are
// typed ahead, and once the code is found a key leaves and the game is
// written in plain text.
func TestRunTUI(t *testing.T) {
	in, keys := io.Pipe()
	var out syncBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- play.RunTUI(context.Background(), newAssist(t, mm.Classic), in, &out, tea.WithWindowSize(80, 24))
	}()
	if _, err := io.WriteString(keys, "1 0\r0 1\r1 2\r1 1\r4 0\r"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "press any key") {
		if time.Now().After(deadline) {
			t.Fatalf("no end screen; output so far:\n%q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	io.WriteString(keys, "x")
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("RunTUI: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunTUI did not return after a key at the end")
	}
	keys.Close()
	if got := out.String(); !strings.HasSuffix(got, "  5. 3632  4 black, 0 white\nSolved in 5 guesses: the code is 3632.\n") {
		t.Errorf("output does not end with the game:\n%q", got[max(0, len(got)-400):])
	}
}

func TestRunTUICancel(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- play.RunTUI(ctx, newGame(t, mm.Classic, "3632", 10), in, io.Discard, tea.WithWindowSize(80, 24))
	}()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("RunTUI after cancel = %v; want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunTUI did not return after cancel")
	}
}
