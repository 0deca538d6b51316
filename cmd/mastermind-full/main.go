// Command mastermind-full is the mastermind command with every part linked
// in: besides what mastermind does, the game server (serve) and its client,
// the full-screen play and assist, and the plots of --plot. The mastermind
// command runs it for those, so that its own start-up does not pay for
// them; it may also be run directly, with the same commands and flags.
// "mastermind-full help" lists them.
package main

import (
	"os"

	"github.com/mastermind-toolkit/mastermind/internal/chart/draw"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

func main() { os.Exit(cli.Main(full())) }

// full returns the parts this binary links in.
func full() *cli.Full {
	return &cli.Full{
		Serve:      serve,
		Client:     playGames,
		Session:    session,
		Histograms: draw.Histograms,
		MeanBySize: draw.MeanBySize,
	}
}
