package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// FullName is the name of the binary that links every part of the command.
const FullName = "mastermind-full"

// Full holds the parts of the command that link large dependencies: the
// game server and its SQLite store, the HTTP client, the terminal UI, and
// the plots. cmd/mastermind-full fills it in; cmd/mastermind leaves it
// empty, so that its start-up does not pay for their initialisation, and
// runs mastermind-full for the commands that need them.
type Full struct {
	// Serve runs the game server until ctx is cancelled.
	Serve func(ctx context.Context, e *Env, o *ServeOptions) error
	// Client plays o.Games games against a server with s, calling done
	// after each, and returns their outcomes in order.
	Client func(ctx context.Context, o *ClientOptions, s mm.Strategy, done func()) ([]ClientGame, error)
	// Session plays assist or play with a person on e's streams.
	Session func(ctx context.Context, e *Env, o *SessionOptions) error
	// Histograms draws guess-count histograms side by side into a file.
	Histograms func(f chart.Frame, hs []chart.Histogram) error
	// MeanBySize draws mean guesses against the size of the space.
	MeanBySize func(f chart.Frame, ss []chart.Series) error
}

// ServeOptions are the settings of serve.
type ServeOptions struct {
	Addr, DB  string
	Rate      float64
	Burst     int
	Retention time.Duration // 0: keep every game
	Defaults  mm.Rules      // the variant of new games that do not say

	// Bounds for an operator; 0 takes the server's default.
	MaxConns  int // connections open at once
	MaxColors int // colours of a new game
	MaxPegs   int // pegs of a new game
	// MaxAdversary is the most adversary games one client address may
	// have in play at once; 0 for no limit (server.Server's).
	MaxAdversary int

	// The server's help (issue 46). HintStrategy is "tiered" (the
	// default solver, which picks a strategy by the board's size), "none"
	// for no hints, or a name strategy.New takes; HintShare and HintBurst
	// are server.Server's.
	HintStrategy string
	HintShare    float64
	HintBurst    time.Duration
}

// ClientOptions are the settings of client.
type ClientOptions struct {
	Server     string
	Rules      mm.Rules
	Games      int
	MaxGuesses int           // 0: the server's default
	TimeLimit  time.Duration // 0: none
	Seed       uint64
	Workers    int
}

// A ClientGame is the outcome of one game client played.
type ClientGame struct {
	ID         string
	Won        bool
	Guesses    int
	Elapsed    time.Duration // from creating the game to the last answer
	MaxGuesses int           // the limits the server set; 0 for none
	TimeLimit  time.Duration
	OutOfTime  bool // lost to the clock rather than the guess limit
}

// SessionOptions are the settings of assist and play.
type SessionOptions struct {
	Assist     bool // assist; otherwise play
	Rules      mm.Rules
	Alphabet   *mm.Alphabet
	Strategy   string // its name, lower-case
	Options    strategy.Options
	Seed       uint64
	Secret     mm.Code // play: the code to break
	MaxGuesses int     // play: guesses allowed, 0 for no limit
	Adversary  bool    // play: hold no code, answer to keep the most codes possible
	Coach      bool    // play: compare each guess with the strategy's
	TwoPlayer  bool    // play: a codemaker types the code, hidden
	Plain      bool    // line mode even at a terminal
	// Resume names a session file assist or play saved, to carry on
	// with; its rules and strategy count unless RulesGiven or
	// StrategyGiven, and a game's settings always.
	Resume        string
	RulesGiven    bool // a rules flag was given
	StrategyGiven bool // --strategy was given
}

// delegate runs the command line in mastermind-full, because it needs
// what, which this binary does not link. Under Main it replaces the
// process; otherwise it runs a child on e's streams and returns its exit
// status as an *exitStatus.
func (e *Env) delegate(what string) error {
	if os.Getenv("MASTERMIND_DELEGATED") != "" {
		return fmt.Errorf("%s is not in this build, and %s is not the full command either", what, os.Args[0])
	}
	bin, err := findFull()
	if err != nil {
		return fmt.Errorf("%s needs %s, which is not installed beside this command or on PATH (%v); "+
			"install both from a clone of the repository with: go install ./cmd/... (or point MASTERMIND_FULL at it)", what, FullName, err)
	}
	env := append(os.Environ(), "MASTERMIND_DELEGATED=1")
	if e.replace {
		err := execReplace(bin, append([]string{bin}, e.args...), env)
		return fmt.Errorf("running %s: %w", bin, err)
	}
	cmd := exec.Command(bin, e.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = e.Stdin, e.Stdout, e.Stderr, env
	err = cmd.Run()
	var xe *exec.ExitError
	switch {
	case errors.As(err, &xe):
		return &exitStatus{code: xe.ExitCode()}
	case err != nil:
		return fmt.Errorf("running %s: %w", bin, err)
	}
	return nil
}

// findFull returns the path of mastermind-full: $MASTERMIND_FULL, or the
// file of that name beside the running executable, or the one on PATH.
func findFull() (string, error) {
	if p := os.Getenv("MASTERMIND_FULL"); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), FullName+filepath.Ext(self))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return exec.LookPath(FullName)
}
