package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// servePegs is the most pegs the game server takes (server.DefaultLimits).
const servePegs = 20

func newServe(e *Env, rf *rulesFlags) *cobra.Command {
	o := &ServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the game server: a JSON API and a web page to play on",
		Long: `serve runs a Mastermind game server: it holds the secrets and answers
guesses over an HTTP JSON API, and serves a web page to play on at /, and
at /assist.html one that helps break a code on a real board.
Games are kept in an SQLite file (--db), created on first run; every
acknowledged guess survives a crash. One server per database file, by
whatever path: a second one on the same file, or on a symbolic or hard
link to it, stops at once (exit status 2). A damaged database file is
refused at start, with what to do. --rules,
--colors, --pegs and --distinct set the variant of new games that do not
say, and the web page's first choice. The API is in docs/server.md:

  POST /api/games  {"colors":8,"pegs":5,"maxGuesses":35,"timeLimitMs":2000}
      the game, with the token its player sends
  POST /api/games/{id}/guesses  {"guess":"11223"}
      the answer; with the token, as Authorization: Bearer TOKEN
  GET  /api/games/{id}
      rules, state, history; the secret once over
  GET  /api/games/{id}/hint
      the server's solver's next guess (with the token)
  GET  /api/games/{id}/coach
      once the game is over, each guess weighed against the solver's
  POST /api/assist  {"history":[{"guess":"1122","black":1,"white":0}]}
      for a real board: the solver's next guess, and the codes left
  GET  /api/stats
      games played and won, per rules
  GET  /api/config
      defaults and limits of new games

Games idle for longer than --retention are deleted (their results still
count in the statistics). --hint-strategy picks the solver behind hints
and the assistant, and --hint-share and --hint-burst each client's share
of it; the solvers are shared fairly among clients. --max-adversary bounds
the adversary games one address has in play (429 beyond). It stops on an
interrupt (Ctrl-C) or SIGTERM, answering the requests under way first,
and exits 0.`,
		Example: `  mastermind serve
  mastermind serve --addr :8080 --db /var/lib/mastermind/games.db \
      --retention 168h
  mastermind serve --rules super
  mastermind client --server http://127.0.0.1:8080 --games 100 --colors 8 \
      --pegs 5 --max-guesses 35 --time-limit 2s`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Rate < 0 {
				return fmt.Errorf("--rate %v: want 0 or more", o.Rate)
			}
			if err := atLeast(0, "burst", o.Burst); err != nil {
				return err
			}
			if err := o.checkHints(); err != nil {
				return err
			}
			if o.Retention < 0 {
				return fmt.Errorf("--retention %v: want a duration such as 720h, or 0 to keep every game", o.Retention)
			}
			if rf.alphabet != "" {
				return fmt.Errorf("--alphabet: the API writes codes with %s", mm.DefaultSymbols)
			}
			if r, _, err := rf.variant(cmd); err == nil && r.Colors > len(mm.DefaultSymbols) {
				return fmt.Errorf("--colors %d: the server takes games of 2 to %d colours", r.Colors, len(mm.DefaultSymbols))
			}
			r, _, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if r.Pegs > servePegs {
				return fmt.Errorf("--pegs %d: the server takes games of 1 to %d pegs", r.Pegs, servePegs)
			}
			if err := o.checkBounds(r); err != nil {
				return err
			}
			o.Defaults = r
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
	f.DurationVar(&o.Retention, "retention", 30*24*time.Hour, "delete games idle for longer, such as 168h (0: keep every game)")
	// Bounds for an operator.
	f.IntVar(&o.MaxConns, "max-conns", 0, "connections held open at once, the idle closed first (0: 4096, or fewer within the open-file limit)")
	f.IntVar(&o.MaxColors, "max-colors", 0, fmt.Sprintf("most colours of a new game (0: %d)", len(mm.DefaultSymbols)))
	f.IntVar(&o.MaxPegs, "max-pegs", 0, fmt.Sprintf("most pegs of a new game (0: %d)", servePegs))
	f.IntVar(&o.MaxAdversary, "max-adversary", serveMaxAdversary,
		"adversary games one client address may have in play at once; one idle for 15 min stops counting (0: no limit)")
	// The server's help (issue 46).
	f.StringVar(&o.HintStrategy, "hint-strategy", "tiered",
		"solver of hints: tiered (by the board's size), none, or a strategy of solve")
	f.Float64Var(&o.HintShare, "hint-share", serveHintShare, "share of a core one client's hints may use, on average")
	f.DurationVar(&o.HintBurst, "hint-burst", serveHintBurst, "solver time one client's hints may take at once")
	return cmd
}

// serveHintShare and serveHintBurst are the defaults of --hint-share and
// --hint-burst: server.DefaultHintShare and DefaultHintBurst, which a
// test keeps equal (this package does not link the server).
const (
	serveHintShare = 0.05
	serveHintBurst = 10 * time.Second
	// serveMaxAdversary is the default of --max-adversary:
	// server.DefaultMaxAdversary.
	serveMaxAdversary = 64
)

// checkHints checks the flags of the server's help.
func (o *ServeOptions) checkHints() error {
	o.HintStrategy = strings.ToLower(strings.TrimSpace(o.HintStrategy))
	if o.HintStrategy != "tiered" && o.HintStrategy != "none" && !slices.Contains(strategy.Names(), o.HintStrategy) {
		return fmt.Errorf("--hint-strategy %q: want tiered, none or one of %s", o.HintStrategy, strings.Join(strategy.Names(), ", "))
	}
	if !(o.HintShare > 0 && o.HintShare <= 1) {
		return fmt.Errorf("--hint-share %v: want a share of a core above 0 and at most 1, such as 0.05", o.HintShare)
	}
	if o.HintBurst < time.Millisecond {
		return fmt.Errorf("--hint-burst %v: want a duration of at least 1ms, such as 10s", o.HintBurst)
	}
	return nil
}

// checkBounds checks the operator's bounds, and that the variant of new
// games that do not say, r, is within them.
func (o *ServeOptions) checkBounds(r mm.Rules) error {
	switch {
	case o.MaxConns < 0:
		return fmt.Errorf("--max-conns %d: want 1 or more, or 0 for the default", o.MaxConns)
	case o.MaxAdversary < 0:
		return fmt.Errorf("--max-adversary %d: want 1 or more, or 0 for no limit", o.MaxAdversary)
	case o.MaxColors != 0 && (o.MaxColors < 2 || o.MaxColors > len(mm.DefaultSymbols)):
		return fmt.Errorf("--max-colors %d: want 2 to %d, or 0 for %[2]d", o.MaxColors, len(mm.DefaultSymbols))
	case o.MaxPegs < 0 || o.MaxPegs > servePegs:
		return fmt.Errorf("--max-pegs %d: want 1 to %d, or 0 for %[2]d", o.MaxPegs, servePegs)
	case o.MaxColors != 0 && r.Colors > o.MaxColors:
		return fmt.Errorf("--colors %d: more than --max-colors %d", r.Colors, o.MaxColors)
	case o.MaxPegs != 0 && r.Pegs > o.MaxPegs:
		return fmt.Errorf("--pegs %d: more than --max-pegs %d", r.Pegs, o.MaxPegs)
	}
	return nil
}
