package mastermind_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

func mustAlphabet(t testing.TB, s string) *mm.Alphabet {
	t.Helper()
	a, err := mm.NewAlphabet(s)
	if err != nil {
		t.Fatalf("NewAlphabet(%q): %v", s, err)
	}
	return a
}

func TestParseCode(t *testing.T) {
	rgb := mustAlphabet(t, "RGBYOP")
	distinct := mm.Rules{Colors: 6, Pegs: 4, Distinct: true}
	tests := []struct {
		a    *mm.Alphabet
		r    mm.Rules
		in   string
		want []int // nil: an error
		pos  int   // for errors: ParseError.Pos, or -2 not to check
	}{
		{nil, mm.Classic, "1122", []int{0, 0, 1, 1}, 0},
		{nil, mm.Classic, "6543", []int{5, 4, 3, 2}, 0},
		{nil, mm.Classic, "1 1 2 2", []int{0, 0, 1, 1}, 0},
		{nil, mm.Classic, "1,1,2,2", []int{0, 0, 1, 1}, 0},
		{nil, mm.Classic, "  1, 1 ,2,2 ", []int{0, 0, 1, 1}, 0},
		{nil, mm.Classic, "1\t1\t2\t2", []int{0, 0, 1, 1}, 0},
		{mm.DefaultAlphabet, mm.Rules{Colors: 12, Pegs: 4}, "9abc", []int{8, 9, 10, 11}, 0},
		{mm.DefaultAlphabet, mm.Rules{Colors: 35, Pegs: 2}, "Zz", []int{34, 34}, 0},
		{rgb, mm.Classic, "RGBY", []int{0, 1, 2, 3}, 0},
		{rgb, mm.Classic, "rgby", []int{0, 1, 2, 3}, 0},
		{rgb, mm.Classic, "p o, Y r", []int{5, 4, 3, 0}, 0},
		{nil, distinct, "1234", []int{0, 1, 2, 3}, 0},

		{nil, mm.Classic, "112", nil, -1},                    // too short
		{nil, mm.Classic, "11223", nil, -1},                  // too long
		{nil, mm.Classic, "", nil, -1},                       // empty
		{nil, mm.Classic, " , ", nil, -1},                    // separators only
		{nil, mm.Classic, "11!2", nil, 2},                    // unknown symbol
		{nil, mm.Classic, "1 1 ! 2", nil, 4},                 // unknown symbol after separators
		{nil, mm.Classic, "0122", nil, 0},                    // unknown symbol
		{nil, mm.Classic, "1127", nil, -1},                   // colour 7 of 6
		{nil, mm.Classic, "112A", nil, -1},                   // colour 10 of 6
		{nil, distinct, "1123", nil, -1},                     // repeated colour
		{rgb, mm.Classic, "RGBW", nil, 3},                    // W is not in RGBYOP
		{rgb, mm.Rules{Colors: 4, Pegs: 4}, "RGBO", nil, -1}, // O is colour 5 of 4
		{nil, mm.Classic, "1122\n", []int{0, 0, 1, 1}, 0},    // see below
		{nil, mm.Classic, "11\xff2", nil, -2},                // invalid UTF-8
		{nil, mm.Classic, strings.Repeat("1", 40), nil, -2},
	}
	for _, tt := range tests {
		c, err := tt.a.Parse(tt.r, tt.in)
		if tt.in == "1122\n" {
			// A trailing newline is not a separator: reject it, or accept
			// it as 1122, but nothing else.
			if err == nil && c.String() != "1122" {
				t.Errorf("Parse(%q) = %v; want 1122 or an error", tt.in, c)
			}
			continue
		}
		if tt.want != nil {
			if err != nil || !slices.Equal(c.Colors(), tt.want) {
				t.Errorf("Parse(%v, %q) = %v, %v; want %v", tt.r, tt.in, c.Colors(), err, tt.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("Parse(%v, %q) = %v; want an error", tt.r, tt.in, c)
			continue
		}
		if !errors.Is(err, mm.ErrInvalidCode) {
			t.Errorf("Parse(%v, %q) error %v does not wrap ErrInvalidCode", tt.r, tt.in, err)
		}
		gametest.CheckOneLine(t, err)
		var pe *mm.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%v, %q) error %v is not a *ParseError", tt.r, tt.in, err)
			continue
		}
		if pe.Input != tt.in || pe.What != "code" {
			t.Errorf("Parse(%q): ParseError{What: %q, Input: %q}; want code and the input", tt.in, pe.What, pe.Input)
		}
		if tt.pos != -2 && pe.Pos != tt.pos {
			t.Errorf("Parse(%q): ParseError.Pos = %d; want %d", tt.in, pe.Pos, tt.pos)
		}
	}
}

