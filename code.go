package mastermind

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Code is a row of coloured pegs: a secret or a guess. Colours are numbered
// from 0; the default alphabet writes colour 0 as '1', so Knuth's 1122 is
// the code with colours 0, 0, 1, 1.
//
// Code is a small comparable value: use == to compare codes and use them as
// map keys. The zero Code has no pegs.
type Code struct {
	n    uint8
	pegs [MaxPegs]uint8
}

// NewCode returns the code with the given colours, numbered from 0. It
// fails if there are more than MaxPegs pegs or a colour is outside
// [0, MaxColors); Rules.Check tells whether the code suits a variant.
func NewCode(colors ...int) (Code, error) {
	var c Code
	if len(colors) > MaxPegs {
		return c, fmt.Errorf("%w: %d pegs; at most %d", ErrInvalidCode, len(colors), MaxPegs)
	}
	for i, k := range colors {
		if k < 0 || k >= MaxColors {
			return Code{}, fmt.Errorf("%w: colour %d at position %d is outside 0 to %d", ErrInvalidCode, k, i+1, MaxColors-1)
		}
		c.pegs[i] = uint8(k)
	}
	c.n = uint8(len(colors))
	return c, nil
}

// codeOf is NewCode for colours known to be in range.
func codeOf(colors []uint8) Code {
	var c Code
	c.n = uint8(copy(c.pegs[:], colors))
	return c
}

// Len returns the number of pegs.
func (c Code) Len() int { return int(c.n) }

// Peg returns the colour of peg i, numbered from 0.
func (c Code) Peg(i int) int {
	if i < 0 || i >= int(c.n) {
		panic(fmt.Sprintf("mastermind: peg %d of a %d-peg code", i, c.n))
	}
	return int(c.pegs[i])
}

// Colors returns the colours of the pegs, numbered from 0.
func (c Code) Colors() []int {
	out := make([]int, c.n)
	for i := range out {
		out[i] = int(c.pegs[i])
	}
	return out
}

// bytes returns the colours as a slice of c's own array; callers must not
// keep it past c's lifetime or modify it.
func (c *Code) bytes() []uint8 { return c.pegs[:c.n] }

