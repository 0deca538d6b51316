package records

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The compact notation of published strategies writes a tree on one line:
// a node is {GUESS:{BW:NODE,BW:NODE,...}}, where BW is a feedback as its
// black and white counts ("10" for one black, no white; "1 0" from ten
// pegs on), and a node whose guess is the code (no branches) is the guess
// alone. The win is implied. The tree of 2 × 3 of a well-known example:
//
//	{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}
//
// The notation does not say the rules; WriteIrving puts them on a comment
// line before the tree, "# mastermind tree colors=6 pegs=4 distinct=false
// strategy=knuth", which ReadFor reads when it is there. Other lines that
// begin with "#" are comments.

// irvingHeader begins the line of a file in the compact notation that
// names its rules.
const irvingHeader = "# mastermind tree"

// maxIrvingDepth bounds the nesting ReadFor follows, far beyond any real
// tree, so that a hostile file cannot exhaust the stack.
const maxIrvingDepth = 1000

// WriteIrving writes f in the compact notation, with codes in alphabet a
// (nil for the default), after a comment line that names its rules.
func WriteIrving(w io.Writer, f *File, a *mm.Alphabet) error {
	bw := bufio.NewWriter(w)
	r := f.Rules.WithDefaults()
	fmt.Fprintf(bw, "%s colors=%d pegs=%d distinct=%t", irvingHeader, r.Colors, r.Pegs, r.Distinct)
	if f.Strategy != "" {
		fmt.Fprintf(bw, " strategy=%s", f.Strategy)
	}
	bw.WriteByte('\n')
	var walk func(t *mm.Tree)
	walk = func(t *mm.Tree) {
		if len(t.Branches) == 0 {
			bw.WriteString(a.Format(t.Guess))
			return
		}
		bw.WriteString("{" + a.Format(t.Guess) + ":{")
		for i, b := range t.Branches {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(irvingFeedback(b.Feedback, r.Pegs) + ":")
			walk(b.Next)
		}
		bw.WriteString("}}")
	}
	walk(f.Tree)
	bw.WriteByte('\n')
	return bw.Flush()
}

// irvingFeedback writes f as two digits, or with a space between the
// counts when they may have two digits.
func irvingFeedback(f mm.Feedback, pegs int) string {
	if pegs < 10 {
		return strconv.Itoa(f.Black) + strconv.Itoa(f.White)
	}
	return strconv.Itoa(f.Black) + " " + strconv.Itoa(f.White)
}

// isIrving reports whether a file that begins with head is in the compact
// notation rather than JSON.
func isIrving(head []byte) bool {
	s := strings.TrimLeft(string(head), " \t\r\n")
	if strings.HasPrefix(s, "#") {
		return true
	}
	if !strings.HasPrefix(s, "{") {
		return s != ""
	}
	s = strings.TrimLeft(s[1:], " \t\r\n")
	return s != "" && s[0] != '"'
}

// readIrving reads a tree in the compact notation under the rules its
// header names, or rules when it names none.
func readIrving(r io.Reader, a *mm.Alphabet, rules mm.Rules) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("mastermind: tree file: %w", err)
	}
	f := &File{Rules: rules}
	named := false
	var body strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(t, irvingHeader); ok {
			if f.Rules, f.Strategy, err = irvingRules(rest); err != nil {
				return nil, fmt.Errorf("mastermind: tree file: %q: %w", t, err)
			}
			named = true
			continue
		}
		if !strings.HasPrefix(t, "#") {
			body.WriteString(t)
		}
	}
	if f.Rules.Colors == 0 && f.Rules.Pegs == 0 {
		return nil, errors.New("mastermind: tree file: the tree does not say its rules; give them, e.g. --colors and --pegs")
	}
	f.Rules = f.Rules.WithDefaults()
	if err := f.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("mastermind: tree file: %w", err)
	}
	p := &irvingParser{s: body.String(), rules: f.Rules, a: a}
	f.Tree, err = p.node(0)
	if p.skip(); err == nil && p.i < len(p.s) {
		err = p.errorf("text after the tree")
	}
	if err != nil && !named {
		err = fmt.Errorf("%w (the file does not name its rules and was read as %v)", err, f.Rules)
	}
	if err != nil {
		return nil, err
	}
	if f.Rules.Size() <= mm.MaxSpace {
		sp, err := mm.SpaceOf(f.Rules)
		if err != nil {
			return nil, err
		}
		if err := setSizes(f.Tree, sp.All()); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// irvingRules reads the settings of the header line.
func irvingRules(s string) (mm.Rules, string, error) {
	var r mm.Rules
	name := ""
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "colors":
			r.Colors, err = strconv.Atoi(v)
		case "pegs":
			r.Pegs, err = strconv.Atoi(v)
		case "distinct":
			r.Distinct, err = strconv.ParseBool(v)
		case "strategy":
			name = v
		default:
			err = fmt.Errorf("unknown setting %q", k)
		}
		if err != nil {
			return r, name, fmt.Errorf("%s: %w", kv, err)
		}
	}
	return r, name, nil
}

