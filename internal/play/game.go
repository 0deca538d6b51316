package play

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Game is a game in which the computer holds a code and a person breaks
// it. Each guess is answered with its feedback; "hint" asks the strategy
// for its next guess; the game ends when the code is found, at the guess
// limit, or when the person quits, and then shows the code and how the
// strategy would have played the same code.
//
// A Game is not safe for concurrent use.
type Game struct {
	cfg    Config
	secret mm.Code
	limit  int
	st     *mm.State
	hints  int

	adversary bool        // answer without a code, keeping the most codes possible
	twoPlayer bool        // a person chose the code
	coach     bool        // after each guess, compare it with the strategy's
	notes     []CoachNote // the coach's figures, one per guess

	prev    []*mm.State // the state before each guess, for undo
	undos   int         // guesses taken back
	lists   int         // lists of the codes possible shown
	page    int         // the page of the list last shown
	suggest string      // the code the last hint proposed, for Board
	resumed bool        // the game was resumed from a file
	changes int         // guesses played and taken back, to tell a save's age
	saved   string      // the file the game was last saved to
	savedAt int         // changes when it was saved
	left    bool        // the person quit with the game saved as it is

	over bool
}

// GameOptions change how a Game is played.
type GameOptions struct {
	// Adversary makes the computer hold no code: it answers each guess
	// with the feedback that keeps the most codes possible (Set.Evade).
	// The codes must be enumerable.
	Adversary bool
	// Coach compares each guess with the strategy's: the guesses each
	// is expected to need, and the codes each leaves. The strategy must
	// be deterministic and the codes enumerable; positions too large to
	// weigh are scored by the codes each guess is expected to leave.
	Coach bool
	// TwoPlayer says that a person, not the computer, chose the code.
	TwoPlayer bool
}

var _ Session = (*Game)(nil)

// NewGame returns a game under cfg whose code is secret, with at most limit
// guesses (0 or less for no limit). It fails for bad rules, a missing
// strategy, or a secret that is not a code of the rules.
func NewGame(cfg Config, secret mm.Code, limit int) (*Game, error) {
	return NewGameOptions(cfg, secret, limit, GameOptions{})
}

// NewGameOptions is NewGame with options; with o.Adversary the secret is
// not used and may be the zero Code.
func NewGameOptions(cfg Config, secret mm.Code, limit int, o GameOptions) (*Game, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if err := o.check(cfg); err != nil {
		return nil, err
	}
	if o.Adversary {
		secret = exampleCode(cfg.Rules)
	}
	if err := cfg.Rules.Check(secret); err != nil {
		return nil, err
	}
	// The codes left are counted only where the core does so unasked (the
	// hints say how many remain); enumerating a larger space up front
	// would cost seconds and memory for little.
	st, err := mm.NewState(cfg.Rules, cfg.Rand)
	if err != nil {
		return nil, err
	}
	if o.Adversary || o.Coach {
		if _, err := st.Candidates(); err != nil {
			return nil, err
		}
	}
	return &Game{cfg: cfg, secret: secret, limit: max(limit, 0), st: st, adversary: o.Adversary, coach: o.Coach, twoPlayer: o.TwoPlayer}, nil
}

// Start returns the introduction.
func (g *Game) Start() []Line {
	r := g.cfg.Rules
	limit := "as many guesses as you need"
	if g.limit > 0 {
		limit = plural(g.limit, "guess")
	}
	chosen := "I have chosen a code"
	switch {
	case g.twoPlayer:
		chosen = "The codemaker has chosen a code"
	case g.adversary:
		chosen = "I have chosen no code, and answer each guess so as to keep as many codes possible as I can"
	}
	out := []Line{
		info("mastermind play: %s. %s; you have %s.", describeRules(r, g.cfg.Alphabet), chosen, limit),
		info("Each guess gets black pegs (right colour, right place) and white pegs (right colour, wrong place)."),
		info(`Type a guess such as %s, "hint" to ask %s, "help" or "quit".`, g.cfg.Alphabet.Format(exampleCode(r)), g.cfg.Name),
		info(""),
	}
	if g.resumed {
		out = append(out, info("Resumed a saved game:"))
		out = append(out, g.history()...)
		out = append(out, info(""))
	}
	return out
}

// exampleCode returns a code of r with many colours, for examples.
func exampleCode(r mm.Rules) mm.Code {
	colors := make([]int, r.Pegs)
	for i := range colors {
		colors[i] = i % r.Colors
	}
	c, _ := mm.NewCode(colors...)
	return c
}

// Prompt returns "guess N/LIMIT> ", or "> " once the game is over.
func (g *Game) Prompt() string {
	switch {
	case g.over:
		return "> "
	case g.limit > 0:
		return fmt.Sprintf("guess %d/%d> ", g.st.Len()+1, g.limit)
	}
	return fmt.Sprintf("guess %d> ", g.st.Len()+1)
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.over }

