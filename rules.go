package mastermind

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Limits on the size of a variant.
const (
	MaxPegs   = 100 // most pegs in a code (TopCoder's largest, 100 × 20)
	MaxColors = 64  // most colours, whatever the alphabet

	DefaultColors = 6 // colours of classic Mastermind
	DefaultPegs   = 4 // pegs of classic Mastermind
)

// Rules describe a variant of the game: codes of Pegs pegs, each one of
// Colors colours, with or without repeated colours.
//
// The zero Rules is classic Mastermind, 6 colours and 4 pegs with repeats:
// a zero Colors or Pegs stands for its classic value. Methods apply these
// defaults, so Rules{} and Rules{Colors: 6, Pegs: 4} behave alike.
type Rules struct {
	Colors   int  // colours per peg, 2 to MaxColors
	Pegs     int  // pegs per code, 1 to MaxPegs
	Distinct bool // codes may not repeat a colour (as in Bulls and Cows)
}

// Classic is the rules of classic Mastermind: 6 colours, 4 pegs, repeats
// allowed.
var Classic = Rules{Colors: DefaultColors, Pegs: DefaultPegs}

// WithDefaults returns r with zero fields replaced by their classic values.
func (r Rules) WithDefaults() Rules {
	if r.Colors == 0 {
		r.Colors = DefaultColors
	}
	if r.Pegs == 0 {
		r.Pegs = DefaultPegs
	}
	return r
}

// Validate reports whether r describes a playable variant. The error wraps
// ErrInvalidRules.
func (r Rules) Validate() error {
	r = r.WithDefaults()
	switch {
	case r.Colors < 2 || r.Colors > MaxColors:
		return fmt.Errorf("%w: %d colours; want 2 to %d", ErrInvalidRules, r.Colors, MaxColors)
	case r.Pegs < 1 || r.Pegs > MaxPegs:
		return fmt.Errorf("%w: %d pegs; want 1 to %d", ErrInvalidRules, r.Pegs, MaxPegs)
	case r.Distinct && r.Pegs > r.Colors:
		return fmt.Errorf("%w: %d pegs of distinct colours need at least %d colours, not %d",
			ErrInvalidRules, r.Pegs, r.Pegs, r.Colors)
	}
	return nil
}

// String returns a short description such as "6x4" or "10x4 distinct":
// colours, then pegs.
func (r Rules) String() string {
	r = r.WithDefaults()
	s := strconv.Itoa(r.Colors) + "x" + strconv.Itoa(r.Pegs)
	if r.Distinct {
		s += " distinct"
	}
	return s
}

// Size returns the number of codes the rules allow, or math.MaxUint64 if
// that number does not fit.
func (r Rules) Size() uint64 {
	r = r.WithDefaults()
	n := uint64(1)
	for i := 0; i < r.Pegs; i++ {
		f := uint64(r.Colors)
		if r.Distinct {
			f -= uint64(i)
		}
		if f != 0 && n > math.MaxUint64/f {
			return math.MaxUint64
		}
		n *= f
	}
	return n
}

// Log10Size returns log₁₀ of the number of codes; it does not overflow.
func (r Rules) Log10Size() float64 {
	r = r.WithDefaults()
	s := 0.0
	for i := 0; i < r.Pegs; i++ {
		f := r.Colors
		if r.Distinct {
			f -= i
		}
		s += math.Log10(float64(f))
	}
	return s
}

// NumFeedbacks returns the number of feedbacks a guess can receive in
// general, (p+1)(p+2)/2 − 1 for p pegs: every (black, white) with
// black+white ≤ p except (p−1, 1). Particular variants may rule out more.
func (r Rules) NumFeedbacks() int {
	p := r.WithDefaults().Pegs
	return (p+1)*(p+2)/2 - 1
}

// Feedbacks returns every feedback counted by NumFeedbacks, in (black,
// white) order.
func (r Rules) Feedbacks() []Feedback {
	p := r.WithDefaults().Pegs
	fs := make([]Feedback, 0, r.NumFeedbacks())
	for b := 0; b <= p; b++ {
		for w := 0; b+w <= p; w++ {
			if b == p-1 && w == 1 {
				continue
			}
			fs = append(fs, Feedback{Black: b, White: w})
		}
	}
	return fs
}

