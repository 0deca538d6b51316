// Package records reads and writes strategy trees in the JSON form that
// `mastermind tree --format json` prints, plain or gzipped, and in the
// compact notation of published strategies (tree --format irving), and
// holds the trees shipped with the toolkit: strategies that beat the best
// published ones, and exact optima that took long to compute, so that
// anyone can replay and check them. README.md in this directory lists each with the
// command that regenerates it.
package records

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"sync"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A File is a strategy tree with what it was made of and what it costs.
type File struct {
	Rules    mm.Rules
	Strategy string
	// Settings are the strategy's settings that shaped the tree, such as
	// deep's effort (empty for strategies without any).
	Settings map[string]string
	Games    int // secrets the tree finds
	Total    int // guesses over all of them
	Max      int // the most any needs
	Tree     *mm.Tree
}

type fileJSON struct {
	Rules    rulesJSON         `json:"rules"`
	Strategy string            `json:"strategy"`
	Settings map[string]string `json:"settings,omitempty"`
	Games    int               `json:"games"`
	Total    int               `json:"total"`
	Max      int               `json:"max"`
	Nodes    int               `json:"nodes"`
	Tree     *nodeJSON         `json:"tree"`
}

type rulesJSON struct {
	Colors   int  `json:"colors"`
	Pegs     int  `json:"pegs"`
	Distinct bool `json:"distinct"`
}

func (r rulesJSON) rules() mm.Rules {
	return mm.Rules{Colors: r.Colors, Pegs: r.Pegs, Distinct: r.Distinct}
}

// nodeJSON is one node of a tree: the guess, how many secrets reach it, and
// the subtree after each feedback other than the win.
type nodeJSON struct {
	Guess    string       `json:"guess"`
	Size     int          `json:"size"`
	Branches []branchJSON `json:"branches,omitempty"`
}

type branchJSON struct {
	Black int       `json:"black"`
	White int       `json:"white"`
	Next  *nodeJSON `json:"next"`
}

// NewFile returns the file of tree t of strategy under r: the totals are
// counted from the tree.
func NewFile(r mm.Rules, strategy string, settings map[string]string, t *mm.Tree) *File {
	total, depth := t.Cost()
	return &File{Rules: r.WithDefaults(), Strategy: strategy, Settings: settings,
		Games: t.Size, Total: total, Max: depth, Tree: t}
}

// Write writes f as JSON, one line, with codes in alphabet a (nil for the
// default).
func Write(w io.Writer, f *File, a *mm.Alphabet) error {
	var conv func(t *mm.Tree) *nodeJSON
	conv = func(t *mm.Tree) *nodeJSON {
		n := &nodeJSON{Guess: a.Format(t.Guess), Size: t.Size}
		for _, b := range t.Branches {
			n.Branches = append(n.Branches, branchJSON{Black: b.Feedback.Black, White: b.Feedback.White, Next: conv(b.Next)})
		}
		return n
	}
	r := f.Rules.WithDefaults()
	return json.NewEncoder(w).Encode(fileJSON{
		Rules:    rulesJSON{Colors: r.Colors, Pegs: r.Pegs, Distinct: r.Distinct},
		Strategy: f.Strategy, Settings: f.Settings,
		Games: f.Games, Total: f.Total, Max: f.Max, Nodes: f.Tree.Nodes(),
		Tree: conv(f.Tree),
	})
}

// Read reads a file written by Write, or by `mastermind tree --format
// json`, gzipped or not, with codes in alphabet a (nil for the default).
// It checks that every guess is a code of the rules and every feedback
// possible, but not that the tree finds every secret: Replay does. A tree
// in the compact notation of WriteIrving is read too if it names its rules.
func Read(r io.Reader, a *mm.Alphabet) (*File, error) {
	return ReadFor(r, a, mm.Rules{})
}

// ReadFor is Read for files that may not say their rules, such as a
// strategy in the compact notation copied from a paper: such a file is
// read under given. A file that names its rules is read under its own.
// Trees in the compact notation have their sizes counted from the rules
// (when the codes can be enumerated) and no totals to check.
func ReadFor(r io.Reader, a *mm.Alphabet, given mm.Rules) (*File, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("mastermind: tree file: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	if head, _ := br.Peek(64); isIrving(head) {
		return readIrving(br, a, given)
	}
	var fj fileJSON
	dec := json.NewDecoder(br)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fj); err != nil {
		return nil, fmt.Errorf("mastermind: tree file: %w", err)
	}
	rules := fj.Rules.rules()
	if err := rules.Validate(); err != nil {
		return nil, fmt.Errorf("mastermind: tree file: %w", err)
	}
	if fj.Tree == nil {
		return nil, errors.New("mastermind: tree file: no tree")
	}
	var conv func(n *nodeJSON, where string) (*mm.Tree, error)
	conv = func(n *nodeJSON, where string) (*mm.Tree, error) {
		g, err := a.Parse(rules, n.Guess)
		if err != nil {
			return nil, fmt.Errorf("mastermind: tree file: guess %q%s: %w", n.Guess, where, err)
		}
		t := &mm.Tree{Guess: g, Size: n.Size}
		for _, b := range n.Branches {
			f := mm.Feedback{Black: b.Black, White: b.White}
			if err := rules.CheckFeedback(f); err != nil || f.Solved(rules.Pegs) {
				return nil, fmt.Errorf("mastermind: tree file: branch %v after %s%s is not a feedback a game can go on after", f, n.Guess, where)
			}
			if b.Next == nil {
				return nil, fmt.Errorf("mastermind: tree file: branch %v after %s%s leads nowhere", f, n.Guess, where)
			}
			next, err := conv(b.Next, fmt.Sprintf(" after %s scored %v%s", n.Guess, f, where))
			if err != nil {
				return nil, err
			}
			t.Branches = append(t.Branches, mm.TreeBranch{Feedback: f, Next: next})
		}
		return t, nil
	}
	t, err := conv(fj.Tree, "")
	if err != nil {
		return nil, err
	}
	return &File{Rules: rules, Strategy: fj.Strategy, Settings: fj.Settings,
		Games: fj.Games, Total: fj.Total, Max: fj.Max, Tree: t}, nil
}

