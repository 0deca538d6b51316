package play

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Changing the board: undo, drop and fix change the answers given, and
// the candidates, the rows' counts and any conflict are worked out again.

// undo takes back the last change: an answer, whose guess becomes the
// one to answer again, a drop or a fix; or forgets a guess the person
// typed and has not answered.
func (a *Assist) undo() []Line {
	if a.typed {
		g := a.cur
		a.undone("guess " + a.cfg.Alphabet.Format(g))
		a.propose()
		return append([]Line{info("Forgot your guess %s.", a.cfg.Alphabet.Format(g))}, a.next()...)
	}
	if len(a.log) == 0 {
		return []Line{problem("There is no answer to take back.")}
	}
	c := a.log[len(a.log)-1]
	a.log = a.log[:len(a.log)-1]
	switch c.kind {
	case dropped:
		t := c.dropped
		a.undone(fmt.Sprintf("drop %d", t.row))
		a.dropped = slices.DeleteFunc(a.dropped, func(d turn) bool { return d.row == t.row })
		a.turns = insertTurn(a.turns, t)
		out := []Line{info("Restored answer %d (%s: %s).", t.row, a.cfg.Alphabet.Format(t.Guess), feedbackText(t.Feedback))}
		return append(out, a.changed()...)
	case fixed:
		i := slices.IndexFunc(a.turns, func(t turn) bool { return t.row == c.row })
		now := a.turns[i].Feedback
		a.undone(fmt.Sprintf("fix %d %s", c.row, now))
		a.turns[i].Feedback = c.old
		out := []Line{info("Answer %d is back to %s (was %s).", c.row, feedbackText(c.old), feedbackText(now))}
		return append(out, a.changed()...)
	}
	t := a.turns[len(a.turns)-1]
	a.undone(a.cfg.Alphabet.Format(t.Guess) + " " + t.Feedback.String())
	a.turns = a.turns[:len(a.turns)-1]
	a.row = t.row
	a.rebuild()
	out := []Line{info("Took back answer %d (%s: %s).", t.row, a.cfg.Alphabet.Format(t.Guess), feedbackText(t.Feedback))}
	if a.conflict != nil {
		return append(out, a.conflictLines()...)
	}
	a.cur, a.hasCur, a.own, a.typed, a.propErr = t.Guess, true, t.own, false, nil
	return append(out, a.next()...)
}

// insertTurn inserts t into ts, which is in row order.
func insertTurn(ts []turn, t turn) []turn {
	i, _ := slices.BinarySearchFunc(ts, t.row, func(u turn, row int) int { return u.row - row })
	return slices.Insert(ts, i, t)
}

// drop forgets the answer of row s.
func (a *Assist) drop(s string) []Line {
	i, bad := a.findRow(s, "drop")
	if bad != nil {
		return bad
	}
	t := a.turns[i]
	a.turns = append(a.turns[:i:i], a.turns[i+1:]...)
	a.dropped = insertTurn(a.dropped, t)
	a.log = append(a.log, change{kind: dropped, row: t.row, dropped: t})
	a.changedBy(fmt.Sprintf("drop %d", t.row))
	out := []Line{info("Dropped answer %d (%s: %s); its row stays used.", t.row, a.cfg.Alphabet.Format(t.Guess), feedbackText(t.Feedback))}
	return append(out, a.changed()...)
}

// fix replaces the answer of a row: s is "N ANSWER".
func (a *Assist) fix(s string) []Line {
	n, fs, _ := strings.Cut(strings.TrimSpace(s), " ")
	i, bad := a.findRow(n, "fix")
	if bad != nil {
		return bad
	}
	if strings.TrimSpace(fs) == "" {
		return []Line{problem(`Type the corrected answer after the row, e.g. "fix %d 1 2".`, a.turns[i].row)}
	}
	f, err := mm.ParseFeedback(fs, a.cfg.Rules.Pegs)
	if err == nil {
		err = a.cfg.Rules.CheckFeedback(f)
	}
	if err != nil {
		return badAnswer(err)
	}
	if f.Solved(a.cfg.Rules.Pegs) && i != len(a.turns)-1 {
		return []Line{problem("Answer %d cannot be all black: guesses were played after it.", a.turns[i].row)}
	}
	old := a.turns[i].Feedback
	a.turns[i].Feedback = f
	a.log = append(a.log, change{kind: fixed, row: a.turns[i].row, old: old})
	a.changedBy(fmt.Sprintf("fix %d %s", a.turns[i].row, f))
	out := []Line{info("Answer %d is now %s (was %s).", a.turns[i].row, feedbackText(f), feedbackText(old))}
	return append(out, a.changed()...)
}

