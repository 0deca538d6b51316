package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/consist"
)

// AssistRequest is the body of POST /api/assist: the rules of a game
// played on a real board and the answers got so far. Fields left out take
// the server's defaults.
type AssistRequest struct {
	Colors   int    `json:"colors,omitempty"`
	Pegs     int    `json:"pegs,omitempty"`
	Distinct *bool  `json:"distinct,omitempty"`
	History  []Turn `json:"history"`
	// Strategy names the strategy that proposes the next guess, one of
	// Config.Strategies; empty for the server's hint solver.
	Strategy string `json:"strategy,omitempty"`
}

// AssistAnswer is the answer to POST /api/assist: the solver's next guess,
// and the codes still possible: how many (null when too many to count)
// and the first AssistCodes of them.
type AssistAnswer struct {
	Guess     string   `json:"guess,omitempty"` // empty once the code is found
	Solved    bool     `json:"solved"`
	Remaining *int     `json:"remaining"`
	Codes     []string `json:"codes"`
	// Unfit, where the codes left are not counted, says that the guess
	// cannot be the code: it does not fit every answer.
	Unfit bool `json:"unfit,omitempty"`
}

// AssistCodes is the number of codes still possible that POST /api/assist
// lists; assistCount the largest variant whose codes it counts.
const (
	AssistCodes = 60
	assistCount = 1 << 20
)

// CoachAnswer is the answer to GET /api/games/{id}/coach: each guess of a
// finished game against the server's solver's.
type CoachAnswer struct {
	Moves []CoachMove `json:"moves"`
	Delta float64     `json:"delta"` // the sum of the moves' deltas
}

// CoachMove weighs one guess: the guesses expected from its position to
// the end, itself included, with it and with the solver's guess (the
// solver playing on after either), and the codes each left.
type CoachMove struct {
	Guess        string  `json:"guess"`
	Best         string  `json:"best"`
	Expected     float64 `json:"expected"`
	BestExpected float64 `json:"bestExpected"`
	Delta        float64 `json:"delta"`
	Left         int     `json:"left"`     // codes possible after the guess's answer; 0 once found
	BestLeft     int     `json:"bestLeft"` // after the answer the solver's guess would have got

	// Scored says the position had too many codes to weigh (such as the
	// first of 8 x 5, eval.WeighOrScore): the expected figures and delta
	// are 0, and these are the codes each guess was expected to leave.
	Scored           bool    `json:"scored,omitempty"`
	ExpectedLeft     float64 `json:"expectedLeft,omitempty"`
	BestExpectedLeft float64 `json:"bestExpectedLeft,omitempty"`
}