// LeftSaved reports whether the person quit a game saved as it stood, to
// resume it later; the code was not shown.
func (g *Game) LeftSaved() bool { return g.left }

// Won reports whether the person found the code.
func (g *Game) Won() bool { return g.st.Solved() }

// Turns returns the guesses played so far with their feedback.
func (g *Game) Turns() []mm.Turn { return g.st.Turns() }

// Do handles one line: a guess, or a command (help, hint, list, undo,
// history, save FILE, guess CODE, quit).
func (g *Game) Do(input string) []Line {
	if g.over {
		return []Line{done("The game is over.")}
	}
	g.suggest = ""
	word, rest := command(input)
	switch word {
	case "":
		return []Line{problem("Type a guess such as %s, or \"help\".", g.cfg.Alphabet.Format(exampleCode(g.cfg.Rules)))}
	case "help", "?":
		return []Line{
			info("Commands:"),
			info("  CODE, guess CODE   play a guess, e.g. %s", g.cfg.Alphabet.Format(exampleCode(g.cfg.Rules))),
			info("  hint               ask %s for its next guess", g.cfg.Name),
			info("  list, list N       the codes still possible, a page at a time"),
			info("  undo               take back the last guess"),
			info("  history            the guesses so far"),
			info("  save FILE          save the game; resume it with play --resume FILE"),
			info("  help               this list"),
			info("  quit               give up and see the code"),
		}
	case "hint":
		return g.hint()
	case "history", "board":
		return g.history()
	case "undo":
		return g.undo()
	case "list":
		return g.list(rest)
	case "save":
		return g.save(rest)
	case "quit", "exit", "q":
		g.over = true
		if g.saved != "" && g.savedAt == g.changes {
			// Saved to be resumed: the code stays hidden.
			g.left = true
			return []Line{done("Left the game saved after %s; resume it with: mastermind play --resume %s",
				plural(g.st.Len(), "guess"), g.saved)}
		}
		out := []Line{done("You gave up after %s. %s", plural(g.st.Len(), "guess"), g.reveal())}
		return append(out, g.summary()...)
	case "guess":
		return g.guess(rest)
	}
	return g.guess(strings.TrimSpace(input))
}

func (g *Game) format(c mm.Code) string { return g.cfg.Alphabet.Format(c) }

// guess plays code s.
func (g *Game) guess(s string) []Line {
	c, err := parseCode(g.cfg.Rules, g.cfg.Alphabet, s)
	if err != nil {
		if unknownWord(g.cfg.Rules, g.cfg.Alphabet, s) {
			return unknownCommand(s)
		}
		if looksLikeCode(g.cfg.Rules, g.cfg.Alphabet, s) {
			return []Line{problem("Not a guess (%s): %s. Try again.", s, err)}
		}
		return []Line{problem(`I don't understand %q: type a guess such as %s, "hint", "help" or "quit".`,
			s, g.format(exampleCode(g.cfg.Rules)))}
	}
	for i, t := range g.st.Turns() {
		if t.Guess == c {
			return []Line{problem("You played %s already, as guess %d (%s); that costs no turn. Try another.",
				g.format(c), i+1, feedbackText(t.Feedback))}
		}
	}
	f, err := g.answer(c)
	var next *mm.State
	if err == nil {
		next, err = g.st.Play(c, f)
	}
	if err != nil {
		// The feedback is the secret's own, or one some code gives, so
		// only a broken core fails.
		return []Line{problem("That guess cannot be played: %s.", plain(err))}
	}
	before := g.st
	g.prev = append(g.prev, before)
	g.page = 0
	g.changes++
	g.st = next
	out := []Line{progress("%s: %s", g.format(c), feedbackText(f))}
	if g.coach {
		out = append(out, g.coachGuess(before, c, f)...)
	}
	switch {
	case f.Solved(g.cfg.Rules.Pegs):
		g.over = true
		g.secret = c
		out = append(out, done("You found the code in %s!", plural(g.st.Len(), "guess")))
		return append(out, g.summary()...)
	case g.limit > 0 && g.st.Len() >= g.limit:
		g.over = true
		out = append(out, done("That was your last guess. %s", g.reveal()))
		return append(out, g.summary()...)
	}
	return out
}

// hint asks the strategy for its next guess.
func (g *Game) hint() []Line {
	c, err := g.cfg.Strategy.Guess(g.st)
	if err == nil {
		err = g.cfg.Rules.Check(c)
	}
	if err != nil {
		return []Line{problem("%s cannot help here: %s.", g.cfg.Name, plain(err))}
	}
	g.hints++
	g.suggest = g.format(c)
	switch n := g.st.Remaining(); {
	case n == 1:
		return []Line{info("%s would play %s, the only code left.", g.cfg.Name, g.format(c))}
	case n > 1:
		return []Line{info("%s would play %s; %s are still possible.", g.cfg.Name, g.format(c), codes(n))}
	}
	return []Line{info("%s would play %s.", g.cfg.Name, g.format(c))}
}