// Compare returns -1, 0 or +1 as c comes before, equals or comes after d in
// lexicographic order (the order of the default alphabet: 1111 < 1112 <
// … < 6666). A shorter code that is a prefix of a longer one comes first.
func (c Code) Compare(d Code) int {
	n := min(c.n, d.n)
	for i := uint8(0); i < n; i++ {
		if c.pegs[i] != d.pegs[i] {
			if c.pegs[i] < d.pegs[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case c.n < d.n:
		return -1
	case c.n > d.n:
		return 1
	}
	return 0
}

// String writes c in the default alphabet.
func (c Code) String() string { return DefaultAlphabet.Format(c) }

// MarshalText writes c in the default alphabet.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a code in the default alphabet, of any length.
func (c *Code) UnmarshalText(text []byte) error {
	d, err := DefaultAlphabet.parse(string(text), 0)
	if err != nil {
		return err
	}
	*c = d
	return nil
}

// An Alphabet maps colours to the symbols that write them: colour 0 is the
// first symbol. A nil *Alphabet is DefaultAlphabet.
//
// Parsing ignores letter case unless the alphabet holds both cases of the
// letter, and accepts spaces and commas between pegs.
type Alphabet struct {
	symbols []rune
	index   map[rune]int
	names   []string       // the colours' names, or nil
	byName  map[string]int // lower-cased names
}

// DefaultSymbols are the symbols of DefaultAlphabet.
const DefaultSymbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// DefaultAlphabet writes colours as 1–9 then A–Z, enough for 35 colours.
var DefaultAlphabet = mustAlphabet(DefaultSymbols)

func mustAlphabet(s string) *Alphabet {
	a, err := NewAlphabet(s)
	if err != nil {
		panic(err)
	}
	return a
}

// NewAlphabet returns the alphabet whose symbols, in colour order, are the
// characters of symbols. Symbols must be distinct printable characters other
// than space and comma, at most MaxColors of them.
func NewAlphabet(symbols string) (*Alphabet, error) {
	if !utf8.ValidString(symbols) {
		return nil, fmt.Errorf("mastermind: alphabet %q is not valid UTF-8", symbols)
	}
	rs := []rune(symbols)
	if len(rs) < 2 || len(rs) > MaxColors {
		return nil, fmt.Errorf("mastermind: alphabet %q has %d symbols; want 2 to %d", symbols, len(rs), MaxColors)
	}
	a := &Alphabet{symbols: rs, index: make(map[rune]int, 2*len(rs))}
	for i, r := range rs {
		if isSeparator(r) || !unicode.IsPrint(r) {
			return nil, fmt.Errorf("mastermind: alphabet %q: %q cannot be a symbol", symbols, r)
		}
		if _, dup := a.index[r]; dup {
			return nil, fmt.Errorf("mastermind: alphabet %q repeats %q", symbols, r)
		}
		a.index[r] = i
	}
	// Accept the other case of a letter when the alphabet does not use it.
	for i, r := range rs {
		for _, o := range []rune{unicode.ToLower(r), unicode.ToUpper(r)} {
			if _, used := a.index[o]; !used {
				a.index[o] = i
			}
		}
	}
	return a, nil
}

// NewNamedAlphabet returns an alphabet whose colours have names, such as
// red, green and blue: colour k is names[k]. Each colour is written with
// one symbol: the first letter of its name, upper-cased, unless an earlier
// name took it, then the next letters of the name, then the first letter
// of A–Z and digit 1–9 still free, and beyond 35 names 0, then the
// lower-case letters a–z (which parse in their own case then), then
// #@%&*+=; so red, green, blue, yellow, orange, purple are written RGBYOP,
// and black after blue is L. Parse reads codes
// written with the symbols or with the names separated by spaces or
// commas, such as "red red green blue"; Format writes the symbols.
//
// Names are distinct in any letter case, at least one character, without
// spaces or commas; at most MaxColors of them.
func NewNamedAlphabet(names []string) (*Alphabet, error) {
	if len(names) < 2 || len(names) > MaxColors {
		return nil, fmt.Errorf("mastermind: %d colour names; want 2 to %d", len(names), MaxColors)
	}
	byName := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" || !utf8.ValidString(n) || strings.ContainsFunc(n, func(r rune) bool { return isSeparator(r) || !unicode.IsPrint(r) }) {
			return nil, fmt.Errorf("mastermind: colour name %q: want a word without spaces or commas", n)
		}
		key := strings.ToLower(n)
		if _, dup := byName[key]; dup {
			return nil, fmt.Errorf("mastermind: colour name %q given twice", n)
		}
		byName[key] = i
	}
	used := map[rune]bool{}
	free := func(r rune) bool {
		return !used[r] && !used[unicode.ToLower(r)] && !used[unicode.ToUpper(r)]
	}
	symbols := make([]rune, len(names))
	for i, n := range names {
		symbols[i] = -1
		for _, r := range n {
			if r = unicode.ToUpper(r); (unicode.IsLetter(r) || unicode.IsDigit(r)) && free(r) {
				symbols[i] = r
				break
			}
		}
		if symbols[i] < 0 {
			for _, r := range "ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789" {
				if free(r) {
					symbols[i] = r
					break
				}
			}
		}
		if symbols[i] < 0 {
			// Every letter is taken in upper case: both cases then.
			for _, r := range "0abcdefghijklmnopqrstuvwxyz#@%&*+=" {
				if !used[r] {
					symbols[i] = r
					break
				}
			}
		}
		if symbols[i] < 0 {
			return nil, fmt.Errorf("mastermind: no symbol left for colour name %q", n)
		}
		used[symbols[i]] = true
	}
	a, err := NewAlphabet(string(symbols))
	if err != nil {
		return nil, err
	}
	a.names, a.byName = slices.Clone(names), byName
	return a, nil
}

func isSeparator(r rune) bool { return r == ' ' || r == ',' || r == '\t' }

func (a *Alphabet) orDefault() *Alphabet {
	if a == nil {
		return DefaultAlphabet
	}
	return a
}

// Len returns the number of symbols, the most colours the alphabet can
// write.
func (a *Alphabet) Len() int { return len(a.orDefault().symbols) }

// String returns the symbols in colour order.
func (a *Alphabet) String() string { return string(a.orDefault().symbols) }

// Name returns the name of colour k, or "" if the alphabet does not name
// its colours or has no colour k.
func (a *Alphabet) Name(k int) string {
	a = a.orDefault()
	if k < 0 || k >= len(a.names) {
		return ""
	}
	return a.names[k]
}

// Named reports whether the alphabet names its colours.
func (a *Alphabet) Named() bool { return a.orDefault().names != nil }

// Symbol returns the symbol of colour k, or '?' if the alphabet has none.
func (a *Alphabet) Symbol(k int) rune {
	a = a.orDefault()
	if k < 0 || k >= len(a.symbols) {
		return '?'
	}
	return a.symbols[k]
}

// Format writes c with the alphabet's symbols; a colour beyond the alphabet
// is written '?'.
func (a *Alphabet) Format(c Code) string {
	var b strings.Builder
	b.Grow(c.Len())
	for i := 0; i < c.Len(); i++ {
		b.WriteRune(a.Symbol(c.Peg(i)))
	}
	return b.String()
}