// assist handles POST /api/assist, for anyone: a stateless assist session.
// Replaying the answers is the solver's work, up to MaxGuesses answers
// over up to a million codes: it is done in one of the solver's slots,
// within the hint timeout, stopped when the client hangs up, and paid for
// from the client's share of the solver, as a hint is.
func (h *handler) assist(w http.ResponseWriter, r *http.Request) {
	if h.hints == nil {
		h.writeError(w, r, errNoHints)
		return
	}
	var req AssistRequest
	if err := decode(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	rules := h.defaults
	if req.Colors != 0 {
		rules.Colors = req.Colors
	}
	if req.Pegs != 0 {
		rules.Pegs = req.Pegs
	}
	if req.Distinct != nil {
		rules.Distinct = *req.Distinct
	}
	if err := h.checkRules(rules); err != nil {
		h.writeError(w, r, err)
		return
	}
	s, err := h.assistStrategy(req.Strategy)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if len(req.History) > h.limits.MaxGuesses {
		h.writeError(w, r, fmt.Errorf("%w: %d answers; this server takes at most %d", mm.ErrInvalidRules, len(req.History), h.limits.MaxGuesses))
		return
	}
	// Reading the answers is cheap, and a malformed one costs no solver.
	g := &mm.Game{Rules: rules}
	for i, t := range req.History {
		c, err := parseGuess(t.Guess)
		if err == nil {
			err = rules.Check(c)
		}
		if err == nil {
			err = checkPegs(rules, t.Black, t.White)
		}
		if err != nil {
			h.writeError(w, r, fmt.Errorf("answer %d: %w", i+1, err))
			return
		}
		g.Turns = append(g.Turns, mm.Turn{Guess: c, Feedback: mm.Feedback{Black: t.Black, White: t.White}})
	}
	// The replay and the hint are one admission, one slot and one bill:
	// once the replay is paid for, its answer is never refused.
	var out AssistAnswer
	err = h.hints.work(r.Context(), clientKey(r), costKey{"assist " + req.Strategy, rules}, func(ctx context.Context) error {
		var (
			st  *mm.State
			err error
		)
		if out, st, err = replay(ctx, rules, g.Turns); err != nil || out.Solved {
			return err
		}
		// The hint of this history is computed once and remembered, under
		// a name the history and the strategy give.
		sum := sha256.Sum256(fmt.Appendf(nil, "%v %v", rules, g.Turns))
		g.ID = "assist:" + req.Strategy + ":" + hex.EncodeToString(sum[:12])
		c, err := h.hints.solve(ctx, s, g, st)
		if err == nil {
			out.Guess = c.String()
			out.Unfit = unfit(rules, c, g.Turns)
		}
		return err
	})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// checkPegs checks that an answer's black and white pegs are each 0 to
// the pegs of a code, so that neither their sum nor a message overflows
// (2⁶³−1 of each made "-2 pegs"); the rules check the rest.
func checkPegs(r mm.Rules, black, white int) error {
	for _, n := range []struct {
		name  string
		count int
	}{{"black", black}, {"white", white}} {
		if n.count < 0 || n.count > r.Pegs {
			return fmt.Errorf("%w: %s %s; want 0 to %d, the pegs of a code", mm.ErrInvalidFeedback, n.name, clip(strconv.Itoa(n.count), 20), r.Pegs)
		}
	}
	return nil
}

// replay plays turns from the start of a game of rules r and returns what
// the assist answers, but for the guess, and the state reached. An answer
// given before, the same guess with the same feedback, is skipped: it
// rules out nothing more. It stops with ctx.Err() soon after ctx is done:
// each turn costs up to O(codes).
func replay(ctx context.Context, r mm.Rules, turns []mm.Turn) (AssistAnswer, *mm.State, error) {
	out := AssistAnswer{Codes: []string{}}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return out, nil, err
	}
	if r.Size() <= assistCount {
		if _, err := st.Candidates(); err != nil {
			return out, nil, err
		}
	}
	seen := make(map[mm.Turn]bool)
	for i, t := range turns {
		if st.Solved() {
			return out, nil, fmt.Errorf("%w: answer %d follows the code found", mm.ErrInvalidCode, i+1)
		}
		if seen[t] {
			continue
		}
		seen[t] = true
		if err := ctx.Err(); err != nil {
			return out, nil, err
		}
		if st, err = st.Play(t.Guess, t.Feedback); err != nil {
			if errors.Is(err, mm.ErrInconsistent) {
				if set := conflict(ctx, r, turns[:i+1]); len(set) > 1 {
					// As the assist command does: which answers to check.
					return out, nil, fmt.Errorf("answer %d: %w; answers %s cannot all be true together", i+1, err, andList(set))
				}
			}
			return out, nil, fmt.Errorf("answer %d: %w", i+1, err)
		}
	}
	out.Solved = st.Solved()
	if !st.Known() && !out.Solved {
		if err := checkLarge(ctx, r, turns); err != nil {
			return out, nil, err
		}
	}
	if st.Known() {
		set, err := st.Candidates()
		if err != nil {
			return out, nil, err
		}
		n := set.Len()
		out.Remaining = &n
		for i := range min(n, AssistCodes) {
			out.Codes = append(out.Codes, set.Code(i).String())
		}
	}
	return out, st, nil
}

// unfit reports whether c, guessed on a variant of r too large to count
// the codes left, does not fit every turn: whether the answer must say
// that it cannot be the code.
func unfit(r mm.Rules, c mm.Code, turns []mm.Turn) bool {
	if r.Size() <= assistCount {
		return false
	}
	for _, t := range turns {
		if mm.Score(c, t.Guess) != t.Feedback {
			return true
		}
	}
	return false
}

// largeCheckTime is about the most time the complete solver spends on
// the answers of a variant too large to count (turned into conflicts,
// consist.ConflictNanos) to prove that no code fits them, and as much
// again to name fewer of them.
const largeCheckTime = 2 * time.Second

// checkLarge checks the answers of a variant too large to count, which
// Play does not: an error wrapping mm.ErrInconsistent, naming the
// answers that cannot all be true together as assist does, if the
// complete solver proves that no code fits them (consist.Check); nil if
// it finds a code or gives up, ctx.Err() if ctx ends first.
func checkLarge(ctx context.Context, r mm.Rules, turns []mm.Turn) error {
	// The solver sees each answer once; at is where it was first given.
	var uniq []mm.Turn
	var at []int
	seen := make(map[mm.Turn]bool)
	for i, t := range turns {
		if !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
			at = append(at, i)
		}
	}
	_, err := consist.Check(ctx, r, uniq, int64(float64(largeCheckTime)/consist.ConflictNanos(r)), nil)
	var ce *consist.ConflictError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case !errors.As(err, &ce) || len(ce.Turns) == 0:
		return nil
	}
	set := make([]int, len(ce.Turns))
	for i, k := range ce.Turns {
		set[i] = at[k] + 1
	}
	n := set[len(set)-1]
	t := turns[n-1]
	err = fmt.Errorf("%w: after %s scored %s, no code fits all %d answers", mm.ErrInconsistent, t.Guess, t.Feedback, n)
	if len(set) > 1 {
		return fmt.Errorf("answer %d: %w; answers %s cannot all be true together", n, err, andList(set))
	}
	return fmt.Errorf("answer %d: %w", n, err)
}