// setSizes sets the Size of every node of t to the number of codes of s,
// the codes that reach it, that reach it.
func setSizes(t *mm.Tree, s *mm.Set) error {
	t.Size = s.Len()
	for _, b := range t.Branches {
		sub, err := s.Filter(t.Guess, b.Feedback)
		if err != nil {
			return err
		}
		if err := setSizes(b.Next, sub); err != nil {
			return err
		}
	}
	return nil
}

// irvingParser reads the compact notation.
type irvingParser struct {
	s     string
	i     int
	rules mm.Rules
	a     *mm.Alphabet
}

func (p *irvingParser) errorf(format string, args ...any) error {
	return fmt.Errorf("mastermind: tree file: at character %d: %s", p.i+1, fmt.Sprintf(format, args...))
}

func (p *irvingParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *irvingParser) eat(c byte) error {
	p.skip()
	if p.i >= len(p.s) || p.s[p.i] != c {
		got := "the end"
		if p.i < len(p.s) {
			got = strconv.Quote(p.s[p.i : p.i+1])
		}
		return p.errorf("want %q, found %s", c, got)
	}
	p.i++
	return nil
}

// word reads up to the next delimiter.
func (p *irvingParser) word() string {
	p.skip()
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("{}:,", rune(p.s[p.i])) {
		p.i++
	}
	return strings.TrimSpace(p.s[start:p.i])
}

func (p *irvingParser) code() (mm.Code, error) {
	at := p.i
	w := p.word()
	c, err := p.a.Parse(p.rules, w)
	if err != nil {
		p.i = at
		return c, p.errorf("guess %q: %v", w, err)
	}
	return c, nil
}

// node reads a strategy: a guess alone, or a guess with its branches.
func (p *irvingParser) node(depth int) (*mm.Tree, error) {
	if depth > maxIrvingDepth {
		return nil, p.errorf("nested more than %d deep", maxIrvingDepth)
	}
	p.skip()
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		g, err := p.code()
		return &mm.Tree{Guess: g, Size: 1}, err
	}
	p.i++
	g, err := p.code()
	if err != nil {
		return nil, err
	}
	t := &mm.Tree{Guess: g}
	if err := p.eat(':'); err != nil {
		return nil, err
	}
	if err := p.eat('{'); err != nil {
		return nil, err
	}
	seen := map[mm.Feedback]bool{}
	for {
		at := p.i
		w := p.word()
		f, err := mm.ParseFeedback(w, p.rules.Pegs)
		if err == nil {
			err = p.rules.CheckFeedback(f)
		}
		if err == nil && f.Solved(p.rules.Pegs) {
			err = errors.New("the win has no branch")
		}
		if err == nil && seen[f] {
			err = errors.New("given twice")
		}
		if err != nil {
			p.i = at
			return nil, p.errorf("feedback %q after %s: %v", w, p.a.Format(g), err)
		}
		seen[f] = true
		if err := p.eat(':'); err != nil {
			return nil, err
		}
		next, err := p.node(depth + 1)
		if err != nil {
			return nil, err
		}
		t.Branches = append(t.Branches, mm.TreeBranch{Feedback: f, Next: next})
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		break
	}
	if err := p.eat('}'); err != nil {
		return nil, err
	}
	slices.SortFunc(t.Branches, func(x, y mm.TreeBranch) int {
		return cmp.Or(cmp.Compare(x.Feedback.Black, y.Feedback.Black), cmp.Compare(x.Feedback.White, y.Feedback.White))
	})
	return t, p.eat('}')
}
