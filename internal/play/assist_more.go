package play

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	mm "github.com/mastermind-toolkit/mastermind"
)

// This file holds what assist does besides answering: a guess and its
// answer on one line, redo, hints, the history, the list of codes left,
// and saving and resuming a session.

// oneLine plays s as a guess followed by its answer, "1122 1 0" or
// "red red green green BW", and reports whether s reads that way.
func (a *Assist) oneLine(s string) ([]Line, bool) {
	fields := strings.Fields(s)
	for k := 1; k < len(fields); k++ {
		c, err := a.cfg.Alphabet.Parse(a.cfg.Rules, strings.Join(fields[:k], " "))
		if err != nil {
			continue
		}
		fs := strings.Join(fields[k:], " ")
		f, err := mm.ParseFeedback(fs, a.cfg.Rules.Pegs)
		var pe *mm.ParseError
		if errors.As(err, &pe) {
			continue
		}
		if err == nil {
			err = a.cfg.Rules.CheckFeedback(f)
		}
		if err != nil {
			return badAnswer(err), true
		}
		if a.conflict != nil {
			return a.resolveFirst(), true
		}
		if !a.hasCur || c != a.cur {
			a.cur, a.hasCur, a.own, a.typed, a.propErr = c, true, true, true, nil
		}
		return a.answer(fs), true
	}
	return nil, false
}

// changedBy records input, a change the person made, for save; a new
// change ends what redo could put back.
func (a *Assist) changedBy(input string) {
	a.page = 0
	a.changes++
	if !a.quiet {
		a.journal = append(a.journal, input)
		a.redo = nil
	}
}

// undone records an undo, and input, which puts back what it took.
func (a *Assist) undone(input string) {
	a.page = 0
	a.changes++
	if !a.quiet {
		a.journal = append(a.journal, "undo")
		a.redo = append(a.redo, input)
	}
}

// redoLast puts back what the last undo took. What it puts back may
// bring back a conflict, as it did before the undo: that is still a redo,
// and the next redo can put back what resolved it.
func (a *Assist) redoLast() []Line {
	if len(a.redo) == 0 {
		return []Line{problem("There is nothing to redo.")}
	}
	input := a.redo[len(a.redo)-1]
	before := a.changes
	a.quiet = true
	out := a.Do(input)
	a.quiet = false
	if a.changes == before {
		// Refused: nothing changed.
		return out
	}
	a.redo = a.redo[:len(a.redo)-1]
	a.journal = append(a.journal, "redo")
	return append([]Line{info("Redid %s.", input)}, out...)
}

// hint lists the best guesses with their scores.
func (a *Assist) hint() []Line {
	if a.conflict != nil {
		return a.resolveFirst()
	}
	fmtc := a.cfg.Alphabet.Format
	var out []Line
	if a.hasCur && !a.own {
		out = append(out, info("%s proposes %s.", a.cfg.Name, fmtc(a.cur)))
		if a.all == nil && !fitsAll(a.cur, a.st.Turns()) {
			out = append(out, info("It cannot be the code: it does not fit every answer."))
		}
	}
	if a.cfg.Rank == nil {
		if out == nil {
			return []Line{problem("No hints: %s proposes nothing here.", a.cfg.Name)}
		}
		return out
	}
	ranked, err := a.cfg.Rank(a.st, 5)
	if err != nil {
		return append(out, problem("No scores here: %s.", plain(err)))
	}
	by := a.cfg.RankBy
	if by != "" {
		by = " (" + by + ")"
	}
	out = append(out, info("The best guesses now%s:", by))
	w := max(a.cfg.Rules.Pegs, len("guess"))
	out = append(out, info("  %-*s  worst  expected  parts  entropy", w+1, "guess"))
	starred := false
	for _, s := range ranked {
		mark := " "
		if s.Consistent {
			mark, starred = "*", true
		}
		out = append(out, info("  %-*s  %5d  %8.2f  %5d  %7.2f", w+1, fmtc(s.Guess)+mark, s.Largest, s.Expected, s.Parts, s.Entropy))
	}
	if starred {
		out = append(out, info("  * could be the code"))
	}
	return out
}