// history lists the guesses so far.
func (g *Game) history() []Line {
	var out []Line
	for i, t := range g.st.Turns() {
		out = append(out, info("  %d. %s  %s", i+1, g.format(t.Guess), feedbackText(t.Feedback)))
	}
	if out == nil {
		return []Line{info("No guesses yet.")}
	}
	return out
}

// asked says what help the person took: hints, lists of the codes left,
// guesses taken back; or nothing.
func (g *Game) asked() string {
	var parts []string
	if g.hints > 0 {
		parts = append(parts, "asked for "+plural(g.hints, "hint"))
	}
	if g.lists > 0 {
		parts = append(parts, "listed the codes left "+times(g.lists))
	}
	if g.undos > 0 {
		parts = append(parts, "took back "+plural(g.undos, "guess"))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return "You " + parts[0] + "."
	}
	return "You " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + "."
}

// times writes a number of times: "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// summary tells how the strategy would have played the code, or against
// the adversary, and what the coach found.
func (g *Game) summary() []Line {
	st, err := mm.NewState(g.cfg.Rules, g.cfg.Rand)
	var steps []mm.Step
	switch {
	case err != nil:
	case g.adversary:
		steps, err = evadeSolve(st, g.cfg.Strategy)
	default:
		steps, err = mm.Solve(st, g.cfg.Strategy, g.secret, 0)
	}
	if err != nil {
		if errors.Is(err, mm.ErrGuessLimit) {
			return []Line{done("%s did not find it either.", g.cfg.Name)}
		}
		return []Line{done("%s could not play this code: %s.", g.cfg.Name, plain(err))}
	}
	gs := make([]string, len(steps))
	for i, s := range steps {
		gs[i] = g.format(s.Guess)
	}
	n, played := len(steps), g.st.Len()
	list := guessList(gs)
	if list != "" {
		list = ": " + list
	}
	taken, found := plural(n, "guess"), "found it"
	if g.adversary {
		taken, found = plural(n, "guess")+" against me", "cornered me"
	}
	var line string
	switch {
	case !g.Won():
		line = fmt.Sprintf("%s would have %s in %s%s.", g.cfg.Name, found, plural(n, "guess"), list)
	case played < n:
		line = fmt.Sprintf("You beat %s, which would have taken %s%s.", g.cfg.Name, taken, list)
	case played == n:
		line = fmt.Sprintf("%s would also have taken %s%s.", g.cfg.Name, taken, list)
	default:
		line = fmt.Sprintf("%s would have taken %s%s.", g.cfg.Name, taken, list)
	}
	out := []Line{done("%s", line)}
	if asked := g.asked(); asked != "" {
		out = append(out, done("%s", asked))
	}
	return append(out, g.coachSummary()...)
}

// maxList is about the most characters a summary spends listing the
// strategy's guesses.
const maxList = 200

// guessList writes the guesses one after another, or, when they would take
// more than maxList characters (a long game of long codes: 268 guesses of
// 100 pegs), as many of the first as fit, "…", and the last, or only the
// empty string when even that does not fit.
func guessList(gs []string) string {
	if all := strings.Join(gs, " "); len(all) <= maxList {
		return all
	}
	last := gs[len(gs)-1]
	room := maxList - len(last) - len("… ")
	k := 0
	for used := 0; k < len(gs)-1 && used+len(gs[k])+1 <= room; k++ {
		used += len(gs[k]) + 1
	}
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("%s … %s (%d more between)", strings.Join(gs[:k], " "), last, len(gs)-1-k)
}

// Board describes the game for drawing.
func (g *Game) Board() Board {
	b := Board{
		Title:    fmt.Sprintf("mastermind play · %s", describeRules(g.cfg.Rules, g.cfg.Alphabet)),
		Rules:    g.cfg.Rules,
		Alphabet: g.cfg.Alphabet,
		Limit:    g.limit,
		Typing:   !g.over,
		Suggest:  g.suggest,
	}
	for i, t := range g.st.Turns() {
		b.Rows = append(b.Rows, Row{N: i + 1, Guess: t.Guess, Feedback: t.Feedback, Answered: true, Remaining: -1})
	}
	if !g.over {
		b.Rows = append(b.Rows, Row{N: g.st.Len() + 1, Remaining: -1})
	}
	switch {
	case g.Won():
		b.Status = "found in " + plural(g.st.Len(), "guess")
	case g.left:
		b.Status = "saved to " + g.saved
	case g.over && g.adversary:
		b.Status = "no code was chosen; " + g.format(g.secret) + " was still possible"
	case g.over:
		b.Status = "the code was " + g.format(g.secret)
	case g.limit > 0:
		b.Status = fmt.Sprintf("guess %d of %d", g.st.Len()+1, g.limit)
	default:
		b.Status = fmt.Sprintf("guess %d", g.st.Len()+1)
	}
	if g.over && !g.left {
		b.Secret, b.Revealed = g.secret, true
	}
	return b
}