// changed recomputes everything after answers other than the last one
// changed, and returns what to show next.
func (a *Assist) changed() []Line {
	typed, cur := a.typed, a.cur
	a.rebuild()
	if a.conflict != nil {
		return a.conflictLines()
	}
	if a.st.Solved() {
		t := a.turns[len(a.turns)-1]
		a.over, a.solved, a.hasCur = true, true, false
		return []Line{done("Solved in %s: the code is %s.", plural(t.row, "guess"), a.cfg.Alphabet.Format(t.Guess))}
	}
	if typed {
		a.cur, a.hasCur, a.own, a.typed = cur, true, true, true
	} else {
		a.propose()
	}
	return a.next()
}

// findRow returns the position in a.turns of the answer of row s, or the
// lines that say why there is none.
func (a *Assist) findRow(s, cmd string) (int, []Line) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	var rows []int
	for _, t := range a.turns {
		rows = append(rows, t.row)
	}
	if len(rows) == 0 {
		return 0, []Line{problem("There are no answers yet.")}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, []Line{problem(`Type %q and the number of an answer: %s.`, cmd+" N", rowList(rows))}
	}
	for i, r := range rows {
		if r == n {
			return i, nil
		}
	}
	return 0, []Line{problem("There is no answer %d; the answers in use are %s.", n, rowList(rows))}
}

// rebuild replays the answers from the start, after one was taken back,
// dropped or corrected, and finds the conflict if they contradict each
// other. It leaves no guess to answer.
func (a *Assist) rebuild() {
	a.conflict, a.hasCur, a.own, a.typed, a.propErr = nil, false, false, false, nil
	st, err := a.cfg.newState()
	if err != nil {
		// The rules were checked when the session began.
		panic(fmt.Sprintf("mastermind: play: %v", err))
	}
	for i := range a.turns {
		next, err := st.Play(a.turns[i].Guess, a.turns[i].Feedback)
		if err != nil {
			// Only a contradiction can fail: the codes and answers were
			// checked as they came, and only the last may be all black.
			a.st = nil
			a.findConflict()
			return
		}
		st = next
		a.turns[i].remaining = st.Remaining()
	}
	a.st = st
}

// findConflict sets a.conflict to a set of answers that cannot all hold
// and no longer conflicts without any one of them; a smallest one when the
// search can afford it.
func (a *Assist) findConflict() {
	if a.all == nil {
		a.conflict = largeConflict(a.cfg.Rules, a.mmTurns())
	} else {
		a.conflict, _ = smallestConflict(a.all, a.mmTurns())
	}
	if a.conflict == nil {
		// Unreachable: Play found no code. Blame the last answer.
		a.conflict = []int{len(a.turns) - 1}
	}
}

func (a *Assist) mmTurns() []mm.Turn {
	ts := make([]mm.Turn, len(a.turns))
	for i, t := range a.turns {
		ts[i] = t.Turn
	}
	return ts
}

// conflictLines explains the conflict and the ways out.
func (a *Assist) conflictLines() []Line {
	fmtc := a.cfg.Alphabet.Format
	last := a.turns[len(a.turns)-1].row
	ways := problem(`Check them on the board, then type "undo" to take back answer %d, "drop N" to drop answer N, or "fix N ANSWER" to correct it.`, last)
	if len(a.conflict) == 1 {
		t := a.turns[a.conflict[0]]
		return []Line{
			problem("No code can answer %s with %s, so answer %d cannot be right.", fmtc(t.Guess), feedbackText(t.Feedback), t.row),
			problem(`Type "undo" to take back answer %d, or "fix %d ANSWER" to correct it.`, last, t.row),
		}
	}
	head := fmt.Sprintf("No code fits all %d answers; these %d cannot all be true together:", len(a.turns), len(a.conflict))
	if len(a.conflict) == 2 {
		head = fmt.Sprintf("No code fits all %d answers; these two cannot both be true:", len(a.turns))
	}
	out := []Line{problem("%s", head)}
	ts := a.mmTurns()
	for _, i := range a.conflict {
		t := a.turns[i]
		without := "without it, others still contradict each other"
		n := 0
		if a.all != nil {
			n = countWithout(a.all, ts, i)
		} else if fits, known := largeFits(a.cfg.Rules, ts, allBut(len(ts), i)); fits {
			n = -1
		} else if !known {
			n = -2
		}
		switch {
		case n == -2:
			without = "without it, not known whether codes fit"
		case n < 0:
			without = "without it, codes fit"
		case n == 1:
			without = "without it, 1 code fits"
		case n > 1:
			without = "without it, " + codes(n) + " fit"
		}
		out = append(out, problem("  answer %d: %s got %s   (%s)", t.row, fmtc(t.Guess), feedbackText(t.Feedback), without))
	}
	return append(out, ways)
}
