package mastermind_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

var spaceRules = []mm.Rules{
	{}, // classic
	{Colors: 6, Pegs: 4},
	{Colors: 3, Pegs: 3},
	{Colors: 2, Pegs: 5},
	{Colors: 5, Pegs: 3, Distinct: true},
	{Colors: 10, Pegs: 4, Distinct: true},
	{Colors: 7, Pegs: 4, Distinct: true},
	{Colors: 6, Pegs: 6, Distinct: true},
	{Colors: 4, Pegs: 1},
	{Colors: 8, Pegs: 5},
	{Colors: 35, Pegs: 2},
	{Colors: 64, Pegs: 2, Distinct: true},
}

// TestSpaceEnumeration checks that a space lists every code once, in
// lexicographic order, and that Index inverts Code.
func TestSpaceEnumeration(t *testing.T) {
	for _, r := range spaceRules {
		t.Run(r.String(), func(t *testing.T) {
			sp := mustSpace(t, r)
			want := enumerate(r)
			if sp.Len() != len(want) {
				t.Fatalf("Len() = %d; want %d", sp.Len(), len(want))
			}
			if got := r.Size(); got != uint64(len(want)) {
				t.Errorf("Size() = %d; want %d", got, len(want))
			}
			if got := sp.All().Len(); got != sp.Len() {
				t.Errorf("All().Len() = %d; want %d", got, sp.Len())
			}
			if sp.Rules() != r.WithDefaults() {
				t.Errorf("Rules() = %+v; want %+v", sp.Rules(), r.WithDefaults())
			}
			for i, x := range want {
				c := sp.Code(i)
				if !slices.Equal(c.Colors(), x) {
					t.Fatalf("Code(%d) = %v; want %v", i, c.Colors(), x)
				}
				if err := r.Check(c); err != nil {
					t.Fatalf("Check(Code(%d)) = %v", i, err)
				}
				if j, ok := sp.Index(c); !ok || j != i {
					t.Fatalf("Index(Code(%d) = %v) = %d, %v; want %d, true", i, c, j, ok, i)
				}
				if i > 0 && sp.Code(i-1).Compare(c) >= 0 {
					t.Fatalf("Code(%d) = %v is not after Code(%d) = %v", i, c, i-1, sp.Code(i-1))
				}
				if got := sp.All().Index(i); got != i {
					t.Fatalf("All().Index(%d) = %d", i, got)
				}
			}
			if !slices.Equal(sp.All().Codes(), codesOf(t, want)) {
				t.Errorf("All().Codes() differs from the enumeration")
			}
			// The same Space comes back for the same rules.
			if sp2 := mustSpace(t, r.WithDefaults()); sp2.Len() != sp.Len() || sp2.Code(sp.Len()-1) != sp.Code(sp.Len()-1) {
				t.Errorf("SpaceOf(%v) twice gives different spaces", r)
			}
		})
	}
}

func codesOf(t *testing.T, xs [][]int) []mm.Code {
	out := make([]mm.Code, len(xs))
	for i, x := range xs {
		out[i] = mustCode(t, x...)
	}
	return out
}

func TestSpaceIndexRejects(t *testing.T) {
	tests := []struct {
		r mm.Rules
		c []int
	}{
		{mm.Classic, []int{0, 0, 0}},
		{mm.Classic, []int{0, 0, 0, 0, 0}},
		{mm.Classic, []int{0, 0, 0, 6}},
		{mm.Rules{Colors: 5, Pegs: 3, Distinct: true}, []int{0, 1, 1}},
		{mm.Rules{Colors: 5, Pegs: 3, Distinct: true}, []int{0, 1, 5}},
	}
	for _, tt := range tests {
		sp := mustSpace(t, tt.r)
		c := mustCode(t, tt.c...)
		if i, ok := sp.Index(c); ok {
			t.Errorf("%v Index(%v) = %d, true; want false", tt.r, tt.c, i)
		}
		if sp.All().Contains(c) {
			t.Errorf("%v All().Contains(%v) = true; want false", tt.r, tt.c)
		}
	}
}

