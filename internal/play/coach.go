package play

import (
	"context"
	"fmt"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
)

// check refuses options the rules or the strategy cannot support. The
// coach takes on any variant whose codes can be listed: it weighs the
// positions the game reaches in guesses expected when their trees are
// affordable, and scores the larger ones, such as the first of 8 × 5, by
// the codes each guess is expected to leave (eval.WeighOrScore).
func (o GameOptions) check(cfg Config) error {
	r := cfg.Rules
	if o.Adversary && !enumerable(r) {
		return fmt.Errorf("mastermind: the adversary keeps every code still possible, up to %d codes; %s has %s",
			mm.MaxSpace, r, sizeText(r))
	}
	if o.Coach {
		if !enumerable(r) {
			return fmt.Errorf("mastermind: the coach weighs guesses over every code still possible, up to %d codes; %s has %s",
				mm.MaxSpace, r, sizeText(r))
		}
		if mm.IsRandomized(cfg.Strategy) {
			return fmt.Errorf("mastermind: the coach needs a deterministic strategy, and %s is randomised", cfg.Name)
		}
	}
	return nil
}

// answer returns the feedback guess c gets: the secret's, or the
// adversary's.
func (g *Game) answer(c mm.Code) (mm.Feedback, error) {
	if !g.adversary {
		return mm.Score(g.secret, c), nil
	}
	cands, err := g.st.Candidates()
	if err != nil {
		return mm.Feedback{}, err
	}
	return cands.Evade(c)
}

// reveal says what the code was when the game ends without it found. The
// adversary commits only now, to the first code still possible.
func (g *Game) reveal() string {
	if !g.adversary {
		return "The code was " + g.format(g.secret) + "."
	}
	cands, err := g.st.Candidates()
	if err != nil || cands.Len() == 0 {
		return "I never chose a code."
	}
	g.secret = cands.Code(0)
	if cands.Len() == 1 {
		return fmt.Sprintf("I never chose a code, but only %s was still possible.", g.format(g.secret))
	}
	return fmt.Sprintf("I never chose a code: %s were still possible, such as %s.", codes(cands.Len()), g.format(g.secret))
}

// evadeSolve plays strategy s against the adversary from st until it wins.
func evadeSolve(st *mm.State, s mm.Strategy) ([]mm.Step, error) {
	var steps []mm.Step
	for len(steps) < 100 {
		c, err := s.Guess(st)
		if err != nil {
			return steps, err
		}
		cands, err := st.Candidates()
		if err != nil {
			return steps, err
		}
		f, err := cands.Evade(c)
		if err != nil {
			return steps, err
		}
		if st, err = st.Play(c, f); err != nil {
			return steps, err
		}
		steps = append(steps, mm.Step{Guess: c, Feedback: f, Remaining: st.Remaining()})
		if f.Solved(st.Rules().Pegs) {
			return steps, nil
		}
	}
	return steps, mm.ErrGuessLimit
}

// A CoachNote is what the coach found about one guess: the guesses the
// game is expected to take from there on, this one included, with the
// person's guess and with the strategy's (each followed by the strategy's
// play), and the codes each leaves possible. A position too large to
// weigh is Scored instead: by the codes each guess is expected to leave.
type CoachNote struct {
	Guess, Best         mm.Code
	Expected, BestExp   float64 // guesses expected from the position, this one included
	Left, BestLeft      int     // codes possible after the answer
	Found, BestFound    bool    // the guess is the code
	Delta               float64 // Expected - BestExp: what the guess cost; 0 when Scored
	BestIsGuess, Failed bool    // the guess is the strategy's; the coach could not tell

	Scored               bool    // too many codes to weigh: only scored one answer ahead
	ExpLeft, BestExpLeft float64 // Scored: the codes each guess is expected to leave
}

// Notes returns the coach's figures for each guess so far.
func (g *Game) Notes() []CoachNote { return g.notes }

// coachGuess compares guess c, answered f, with what the strategy would
// have played from before.
func (g *Game) coachGuess(before *mm.State, c mm.Code, f mm.Feedback) []Line {
	n, err := g.coachNote(before, c, f)
	if err != nil {
		g.notes = append(g.notes, CoachNote{Guess: c, Failed: true})
		return []Line{info("coach: no figures here: %s.", plain(err))}
	}
	g.notes = append(g.notes, n)
	left := func(found bool, k int) string {
		if found {
			return "the code"
		}
		return codes(k) + " left"
	}
	if n.Scored {
		return g.coachScored(n, left)
	}
	if n.BestIsGuess {
		return []Line{info("coach: %s is %s's guess too: %.2f guesses expected from here, %s.",
			g.format(c), g.cfg.Name, n.Expected, left(n.Found, n.Left))}
	}
	verdict := fmt.Sprintf("costs %.2f guesses", n.Delta)
	switch {
	case n.Delta < -0.005:
		verdict = fmt.Sprintf("saves %.2f guesses", -n.Delta)
	case n.Delta < 0.005:
		verdict = "costs nothing"
	}
	return []Line{info("coach: %s: %.2f guesses expected, %s; %s's %s: %.2f, %s. Yours %s.",
		g.format(c), n.Expected, left(n.Found, n.Left), g.cfg.Name, g.format(n.Best), n.BestExp, left(n.BestFound, n.BestLeft), verdict)}
}