// Replay plays f's tree against every secret of its rules and returns how
// many guesses each needed, in the order of the secrets; it fails, naming
// the secret, if the tree misses one, and if the totals it finds differ
// from those the file states.
func Replay(f *File) ([]int, error) {
	sp, err := mm.SpaceOf(f.Rules)
	if err != nil {
		return nil, err
	}
	out := make([]int, sp.Len())
	total, most := 0, 0
	for i := range out {
		secret := sp.Code(i)
		gs, err := f.Tree.Play(secret)
		if err != nil {
			return nil, fmt.Errorf("mastermind: the tree does not find %v: %w", secret, err)
		}
		out[i] = len(gs)
		total += len(gs)
		most = max(most, len(gs))
	}
	if f.Games != 0 && (f.Games != len(out) || f.Total != total || f.Max != most) {
		return nil, fmt.Errorf("mastermind: the tree finds %d secrets in %d guesses, worst %d; the file says %d in %d, worst %d",
			len(out), total, most, f.Games, f.Total, f.Max)
	}
	return out, nil
}

//go:embed *.json.gz
var shipped embed.FS

// Shipped returns the names of the trees shipped with the toolkit.
func Shipped() []string {
	names, _ := fs.Glob(shipped, "*.json.gz")
	sort.Strings(names)
	return names
}

// Open reads a shipped tree by name. Trees are read once and kept: the
// caller must not modify the result.
func Open(name string) (*File, error) {
	v, _ := opened.LoadOrStore(path.Clean(name), &openOnce{})
	o := v.(*openOnce)
	o.once.Do(func() {
		b, err := shipped.ReadFile(path.Clean(name))
		if err != nil {
			o.err = err
			return
		}
		o.f, o.err = Read(bytes.NewReader(b), nil)
	})
	return o.f, o.err
}

var opened sync.Map // name → *openOnce

type openOnce struct {
	once sync.Once
	f    *File
	err  error
}

// Find returns the shipped tree of strategy for r with the given settings,
// if there is one.
func Find(r mm.Rules, strategy string, settings map[string]string) (*File, bool) {
	r = r.WithDefaults()
	for _, name := range Shipped() {
		// Only a file whose header matches is read whole: reading
		// every shipped tree took 280 ms, the headers under 1 ms.
		h, err := header(name)
		if err != nil || h.Rules != r || h.Strategy != strategy || !sameSettings(h.Settings, settings) {
			continue
		}
		f, err := Open(name)
		if err != nil {
			continue
		}
		return f, true
	}
	return nil, false
}

// header returns what a shipped file says before its tree: its rules,
// strategy and settings. Write puts them first.
func header(name string) (*File, error) {
	b, err := shipped.ReadFile(path.Clean(name))
	if err != nil {
		return nil, err
	}
	f, err := ReadHeader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, name)
	}
	return f, nil
}

// ReadHeader reads what a file written by Write says before its tree,
// gzipped or not: its rules, strategy, settings and the games, total and
// worst case it states, with no tree. It reads no further than the tree's
// start, so it is cheap on the largest files; Replay checks the figures.
func ReadHeader(r io.Reader) (*File, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("mastermind: tree file: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	dec := json.NewDecoder(br)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("mastermind: tree file: not a JSON object")
	}
	var h fileJSON
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("mastermind: tree file: %w", err)
		}
		var v any
		switch t {
		case "tree":
			return headerFile(h), nil
		case "rules":
			v = &h.Rules
		case "strategy":
			v = &h.Strategy
		case "settings":
			v = &h.Settings
		case "games":
			v = &h.Games
		case "total":
			v = &h.Total
		case "max":
			v = &h.Max
		default:
			v = new(json.RawMessage)
		}
		if err := dec.Decode(v); err != nil {
			return nil, fmt.Errorf("mastermind: tree file: %w", err)
		}
	}
	return headerFile(h), nil
}

func headerFile(h fileJSON) *File {
	return &File{Rules: h.Rules.rules().WithDefaults(), Strategy: h.Strategy, Settings: h.Settings,
		Games: h.Games, Total: h.Total, Max: h.Max}
}

func sameSettings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