// TestParseUnknownSymbolLists checks that an unknown symbol's error lists
// the variant's symbols, not the whole alphabet: six for six colours.
func TestParseUnknownSymbolLists(t *testing.T) {
	tests := []struct {
		r    mm.Rules
		in   string
		want string
	}{
		{mm.Classic, "12!4", "(symbols: 123456)"},
		{mm.Rules{Colors: 8, Pegs: 5}, "12*45", "(symbols: 12345678)"},
		{mm.Rules{Colors: 2, Pegs: 2}, "1.", "(symbols: 12)"},
	}
	for _, tt := range tests {
		_, err := tt.r.ParseCode(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCode(%v, %q) = %v; want an error with %q", tt.r, tt.in, err, tt.want)
		}
	}
}

// TestParseInvalidRules checks that Parse under rules that do not describe
// a variant does not panic (Rules is a plain struct that callers fill in).
func TestParseInvalidRules(t *testing.T) {
	for _, r := range []mm.Rules{{Colors: -1, Pegs: 4}, {Colors: 6, Pegs: -2}, {Colors: 200, Pegs: 4}} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("ParseCode(%+v, \"1234\") panicked: %v", r, p)
				}
			}()
			r.ParseCode("1234")
		}()
	}
}

func TestAlphabet(t *testing.T) {
	tests := []struct {
		symbols string
		ok      bool
	}{
		{"RGBYOP", true},
		{"RGBYOPWK", true},
		{"aAbB", true},
		{"αβγδ", true},
		{"R", false},       // too few
		{"RGBR", false},    // repeat
		{"RG B", false},    // space
		{"RG,B", false},    // comma
		{"RG\tB", false},   // tab
		{"RG\x00B", false}, // control
		{"RG\xffB", false}, // invalid UTF-8
		{strings.Repeat("x", 2) + "y", false},
		{mm.DefaultSymbols, true},
	}
	for _, tt := range tests {
		a, err := mm.NewAlphabet(tt.symbols)
		if (err == nil) != tt.ok {
			t.Errorf("NewAlphabet(%q) = %v; want ok %v", tt.symbols, err, tt.ok)
			continue
		}
		if err != nil {
			gametest.CheckOneLine(t, err)
			continue
		}
		if a.String() != tt.symbols || a.Len() != len([]rune(tt.symbols)) {
			t.Errorf("NewAlphabet(%q): String() = %q, Len() = %d", tt.symbols, a.String(), a.Len())
		}
	}
	// An alphabet holding both cases of a letter keeps them apart.
	ab := mustAlphabet(t, "aAbB")
	c, err := ab.Parse(mm.Rules{Colors: 4, Pegs: 4}, "aAbB")
	if err != nil || !slices.Equal(c.Colors(), []int{0, 1, 2, 3}) {
		t.Errorf("aAbB.Parse(\"aAbB\") = %v, %v; want [0 1 2 3]", c.Colors(), err)
	}
	var nilAlpha *mm.Alphabet
	if nilAlpha.String() != mm.DefaultSymbols || nilAlpha.Len() != 35 || nilAlpha.Symbol(0) != '1' {
		t.Errorf("nil Alphabet: %q, %d", nilAlpha.String(), nilAlpha.Len())
	}
	if mm.DefaultAlphabet.Symbol(35) != '?' || mm.DefaultAlphabet.Symbol(-1) != '?' {
		t.Errorf("Symbol out of range is not '?'")
	}
	if got := mustAlphabet(t, "RGBYOP").Format(mustCode(t, 0, 5, 2, 7)); got != "RPB?" {
		t.Errorf("Format(0 5 2 7) = %q; want %q", got, "RPB?")
	}
}

