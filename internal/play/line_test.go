package play_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
)

func TestRunLinesEndOfInput(t *testing.T) {
	var out bytes.Buffer
	g := newGame(t, mm.Classic, "3632", 10)
	if err := play.RunLines(context.Background(), g, strings.NewReader("1122\n"), &out, false); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	// Without echo, the input is not repeated; the end of input gives up.
	if !strings.Contains(got, "guess 1/10> 1122: 1 black, 0 white\nguess 2/10> \nYou gave up after 1 guess. The code was 3632.\n") {
		t.Errorf("transcript:\n%s", got)
	}
}

func TestRunLinesCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- play.RunLines(ctx, newGame(t, mm.Classic, "3632", 10), pr, io.Discard, true) }()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("RunLines after cancel = %v; want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunLines did not return after cancel")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRunLinesWriteError(t *testing.T) {
	err := play.RunLines(context.Background(), newGame(t, mm.Classic, "3632", 10), strings.NewReader("1122\n"), failWriter{}, true)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("RunLines to a failing writer = %v", err)
	}
}
