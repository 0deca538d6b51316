package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newServe(e *Env, rf *rulesFlags) *cobra.Command {
	o := &ServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the game server: a JSON API and a web page to play on",
		Long: `serve runs a Mastermind game server: it holds the secrets and answers
guesses over an HTTP JSON API, and serves a web page to play on at /.
Games are kept in an SQLite file (--db), created on first run; every
acknowledged guess survives a crash. The API is in the README:

  POST /api/games               {"colors":8,"pegs":5,"maxGuesses":35,"timeLimitMs":2000}
  POST /api/games/{id}/guesses  {"guess":"11223"}
  GET  /api/games/{id}          rules, state, history; the secret once over
  GET  /api/games/{id}/hint     the server's solver's next guess
  GET  /api/stats               games played and won, per rules

It stops on an interrupt (Ctrl-C), finishing the requests under way.`,
		Example: `  mastermind serve
  mastermind serve --addr :8080 --db /var/lib/mastermind/games.db
  mastermind client --server http://127.0.0.1:8080 --games 100 --colors 8 --pegs 5 --max-guesses 35 --time-limit 2s`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Rate < 0 {
				return fmt.Errorf("--rate %v: want 0 or more", o.Rate)
			}
			if err := atLeast(0, "burst", o.Burst); err != nil {
				return err
			}
			if e.full.Serve == nil {
				return e.delegate("serve")
			}
			return e.full.Serve(cmd.Context(), e, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "address to listen on (:8080 for every interface, port 0 for any free port)")
	f.StringVar(&o.DB, "db", "mastermind.db", "SQLite file that keeps the games; created if missing")
	f.Float64Var(&o.Rate, "rate", 200, "requests per second allowed to one client address (0: no limit)")
	f.IntVar(&o.Burst, "burst", 400, "requests one client may send at once beyond --rate")
	return cmd
}
