package play

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	mm "github.com/mastermind-toolkit/mastermind"
)

// echo is the Kind of a line the person typed, in the model's transcript.
const echo Kind = -1

// Model is the full-screen terminal program of a session: a header, the
// board with coloured pegs (each showing its colour's symbol), a transcript
// of the last exchanges, and an input line. It is a bubbletea Model; its
// Update and View are pure functions of the model and the message, apart
// from the commands Update returns, which run the session.
//
// While the session works on a line (a strategy may think for a while),
// the model shows the board as it was; the person may type ahead, and lines
// entered meanwhile are sent in turn. The tab key sends "hint"; a reply
// whose Board suggests a code (play's hint) puts it on an empty input line.
type Model struct {
	sess   Session
	board  Board  // the board as of the last reply
	prompt string // the prompt as of the last reply
	over   bool   // the session was over as of the last reply
	busy   bool   // the session is working on a line
	quit   bool   // the person left

	log   []Line   // what was said, oldest first
	last  []Line   // the last reply
	queue []string // lines entered while busy, to send in turn
	input []rune
	hist  []string // lines entered, oldest first
	hpos  int      // position in hist while browsing it

	width, height int
	st            styles
}

var _ tea.Model = Model{}

// replyMsg carries the session's reply to a line, with what the view
// needs, computed where the session ran.
type replyMsg struct {
	lines  []Line
	board  Board
	prompt string
	over   bool
}

// NewModel returns the terminal program of sess, which has not started.
func NewModel(sess Session) Model {
	start := sess.Start()
	b := sess.Board()
	return Model{
		sess:   sess,
		board:  b,
		prompt: sess.Prompt(),
		over:   sess.Over(),
		log:    start,
		last:   start,
		width:  80,
		height: 24,
		st:     newStyles(b.Rules, b.Alphabet, colorprofile.TrueColor),
	}
}

// Init returns nothing: the session started in NewModel.
func (m Model) Init() tea.Cmd { return nil }

// Update handles a key, a paste, a window size or the session's reply.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.ColorProfileMsg:
		// Pegs take the palette's own 256 colours where the terminal has
		// no more.
		m.st = newStyles(m.board.Rules, m.board.Alphabet, msg.Profile)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case replyMsg:
		m.busy = false
		m.board, m.prompt, m.over = msg.board, msg.prompt, msg.over
		m.last = msg.lines
		m.log = append(m.log, msg.lines...)
		switch {
		case m.over:
			m.queue, m.input = nil, nil
		case len(m.queue) > 0:
			line := m.queue[0]
			m.queue = m.queue[1:]
			return m.send(line)
		case msg.board.Suggest != "" && len(m.input) == 0:
			// A hint's guess goes on the input line, to send or change.
			m.input = []rune(msg.board.Suggest)
		}
	case tea.PasteMsg:
		if !m.over {
			text, _, _ := strings.Cut(msg.Content, "\n")
			m.input = append(m.input, printable(text)...)
		}
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if k.String() == "ctrl+c" {
		m.quit = true
		return m, tea.Quit
	}
	if m.over && !m.busy {
		m.quit = true
		return m, tea.Quit
	}
	switch k.String() {
	case "enter":
		line := string(m.input)
		m.input = nil
		if strings.TrimSpace(line) != "" {
			m.hist = append(m.hist, line)
		}
		m.hpos = len(m.hist)
		if m.busy {
			m.queue = append(m.queue, line)
			return m, nil
		}
		return m.send(line)
	case "backspace":
		if len(m.input) > 0 {
			m.input = m.input[:len(m.input)-1]
		}
	case "esc", "ctrl+u":
		m.input = nil
	case "tab":
		// A hint, whose guess play puts on the input line.
		if m.busy {
			return m, nil
		}
		m.input = nil
		return m.send("hint")
	case "up":
		if m.hpos > 0 {
			m.hpos--
			m.input = []rune(m.hist[m.hpos])
		}
	case "down":
		if m.hpos < len(m.hist)-1 {
			m.hpos++
			m.input = []rune(m.hist[m.hpos])
		} else {
			m.hpos, m.input = len(m.hist), nil
		}
	default:
		if k.Text != "" {
			m.input = append(m.input, printable(k.Text)...)
		}
	}
	return m, nil
}