func TestNamedAlphabet(t *testing.T) {
	tests := []struct {
		names   []string
		symbols string
	}{
		{[]string{"red", "green", "blue", "yellow", "orange", "purple"}, "RGBYOP"},
		{[]string{"blue", "black", "brown", "white"}, "BLRW"},
		{[]string{"Rot", "Grün", "Blau"}, "RGB"},
		{[]string{"r", "g"}, "RG"},
		{[]string{"aa", "a", "AAA"}, "AB" + "C"},
	}
	for _, tt := range tests {
		a, err := mm.NewNamedAlphabet(tt.names)
		if err != nil {
			t.Errorf("NewNamedAlphabet(%q): %v", tt.names, err)
			continue
		}
		if a.String() != tt.symbols || !a.Named() || a.Name(1) != tt.names[1] || a.Name(len(tt.names)) != "" {
			t.Errorf("NewNamedAlphabet(%q): symbols %q, Name(1) %q; want %q, %q", tt.names, a.String(), a.Name(1), tt.symbols, tt.names[1])
		}
	}
	rgb, err := mm.NewNamedAlphabet([]string{"red", "green", "blue", "yellow", "orange", "purple"})
	if err != nil {
		t.Fatal(err)
	}
	want := mustCode(t, 0, 0, 1, 2)
	for _, in := range []string{"red red green blue", "Red,RED,green,blue", "RRGB", "r r g b"} {
		c, err := rgb.Parse(mm.Classic, in)
		if err != nil || c != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, c, err, want)
		}
	}
	for _, in := range []string{"red red green", "red red green pink", "redd red green blue"} {
		if c, err := rgb.Parse(mm.Classic, in); err == nil {
			t.Errorf("Parse(%q) = %v; want an error", in, c)
		}
	}
	if got := rgb.Format(want); got != "RRGB" {
		t.Errorf("Format = %q; want RRGB", got)
	}
	if mm.DefaultAlphabet.Named() || mm.DefaultAlphabet.Name(0) != "" {
		t.Errorf("the default alphabet has names")
	}
	for _, names := range [][]string{{"red"}, {"red", "Red"}, {"red", ""}, {"red", "dark red"}} {
		if _, err := mm.NewNamedAlphabet(names); err == nil {
			t.Errorf("NewNamedAlphabet(%q) = nil error", names)
		}
	}
	// As many names as colours: every one gets a symbol of its own, and a
	// code reads back from its symbols and from its names.
	var names []string
	for i := range mm.MaxColors {
		names = append(names, fmt.Sprintf("c%d", i+1))
	}
	many, err := mm.NewNamedAlphabet(names)
	if err != nil {
		t.Fatalf("NewNamedAlphabet(%d names): %v", len(names), err)
	}
	r := mm.Rules{Colors: mm.MaxColors, Pegs: 4}
	for _, pegs := range [][]int{{0, 35, 36, 63}, {62, 61, 10, 40}} {
		c := mustCode(t, pegs...)
		var named []string
		for _, k := range pegs {
			named = append(named, many.Name(k))
		}
		for _, in := range []string{many.Format(c), strings.Join(named, " ")} {
			if got, err := many.Parse(r, in); err != nil || got != c {
				t.Errorf("%d names: Parse(%q) = %v, %v; want %v", len(names), in, got, err, c)
			}
		}
	}
}