// CheckFeedback reports whether a guess could ever receive f under r: black
// and white are not negative, they sum to at most the number of pegs,
// (pegs−1, 1) is impossible, and with distinct colours at least 2·pegs −
// colours pegs must match in colour. The error wraps ErrInvalidFeedback.
func (r Rules) CheckFeedback(f Feedback) error {
	r = r.WithDefaults()
	p := r.Pegs
	switch {
	case f.Black < 0 || f.White < 0:
		return fmt.Errorf("%w: %s has a negative count", ErrInvalidFeedback, f)
	case f.Black > p || f.White > p || f.Black+f.White > p:
		return fmt.Errorf("%w: %s is %d pegs, more than the %d in a code", ErrInvalidFeedback, f, f.Black+f.White, p)
	case f.Black == p-1 && f.White == 1:
		return fmt.Errorf("%w: %s cannot happen: if all pegs but one are right, the last cannot be the right colour in the wrong place", ErrInvalidFeedback, f)
	case r.Distinct && f.Black+f.White < 2*p-r.Colors:
		return fmt.Errorf("%w: %s cannot happen: two codes of %d distinct colours out of %d share at least %d colours",
			ErrInvalidFeedback, f, p, r.Colors, 2*p-r.Colors)
	}
	return nil
}

// Check reports whether c is a legal code under r: the right number of pegs,
// colours in range, and no repeats if r.Distinct. The error wraps
// ErrInvalidCode.
func (r Rules) Check(c Code) error {
	r = r.WithDefaults()
	if c.Len() != r.Pegs {
		return fmt.Errorf("%w: %s has %d pegs; want %d", ErrInvalidCode, c, c.Len(), r.Pegs)
	}
	var seen uint64
	for i := 0; i < c.Len(); i++ {
		k := c.Peg(i)
		if k >= r.Colors {
			return fmt.Errorf("%w: %s uses colour %d, but there are only %d", ErrInvalidCode, c, k+1, r.Colors)
		}
		if r.Distinct && seen&(1<<k) != 0 {
			return fmt.Errorf("%w: %s repeats a colour, which the rules forbid", ErrInvalidCode, c)
		}
		seen |= 1 << k
	}
	return nil
}

// NumOpenings returns the number of codes Openings returns, without
// listing them: the partitions of the pegs into at most Colors parts, or 1
// with distinct colours. It grows fast with the pegs: 627 on 20 × 20,
// about 10⁸ on 100 × 20. It costs O(Pegs·Colors).
func (r Rules) NumOpenings() uint64 {
	r = r.WithDefaults()
	if r.Distinct {
		return 1
	}
	// ways[n] counts the partitions of n into parts of at most k pegs,
	// for k = 1, 2, …, Colors; by conjugation, as many as into at most
	// Colors parts.
	ways := make([]uint64, r.Pegs+1)
	ways[0] = 1
	for k := 1; k <= min(r.Colors, r.Pegs); k++ {
		for n := k; n <= r.Pegs; n++ {
			ways[n] += ways[n-k]
		}
	}
	return ways[r.Pegs]
}

// Openings returns one first guess of each class of codes that renaming
// colours and permuting positions map onto each other — first guesses in
// one class lead to the same results, so only one needs trying. Each is the
// lowest of its class: colour 1 repeated n₁ times, then colour 2 n₂ times,
// and so on with n₁ ≥ n₂ ≥ …, one code per partition of the pegs into at
// most Colors parts (1111, 1112, 1122, 1123, 1234 on classic Mastermind).
// With distinct colours there is one class.
func (r Rules) Openings() []Code {
	r = r.WithDefaults()
	if r.Distinct {
		colors := make([]int, r.Pegs)
		for i := range colors {
			colors[i] = i
		}
		c, _ := NewCode(colors...)
		return []Code{c}
	}
	var out []Code
	parts := make([]int, 0, r.Pegs)
	var walk func(left, most int)
	walk = func(left, most int) {
		if left == 0 {
			var colors []int
			for k, n := range parts {
				for range n {
					colors = append(colors, k)
				}
			}
			c, _ := NewCode(colors...)
			out = append(out, c)
			return
		}
		if len(parts) == r.Colors {
			return
		}
		for n := min(left, most); n >= 1; n-- {
			parts = append(parts, n)
			walk(left-n, n)
			parts = parts[:len(parts)-1]
		}
	}
	walk(r.Pegs, r.Pegs)
	slices.SortFunc(out, Code.Compare)
	return out
}