func TestSpaceOfErrors(t *testing.T) {
	tests := []struct {
		r    mm.Rules
		want error
	}{
		{mm.Rules{Colors: 20, Pegs: 6}, mm.ErrTooLarge},
		{mm.Rules{Colors: 2, Pegs: 25}, mm.ErrTooLarge},
		{mm.Rules{Colors: 64, Pegs: 5, Distinct: true}, mm.ErrTooLarge},
		{mm.Rules{Colors: 35, Pegs: 32}, mm.ErrTooLarge},
		{mm.Rules{Colors: 1, Pegs: 4}, mm.ErrInvalidRules},
		{mm.Rules{Colors: -3, Pegs: 4}, mm.ErrInvalidRules},
		{mm.Rules{Colors: 65, Pegs: 4}, mm.ErrInvalidRules},
		{mm.Rules{Colors: 6, Pegs: -1}, mm.ErrInvalidRules},
		{mm.Rules{Colors: 6, Pegs: 101}, mm.ErrInvalidRules},
		{mm.Rules{Colors: 3, Pegs: 4, Distinct: true}, mm.ErrInvalidRules},
	}
	for _, tt := range tests {
		sp, err := mm.SpaceOf(tt.r)
		if !errors.Is(err, tt.want) || sp != nil {
			t.Errorf("SpaceOf(%+v) = %v, %v; want nil, %v", tt.r, sp, err, tt.want)
			continue
		}
		gametest.CheckOneLine(t, err)
		if errors.Is(tt.want, mm.ErrInvalidRules) {
			if err := tt.r.Validate(); !errors.Is(err, mm.ErrInvalidRules) {
				t.Errorf("%+v.Validate() = %v; want ErrInvalidRules", tt.r, err)
			}
		}
	}
	// The largest space is allowed, if not built here: 2^24 codes.
	if err := (mm.Rules{Colors: 2, Pegs: 24}).Validate(); err != nil {
		t.Errorf("Rules{2, 24}.Validate() = %v", err)
	}
	if n := (mm.Rules{Colors: 2, Pegs: 24}).Size(); n != mm.MaxSpace {
		t.Errorf("Rules{2, 24}.Size() = %d; want MaxSpace = %d", n, mm.MaxSpace)
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		r     mm.Rules
		str   string
		size  uint64
		valid bool
	}{
		{mm.Rules{}, "6x4", 1296, true},
		{mm.Classic, "6x4", 1296, true},
		{mm.Rules{Colors: 10, Pegs: 4, Distinct: true}, "10x4 distinct", 5040, true},
		{mm.Rules{Colors: 8, Pegs: 5}, "8x5", 32768, true},
		{mm.Rules{Pegs: 5}, "6x5", 7776, true},
		{mm.Rules{Colors: 3}, "3x4", 81, true},
		{mm.Rules{Colors: 64, Pegs: 32}, "64x32", math.MaxUint64, true},
		{mm.Rules{Colors: 2, Pegs: 3, Distinct: true}, "2x3 distinct", 0, false},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.str {
			t.Errorf("%#v.String() = %q; want %q", tt.r, got, tt.str)
		}
		if got := tt.r.Size(); got != tt.size {
			t.Errorf("%v.Size() = %d; want %d", tt.r, got, tt.size)
		}
		if err := tt.r.Validate(); (err == nil) != tt.valid {
			t.Errorf("%v.Validate() = %v; want valid %v", tt.r, err, tt.valid)
		}
		if tt.size != 0 && tt.size != math.MaxUint64 {
			if got, want := tt.r.Log10Size(), math.Log10(float64(tt.size)); math.Abs(got-want) > 1e-9 {
				t.Errorf("%v.Log10Size() = %v; want %v", tt.r, got, want)
			}
		}
	}
	if got := (mm.Rules{Colors: 64, Pegs: 32}).Log10Size(); math.Abs(got-32*math.Log10(64)) > 1e-9 {
		t.Errorf("64x32 Log10Size() = %v; want %v", got, 32*math.Log10(64))
	}
	if (mm.Rules{}).WithDefaults() != mm.Classic {
		t.Errorf("Rules{}.WithDefaults() = %+v; want %+v", (mm.Rules{}).WithDefaults(), mm.Classic)
	}
}

func TestRulesCheck(t *testing.T) {
	tests := []struct {
		r  mm.Rules
		c  []int
		ok bool
	}{
		{mm.Classic, []int{0, 0, 1, 1}, true},
		{mm.Classic, []int{5, 5, 5, 5}, true},
		{mm.Classic, []int{0, 0, 1}, false},
		{mm.Classic, []int{0, 0, 1, 1, 1}, false},
		{mm.Classic, []int{0, 0, 1, 6}, false},
		{mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, []int{0, 1, 2, 3}, true},
		{mm.Rules{Colors: 6, Pegs: 4, Distinct: true}, []int{0, 1, 2, 0}, false},
		{mm.Rules{Colors: 64, Pegs: 2, Distinct: true}, []int{63, 62}, true},
		{mm.Rules{Colors: 64, Pegs: 2, Distinct: true}, []int{63, 63}, false},
	}
	for _, tt := range tests {
		err := tt.r.Check(mustCode(t, tt.c...))
		if tt.ok && err != nil {
			t.Errorf("%v.Check(%v) = %v; want nil", tt.r, tt.c, err)
		}
		if !tt.ok {
			if !errors.Is(err, mm.ErrInvalidCode) {
				t.Errorf("%v.Check(%v) = %v; want ErrInvalidCode", tt.r, tt.c, err)
			} else {
				gametest.CheckOneLine(t, err)
			}
		}
	}
}

