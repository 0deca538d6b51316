package cli

import (
	"testing"
	"time"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// The defaults of --hint-share, --hint-burst and --max-adversary are the
// server's own.
func TestServeHintDefaults(t *testing.T) {
	if serveHintShare != server.DefaultHintShare || serveHintBurst != server.DefaultHintBurst {
		t.Errorf("--hint-share %v, --hint-burst %v; want the server's %v, %v",
			serveHintShare, serveHintBurst, server.DefaultHintShare, server.DefaultHintBurst)
	}
	if serveMaxAdversary != server.DefaultMaxAdversary {
		t.Errorf("--max-adversary %d; want the server's %d", serveMaxAdversary, server.DefaultMaxAdversary)
	}
	// --max-adversary's help says how long a game idles before it stops
	// counting.
	if server.AdversaryIdle != 15*time.Minute {
		t.Errorf("server.AdversaryIdle = %v; --max-adversary's help says 15 min", server.AdversaryIdle)
	}
}
