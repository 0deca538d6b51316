package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

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
	Won               int      `json:"won"`
	Lost              int      `json:"lost"`
	LostGames         []string `json:"lostGames,omitempty"`
	SecondsPerGame    float64  `json:"secondsPerGame"`
	MaxSecondsPerGame float64  `json:"maxSecondsPerGame"`
}

func newClient(e *Env, rf *rulesFlags) *cobra.Command {
	o := &ClientOptions{}
	var (
		name           string
		asJSON, asCSV  bool
		so             strategy.Options
		games, workers int
	)
	cmd := &cobra.Command{
		Use:   "client --server URL",
		Short: "Play a strategy against a game server and report its statistics",
		Long: `client creates --games games on a server of the mastermind API (mastermind
serve, or any other that speaks it), plays each to the end with a strategy,
and reports what bench reports for the won games (mean, median, standard
deviation, worst case, histogram of guesses), the games lost, and the time
per game as the client saw it, from creating the game to the last answer.

The server holds the secret and enforces --max-guesses and --time-limit;
the strategy sees only the feedback. Before any game is created the
strategy is asked for its first guess, so a strategy that cannot play the
variant is refused at once. The exit status is 1 if any game was lost, and
2 for bad flags or a server that cannot be reached or does not speak the
API.`,
		Example: `  mastermind client --server http://127.0.0.1:8080 --games 100
  mastermind client --server http://127.0.0.1:8080 --games 1000 --rules super \
      --max-guesses 35 --time-limit 2s --strategy knuth --json`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, _, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			if rf.alphabet != "" {
				return fmt.Errorf("--alphabet: the API writes codes with %s", mm.DefaultSymbols)
			}
			if o.Server == "" {
				return fmt.Errorf("--server URL is required, such as http://127.0.0.1:8080")
			}
			u, err := url.Parse(o.Server)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("--server %q: want an http:// or https:// URL", o.Server)
			}
			if err := atLeast(1, "games", games, "workers", workers); err != nil {
				return err
			}
			if err := atLeast(0, "max-guesses", o.MaxGuesses); err != nil {
				return err
			}
			switch {
			case o.TimeLimit < 0:
				return fmt.Errorf("--time-limit %v: want a duration of 0 or more", o.TimeLimit)
			case o.TimeLimit%time.Millisecond != 0:
				return fmt.Errorf("--time-limit %v: the server counts whole milliseconds", o.TimeLimit)
			case asJSON && asCSV:
				return fmt.Errorf("--json and --csv exclude each other")
			}
			name = adaptStrategy(cmd, strings.ToLower(strings.TrimSpace(name)), r)
			if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			s, err := MakeStrategy(name, so, r, mm.DefaultAlphabet)
			if err != nil {
				return err
			}
			if err := canPlay(cmd, name, s, r); err != nil {
				return err
			}
			if e.full.Client == nil {
				return e.delegate("client")
			}
			o.Rules, o.Games, o.Workers = r, games, workers
			bar := e.newRunBar(games)
			start := time.Now()
			results, err := e.full.Client(cmd.Context(), o, s, func() { bar.add(1) })
			elapsed := time.Since(start)
			bar.stop()
			if err != nil {
				return err
			}
			rep := clientReport(o, name, results, elapsed)
			switch {
			case asJSON:
				err = writeJSON(e.Stdout, rep)
			case asCSV:
				err = writeClientCSV(e.Stdout, rep)
			default:
				err = writeClientTable(e.Stdout, rep)
			}
			if err != nil {
				return err
			}
			return lostError(rep, results)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Server, "server", "", "base URL of the game server, such as http://127.0.0.1:8080")
	f.IntVar(&games, "games", 10, "games to play")
	f.IntVar(&o.MaxGuesses, "max-guesses", 0, "guesses allowed per game (0: the server's default)")
	f.DurationVar(&o.TimeLimit, "time-limit", 0, "time allowed per game, such as 2s (0: none)")
	f.StringVar(&name, "strategy", "knuth", "strategy to play (auto where a variant has more than 2^20 codes)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of randomised strategies")
	f.IntVar(&workers, "workers", 1, "games played at once")
	f.BoolVar(&asJSON, "json", false, "print the results as JSON")
	f.BoolVar(&asCSV, "csv", false, "print the results as CSV: a heading and one row")
	addStrategyFlags(f, &so)
	return cmd
}

// canPlay asks s for its first guess under r, so that a strategy that
// cannot play the variant is refused before any game is created.
func canPlay(cmd *cobra.Command, name string, s mm.Strategy, r mm.Rules) error {
	st, err := mm.NewState(r, nil)
	if err != nil {
		return err
	}
	if _, err := mm.GuessContext(cmd.Context(), s, st); err != nil {
		return fmt.Errorf("--strategy %s cannot play %s: %w", name, describeRules(r), err)
	}
	return nil
}

