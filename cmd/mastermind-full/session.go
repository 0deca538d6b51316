package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// session plays assist or play: full-screen when stdin and stdout are
// terminals and o.Plain is false, in line mode otherwise. A game of play
// that ends without the code found is a failure, unless it was left saved
// to be resumed.
func session(ctx context.Context, e *cli.Env, o *cli.SessionOptions) error {
	var saved play.SavedSession
	if o.Resume != "" {
		var err error
		if saved, err = readSaved(o); err != nil {
			return err
		}
	}
	cfg, err := sessionConfig(o)
	if err != nil {
		return err
	}
	var sess play.Session
	var g *play.Game
	var in io.Reader = e.Stdin
	if o.Assist {
		a, err := play.NewAssist(cfg)
		if err != nil {
			return err
		}
		if err := a.Resume(saved.Inputs); err != nil {
			return fmt.Errorf("--resume %s: %w", o.Resume, err)
		}
		sess = a
	} else if o.Resume != "" {
		if g, err = play.ResumeGame(cfg, saved); err != nil {
			return fmt.Errorf("--resume %s: %w", o.Resume, err)
		}
		sess = g
	} else {
		if o.TwoPlayer {
			if o.Secret, in, err = readCodemaker(e, o.Rules, o.Alphabet); err != nil {
				return err
			}
		}
		opts := play.GameOptions{Adversary: o.Adversary, Coach: o.Coach, TwoPlayer: o.TwoPlayer}
		if g, err = play.NewGameOptions(cfg, o.Secret, o.MaxGuesses, opts); err != nil {
			return err
		}
		sess = g
	}
	tty := cli.IsTerminal(e.Stdin) && cli.IsTerminal(e.Stdout)
	if tty && !o.Plain {
		err = play.RunTUI(ctx, sess, in, e.Stdout)
	} else {
		err = play.RunLines(ctx, sess, in, e.Stdout, !tty)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return cli.Failure(errors.New("interrupted"))
	case err != nil:
		return err
	case g != nil && g.LeftSaved():
		return nil
	case g != nil && !g.Won() && o.MaxGuesses > 0 && len(g.Turns()) >= o.MaxGuesses:
		return cli.Failure(fmt.Errorf("game lost: the code was not found in %s", cli.Plural(len(g.Turns()), "guess")))
	case g != nil && !g.Won():
		return cli.Failure(fmt.Errorf("game abandoned after %s", cli.Plural(len(g.Turns()), "guess")))
	}
	return nil
}

// readSaved reads the session file of --resume, of assist or of play as
// o says, and takes its rules, a game's limit, and its strategy unless
// --strategy was given. Rules given on the command
// line must be the saved ones.
func readSaved(o *cli.SessionOptions) (play.SavedSession, error) {
	f, err := os.Open(o.Resume)
	if err != nil {
		return play.SavedSession{}, fmt.Errorf("--resume: %w", err)
	}
	defer f.Close()
	s, err := play.ReadSaved(f)
	if err != nil {
		return s, fmt.Errorf("--resume %s: %w", o.Resume, err)
	}
	switch {
	case o.Assist && s.Game != nil:
		return s, fmt.Errorf("--resume %s: a saved game of play, not an assist session: resume it with mastermind play --resume %s", o.Resume, o.Resume)
	case !o.Assist && s.Game == nil:
		return s, fmt.Errorf("--resume %s: a saved assist session, not a game of play: resume it with mastermind assist --resume %s", o.Resume, o.Resume)
	case s.Game != nil:
		o.MaxGuesses = s.Game.Limit
	}
	if o.RulesGiven && (o.Rules.WithDefaults() != s.Rules.WithDefaults() || o.Alphabet.String() != s.Alphabet.String()) {
		return s, fmt.Errorf("--resume %s: the session was saved with %d colours, %d pegs and colours %s; "+
			"leave out the rules flags to take them", o.Resume, s.Rules.Colors, s.Rules.Pegs, s.Alphabet)
	}
	o.Rules, o.Alphabet = s.Rules, s.Alphabet
	if !o.StrategyGiven {
		o.Strategy = s.Strategy
	}
	return s, nil
}

// sessionConfig returns the configuration of an interactive session: the
// strategy (with its --opening), hints ranked by it (or by knuth if it does
// not score guesses), and a random source for randomised strategies.
func sessionConfig(o *cli.SessionOptions) (play.Config, error) {
	s, err := cli.MakeStrategy(o.Strategy, o.Options, o.Rules, o.Alphabet)
	if err != nil {
		return play.Config{}, err
	}
	rank, by := ranker(o.Strategy, o.Options)
	return play.Config{
		Rules:    o.Rules,
		Alphabet: o.Alphabet,
		Strategy: s,
		Name:     o.Strategy,
		Rank:     rank,
		RankBy:   by,
		Rand:     rand.New(rand.NewPCG(o.Seed, 1)),
		Save:     func(name string, data []byte) error { return os.WriteFile(name, data, 0o644) },
	}, nil
}

// rankOrders says how strategy.Rank orders guesses for each scoring
// strategy.
var rankOrders = map[string]string{
	"knuth":         "smallest worst case first",
	"expected-size": "smallest expected size first",
	"entropy":       "most entropy first",
	"most-parts":    "most parts first",
}

// ranker returns strategy.Rank for the named strategy, or for knuth when
// that one does not score guesses, and what it orders by.
func ranker(name string, so strategy.Options) (play.Ranker, string) {
	if _, ok := rankOrders[name]; !ok {
		name = "knuth"
	}
	return func(st *mm.State, k int) ([]play.Scored, error) {
		ranked, err := strategy.Rank(st, name, k, so.ConsistentOnly)
		if err != nil {
			return nil, err
		}
		out := make([]play.Scored, len(ranked))
		for i, s := range ranked {
			out[i] = play.Scored{Guess: s.Guess, Consistent: s.Consistent, Parts: s.Parts,
				Largest: s.Largest, Expected: s.Expected, Entropy: s.Entropy}
		}
		return out, nil
	}, name + ": " + rankOrders[name]
}
