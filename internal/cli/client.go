package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/server"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

type clientFlags struct {
	server     string
	games      int
	maxGuesses int
	timeLimit  time.Duration
	strategy   string
	seed       uint64
	workers    int
	asJSON     bool
	so         strategy.Options
}

// clientJSON is the output of client --json: bench's fields, where games
// counts every game played and the statistics of guesses are those of the
// won games, with the games won and lost and the time per game beside
// them.
type clientJSON struct {
	Server     string    `json:"server"`
	Rules      rulesJSON `json:"rules"`
	MaxGuesses int       `json:"maxGuesses"`
	TimeLimit  float64   `json:"timeLimit"` // seconds; 0 for none
	Seed       uint64    `json:"seed"`
	resultJSON
	Won               int     `json:"won"`
	Lost              int     `json:"lost"`
	SecondsPerGame    float64 `json:"secondsPerGame"`
	MaxSecondsPerGame float64 `json:"maxSecondsPerGame"`
}

func newClient(e *env, rf *rulesFlags) *cobra.Command {
	cf := &clientFlags{}
	cmd := &cobra.Command{
		Use:   "client --server URL",
		Short: "Play games against a game server with a strategy, and report the statistics",
		Long: `client creates --games games on a server of the mastermind API (mastermind
serve, or any other that speaks it), plays each to the end with a strategy,
and reports what bench reports for the won games (mean, median, standard
deviation, worst case, histogram of guesses), the games lost, and the time
per game as the client saw it, from creating the game to the last answer.

The server holds the secret and enforces --max-guesses and --time-limit;
the strategy sees only the feedback. The exit status is 1 if any game was
lost.`,
		Example: `  mastermind client --server http://127.0.0.1:8080 --games 100
  mastermind client --server http://127.0.0.1:8080 --games 1000 --colors 8 --pegs 5 \
      --max-guesses 35 --time-limit 2s --strategy knuth --json`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, _, err := rf.rules()
			if err != nil {
				return err
			}
			if rf.alphabet != "" {
				return fmt.Errorf("--alphabet: the API writes codes with %s", mm.DefaultSymbols)
			}
			if cf.server == "" {
				return fmt.Errorf("--server URL is required, such as http://127.0.0.1:8080")
			}
			u, err := url.Parse(cf.server)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("--server %q: want an http:// or https:// URL", cf.server)
			}
			switch {
			case cf.games < 1:
				return fmt.Errorf("--games must be at least 1")
			case cf.workers < 1:
				return fmt.Errorf("--workers must be at least 1")
			case cf.maxGuesses < 0 || cf.timeLimit < 0:
				return fmt.Errorf("--max-guesses and --time-limit must not be negative")
			case cf.timeLimit%time.Millisecond != 0:
				return fmt.Errorf("--time-limit %v: the server counts whole milliseconds", cf.timeLimit)
			}
			s, err := makeStrategy(cf.strategy, cf.so, r, mm.DefaultAlphabet)
			if err != nil {
				return err
			}
			tr := http.DefaultTransport.(*http.Transport).Clone()
			tr.MaxIdleConnsPerHost = max(tr.MaxIdleConnsPerHost, cf.workers)
			c := &server.Client{URL: cf.server, HTTP: &http.Client{Timeout: time.Minute, Transport: tr}}
			req := server.NewGame{Colors: r.Colors, Pegs: r.Pegs, Distinct: r.Distinct,
				MaxGuesses: cf.maxGuesses, TimeLimitMs: cf.timeLimit.Milliseconds()}
			bar := e.newRunBar(cf.games)
			start := time.Now()
			results, err := playGames(cmd.Context(), c, req, s, cf, func() { bar.add(1) })
			elapsed := time.Since(start)
			bar.stop()
			if err != nil {
				return &failure{err}
			}
			rep := clientReport(r, cf, results, elapsed)
			if cf.asJSON {
				err = writeJSON(e.stdout, rep)
			} else {
				err = writeClientTable(e.stdout, rep, results)
			}
			if err != nil {
				return err
			}
			if rep.Lost > 0 {
				return &failure{fmt.Errorf("%d of %d games lost", rep.Lost, rep.Games)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cf.server, "server", "", "base URL of the game server, such as http://127.0.0.1:8080")
	f.IntVar(&cf.games, "games", 10, "games to play")
	f.IntVar(&cf.maxGuesses, "max-guesses", 0, "guesses allowed per game (0: the server's default)")
	f.DurationVar(&cf.timeLimit, "time-limit", 0, "time allowed per game, such as 2s (0: none)")
	f.StringVar(&cf.strategy, "strategy", "knuth", "strategy to play")
	f.Uint64Var(&cf.seed, "seed", 1, "seed of randomised strategies")
	f.IntVar(&cf.workers, "workers", 1, "games played at once")
	f.BoolVar(&cf.asJSON, "json", false, "print the results as JSON")
	addStrategyFlags(f, &cf.so)
	return cmd
}

// playGames plays cf.games games, cf.workers at a time, and returns their
// results in the order the games were numbered. The first error stops
// the run.
func playGames(ctx context.Context, c *server.Client, req server.NewGame, s mm.Strategy, cf *clientFlags, done func()) ([]*server.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]*server.Result, cf.games)
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range min(cf.workers, cf.games) {
		wg.Go(func() {
			for i := range next {
				res, err := c.Play(ctx, req, s, rand.New(rand.NewPCG(cf.seed, uint64(i))))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("game %d: %w", i+1, err)
					cancel()
				}
				results[i] = res
				if err == nil {
					done()
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range cf.games {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return results, firstErr
}

// clientReport summarises the results.
func clientReport(r mm.Rules, cf *clientFlags, results []*server.Result, elapsed time.Duration) *clientJSON {
	var won []int
	lost := 0
	var total, longest time.Duration
	for _, res := range results {
		if res.Status == mm.Won {
			won = append(won, res.Guesses)
		} else {
			lost++
		}
		total += res.Elapsed
		longest = max(longest, res.Elapsed)
	}
	rep := &eval.Report{Strategy: cf.strategy, Stats: eval.Summarize(won), Elapsed: elapsed}
	// The limits the server set, which may be its defaults; --games is at
	// least 1 and every game has a result.
	maxGuesses, timeLimit := results[0].MaxGuesses, results[0].TimeLimit
	out := &clientJSON{Server: cf.server, Rules: toRulesJSON(r), MaxGuesses: maxGuesses, TimeLimit: timeLimit.Seconds(),
		Seed: cf.seed, resultJSON: toResultJSON(rep), Won: len(won), Lost: lost,
		SecondsPerGame:    round(total.Seconds()/float64(len(results)), 4),
		MaxSecondsPerGame: round(longest.Seconds(), 4)}
	out.Games = len(results) // every game played; the statistics are of the won ones
	return out
}

func writeClientTable(w io.Writer, rep *clientJSON, results []*server.Result) error {
	limits := "no guess limit"
	if rep.MaxGuesses > 0 {
		limits = strconv.Itoa(rep.MaxGuesses) + " guesses"
	}
	if rep.TimeLimit > 0 {
		limits += ", " + strconv.FormatFloat(rep.TimeLimit, 'f', -1, 64) + " s per game"
	}
	r := mm.Rules{Colors: rep.Rules.Colors, Pegs: rep.Rules.Pegs, Distinct: rep.Rules.Distinct}
	fmt.Fprintf(w, "%s, %s, against %s\n\n", describeRules(r), limits, rep.Server)
	t := newTable(w)
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	t.row("", rep.Strategy)
	t.row("games", strconv.Itoa(rep.Games))
	t.row("won", strconv.Itoa(rep.Won))
	t.row("lost", strconv.Itoa(rep.Lost))
	t.row("total", strconv.Itoa(rep.Total))
	t.row("mean", f3(rep.Mean))
	t.row("median", strconv.FormatFloat(rep.Median, 'f', -1, 64))
	t.row("std", f3(rep.StdDev))
	t.row("max", strconv.Itoa(rep.Max))
	for n := 1; n <= rep.Max; n++ {
		label := strconv.Itoa(n) + " guess"
		if n > 1 {
			label += "es"
		}
		t.row(label, strconv.Itoa(rep.Histogram[n]))
	}
	t.row("seconds", f3(rep.Seconds))
	t.row("s/game", f3(rep.SecondsPerGame))
	t.row("max s/game", f3(rep.MaxSecondsPerGame))
	if err := t.flush(); err != nil {
		return err
	}
	if rep.Lost > 0 {
		var ids []string
		for _, res := range results {
			if res.Status != mm.Won {
				ids = append(ids, res.ID)
			}
		}
		slices.Sort(ids)
		fmt.Fprintf(w, "\nlost games: %v\n", ids)
	}
	return nil
}