// clientReport summarises the results.
func clientReport(o *ClientOptions, name string, results []ClientGame, elapsed time.Duration) *clientJSON {
	var won []int
	var lost []string
	var total, longest time.Duration
	for _, res := range results {
		if res.Won {
			won = append(won, res.Guesses)
		} else {
			lost = append(lost, res.ID)
		}
		total += res.Elapsed
		longest = max(longest, res.Elapsed)
	}
	slices.Sort(lost)
	rep := &eval.Report{Strategy: name, Stats: eval.Summarize(won), Elapsed: elapsed}
	// The limits the server set, which may be its defaults; --games is at
	// least 1 and every game has a result.
	out := &clientJSON{Server: o.Server, Rules: toRulesJSON(o.Rules), MaxGuesses: results[0].MaxGuesses,
		TimeLimit: results[0].TimeLimit.Seconds(), Seed: o.Seed, resultJSON: toResultJSON(rep, false),
		Won: len(won), Lost: len(lost), LostGames: lost,
		SecondsPerGame:    round(total.Seconds()/float64(len(results)), 4),
		MaxSecondsPerGame: round(longest.Seconds(), 4)}
	out.Games = len(results) // every game played; the statistics are of the won ones
	return out
}

// lostError returns the failure of a run with lost games, saying why
// they were lost, or nil.
func lostError(rep *clientJSON, results []ClientGame) error {
	if rep.Lost == 0 {
		return nil
	}
	var outOfGuesses, outOfTime int
	for _, r := range results {
		switch {
		case r.Won:
		case r.OutOfTime:
			outOfTime++
		default:
			outOfGuesses++
		}
	}
	var why []string
	if outOfGuesses > 0 {
		why = append(why, fmt.Sprintf("%d not found within %s", outOfGuesses, Plural(rep.MaxGuesses, "guess")))
	}
	if outOfTime > 0 {
		why = append(why, fmt.Sprintf("%d ran out of the %s s allowed", outOfTime, strconv.FormatFloat(rep.TimeLimit, 'f', -1, 64)))
	}
	what := fmt.Sprintf("%d of %d games lost", rep.Lost, rep.Games)
	if rep.Lost == rep.Games {
		what = fmt.Sprintf("every game lost (%d of %d)", rep.Lost, rep.Games)
	}
	return Failure(fmt.Errorf("%s: %s", what, strings.Join(why, ", ")))
}

func writeClientTable(w io.Writer, rep *clientJSON) error {
	limits := "no guess limit"
	if rep.MaxGuesses > 0 {
		limits = Plural(rep.MaxGuesses, "guess")
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
		t.row(Plural(n, "guess"), strconv.Itoa(rep.Histogram[n]))
	}
	t.row("seconds", f3(rep.Seconds))
	t.row("s/game", f3(rep.SecondsPerGame))
	t.row("max s/game", f3(rep.MaxSecondsPerGame))
	if err := t.flush(); err != nil {
		return err
	}
	if rep.Lost > 0 {
		fmt.Fprintf(w, "\nlost games: %s\n", strings.Join(rep.LostGames, " "))
	}
	return nil
}

func writeClientCSV(w io.Writer, rep *clientJSON) error {
	cw := csv.NewWriter(w)
	head := []string{"strategy", "colors", "pegs", "distinct", "server", "max_guesses", "time_limit", "games", "won", "lost",
		"total", "mean", "median", "stddev", "max", "seconds", "seconds_per_game", "max_seconds_per_game"}
	for g := 1; g <= rep.Max; g++ {
		head = append(head, strconv.Itoa(g))
	}
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	row := []string{rep.Strategy, strconv.Itoa(rep.Rules.Colors), strconv.Itoa(rep.Rules.Pegs), strconv.FormatBool(rep.Rules.Distinct),
		rep.Server, strconv.Itoa(rep.MaxGuesses), ff(rep.TimeLimit), strconv.Itoa(rep.Games), strconv.Itoa(rep.Won), strconv.Itoa(rep.Lost),
		strconv.Itoa(rep.Total), ff(rep.Mean), ff(rep.Median), ff(rep.StdDev), strconv.Itoa(rep.Max), ff(rep.Seconds),
		ff(rep.SecondsPerGame), ff(rep.MaxSecondsPerGame)}
	for g := 1; g <= rep.Max; g++ {
		row = append(row, strconv.Itoa(rep.Histogram[g]))
	}
	cw.Write(head)
	cw.Write(row)
	cw.Flush()
	return cw.Error()
}