// assistStrategy returns the strategy of the assist called name: the
// hint solver for "", else one of Server.Strategies, or a 422 error.
func (h *handler) assistStrategy(name string) (mm.Strategy, error) {
	if name == "" {
		return h.hints.strategy, nil
	}
	if s, ok := h.Strategies[name]; ok {
		return s, nil
	}
	offered := "none but the hint solver's (leave strategy out)"
	if names := h.strategyNames(); len(names) > 0 {
		offered = strings.Join(names, ", ")
	}
	return nil, &statusError{http.StatusUnprocessableEntity, fmt.Errorf("mastermind: unknown strategy %q; this server offers %s",
		clip(name, 40), offered)}
}

// strategyNames returns the names of Server.Strategies, in order.
func (h *handler) strategyNames() []string {
	return slices.Sorted(maps.Keys(h.Strategies))
}

// conflict returns the numbers, from 1, of answers of turns that cannot
// all be true together but can without any one of them, as the assist
// command finds them: the answers are dropped oldest first while the rest
// still conflict, so that the newest are named. It returns nil for a
// variant of more than assistCount codes, or when ctx is done.
func conflict(ctx context.Context, r mm.Rules, turns []mm.Turn) []int {
	if r.Size() > assistCount {
		return nil
	}
	sp, err := mm.SpaceOf(r)
	if err != nil {
		return nil
	}
	keep := make([]bool, len(turns))
	for i := range keep {
		keep[i] = true
	}
	fits := func() bool {
		s := sp.All()
		for i, t := range turns {
			if !keep[i] {
				continue
			}
			if s, err = s.Filter(t.Guess, t.Feedback); err != nil || s.Len() == 0 {
				return false
			}
		}
		return true
	}
	for i := range turns {
		if ctx.Err() != nil {
			return nil
		}
		keep[i] = false
		keep[i] = fits() // put it back if the others fit without it
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i+1)
		}
	}
	return out
}

// andList writes numbers as "2, 3 and 4".
func andList(ns []int) string {
	s := ""
	for i, n := range ns {
		switch {
		case i == 0:
		case i == len(ns)-1:
			s += " and "
		default:
			s += ", "
		}
		s += strconv.Itoa(n)
	}
	return s
}

var errNoHints = &statusError{http.StatusNotImplemented, errors.New("mastermind: this server gives no hints")}