// Parse reads a code written in the alphabet and checks it against the
// rules. Spaces and commas between pegs are ignored. Errors are
// *ParseError values that name the offending symbol, or wrap
// ErrInvalidCode.
func (a *Alphabet) Parse(r Rules, s string) (Code, error) {
	r = r.WithDefaults()
	if err := r.Validate(); err != nil {
		return Code{}, err
	}
	c, err := a.parseChecked(r, s)
	if err != nil && looksLikeSize(s) {
		// "11x2" typed where a code belongs: say what belongs there, not
		// that 'X' is colour 33.
		a = a.orDefault()
		return Code{}, &ParseError{What: "code", Input: s, Pos: -1,
			Msg: fmt.Sprintf("looks like a size, colours x pegs, not a code: want %d pegs of %s", r.Pegs, string(a.symbols[:min(r.Colors, len(a.symbols))]))}
	}
	return c, err
}

// looksLikeSize reports whether s is written as a size, such as "11x2" or
// "8 × 5".
func looksLikeSize(s string) bool {
	cols, pegs, ok := strings.Cut(strings.ToLower(strings.ReplaceAll(s, "×", "x")), "x")
	return ok && isDigits(strings.TrimSpace(cols)) && isDigits(strings.TrimSpace(pegs))
}

// parseChecked reads a code and checks it against rules r, which have
// their defaults and are valid.
func (a *Alphabet) parseChecked(r Rules, s string) (Code, error) {
	c, err := a.parse(s, r.Colors)
	if err != nil {
		return Code{}, err
	}
	a = a.orDefault()
	if c.Len() != r.Pegs {
		return Code{}, &ParseError{What: "code", Input: s, Pos: -1, Msg: fmt.Sprintf("has %d pegs; want %d", c.Len(), r.Pegs)}
	}
	var seen uint64
	for i := 0; i < c.Len(); i++ {
		k := c.Peg(i)
		if k >= r.Colors {
			return Code{}, &ParseError{What: "code", Input: s, Pos: -1,
				Msg: fmt.Sprintf("%q is colour %d, but there are only %d colours (%s)", a.symbols[k], k+1, r.Colors, string(a.symbols[:min(r.Colors, len(a.symbols))]))}
		}
		if r.Distinct && seen&(1<<k) != 0 {
			return Code{}, &ParseError{What: "code", Input: s, Pos: -1,
				Msg: fmt.Sprintf("repeats %q, but colours must be distinct", a.symbols[k])}
		}
		seen |= 1 << k
	}
	return c, nil
}

// parse reads a code of any length without checking it against rules. An
// unknown symbol's error lists the first colors symbols, those of the
// variant, or all of them if colors is 0.
func (a *Alphabet) parse(s string, colors int) (Code, error) {
	a = a.orDefault()
	var c Code
	if !utf8.ValidString(s) {
		return c, &ParseError{What: "code", Input: s, Pos: -1, Msg: "not valid UTF-8"}
	}
	if c, ok := a.parseNames(s); ok {
		return c, nil
	}
	pos := 0
	for _, r := range s {
		if isSeparator(r) {
			pos++
			continue
		}
		k, ok := a.index[r]
		if !ok {
			syms := a.symbols
			if colors > 0 && colors < len(syms) {
				syms = syms[:colors]
			}
			return Code{}, &ParseError{What: "code", Input: s, Pos: pos, Msg: fmt.Sprintf("unknown symbol %q (symbols: %s)", r, string(syms))}
		}
		if c.n == MaxPegs {
			return Code{}, &ParseError{What: "code", Input: s, Pos: -1, Msg: fmt.Sprintf("more than %d pegs", MaxPegs)}
		}
		c.pegs[c.n] = uint8(k)
		c.n++
		pos++
	}
	if c.n == 0 {
		return Code{}, &ParseError{What: "code", Input: s, Pos: -1, Msg: "no pegs"}
	}
	return c, nil
}

// parseNames reads a code written with colour names, and reports false if
// s is not one: the alphabet has no names, or a word of s is not a name,
// or s is one word as short as a symbol.
func (a *Alphabet) parseNames(s string) (Code, bool) {
	var c Code
	if a.byName == nil {
		return c, false
	}
	words := strings.FieldsFunc(s, isSeparator)
	if len(words) == 0 || len(words) > MaxPegs || (len(words) == 1 && utf8.RuneCountInString(words[0]) == 1) {
		return c, false
	}
	for _, w := range words {
		k, ok := a.byName[strings.ToLower(w)]
		if !ok {
			return Code{}, false
		}
		c.pegs[c.n] = uint8(k)
		c.n++
	}
	return c, true
}

// RandomCode returns a code drawn uniformly from those r allows, using rng.
// r must be valid.
func RandomCode(r Rules, rng *rand.Rand) Code {
	r = r.WithDefaults()
	var c Code
	c.n = uint8(r.Pegs)
	if r.Distinct {
		perm := rng.Perm(r.Colors)
		for i := range r.Pegs {
			c.pegs[i] = uint8(perm[i])
		}
		return c
	}
	for i := range r.Pegs {
		c.pegs[i] = uint8(rng.IntN(r.Colors))
	}
	return c
}

// ParseCode reads a code in the default alphabet and checks it against r.
func (r Rules) ParseCode(s string) (Code, error) { return DefaultAlphabet.Parse(r, s) }
