package cli

import (
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/server"
)

// The defaults of --hint-share and --hint-burst are the server's own.
func TestServeHintDefaults(t *testing.T) {
	if serveHintShare != server.DefaultHintShare || serveHintBurst != server.DefaultHintBurst {
		t.Errorf("--hint-share %v, --hint-burst %v; want the server's %v, %v",
			serveHintShare, serveHintBurst, server.DefaultHintShare, server.DefaultHintBurst)
	}
}