// send hands line to the session; the reply comes back as a replyMsg.
func (m Model) send(line string) (tea.Model, tea.Cmd) {
	m.log = append(m.log, Line{echo, m.prompt + line})
	m.busy = true
	sess := m.sess
	return m, func() tea.Msg {
		ls := sess.Do(line)
		return replyMsg{lines: ls, board: sess.Board(), prompt: sess.Prompt(), over: sess.Over()}
	}
}

// printable returns the printable runes of s.
func printable(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsPrint(r) {
			out = append(out, r)
		}
	}
	return out
}

// View draws the screen in the alternate screen buffer.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = m.board.Title
	return v
}

// Render returns the screen's content: the View without the terminal
// settings.
func (m Model) Render() string {
	w, h := max(m.width, 20), max(m.height, 8)
	st := m.st
	header := st.title.Render(truncate(m.board.Title, w))
	status := st.status.Render(truncate(m.board.Status, w))
	input := m.prompt + string(m.input)
	var footer string
	switch {
	case m.busy:
		footer = "thinking…"
		input += st.cursor.Render(" ")
	case m.over:
		footer = "press any key to leave"
		input = ""
	default:
		input += st.cursor.Render(" ")
		footer = "enter: send · tab: hint · ↑/↓: earlier lines · esc: clear · ctrl+c: quit"
	}
	bodyH := h - 6
	boardLines := m.boardLines(bodyH)
	boardW := 0
	for _, l := range boardLines {
		boardW = max(boardW, lipgloss.Width(l))
	}
	var body []string
	if logW := w - boardW - 4; logW >= 32 {
		log := m.logLines(logW, bodyH)
		for i := 0; i < max(len(boardLines), len(log)); i++ {
			var left, right string
			if i < len(boardLines) {
				left = boardLines[i]
			}
			if i < len(log) {
				right = log[i]
			}
			body = append(body, left+strings.Repeat(" ", boardW-lipgloss.Width(left)+4)+right)
		}
	} else {
		if len(boardLines) > bodyH-3 {
			boardLines = boardLines[len(boardLines)-max(bodyH-3, 1):]
		}
		body = append(body, boardLines...)
		body = append(body, "")
		body = append(body, m.logLines(w, bodyH-len(body))...)
	}
	lines := []string{header, ""}
	lines = append(lines, body...)
	for len(lines) < h-4 {
		lines = append(lines, "")
	}
	lines = append(lines, "", status, truncate(input, w), st.dim.Render(truncate(footer, w)))
	return strings.Join(lines, "\n")
}

// boardLines draws the board in at most n lines, dropping the oldest rows
// if need be.
func (m Model) boardLines(n int) []string {
	b, st := m.board, m.st
	var top []string
	if b.Revealed || b.Limit > 0 {
		pegs := make([]string, b.Rules.Pegs)
		for i := range pegs {
			if b.Revealed {
				pegs[i] = st.peg(b.Secret.Peg(i), b.Alphabet)
			} else {
				pegs[i] = st.hidden.Render(" ? ")
			}
		}
		top = append(top, "code "+st.join(pegs), "")
	}
	var rows []string
	for _, r := range b.Rows {
		rows = append(rows, m.rowLine(r))
	}
	// Empty rows up to a small guess limit, as on a board, if there is
	// room for them.
	room := n - len(top)
	if b.Limit > 0 && b.Limit <= 12 {
		holes := make([]string, b.Rules.Pegs)
		for i := range holes {
			holes[i] = st.hole.Render(" · ")
		}
		for k := len(b.Rows) + 1; k <= b.Limit && len(rows) < room; k++ {
			rows = append(rows, st.dim.Render(fmt.Sprintf("%3d ", k))+" "+st.join(holes))
		}
	}
	if len(rows) > room {
		rows = rows[len(rows)-max(room, 1):]
	}
	return append(top, rows...)
}

