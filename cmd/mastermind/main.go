// Command mastermind breaks Mastermind codes: it scores guesses, prints
// partition tables, solves games with any strategy, benchmarks strategies
// over every secret or seeded samples, and more. Run "mastermind help" for
// the list of commands and "mastermind help COMMAND" for one.
//
// Every command takes the rules of the variant: --rules for a named game,
// or --colors C --pegs P [--distinct] (classic 6 × 4 by default), and
// --alphabet to write colours with other symbols than 123456789ABC….
// Errors are one line on stderr; bad input exits with status 2, a command
// that ran but failed (a game not solved) with status 1.
//
// This binary links only what computing needs, so that its start does not
// pay for the server, the terminal UI and the plots; serve, client, play,
// assist and --plot run in mastermind-full, installed beside it by
// running, in a clone of the repository (the module is on no public proxy),
//
//	CGO_ENABLED=0 go install ./cmd/...
package main

import (
	"os"

	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

func main() { os.Exit(cli.Main(nil)) }