func TestCode(t *testing.T) {
	c := mustCode(t, 0, 0, 1, 1)
	if c.Len() != 4 || c.Peg(2) != 1 || c.String() != "1122" {
		t.Errorf("NewCode(0, 0, 1, 1) = %v (len %d, peg 2 = %d); want 1122", c, c.Len(), c.Peg(2))
	}
	if _, err := mm.NewCode(make([]int, mm.MaxPegs+1)...); !errors.Is(err, mm.ErrInvalidCode) {
		t.Errorf("NewCode of %d pegs: %v; want ErrInvalidCode", mm.MaxPegs+1, err)
	}
	for _, k := range []int{-1, mm.MaxColors} {
		if _, err := mm.NewCode(0, k); !errors.Is(err, mm.ErrInvalidCode) {
			t.Errorf("NewCode(0, %d): %v; want ErrInvalidCode", k, err)
		}
	}
	if (mm.Code{}).Len() != 0 {
		t.Errorf("zero Code has %d pegs", (mm.Code{}).Len())
	}
	cmp := []struct {
		a, b []int
		want int
	}{
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 1}, 0},
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 2}, -1},
		{[]int{0, 1}, []int{0, 0, 5}, 1},
		{[]int{0, 0}, []int{0, 0, 0}, -1},
		{[]int{5}, []int{0, 0}, 1},
	}
	for _, tt := range cmp {
		if got := mustCode(t, tt.a...).Compare(mustCode(t, tt.b...)); got != tt.want {
			t.Errorf("Compare(%v, %v) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
	// Colors returns a copy.
	cs := c.Colors()
	cs[0] = 5
	if c.Peg(0) != 0 {
		t.Errorf("modifying Colors() changed the code")
	}
	// Text round trip.
	b, err := c.MarshalText()
	if err != nil || string(b) != "1122" {
		t.Errorf("MarshalText(1122) = %q, %v", b, err)
	}
	var d mm.Code
	if err := d.UnmarshalText([]byte("3632")); err != nil || d.String() != "3632" {
		t.Errorf("UnmarshalText(3632) = %v, %v", d, err)
	}
	if err := d.UnmarshalText([]byte("")); !errors.Is(err, mm.ErrInvalidCode) {
		t.Errorf("UnmarshalText(\"\") = %v; want ErrInvalidCode", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Peg(4) of a 4-peg code did not panic")
			}
		}()
		c.Peg(4)
	}()
}

// TestCodeAt checks that Rules.CodeAt lists every code in the order of the
// space, with and without repeated colours, and refuses an index past the
// last.
func TestCodeAt(t *testing.T) {
	for _, r := range []mm.Rules{
		{Colors: 6, Pegs: 4}, {Colors: 3, Pegs: 5}, {Colors: 10, Pegs: 4, Distinct: true},
		{Colors: 7, Pegs: 3, Distinct: true}, {Colors: 5, Pegs: 5, Distinct: true}, {Colors: 2, Pegs: 1},
	} {
		sp, err := mm.SpaceOf(r)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < sp.Len(); i++ {
			c, err := r.CodeAt(uint64(i))
			if err != nil || c != sp.Code(i) {
				t.Fatalf("%v: CodeAt(%d) = %v, %v; want %v", r, i, c, err, sp.Code(i))
			}
		}
		if c, err := r.CodeAt(uint64(sp.Len())); !errors.Is(err, mm.ErrInvalidCode) {
			t.Errorf("%v: CodeAt(%d), past the last code, = %v, %v; want ErrInvalidCode", r, sp.Len(), c, err)
		}
	}
	// Far past what a space may hold: the last code of 16 × 15.
	big := mm.Rules{Colors: 16, Pegs: 15}
	last, err := big.CodeAt(big.Size() - 1)
	if want := strings.Repeat("G", 15); err != nil || last.String() != want {
		t.Errorf("%v: the last code = %v, %v; want %s", big, last, err, want)
	}
}
