package mastermind_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	mm "github.com/mastermind-toolkit/mastermind"
)

// FuzzScore decodes two codes from bytes and checks Score against the
// reference scorer and its algebra; on small variants it checks the packed
// path too. Byte 0 chooses the colours (2 to 20), byte 1 the pegs (1 to 8),
// and the rest the pegs of the two codes.
func FuzzScore(f *testing.F) {
	f.Add([]byte{4, 3, 0, 0, 1, 1, 1, 1, 0, 0})           // 1122 against 2211 on 6x4
	f.Add([]byte{4, 3, 2, 5, 2, 1, 0, 0, 1, 1})           // 3632 against 1122
	f.Add([]byte{18, 7, 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5}) // 20 colours, 8 pegs
	f.Add([]byte{0, 0, 1, 1})
	f.Add([]byte{})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		at := func(i int) int {
			if i < len(data) {
				return int(data[i])
			}
			return 0
		}
		r := mm.Rules{Colors: 2 + at(0)%19, Pegs: 1 + at(1)%8}
		a, b := make([]int, r.Pegs), make([]int, r.Pegs)
		for i := range a {
			a[i] = at(2+i) % r.Colors
			b[i] = at(2+r.Pegs+i) % r.Colors
		}
		ca, cb := mustCode(t, a...), mustCode(t, b...)
		got := mm.Score(ca, cb)
		if want := refScore(a, b); got != want {
			t.Fatalf("Score(%v, %v) = %v; want %v", a, b, got, want)
		}
		if back := mm.Score(cb, ca); back != got {
			t.Fatalf("Score(%v, %v) = %v but Score(%v, %v) = %v", a, b, got, b, a, back)
		}
		p := r.Pegs
		if got.Black < 0 || got.White < 0 || got.Black+got.White > p || (got.Black == p-1 && got.White == 1) {
			t.Fatalf("Score(%v, %v) = %v: impossible for %d pegs", a, b, got, p)
		}
		if (got.Black == p) != (ca == cb) {
			t.Fatalf("Score(%v, %v) = %v; all black exactly when equal", a, b, got)
		}
		if err := r.CheckFeedback(got); err != nil {
			t.Fatalf("CheckFeedback(Score(%v, %v) = %v) = %v", a, b, got, err)
		}
		if r.Size() <= 4096 {
			sp := mustSpace(t, r)
			i, _ := sp.Index(ca)
			j, _ := sp.Index(cb)
			if s := sp.Score(i, j); s != got {
				t.Fatalf("Space.Score(%v, %v) = %v; want %v", a, b, s, got)
			}
		}
	})
}

// fuzzAlphabets are the alphabets FuzzParseCode picks from.
var fuzzAlphabets = []string{mm.DefaultSymbols, "RGBYOP", "RGBYOPWK", "aAbBcC", "αβγδεζ", "0123456789"}

// FuzzParseCode checks that Parse never panics, that its errors wrap
// ErrInvalidCode in one line, and that a parsed code is legal and survives
// Format then Parse.
func FuzzParseCode(f *testing.F) {
	f.Add("1122", uint8(0), uint8(6), uint8(4), false)
	f.Add("1 1,2 2", uint8(0), uint8(6), uint8(4), false)
	f.Add("rgby", uint8(1), uint8(6), uint8(4), false)
	f.Add("RRGG", uint8(1), uint8(6), uint8(4), true)
	f.Add("aAbB", uint8(3), uint8(6), uint8(4), false)
	f.Add("αβγδ", uint8(4), uint8(6), uint8(4), true)
	f.Add("1127", uint8(0), uint8(6), uint8(4), false)
	f.Add("11\xff2", uint8(0), uint8(6), uint8(4), false)
	f.Add("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ", uint8(0), uint8(35), uint8(32), false)
	f.Fuzz(func(t *testing.T, s string, alpha, colors, pegs uint8, distinct bool) {
		a := mustAlphabet(t, fuzzAlphabets[int(alpha)%len(fuzzAlphabets)])
		r := mm.Rules{Colors: 2 + int(colors)%(a.Len()-1), Pegs: 1 + int(pegs)%mm.MaxPegs, Distinct: distinct}
		if r.Validate() != nil {
			r.Distinct = false
		}
		c, err := a.Parse(r, s)
		if err != nil {
			if !errors.Is(err, mm.ErrInvalidCode) {
				t.Fatalf("Parse(%v, %q) error %v does not wrap ErrInvalidCode", r, s, err)
			}
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("Parse(%v, %q) error %q is not one line", r, s, err)
			}
			return
		}
		if err := r.Check(c); err != nil {
			t.Fatalf("Parse(%v, %q) = %v, which Check rejects: %v", r, s, c, err)
		}
		text := a.Format(c)
		if utf8.RuneCountInString(text) != r.Pegs {
			t.Fatalf("Format(%v) = %q; want %d symbols", c, text, r.Pegs)
		}
		back, err := a.Parse(r, text)
		if err != nil || back != c {
			t.Fatalf("Parse(Format(%v) = %q) = %v, %v; want %v", c, text, back, err, c)
		}
		if a.String() == mm.DefaultSymbols {
			if c2, err := r.ParseCode(c.String()); err != nil || c2 != c {
				t.Fatalf("ParseCode(%q) = %v, %v; want %v", c.String(), c2, err, c)
			}
		}
	})
}

// FuzzParseFeedback checks that ParseFeedback never panics and accepts only
// possible feedbacks.
func FuzzParseFeedback(f *testing.F) {
	for _, s := range []string{"2 1", "2,1", "21", "2b1w", "1w2b", "BBW", "-", "none", "3 1", "2b2b", "", "x", "10 2"} {
		f.Add(s, uint8(4))
	}
	f.Add("10 2", uint8(15))
	f.Fuzz(func(t *testing.T, s string, pegs uint8) {
		p := 1 + int(pegs)%mm.MaxPegs
		fb, err := mm.ParseFeedback(s, p)
		if err != nil {
			if !errors.Is(err, mm.ErrInvalidFeedback) {
				t.Fatalf("ParseFeedback(%q, %d) error %v does not wrap ErrInvalidFeedback", s, p, err)
			}
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("ParseFeedback(%q, %d) error %q is not one line", s, p, err)
			}
			return
		}
		if fb.Black < 0 || fb.White < 0 || fb.Black > p || fb.White > p || fb.Black+fb.White > p {
			t.Fatalf("ParseFeedback(%q, %d) = %+v; want black+white <= %d", s, p, fb, p)
		}
		if fb.Black == p-1 && fb.White == 1 {
			t.Fatalf("ParseFeedback(%q, %d) = %+v, which cannot happen", s, p, fb)
		}
		// The printed form reads back the same.
		if back, err := mm.ParseFeedback(fb.String(), p); err != nil || back != fb {
			t.Fatalf("ParseFeedback(%q) = %v, %v; want %v", fb.String(), back, err, fb)
		}
	})
}
