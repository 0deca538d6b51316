package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestBarEstimate drives the bar with a clock of its own: the time left
// is not shown while the first, slow games rule the rate, and is shown,
// close to the truth, once successive estimates agree.
func TestBarEstimate(t *testing.T) {
	var out bytes.Buffer
	b := newBar(&out, 1000)
	b.label = "knuth"
	b.throttled = 0
	now := time.Unix(0, 0)
	b.now = func() time.Time { return now }
	last := func() string {
		s := out.String()
		return s[strings.LastIndex(s, "\r\033[K")+4:]
	}
	b.set(0)
	// The first game takes 30 s (a strategy's first guesses cost the
	// most); the rest take 10 ms each, 10 s in all.
	now = now.Add(30 * time.Second)
	b.set(1)
	if strings.Contains(last(), "left") {
		t.Errorf("after one game of 1000 the bar shows a time left: %q", last())
	}
	shown := ""
	for i := 2; i <= 999; i++ {
		now = now.Add(10 * time.Millisecond)
		b.set(i)
		if l := last(); strings.Contains(l, "left") && shown == "" {
			shown = l
			if i < 50 {
				t.Errorf("time left shown after %d games, before a twentieth of them: %q", i, l)
			}
		}
	}
	if shown == "" {
		t.Fatalf("the time left was never shown; last line %q", last())
	}
	// First shown a second after the slow game, at game 101: 899 games of
	// 10 ms left.
	if !strings.Contains(shown, "101/1000  10%") || !strings.Contains(shown, "about 9.0s left") {
		t.Errorf("the time left first shown as %q; want it at 101/1000, about 9.0s left", shown)
	}
	if l := last(); !strings.Contains(l, "knuth  [") || !strings.Contains(l, "999/1000  99%") || !strings.Contains(l, "about 0.0s left") {
		t.Errorf("last line %q; want the label, 999/1000, 99%% and about 0.0s left", l)
	}
	b.clear()
	if !strings.HasSuffix(out.String(), "\r\033[K") {
		t.Errorf("clear did not erase the line")
	}
}

func TestShort(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{1500 * time.Millisecond, "1.5s"}, {37 * time.Second, "37s"}, {12*time.Hour + 23*time.Minute, "12h23m0s"}} {
		if got := short(tt.d); got != tt.want {
			t.Errorf("short(%v) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

// TestBarLog checks the bar when stderr is not a terminal: no line in
// the first logEvery, then whole lines, one per logEvery, with no
// terminal codes, and none once the games are done.
func TestBarLog(t *testing.T) {
	var out bytes.Buffer
	b := newBar(&out, 100)
	b.label, b.log, b.throttled = "entropy", true, 0
	now := time.Unix(0, 0)
	b.now = func() time.Time { return now }
	for i := 0; i < 100; i++ {
		b.set(i)
		now = now.Add(time.Second)
	}
	b.set(100)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || strings.Contains(out.String(), "\033") {
		t.Fatalf("log of 100 games at one a second = %q; want 3 lines (at 30, 60 and 90 s), no escapes", out.String())
	}
	if want := "entropy: 30/100 games, 30%, 30s, about 1m10s left"; lines[0] != want {
		t.Errorf("first line %q; want %q", lines[0], want)
	}
}
