package play

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Assist helps someone break a code on a physical board. It proposes each
// guess, reads the codemaker's answer, and keeps the codes still possible.
// The person may play a guess of their own instead, take answers back, and
// ask for the best alternatives.
//
// An answer that leaves no code possible is reported at once, with a set of
// answers that cannot all be true together but no longer conflicts without
// any one of them (a smallest one when the search can afford it), and the
// ways out: "undo", "drop N" or "fix N ANSWER". Until then no further answer
// is taken.
//
// Answers keep the number of the board row of their guess: dropping an
// answer leaves its row used, and undo steps back one row.
//
// An Assist is not safe for concurrent use.
type Assist struct {
	cfg Config
	all *mm.Set // every code; nil when the variant is too large

	turns   []turn    // the answers in use, by row
	dropped []turn    // answers dropped, by row, for the board
	log     []change  // what undo takes back, the latest last
	st      *mm.State // the state after turns; nil while they conflict

	conflict []int // positions in turns of answers that cannot all hold

	cur     mm.Code // the guess waiting for its answer, if hasCur
	hasCur  bool
	own     bool  // cur is the person's guess
	typed   bool  // cur was typed for this row, not restored by undo
	propErr error // why the strategy proposed nothing
	row     int   // the board row of the next answer

	over, solved bool

	journal []string // the inputs that changed the session, as save writes them
	redo    []string // what undo took back, as inputs that redo it, the latest last
	quiet   bool     // replaying an input: journal and redo stay as they are
	changes int      // changes and undos made: redo and Resume tell a change from a refusal by them
	page    int      // the last page list showed; 0 after a change
}

// A change is an answer given, dropped or corrected, as undo takes it
// back.
type change struct {
	kind    changeKind
	row     int
	old     mm.Feedback // fixed: the answer before
	dropped turn        // dropped: the answer
}

type changeKind int

const (
	answered changeKind = iota
	dropped
	fixed
)

// A turn is an answer with its board row.
type turn struct {
	mm.Turn
	row       int
	own       bool
	remaining int // codes possible after it, -1 if unknown
}

var _ Session = (*Assist)(nil)

// NewAssist returns an assist session under cfg, with the strategy's first
// guess proposed. It fails for bad rules, a missing strategy or an alphabet
// too short for the colours.
func NewAssist(cfg Config) (*Assist, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	a := &Assist{cfg: cfg, row: 1}
	if enumerable(cfg.Rules) {
		sp, err := mm.SpaceOf(cfg.Rules)
		if err != nil {
			return nil, err
		}
		a.all = sp.All()
	}
	st, err := cfg.newState()
	if err != nil {
		return nil, err
	}
	a.st = st
	a.propose()
	return a, nil
}

// propose asks the strategy for the next guess.
func (a *Assist) propose() {
	a.hasCur, a.own, a.typed, a.propErr = false, false, false, nil
	if a.st == nil || a.over {
		return
	}
	g, err := a.cfg.Strategy.Guess(a.st)
	if err == nil {
		err = a.cfg.Rules.Check(g)
	}
	if err != nil {
		a.propErr = err
		return
	}
	a.cur, a.hasCur = g, true
}

// Start returns the introduction and the first guess.
func (a *Assist) Start() []Line {
	r := a.cfg.Rules
	answers := `Answer each guess with its black and white pegs: "2 1", "2b1w", "BBW", or "-" for none.`
	if r.Distinct {
		answers = `Answer each guess with its black and white pegs (bulls and cows): "2 1", "2b1w", "BBW", "2A1B", or "-" for none.`
	}
	out := []Line{
		info("mastermind assist: %s; %s proposes the guesses.", describeRules(r, a.cfg.Alphabet), a.cfg.Name),
		info("%s", answers),
		info(`Type a code to play your own guess instead; "help" lists the commands.`),
	}
	if a.all == nil {
		out = append(out, info("This variant has %s codes, too many to enumerate: the codes left are shown as \"?\",",
			sizeText(r)), info("and answers that contradict each other are caught when a short search can prove it."))
	}
	if len(a.journal) > 0 {
		out = append(out, info(""), info("Resumed a saved session:"))
		out = append(out, a.history()...)
	}
	out = append(out, info(""))
	return append(out, a.next()...)
}

