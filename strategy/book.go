package strategy

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A Book is a deterministic strategy's guess at every node of a variant's
// tree that more than Min candidates reach: the top of the tree, where the
// strategy spends most of a game's time. Entropy plays from a shipped book
// of its settings while the game stays in it, and computes below, so a game
// of 8 × 8 takes well under a second where computing its first two guesses
// takes three and a half.
//
// A book is written as text, one node a line: the turns that lead to the
// node (a guess, a colon and its feedback, as 11223344:1b3w), then the
// guess played there. The header names the variant, the strategy with its
// settings and Min; `mastermind book` writes one.
type Book struct {
	Rules    mm.Rules
	Strategy string            // the strategy's name
	Settings map[string]string // the strategy's settings, as tree files record them; nil for none
	Min      int               // nodes of more than Min candidates are in the book
	guesses  map[string]mm.Code
}

// Len returns the number of nodes in the book.
func (b *Book) Len() int { return len(b.guesses) }

// Guess returns the book's guess at st, and whether st's node is in it.
func (b *Book) Guess(st *mm.State) (mm.Code, bool) {
	if st.Rules() != b.Rules {
		return mm.Code{}, false
	}
	g, ok := b.guesses[pathKey(st.Turns())]
	return g, ok
}

// Lines returns the book's nodes, one a line as the file holds them, the
// shortest paths first and, among paths of one length, in the order of
// their turns.
func (b *Book) Lines() []string {
	keys := slices.Collect(maps.Keys(b.guesses))
	slices.SortFunc(keys, func(x, y string) int {
		if d := strings.Count(x, ":") - strings.Count(y, ":"); d != 0 {
			return d
		}
		return strings.Compare(x, y)
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.TrimSpace(k + " " + b.guesses[k].String())
	}
	return out
}

// WriteTo writes the book in its text form.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# The guesses of %s at every node of more than %d candidates of %s.\n", b.Strategy, b.Min, b.Rules)
	fmt.Fprintf(&sb, "# Regenerate: %s\n", b.Command())
	fmt.Fprintf(&sb, "variant %d %d %t\n", b.Rules.Colors, b.Rules.Pegs, b.Rules.Distinct)
	fmt.Fprintf(&sb, "strategy %s\n", strings.TrimSpace(b.Strategy+" "+settingsText(b.Settings)))
	fmt.Fprintf(&sb, "min %d\n", b.Min)
	for _, l := range b.Lines() {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

// Command returns the command line that writes the book.
func (b *Book) Command() string {
	args := []string{"mastermind book", "--colors", strconv.Itoa(b.Rules.Colors), "--pegs", strconv.Itoa(b.Rules.Pegs)}
	if b.Rules.Distinct {
		args = append(args, "--distinct")
	}
	args = append(args, "--strategy", b.Strategy)
	for _, k := range slices.Sorted(maps.Keys(b.Settings)) {
		switch v := b.Settings[k]; {
		case k == "pool" && v == "near":
			args = append(args, "--near")
		case k == "pool" && v == "all":
			args = append(args, "--near=false")
		case v == "true":
			args = append(args, "--"+k) // a flag that is on
		default:
			args = append(args, "--"+k, v)
		}
	}
	return strings.Join(append(args, "--min", strconv.Itoa(b.Min)), " ")
}

// settingsText writes settings as sorted key=value pairs.
func settingsText(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// pathKey names a node by the turns that lead to it, as book lines do.
func pathKey(turns []mm.Turn) string {
	var sb strings.Builder
	for i, t := range turns {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%s:%db%dw", t.Guess, t.Feedback.Black, t.Feedback.White)
	}
	return sb.String()
}

// ReadBook reads a book in the text form WriteTo writes.
func ReadBook(rd io.Reader) (*Book, error) { return readBook(rd, false) }

// readBook is ReadBook; with head, it stops at the first node, and the
// book it returns has its header alone.
func readBook(rd io.Reader, head bool) (*Book, error) {
	b := &Book{guesses: map[string]mm.Code{}}
	var haveRules, haveStrategy, haveMin, haveNode bool
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	bad := func(format string, a ...any) error {
		return fmt.Errorf("mastermind: book, line %d: %s", line, fmt.Sprintf(format, a...))
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		switch f[0] {
		case "variant", "strategy", "min":
			if haveNode {
				return nil, bad("a %s line after the nodes", f[0])
			}
			if f[0] == "variant" && haveRules || f[0] == "strategy" && haveStrategy || f[0] == "min" && haveMin {
				return nil, bad("a second %s line", f[0])
			}
		}
		switch f[0] {
		case "variant":
			var err error
			if len(f) != 4 {
				return nil, bad("want \"variant COLOURS PEGS DISTINCT\"")
			}
			c, err1 := strconv.Atoi(f[1])
			p, err2 := strconv.Atoi(f[2])
			d, err3 := strconv.ParseBool(f[3])
			if err = errors.Join(err1, err2, err3); err != nil {
				return nil, bad("%v", err)
			}
			if c < 1 || p < 1 {
				return nil, bad("%d colours and %d pegs: want both given", c, p)
			}
			b.Rules = mm.Rules{Colors: c, Pegs: p, Distinct: d}.WithDefaults()
			if err := b.Rules.Validate(); err != nil {
				return nil, bad("%v", err)
			}
			haveRules = true
			continue
		case "strategy":
			if len(f) < 2 {
				return nil, bad("want \"strategy NAME [KEY=VALUE …]\"")
			}
			b.Strategy = f[1]
			for _, kv := range f[2:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, bad("setting %q: want KEY=VALUE", kv)
				}
				if b.Settings == nil {
					b.Settings = map[string]string{}
				}
				b.Settings[k] = v
			}
			haveStrategy = true
			continue
		case "min":
			n, err := 0, error(nil)
			if len(f) == 2 {
				n, err = strconv.Atoi(f[1])
			}
			if len(f) != 2 || err != nil || n < 1 {
				return nil, bad("want \"min N\", N at least 1")
			}
			b.Min, haveMin = n, true
			continue
		}
		if !haveRules || !haveStrategy || !haveMin {
			return nil, bad("a node before the variant, strategy and min lines")
		}
		if head {
			return b, nil
		}
		haveNode = true
		turns := make([]mm.Turn, len(f)-1)
		for i, tf := range f[:len(f)-1] {
			gs, fs, ok := strings.Cut(tf, ":")
			if !ok {
				return nil, bad("turn %q: want GUESS:FEEDBACK", tf)
			}
			g, err := b.Rules.ParseCode(gs)
			if err != nil {
				return nil, bad("%v", err)
			}
			fb, err := mm.ParseFeedback(fs, b.Rules.Pegs)
			if err != nil {
				return nil, bad("%v", err)
			}
			turns[i] = mm.Turn{Guess: g, Feedback: fb}
		}
		g, err := b.Rules.ParseCode(f[len(f)-1])
		if err != nil {
			return nil, bad("%v", err)
		}
		k := pathKey(turns)
		if _, dup := b.guesses[k]; dup {
			return nil, bad("a second guess for the node %q", k)
		}
		b.guesses[k] = g
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mastermind: book: %w", err)
	}
	if !haveRules || !haveStrategy || !haveMin {
		return nil, errors.New("mastermind: book: the variant, strategy or min line is missing")
	}
	return b, nil
}

// BookNews is what BuildBook reports as it goes.
type BookNews struct {
	Done    int // nodes decided
	Pending int // nodes found and not yet decided
	Depth   int // guesses before the node under way
	Size    int // its candidates
}

// BuildBook computes the book of s, which goes by name, for r: its guess at
// every node of more than min candidates, depth first from the root (the
// file lists them shortest paths first). s must be deterministic, play its
// own first guess, and not itself read a book. progress, if not nil, is
// called before each node.
func BuildBook(ctx context.Context, name string, s mm.Strategy, r mm.Rules, min int, progress func(BookNews)) (*Book, error) {
	r = r.WithDefaults()
	if mm.IsRandomized(s) {
		return nil, fmt.Errorf("mastermind: %s is randomised: a book holds a deterministic strategy's guesses", name)
	}
	if min < 1 {
		return nil, fmt.Errorf("mastermind: a book's nodes of more than %d candidates: want at least 1", min)
	}
	if _, ok := s.(Opening); ok {
		return nil, fmt.Errorf("mastermind: a book holds %s's own guesses, and its header no other first guess: leave out --opening", name)
	}
	if r.Colors > mm.DefaultAlphabet.Len() {
		return nil, fmt.Errorf("mastermind: a book writes codes in the default symbols, which name %d colours, and %v has %d",
			mm.DefaultAlphabet.Len(), r, r.Colors)
	}
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	b := &Book{Rules: r, Strategy: name, Min: min, guesses: map[string]mm.Code{}}
	if ss, ok := s.(interface {
		Settings(mm.Rules) map[string]string
	}); ok {
		b.Settings = ss.Settings(r)
	}
	if consistentOnly(s) {
		// Not among tree files' settings; a book of it is not read.
		b.Settings = maps.Clone(b.Settings)
		if b.Settings == nil {
			b.Settings = map[string]string{}
		}
		b.Settings["consistent-only"] = "true"
	}
	if n := st.Remaining(); n >= 0 && n <= min {
		return b, nil
	}
	// Depth first, so that the candidates held are those of one path's
	// siblings, not of a whole level (on 8 × 8, a peak of 1.7 GB against
	// 2.2 GB).
	pending := 1
	var visit func(st *mm.State) error
	visit = func(st *mm.State) error {
		if progress != nil {
			size := st.Remaining()
			if size < 0 {
				if c, err := st.Candidates(); err == nil {
					size = c.Len() // the root of a space past 2^20
				}
			}
			progress(BookNews{Done: len(b.guesses), Pending: pending, Depth: st.Len(), Size: size})
		}
		g, err := mm.GuessContext(ctx, s, st)
		if err != nil {
			return err
		}
		if err := r.Check(g); err != nil {
			return fmt.Errorf("mastermind: %s returned an illegal guess: %w", name, err)
		}
		b.guesses[pathKey(st.Turns())] = g
		pending--
		_, kids, err := st.Branch(g)
		if err != nil {
			return err
		}
		for i, k := range kids {
			if k.Remaining() > min {
				pending++
			} else {
				kids[i] = nil
			}
		}
		for i, k := range kids {
			if k != nil {
				kids[i] = nil // let its candidates go once done
				if err := visit(k); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := visit(st); err != nil {
		return nil, err
	}
	return b, nil
}

// consistentOnly reports whether s is a scoring strategy restricted to the
// candidates.
func consistentOnly(s mm.Strategy) bool {
	switch v := s.(type) {
	case Knuth:
		return v.ConsistentOnly
	case ExpectedSize:
		return v.ConsistentOnly
	case Entropy:
		return v.ConsistentOnly
	case MostParts:
		return v.ConsistentOnly
	}
	return false
}

// shipped holds the books shipped with the toolkit: their headers, read
// on first use, and each book whole once a game asks for it.
var shipped struct {
	once  sync.Once
	heads []*Book
	full  []func() (*Book, error)
	err   error
}

//go:embed books/*.txt
var bookFiles embed.FS

func readShipped() {
	entries, err := bookFiles.ReadDir("books")
	if err != nil {
		shipped.err = err
		return
	}
	for _, e := range entries {
		name := "books/" + e.Name()
		data, err := bookFiles.ReadFile(name)
		if err != nil {
			shipped.err = err
			return
		}
		h, err := readBook(bytes.NewReader(data), true)
		if err != nil {
			shipped.err = fmt.Errorf("%s: %w", name, err)
			return
		}
		shipped.heads = append(shipped.heads, h)
		shipped.full = append(shipped.full, sync.OnceValues(func() (*Book, error) {
			b, err := ReadBook(bytes.NewReader(data))
			if err != nil {
				err = fmt.Errorf("%s: %w", name, err)
			}
			return b, err
		}))
	}
}

// Books returns the books shipped with the toolkit, in the order of their
// files' names (strategy/books in the source).
func Books() ([]*Book, error) {
	shipped.once.Do(readShipped)
	if shipped.err != nil {
		return nil, shipped.err
	}
	out := make([]*Book, len(shipped.full))
	for i, f := range shipped.full {
		b, err := f()
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// shippedGuess returns the guess at st of the shipped book of strategy
// name with the settings settings returns, if there is one and st's node
// is in it. settings is called only for a book of st's variant; a book is
// read whole only when one matches.
func shippedGuess(name string, settings func() map[string]string, st *mm.State) (mm.Code, bool) {
	shipped.once.Do(readShipped)
	for i, h := range shipped.heads {
		if h.Rules != st.Rules() || h.Strategy != name || !maps.Equal(h.Settings, settings()) {
			continue
		}
		if b, err := shipped.full[i](); err == nil {
			if g, ok := b.Guess(st); ok {
				return g, true
			}
		}
	}
	return mm.Code{}, false
}