// history lists the answers so far.
func (a *Assist) history() []Line {
	b := a.Board()
	var out []Line
	for _, r := range b.Rows {
		if !r.Answered {
			continue
		}
		code := a.cfg.Alphabet.Format(r.Guess)
		switch {
		case r.Dropped:
			out = append(out, info("  %d. %s  %s   dropped", r.N, code, feedbackText(r.Feedback)))
		case r.Conflict:
			out = append(out, info("  %d. %s  %s   contradicts others", r.N, code, feedbackText(r.Feedback)))
		case r.Remaining >= 0 || b.Uncounted:
			out = append(out, info("  %d. %s  %s   %s left", r.N, code, feedbackText(r.Feedback), codes(r.Remaining)))
		default:
			out = append(out, info("  %d. %s  %s", r.N, code, feedbackText(r.Feedback)))
		}
	}
	if out == nil {
		return []Line{info("No answers yet.")}
	}
	return out
}

// listRows is the number of lines of codes list shows at a time, and
// listWidth their width at most: the narrowest transcript of the
// full-screen UI.
const (
	listRows  = 10
	listWidth = 32
)

// list shows a page of the codes still possible: the page after the last
// one shown, or page s.
func (a *Assist) list(s string) []Line {
	if a.conflict != nil {
		return a.resolveFirst()
	}
	if a.all == nil {
		return []Line{problem("This variant has %s codes: too many to list.", sizeText(a.cfg.Rules))}
	}
	set, err := a.st.Candidates()
	if err != nil {
		return []Line{problem("The codes left cannot be listed: %s.", plain(err))}
	}
	return listPage(set, a.cfg.Alphabet, &a.page, s)
}

// listPage shows a page of the codes of set, listRows lines at most: the
// page after *page, or page s, which it then records in *page.
func listPage(set *mm.Set, al *mm.Alphabet, page *int, s string) []Line {
	fmtc := al.Format
	width := 0
	for i := range min(set.Len(), 64) {
		width = max(width, utf8.RuneCountInString(fmtc(set.Code(i))))
	}
	perRow := max(1, listWidth/(width+2))
	per := perRow * listRows
	pages := (set.Len() + per - 1) / per
	p := *page + 1
	if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > pages {
			return []Line{problem("Type \"list\" or \"list N\" with N from 1 to %d.", pages)}
		}
		p = n
	}
	if p > pages {
		p = 1
	}
	*page = p
	head := codes(set.Len()) + " possible"
	if pages > 1 {
		head += fmt.Sprintf(", page %d of %d", p, pages)
	}
	out := []Line{info("%s:", head)}
	end := min(p*per, set.Len())
	for i := (p - 1) * per; i < end; i += perRow {
		var b strings.Builder
		for j := i; j < min(i+perRow, end); j++ {
			fmt.Fprintf(&b, "  %-*s", width, fmtc(set.Code(j)))
		}
		out = append(out, info("%s", strings.TrimRight(b.String(), " ")))
	}
	if p < pages {
		out = append(out, info(`"list" again for page %d.`, p+1))
	}
	return out
}

// save writes the session to file name through Config.Save.
func (a *Assist) save(name string) []Line {
	if name == "" {
		return []Line{problem(`Type "save" and a file name, e.g. "save game.txt".`)}
	}
	if a.cfg.Save == nil {
		return []Line{problem("Saving is not available here.")}
	}
	if err := a.cfg.Save(name, a.Saved()); err != nil {
		return []Line{problem("Not saved: %s.", plain(err))}
	}
	return []Line{info("Saved %s to %s; resume with: mastermind assist --resume %s", plural(len(a.turns), "answer"), name, name)}
}

// savedHeader begins every saved session.
const savedHeader = "# mastermind assist session"

// Saved returns the session as a file that ReadSaved reads back: the
// rules, then the inputs that made the session, one a line, so that a
// resumed session has the same answers, rows and undo history.
func (a *Assist) Saved() []byte {
	var b strings.Builder
	writeSavedRules(&b, savedHeader, a.cfg)
	fmt.Fprintf(&b, "strategy %s\n\n", a.cfg.Name)
	for _, in := range a.journal {
		b.WriteString(in + "\n")
	}
	if a.typed && !a.quiet && (len(a.journal) == 0 || a.journal[len(a.journal)-1] != "guess "+a.cfg.Alphabet.Format(a.cur)) {
		b.WriteString("guess " + a.cfg.Alphabet.Format(a.cur) + "\n")
	}
	return []byte(b.String())
}