// next returns the lines that introduce the guess to answer.
func (a *Assist) next() []Line {
	if a.over || (!a.hasCur && a.propErr == nil) {
		return nil
	}
	if !a.hasCur && len(a.turns) > 0 {
		return []Line{progress(`Guess %d: type your own, e.g. "guess %s"   (%s possible)`,
			a.row, a.cfg.Alphabet.Format(exampleCode(a.cfg.Rules)), codes(a.st.Remaining()))}
	}
	if !a.hasCur {
		return []Line{problem("%s cannot propose a guess here: %s.", a.cfg.Name, plain(a.propErr)),
			problem(`Type your own guess, e.g. "guess %s".`, a.cfg.Alphabet.Format(exampleCode(a.cfg.Rules)))}
	}
	n := a.st.Remaining()
	code := a.cfg.Alphabet.Format(a.cur)
	var what string
	switch {
	case n == 1 && !a.own:
		what = "the only code possible"
	case n < 0:
		what = "? codes possible"
	default:
		what = codes(n) + " possible"
	}
	if a.own {
		if s, err := a.st.Candidates(); err == nil {
			if s.Contains(a.cur) {
				what += ", " + code + " among them"
			} else {
				what += ", " + code + " not among them"
			}
		} else if !fitsAll(a.cur, a.st.Turns()) {
			what += ", " + code + " not among them"
		}
		return []Line{progress("Guess %d: %s, your own   (%s)", a.row, code, what)}
	}
	if n < 0 && !fitsAll(a.cur, a.st.Turns()) {
		// Uncounted: say that the guess cannot be the code, as the
		// counted say it by the count.
		what += ", this guess not among them"
	}
	return []Line{progress("Guess %d: %s   (%s)", a.row, code, what)}
}

// fitsAll reports whether c gives every turn's answer: whether it could
// be the code.
func fitsAll(c mm.Code, turns []mm.Turn) bool {
	for _, t := range turns {
		if mm.Score(c, t.Guess) != t.Feedback {
			return false
		}
	}
	return true
}

// Prompt returns "answer> " while a guess waits for its answer, "guess> "
// when the person must type a guess, and "> " otherwise.
func (a *Assist) Prompt() string {
	switch {
	case a.over || a.conflict != nil:
		return "> "
	case a.hasCur:
		return "answer> "
	}
	return "guess> "
}

// Over reports whether the code was found or the person quit.
func (a *Assist) Over() bool { return a.over }

// Solved reports whether the code was found.
func (a *Assist) Solved() bool { return a.solved }

// Guess returns the guess waiting for its answer, and false when there is
// none: the strategy could not propose one, answers contradict each other,
// or the session is over.
func (a *Assist) Guess() (mm.Code, bool) { return a.cur, a.hasCur && !a.over }

// Conflict returns the board rows of the answers that cannot all be true
// together, in ascending order, or nil when some code fits every answer.
func (a *Assist) Conflict() []int {
	var rows []int
	for _, i := range a.conflict {
		rows = append(rows, a.turns[i].row)
	}
	return rows
}

// Remaining returns the number of codes that fit every answer, 0 while
// answers conflict, and -1 when the variant is too large to count.
func (a *Assist) Remaining() int {
	if a.st == nil {
		return 0
	}
	return a.st.Remaining()
}

// Do handles one line: an answer, a code to play instead of the proposed
// guess, or a command (help, hint, undo, drop N, fix N ANSWER, guess CODE,
// history, quit).
func (a *Assist) Do(input string) []Line {
	if a.over {
		return []Line{done("The session is over.")}
	}
	word, rest := command(input)
	switch word {
	case "":
		if a.conflict != nil {
			return a.conflictLines()
		}
		return a.next()
	case "help", "?":
		return assistHelp()
	case "quit", "exit", "q":
		a.over, a.hasCur = true, false
		return []Line{done("Stopped after %s.", plural(len(a.turns), "answer"))}
	case "undo":
		return a.undo()
	case "drop":
		return a.drop(rest)
	case "fix":
		return a.fix(rest)
	case "hint":
		return a.hint()
	case "history", "board":
		return a.history()
	case "list":
		return a.list(rest)
	case "redo":
		return a.redoLast()
	case "save":
		return a.save(rest)
	case "guess":
		if rest == "" {
			return []Line{problem(`Type "guess" and a code, e.g. "guess %s".`, a.cfg.Alphabet.Format(exampleCode(a.cfg.Rules)))}
		}
		return a.play(rest)
	}
	return a.answer(strings.TrimSpace(input))
}