// rowLine draws one row: its number, the pegs, the key pegs and what is
// known after it.
func (m Model) rowLine(r Row) string {
	b, st := m.board, m.st
	p := b.Rules.Pegs
	current := !r.Answered
	pegs := make([]string, p)
	var typed []rune
	if current && b.Typing {
		typed = printable(strings.NewReplacer(" ", "", ",", "").Replace(string(m.input)))
	}
	for i := range pegs {
		switch {
		case current && b.Typing:
			pegs[i] = st.hole.Render(" · ")
			if i < len(typed) {
				if c, err := b.Alphabet.Parse(mm.Rules{Colors: b.Rules.Colors, Pegs: 1}, string(typed[i])); err == nil {
					pegs[i] = st.peg(c.Peg(0), b.Alphabet)
				} else {
					pegs[i] = st.problem.Render(" " + string(typed[i]) + " ")
				}
			}
		case r.Guess.Len() == p:
			pegs[i] = st.peg(r.Guess.Peg(i), b.Alphabet)
		default:
			pegs[i] = st.hole.Render(" · ")
		}
	}
	num := fmt.Sprintf("%3d ", r.N)
	if current {
		num = st.status.Render(fmt.Sprintf("%3d›", r.N))
	} else {
		num = st.dim.Render(num)
	}
	line := num + " " + st.join(pegs) + "  "
	if !r.Answered {
		if !b.Typing {
			line += st.dim.Render("← your answer?")
		}
		return line
	}
	line += st.keys(r.Feedback, p) + "  " + st.dim.Render(fmt.Sprintf("%d black %d white", r.Feedback.Black, r.Feedback.White))
	var notes []string
	switch {
	case r.Dropped:
		notes = append(notes, st.dim.Render("dropped"))
	case r.Conflict:
		notes = append(notes, st.problem.Render("✗ contradicts"))
	case r.Remaining >= 0:
		notes = append(notes, codes(r.Remaining)+" left")
	case b.Uncounted:
		notes = append(notes, "? left")
	}
	if r.Own {
		notes = append(notes, st.dim.Render("yours"))
	}
	if len(notes) > 0 {
		line += "  " + strings.Join(notes, " ")
	}
	return line
}