// alphabetText writes an alphabet as --alphabet takes it: its symbols, or
// its names separated by commas.
func alphabetText(al *mm.Alphabet) string {
	if !al.Named() {
		return al.String()
	}
	names := make([]string, al.Len())
	for k := range names {
		names[k] = al.Name(k)
	}
	return strings.Join(names, ",")
}

// A SavedSession is a session file as ReadSaved reads it: an assist
// session, or a game of play.
type SavedSession struct {
	Rules    mm.Rules
	Alphabet *mm.Alphabet
	Strategy string   // the strategy's name when it was saved
	Inputs   []string // the inputs to replay, in order: a game's guesses
	// Game holds a game's settings and code; nil for an assist session.
	Game *SavedGame

	code string // the game's code as written, until the alphabet is known
}

// ReadSaved reads a session file that Assist.Saved or Game.Saved wrote.
// Its errors say what is wrong and where, for a file that is not one or
// is damaged.
func ReadSaved(r io.Reader) (SavedSession, error) {
	var s SavedSession
	sc := bufio.NewScanner(r)
	n := 0
	alphabet := ""
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			switch line {
			case savedHeader:
			case savedGameHeader:
				s.Game = &SavedGame{}
			default:
				return s, fmt.Errorf("not a saved session: it does not begin with %q (assist) or %q (play)", savedHeader, savedGameHeader)
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if s.Strategy != "" {
			s.Inputs = append(s.Inputs, line)
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		var err error
		if s.Game != nil {
			var ok bool
			if ok, err = readGameSetting(&s, key, val); ok {
				if err != nil {
					return s, fmt.Errorf("line %d: %s: %v", n, key, err)
				}
				continue
			}
		}
		switch key {
		case "colors":
			s.Rules.Colors, err = strconv.Atoi(val)
		case "pegs":
			s.Rules.Pegs, err = strconv.Atoi(val)
		case "distinct":
			s.Rules.Distinct = true
		case "alphabet":
			alphabet = val
		case "strategy":
			s.Strategy = strings.TrimSpace(val)
		default:
			err = fmt.Errorf("unknown setting %q", key)
		}
		if err != nil {
			return s, fmt.Errorf("line %d: %v", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	if s.Strategy == "" {
		return s, errors.New("the session's settings end before its strategy line")
	}
	if err := s.Rules.Validate(); err != nil {
		return s, errors.New(plain(err))
	}
	var err error
	if strings.Contains(alphabet, ",") {
		s.Alphabet, err = mm.NewNamedAlphabet(strings.Split(alphabet, ","))
	} else {
		s.Alphabet, err = mm.NewAlphabet(alphabet)
	}
	if err != nil {
		return s, fmt.Errorf("alphabet: %s", plain(err))
	}
	if s.Rules.Colors > s.Alphabet.Len() {
		return s, fmt.Errorf("alphabet: %d colours need %d symbols, and %s has %d", s.Rules.Colors, s.Rules.Colors, s.Alphabet, s.Alphabet.Len())
	}
	if s.Game != nil {
		if err := readGameCode(&s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Resume replays the inputs of a saved session, which must be fresh from
// NewAssist under the saved rules. It fails on the first input the
// session refuses, naming it.
func (a *Assist) Resume(inputs []string) error {
	for i, in := range inputs {
		before := a.changes
		out := a.Do(in)
		// A change may leave answers in conflict, as it did when saved;
		// only an input that changed nothing was refused.
		if a.changes == before {
			why := "it changes nothing"
			for _, l := range out {
				if l.Kind == Problem {
					why = l.Text
					break
				}
			}
			return fmt.Errorf("saved input %d (%q) is refused: %s", i+1, in, why)
		}
		if a.over {
			return fmt.Errorf("saved input %d (%q) ends the session", i+1, in)
		}
	}
	return nil
}

// writeSavedRules writes the head of a saved session or game: its header
// line, then the rules and the alphabet, one a line, as ReadSaved reads
// them.
func writeSavedRules(b *strings.Builder, header string, cfg Config) {
	r := cfg.Rules
	b.WriteString(header + "\n")
	fmt.Fprintf(b, "colors %d\npegs %d\n", r.Colors, r.Pegs)
	if r.Distinct {
		b.WriteString("distinct\n")
	}
	fmt.Fprintf(b, "alphabet %s\n", alphabetText(cfg.Alphabet))
}
