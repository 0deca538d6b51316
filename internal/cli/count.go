package cli

import (
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// countValue is a flag of a number of things, such as games: a whole
// number written plainly (1000000), with underscores (1_000_000) or in
// powers of ten (1e6).
type countValue int

var _ pflag.Value = (*countValue)(nil)

// countVar defines a count flag on f.
func countVar(f *pflag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	f.Var((*countValue)(p), name, usage)
}

func (c *countValue) String() string { return strconv.Itoa(int(*c)) }

// Type is "int", so that errors say "a whole number" as for other
// numbers.
func (c *countValue) Type() string { return "int" }

// Set reads s, which must stand for a whole number.
func (c *countValue) Set(s string) error {
	t := strings.ReplaceAll(s, "_", "")
	n, err := strconv.ParseInt(t, 10, strconv.IntSize)
	if err == nil {
		*c = countValue(n)
		return nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return err
	}
	if !strings.ContainsAny(t, "eE") {
		return err
	}
	f, ferr := strconv.ParseFloat(t, 64)
	if ferr != nil || f != math.Trunc(f) {
		return err
	}
	if math.Abs(f) > math.MaxInt64/2 {
		return &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrRange}
	}
	*c = countValue(int(f))
	return nil
}