// logLines returns the last lines of the transcript that fit in n lines of
// width w.
func (m Model) logLines(w, n int) []string {
	if n <= 0 {
		return nil
	}
	wrap := lipgloss.NewStyle().Width(w)
	var out []string
	for i := len(m.log) - 1; i >= 0 && len(out) < n; i-- {
		l := m.log[i]
		text := l.Text
		if text == "" {
			out = append(out, "")
			continue
		}
		wrapped := strings.Split(wrap.Render(text), "\n")
		for j := len(wrapped) - 1; j >= 0 && len(out) < n; j-- {
			out = append(out, m.st.kind(l.Kind).Render(strings.TrimRight(wrapped[j], " ")))
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// truncate cuts s to w cells.
func truncate(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// styles are the model's lipgloss styles.
type styles struct {
	pegs                        []lipgloss.Style // one per colour
	gap                         string
	title, status, dim, problem lipgloss.Style
	done, echo, progress        lipgloss.Style
	hole, hidden, cursor        lipgloss.Style
	keyBlack, keyWhite, keyNone lipgloss.Style
	keyBackground               lipgloss.Style
}

// boardColor is the colour behind the key pegs, so that black and white
// pegs both show on any terminal.
var boardColor = lipgloss.Color("#8d6e63")

func newStyles(r mm.Rules, a *mm.Alphabet, p colorprofile.Profile) styles {
	s := styles{
		title:         lipgloss.NewStyle().Bold(true),
		status:        lipgloss.NewStyle().Bold(true),
		dim:           lipgloss.NewStyle().Faint(true),
		problem:       lipgloss.NewStyle().Foreground(lipgloss.Color("#ef5350")),
		done:          lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#66bb6a")),
		echo:          lipgloss.NewStyle().Faint(true),
		progress:      lipgloss.NewStyle().Foreground(lipgloss.Color("#4fc3f7")),
		hole:          lipgloss.NewStyle().Faint(true),
		hidden:        lipgloss.NewStyle().Background(lipgloss.Color("#424242")).Foreground(lipgloss.Color("#bdbdbd")),
		cursor:        lipgloss.NewStyle().Reverse(true),
		keyBlack:      lipgloss.NewStyle().Background(boardColor).Foreground(lipgloss.Color("#000000")),
		keyWhite:      lipgloss.NewStyle().Background(boardColor).Foreground(lipgloss.Color("#ffffff")),
		keyNone:       lipgloss.NewStyle().Background(boardColor).Foreground(lipgloss.Color("#5d4037")),
		keyBackground: lipgloss.NewStyle().Background(boardColor),
	}
	for _, c := range pegColours(r, a) {
		var bg color.Color = lipgloss.Color(c.Hex())
		if p < colorprofile.TrueColor {
			bg = ansi.IndexedColor(c.ANSI256())
		}
		s.pegs = append(s.pegs, lipgloss.NewStyle().Background(bg).Foreground(contrast(c)).Bold(true))
	}
	if r.Pegs <= 8 {
		s.gap = " "
	}
	return s
}

// peg draws a peg of colour k with its symbol.
func (s styles) peg(k int, a *mm.Alphabet) string {
	return s.pegs[k].Render(" " + string(a.Symbol(k)) + " ")
}

// join lays pegs side by side.
func (s styles) join(pegs []string) string { return strings.Join(pegs, s.gap) }

// keys draws the key pegs of f for p pegs: black, then white, then empty
// holes, on a board-coloured background.
func (s styles) keys(f mm.Feedback, p int) string {
	var b strings.Builder
	for i := 0; i < p; i++ {
		b.WriteString(s.keyBackground.Render(" "))
		switch {
		case i < f.Black:
			b.WriteString(s.keyBlack.Render("●"))
		case i < f.Black+f.White:
			b.WriteString(s.keyWhite.Render("●"))
		default:
			b.WriteString(s.keyNone.Render("·"))
		}
	}
	b.WriteString(s.keyBackground.Render(" "))
	return b.String()
}

// kind returns the style of transcript lines of kind k.
func (s styles) kind(k Kind) lipgloss.Style {
	switch k {
	case echo:
		return s.echo
	case Problem:
		return s.problem
	case Done:
		return s.done
	case Progress:
		return s.progress
	}
	return lipgloss.NewStyle()
}

// RunTUI plays sess as a full-screen terminal program reading keys from in
// and drawing on out, which should be a terminal. It returns when the
// person leaves (after the end, or with ctrl+c) and then writes the game in
// plain text on out, since the full screen vanishes. It returns ctx's error
// if ctx ends first. Options are passed on to bubbletea after RunTUI's own,
// for example tea.WithWindowSize when out is not a terminal.
func RunTUI(ctx context.Context, sess Session, in io.Reader, out io.Writer, opts ...tea.ProgramOption) error {
	opts = append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}, opts...)
	p := tea.NewProgram(NewModel(sess), opts...)
	final, err := p.Run()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("mastermind: terminal: %w", err)
	}
	m, ok := final.(Model)
	if !ok {
		return errors.New("mastermind: terminal: unexpected model")
	}
	_, err = io.WriteString(out, m.Summary())
	return err
}

// Summary returns the game in plain text: the title, the guesses and their
// answers, and the last reply, or a note that the person left early. Its
// lines are wrapped between words short of the screen's last column: the
// terminal would break them anywhere.
func (m Model) Summary() string {
	w := max(m.width, 20) - 1
	var b strings.Builder
	b.WriteString(wordWrap(m.board.Title, w) + "\n")
	for _, r := range m.board.Rows {
		if !r.Answered {
			continue
		}
		fmt.Fprintf(&b, "%3d. %s  %s", r.N, m.board.Alphabet.Format(r.Guess), feedbackText(r.Feedback))
		if r.Dropped {
			b.WriteString("  (dropped)")
		}
		b.WriteString("\n")
	}
	if !m.over {
		b.WriteString("Left before the end.\n")
		return b.String()
	}
	for _, l := range m.last {
		if l.Kind == Done || l.Kind == Info {
			b.WriteString(wordWrap(l.Text, w) + "\n")
		}
	}
	return b.String()
}

// wordWrap breaks the lines of s longer than w cells between words, so
// that each takes at most w, but for a word longer than w, which keeps a
// line of its own.
func wordWrap(s string, w int) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if lipgloss.Width(line) <= w {
			out = append(out, line) // its spaces as they are
			continue
		}
		cur, curW := "", 0
		for _, word := range strings.Fields(line) {
			ww := lipgloss.Width(word)
			switch {
			case cur == "":
				cur, curW = word, ww
			case curW+1+ww <= w:
				cur, curW = cur+" "+word, curW+1+ww
			default:
				out = append(out, cur)
				cur, curW = word, ww
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