func assistHelp() []Line {
	return []Line{
		info("Commands:"),
		info(`  2 1, 2b1w, BBW, -   answer the guess: black pegs, then white ("-" for none)`),
		info("  CODE, guess CODE    play your own guess instead of the proposed one"),
		info("  CODE ANSWER         a guess and its answer on one line, e.g. \"1122 1 0\""),
		info("  undo, redo          take back the last answer, drop or fix; put it back"),
		info("  drop N              forget answer N (its row stays used)"),
		info("  fix N ANSWER        correct answer N"),
		info("  hint                the best guesses now, with their scores"),
		info("  history             the answers so far"),
		info("  list [PAGE]         the codes still possible, a page at a time"),
		info("  save FILE           save the session; resume it with assist --resume FILE"),
		info("  help                this list"),
		info("  quit                stop"),
	}
}

// resolveFirst is the reply to anything but a way out while answers
// conflict.
func (a *Assist) resolveFirst() []Line {
	return []Line{problem(`Answers %s %s; first "undo", "drop N" or "fix N ANSWER".`, rowList(a.Conflict()), cannotHold(len(a.conflict)))}
}

// answer takes s as the answer to the current guess, or as a guess of the
// person's own if it is a code and not an answer.
func (a *Assist) answer(s string) []Line {
	f, err := mm.ParseFeedback(s, a.cfg.Rules.Pegs)
	var pe *mm.ParseError
	if errors.As(err, &pe) {
		// Not written as an answer: a code, or nonsense.
		if _, cerr := a.cfg.Alphabet.Parse(a.cfg.Rules, s); cerr == nil {
			return a.play(s)
		}
		if out, ok := a.oneLine(s); ok {
			return out
		}
		if unknownWord(a.cfg.Rules, a.cfg.Alphabet, s) {
			return unknownCommand(s)
		}
		if looksLikeCode(a.cfg.Rules, a.cfg.Alphabet, s) {
			_, cerr := parseCode(a.cfg.Rules, a.cfg.Alphabet, s)
			return []Line{problem(`Not an answer (such as "2 1" or "BBW") nor a guess (%s): %s. Try again.`, s, cerr)}
		}
		return []Line{problem(`I don't understand %q: type the answer as "2 1", "2b1w" or "BBW", a code to play, or "help".`, s)}
	}
	if err == nil {
		err = a.cfg.Rules.CheckFeedback(f)
	}
	if err != nil {
		return badAnswer(err)
	}
	if a.conflict != nil {
		return a.resolveFirst()
	}
	if !a.hasCur {
		return []Line{problem(`There is no guess to answer yet: type your own guess first, e.g. "guess %s".`,
			a.cfg.Alphabet.Format(exampleCode(a.cfg.Rules)))}
	}
	t := turn{Turn: mm.Turn{Guess: a.cur, Feedback: f}, row: a.row, own: a.own}
	next, err := a.st.Play(t.Guess, f)
	if err == nil || errors.Is(err, mm.ErrInconsistent) {
		a.changedBy(a.cfg.Alphabet.Format(t.Guess) + " " + f.String())
	}
	switch {
	case errors.Is(err, mm.ErrInconsistent):
		a.turns = append(a.turns, t)
		a.log = append(a.log, change{kind: answered, row: t.row})
		a.row++
		a.st, a.hasCur, a.own, a.typed = nil, false, false, false
		a.findConflict()
		return a.conflictLines()
	case err != nil:
		return []Line{problem("That answer cannot be used: %s.", plain(err))}
	}
	t.remaining = next.Remaining()
	a.turns = append(a.turns, t)
	a.log = append(a.log, change{kind: answered, row: t.row})
	a.row++
	a.st = next
	if next.Solved() {
		a.over, a.solved, a.hasCur = true, true, false
		return []Line{done("Solved in %s: the code is %s.", plural(t.row, "guess"), a.cfg.Alphabet.Format(t.Guess))}
	}
	a.propose()
	return a.next()
}