// coachScored is the coach's line on a guess in a position too large to
// weigh in guesses: it compares the codes each guess is expected to leave.
func (g *Game) coachScored(n CoachNote, left func(bool, int) string) []Line {
	const why = "too many codes to weigh in guesses here"
	if n.BestIsGuess {
		return []Line{info("coach: %s is %s's guess too: %.1f codes expected left, %s (%s).",
			g.format(n.Guess), g.cfg.Name, n.ExpLeft, left(n.Found, n.Left), why)}
	}
	verdict := fmt.Sprintf("leaves %.1f more codes expected", n.ExpLeft-n.BestExpLeft)
	switch d := n.ExpLeft - n.BestExpLeft; {
	case d < -0.05:
		verdict = fmt.Sprintf("leaves %.1f fewer codes expected", -d)
	case d < 0.05:
		verdict = "leaves as many codes expected"
	}
	return []Line{info("coach: %s: %.1f codes expected left, %s; %s's %s: %.1f, %s. Yours %s (%s).",
		g.format(n.Guess), n.ExpLeft, left(n.Found, n.Left), g.cfg.Name, g.format(n.Best), n.BestExpLeft,
		left(n.BestFound, n.BestLeft), verdict, why)}
}

// coachNote works out the figures of guess c from before.
func (g *Game) coachNote(before *mm.State, c mm.Code, f mm.Feedback) (CoachNote, error) {
	n := CoachNote{Guess: c}
	w, err := eval.WeighOrScore(context.Background(), before, g.cfg.Strategy, c)
	if err != nil {
		return n, err
	}
	n.Best, n.Expected, n.BestExp, n.Delta, n.BestIsGuess = w.Best, w.Expected, w.BestExpected, w.Delta(), w.Best == c
	n.Scored, n.ExpLeft, n.BestExpLeft = w.Scored, w.ExpectedLeft, w.BestExpectedLeft
	cands, err := before.Candidates()
	if err != nil {
		return n, err
	}
	// The codes each guess leaves under the answer it gets: the secret's,
	// or the adversary's.
	pegs := g.cfg.Rules.Pegs
	bf := mm.Score(g.secret, n.Best)
	if g.adversary {
		if bf, err = cands.Evade(n.Best); err != nil {
			return n, err
		}
	}
	if n.BestFound = bf.Solved(pegs); !n.BestFound {
		kept, err := cands.Filter(n.Best, bf)
		if err != nil {
			return n, err
		}
		n.BestLeft = kept.Len()
	}
	if n.Found = f.Solved(pegs); !n.Found {
		after, err := cands.Filter(c, f)
		if err != nil {
			return n, err
		}
		n.Left = after.Len()
	}
	return n, nil
}

// coachSummary adds up what the guesses cost, and names the guess that
// cost the most: not the one that found the code, which cost nothing in
// this game whatever it was expected to; that one, when it was expected to
// cost more than any other, is named as the gamble that paid.
func (g *Game) coachSummary() []Line {
	if !g.coach || len(g.notes) == 0 {
		return nil
	}
	var ds []string
	scored := 0
	sum, worst, worstAt := 0.0, 0.0, -1
	gamble := -1
	for i, n := range g.notes {
		switch {
		case n.Failed:
			ds = append(ds, "?")
			continue
		case n.Scored:
			ds = append(ds, "·")
			scored++
			continue
		}
		ds = append(ds, fmt.Sprintf("%+.2f", n.Delta))
		sum += n.Delta
		switch {
		case n.Found:
			if n.Delta >= 0.005 {
				gamble = i
			}
		case n.Delta > worst+0.005:
			worst, worstAt = n.Delta, i
		}
	}
	head := fmt.Sprintf("Coach: Δ expected guesses per guess against %s: %s; %+.2f in all", g.cfg.Name, strings.Join(ds, " "), sum)
	switch scored {
	case 0:
		head += "."
	case 1:
		head += " (· marks a guess with too many codes to weigh, scored by the codes left)."
	default:
		head += fmt.Sprintf(" (· marks %d guesses with too many codes to weigh, scored by the codes left).", scored)
	}
	out := []Line{done("%s", head)}
	if worstAt >= 0 {
		n := g.notes[worstAt]
		out = append(out, done("Guess %d, %s, cost the most: %.2f guesses expected more than %s's %s.",
			worstAt+1, g.format(n.Guess), n.Delta, g.cfg.Name, g.format(n.Best)))
	}
	if gamble >= 0 && g.notes[gamble].Delta > worst+0.005 {
		n := g.notes[gamble]
		out = append(out, done("Guess %d, %s, was a gamble that paid: %.2f guesses expected more than %s's %s, but it was the code.",
			gamble+1, g.format(n.Guess), n.Delta, g.cfg.Name, g.format(n.Best)))
	}
	return out
}