// coach handles GET /api/games/{id}/coach, for anyone, once the game is
// over.
func (h *handler) coach(w http.ResponseWriter, r *http.Request) {
	if h.hints == nil {
		h.writeError(w, r, errNoHints)
		return
	}
	g, err := h.Store.Game(r.Context(), r.PathValue("id"), nil)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	switch {
	case g.StatusAt(h.now()) == mm.Playing:
		h.writeError(w, r, &statusError{http.StatusConflict, errors.New("mastermind: the coach weighs a game once it is over")})
		return
	case g.Rules.Size() > mm.MaxSpace:
		h.writeError(w, r, fmt.Errorf("%w: the coach weighs games of up to %d codes", mm.ErrTooLarge, mm.MaxSpace))
		return
	case mm.IsRandomized(h.hints.strategy):
		h.writeError(w, r, &statusError{http.StatusNotImplemented, errors.New("mastermind: this server's solver is randomised, and the coach needs a fixed one")})
		return
	}
	var out CoachAnswer
	err = h.hints.work(r.Context(), clientKey(r), costKey{"coach", g.Rules}, func(ctx context.Context) error {
		var err error
		out, err = weighGame(ctx, g, h.hints.strategy)
		return err
	})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// weighGame weighs every guess of finished game g against s, or scores
// it where the position has too many codes to weigh.
func weighGame(ctx context.Context, g *mm.Game, s mm.Strategy) (CoachAnswer, error) {
	out := CoachAnswer{Moves: []CoachMove{}}
	secret, err := g.Revealed()
	if err != nil {
		return out, err
	}
	st, err := mm.NewState(g.Rules, nil)
	if err != nil {
		return out, err
	}
	pegs := g.Rules.WithDefaults().Pegs
	for _, t := range g.Turns {
		w, err := eval.WeighOrScore(ctx, st, s, t.Guess)
		if err != nil {
			return out, err
		}
		cands, err := st.Candidates()
		if err != nil {
			return out, err
		}
		left := func(c mm.Code) (int, error) {
			f := mm.Score(secret, c)
			if g.Adversary {
				if f, err = cands.Evade(c); err != nil {
					return 0, err
				}
			}
			if f.Solved(pegs) {
				return 0, nil
			}
			kept, err := cands.Filter(c, f)
			return kept.Len(), err
		}
		m := CoachMove{Guess: t.Guess.String(), Best: w.Best.String(),
			Expected: thousandths(w.Expected), BestExpected: thousandths(w.BestExpected), Delta: thousandths(w.Delta()),
			Scored: w.Scored, ExpectedLeft: thousandths(w.ExpectedLeft), BestExpectedLeft: thousandths(w.BestExpectedLeft)}
		if m.Left, err = left(t.Guess); err != nil {
			return out, err
		}
		if m.BestLeft, err = left(w.Best); err != nil {
			return out, err
		}
		out.Moves = append(out.Moves, m)
		out.Delta += w.Delta()
		if st, err = st.Play(t.Guess, t.Feedback); err != nil {
			return out, err
		}
	}
	out.Delta = thousandths(out.Delta)
	return out, nil
}

// work runs f, a computation of kind k, in one of the solver's slots,
// within the hint timeout (of waiting and running, pauses not counted),
// the wall or ctx, paced and at a low priority as the hints' solver is, if
// client has some share of the solver left and nothing else under way,
// and bills client for the time it took. It is one admission: once f has
// run, it is never refused.
func (h *hinter) work(ctx context.Context, client string, k costKey, f func(ctx context.Context) error) error {
	start := time.Now()
	t, err := h.admit(client, k)
	if err != nil {
		return err
	}
	defer h.release(client)
	ctx, cancel := context.WithTimeout(ctx, h.wall)
	defer cancel()
	paced, err := h.slot(ctx, t, start)
	if err != nil {
		return errBusy
	}
	// Billed for the time it ran, not for the pauses of its pace.
	defer func() { h.ran(t, k, paced.ran()) }()
	// In a goroutine of its own, whose thread's priority it lowers.
	done := make(chan error, 1)
	go func() {
		lowerPriority()
		done <- f(paced)
	}()
	err = <-done
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &statusError{http.StatusServiceUnavailable, errors.New("mastermind: the solver took too long")}
	}
	return err
}

// thousandths rounds x to three decimals, half away from zero.
func thousandths(x float64) float64 { return math.Round(x*1000) / 1000 }