func TestParseFeedback(t *testing.T) {
	ok := []struct {
		in   string
		pegs int
		want mm.Feedback
	}{
		{"2 1", 4, mm.Feedback{Black: 2, White: 1}},
		{"2,1", 4, mm.Feedback{Black: 2, White: 1}},
		{"2/1", 4, mm.Feedback{Black: 2, White: 1}},
		{"21", 4, mm.Feedback{Black: 2, White: 1}},
		{" 2 1 ", 4, mm.Feedback{Black: 2, White: 1}},
		{"2b1w", 4, mm.Feedback{Black: 2, White: 1}},
		{"1w2b", 4, mm.Feedback{Black: 2, White: 1}},
		{"1w 2b", 4, mm.Feedback{Black: 2, White: 1}},
		{"2B1W", 4, mm.Feedback{Black: 2, White: 1}},
		{"2b", 4, mm.Feedback{Black: 2}},
		{"3w", 4, mm.Feedback{White: 3}},
		{"BBW", 4, mm.Feedback{Black: 2, White: 1}},
		{"bbw", 4, mm.Feedback{Black: 2, White: 1}},
		{"wbb", 4, mm.Feedback{Black: 2, White: 1}},
		{"BBBB", 4, mm.Feedback{Black: 4}},
		{"-", 4, mm.Feedback{}},
		{"0", 4, mm.Feedback{}},
		{"none", 4, mm.Feedback{}},
		{"0 0", 4, mm.Feedback{}},
		{"4 0", 4, mm.Feedback{Black: 4}},
		{"0 4", 4, mm.Feedback{White: 4}},
		{"10 2", 15, mm.Feedback{Black: 10, White: 2}},
		// Two digits together on 10 or more pegs, where they cannot be one count.
		{"21", 10, mm.Feedback{Black: 2, White: 1}},
		{"10 0", 10, mm.Feedback{Black: 10}},
		{"1 0", 10, mm.Feedback{Black: 1}},
		{"10b", 12, mm.Feedback{Black: 10}},
		{"09", 10, mm.Feedback{White: 9}},
		{"10", 9, mm.Feedback{Black: 1}},
		{"1 0", 1, mm.Feedback{Black: 1}},
		// Bulls and Cows.
		{"1A2B", 4, mm.Feedback{Black: 1, White: 2}},
		{"1a2b", 4, mm.Feedback{Black: 1, White: 2}},
		{"0A0B", 4, mm.Feedback{}},
		{"2A", 4, mm.Feedback{Black: 2}},
		{"3B 1A", 4, mm.Feedback{Black: 1, White: 3}},
		{"1 bull 2 cows", 4, mm.Feedback{Black: 1, White: 2}},
		{"2 bulls", 4, mm.Feedback{Black: 2}},
		{"1 cow", 4, mm.Feedback{White: 1}},
	}
	for _, tt := range ok {
		got, err := mm.ParseFeedback(tt.in, tt.pegs)
		if err != nil || got != tt.want {
			t.Errorf("ParseFeedback(%q, %d) = %v, %v; want %v", tt.in, tt.pegs, got, err, tt.want)
		}
	}
	bad := []struct {
		in   string
		pegs int
	}{
		{"", 4},
		{"   ", 4},
		{"x", 4},
		{"2 1 1", 4},
		{"1", 4},
		{"2b2b", 4},
		{"1w1w", 4},
		{"2x", 4},
		{"bx", 4},
		{"b2", 4},
		{"-1 2", 4},
		{"3 1", 4}, // (pegs-1, 1)
		{"31", 4},
		{"BBBW", 4},
		{"5 0", 4},
		{"2 3", 4},
		{"BBBBB", 4},
		{"1 1", 1},
		{"9999 0", 4},
		{"2b1w1b", 4},
		{"1A1A", 4},
		{"1A2W", 4},
		{"3A1B", 4},
		{"1 bull 2 bulls", 4},
		{"A2B", 4},
		// Huge counts must not overflow into a valid-looking feedback.
		{"9223372036854775807b1w", 4},
		{"1b9223372036854775807w", 4},
		{"99999999999999999999b", 4},
	}
	// Two digits together that are also one count of black pegs.
	for _, tt := range []struct {
		in   string
		pegs int
	}{{"10", 10}, {"11", 12}, {" 12 ", 20}, {"20", 20}} {
		got, err := mm.ParseFeedback(tt.in, tt.pegs)
		if !errors.Is(err, mm.ErrAmbiguousFeedback) || !errors.Is(err, mm.ErrInvalidFeedback) || !strings.Contains(err.Error(), " black, or ") {
			t.Errorf("ParseFeedback(%q, %d) = %v, %v; want it refused as ambiguous", tt.in, tt.pegs, got, err)
		}
	}
	for _, tt := range bad {
		got, err := mm.ParseFeedback(tt.in, tt.pegs)
		if err == nil {
			t.Errorf("ParseFeedback(%q, %d) = %+v, nil; want an error", tt.in, tt.pegs, got)
			continue
		}
		if !errors.Is(err, mm.ErrInvalidFeedback) {
			t.Errorf("ParseFeedback(%q, %d) error %v does not wrap ErrInvalidFeedback", tt.in, tt.pegs, err)
		}
		gametest.CheckOneLine(t, err)
	}
}

func ExampleAlphabet_Parse() {
	a, err := mm.NewAlphabet("RGBYOP")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []string{"RRGG", "r, g, b, y", "RGBW"} {
		c, err := a.Parse(mm.Classic, s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(a.Format(c), c)
	}
	// Output:
	// RRGG 1122
	// RGBY 1234
	// mastermind: code "RGBW": unknown symbol 'W' (symbols: RGBYOP) at position 4
}

// TestParseSizeAsCode checks that a size typed where a code belongs, such
// as "11x2", is called a size with what a code needs, not an unknown or
// out-of-range colour; a code that happens to read so stays a code.
func TestParseSizeAsCode(t *testing.T) {
	for _, tt := range []struct {
		in   string
		r    mm.Rules
		want string
	}{
		{"11x2", mm.Classic, "looks like a size, colours x pegs, not a code: want 4 pegs of 123456"},
		{"8x5", mm.Classic, "looks like a size"},
		{"8 × 5", mm.Classic, "looks like a size"},
		{"11X2", mm.Rules{Colors: 8, Pegs: 5}, "want 5 pegs of 12345678"},
	} {
		_, err := mm.DefaultAlphabet.Parse(tt.r, tt.in)
		var pe *mm.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, mm.ErrInvalidCode) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "colour 3") {
			t.Errorf("Parse(%v, %q) = %v; want a ParseError with %q", tt.r, tt.in, err, tt.want)
		}
	}
	if c, err := mm.DefaultAlphabet.Parse(mm.Rules{Colors: 36, Pegs: 4}, "11x2"); err != nil || mm.DefaultAlphabet.Format(c) != "11X2" {
		t.Errorf("Parse(36 x 4, 11x2) = %v, %v; want the code 11X2", c, err)
	}
}