// badAnswer says why an answer is refused: it cannot be right, or it
// reads two ways.
func badAnswer(err error) []Line {
	if errors.Is(err, mm.ErrAmbiguousFeedback) {
		return []Line{problem("That answer reads two ways: %s.", strings.TrimPrefix(plain(err), "ambiguous: "))}
	}
	return []Line{problem("That answer cannot be right: %s. Try again.", plain(err))}
}

// play makes code s the guess to answer.
func (a *Assist) play(s string) []Line {
	if a.conflict != nil {
		return a.resolveFirst()
	}
	c, err := parseCode(a.cfg.Rules, a.cfg.Alphabet, s)
	if err != nil {
		return []Line{problem("Not a guess (%s): %s. Try again.", s, err)}
	}
	a.cur, a.hasCur, a.own, a.typed, a.propErr = c, true, true, true, nil
	a.changedBy("guess " + a.cfg.Alphabet.Format(c))
	return a.next()
}

// Board describes the session for drawing.
func (a *Assist) Board() Board {
	b := Board{
		Title:     fmt.Sprintf("mastermind assist · %s · %s", describeRules(a.cfg.Rules, a.cfg.Alphabet), a.cfg.Name),
		Rules:     a.cfg.Rules,
		Alphabet:  a.cfg.Alphabet,
		Uncounted: a.all == nil,
	}
	inConflict := map[int]bool{}
	for _, i := range a.conflict {
		inConflict[i] = true
	}
	ti, di := 0, 0
	for ti < len(a.turns) || di < len(a.dropped) {
		if di < len(a.dropped) && (ti == len(a.turns) || a.dropped[di].row < a.turns[ti].row) {
			t := a.dropped[di]
			b.Rows = append(b.Rows, Row{N: t.row, Guess: t.Guess, Feedback: t.Feedback, Answered: true,
				Remaining: -1, Own: t.own, Dropped: true})
			di++
			continue
		}
		t := a.turns[ti]
		rem := t.remaining
		if a.conflict != nil {
			rem = -1
		}
		b.Rows = append(b.Rows, Row{N: t.row, Guess: t.Guess, Feedback: t.Feedback, Answered: true,
			Remaining: rem, Own: t.own, Conflict: inConflict[ti]})
		ti++
	}
	// Dropped rows that an undo stepped back over would sit after the
	// current row; keep the rows in order.
	if a.hasCur && !a.over {
		cur := Row{N: a.row, Guess: a.cur, Remaining: -1, Own: a.own}
		at := len(b.Rows)
		for at > 0 && b.Rows[at-1].N >= a.row {
			at--
		}
		b.Rows = append(b.Rows[:at], append([]Row{cur}, b.Rows[at:]...)...)
	}
	switch {
	case a.solved:
		t := a.turns[len(a.turns)-1]
		b.Status = fmt.Sprintf("solved in %s", plural(t.row, "guess"))
		b.Secret, b.Revealed = t.Guess, true
	case a.conflict != nil:
		b.Status = fmt.Sprintf("answers %s %s", rowList(a.Conflict()), cannotHold(len(a.conflict)))
	case a.all == nil:
		b.Status = "? codes possible (too many to count)"
	default:
		b.Status = codes(a.st.Remaining()) + " possible"
	}
	return b
}

// cannotHold says that n answers cannot hold together.
func cannotHold(n int) string {
	switch n {
	case 1:
		return "cannot be right"
	case 2:
		return "cannot both be true"
	}
	return "cannot all be true"
}

// rowList writes row numbers as "2", "2 and 4" or "1, 2 and 4".
func rowList(rows []int) string {
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = strconv.Itoa(r)
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// plural writes "1 guess", "5 guesses", "2 answers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// sizeText writes the number of codes of r, or its order of magnitude.
func sizeText(r mm.Rules) string {
	if r.Log10Size() < 15 {
		return strconv.FormatUint(r.Size(), 10)
	}
	return fmt.Sprintf("about 10^%.1f", r.Log10Size())
}

// allBut returns n trues but for index skip.
func allBut(n, skip int) []bool {
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = i != skip
	}
	return keep
}
