package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A size names a variant by its numbers, as optima and the records do:
// COLORSxPEGS, such as 8x5, with -distinct for codes of different colours,
// such as 10x4-distinct. --rules takes one wherever it takes a game's name.
// "×" may stand for "x", and "d" or "-d" for "-distinct".

// sizeExample is how help and errors show a size.
const sizeExample = "a size such as 8x5 or 10x4-distinct"

// parseSize reads a size. ok is false when s is not written as one, and err
// is set when it is but names no variant.
func parseSize(s string) (p preset, ok bool, err error) {
	name := strings.ToLower(strings.TrimSpace(s))
	name = strings.ReplaceAll(name, "×", "x")
	cols, pegs, found := strings.Cut(name, "x")
	if !found || !isDigits(cols) {
		return preset{}, false, nil
	}
	distinct := false
	for _, suffix := range []string{"-distinct", "-d", "d"} {
		if rest, cut := strings.CutSuffix(pegs, suffix); cut {
			pegs, distinct = rest, true
			break
		}
	}
	if !isDigits(pegs) {
		return preset{}, true, fmt.Errorf("--rules %q: want a game (%s) or %s", s, presetNames(), sizeExample)
	}
	c, errC := strconv.Atoi(cols)
	n, errP := strconv.Atoi(pegs)
	switch {
	case errC != nil || c < 2 || c > mm.MaxColors:
		return preset{}, true, fmt.Errorf("--rules %q: %s colours; want 2 to %d", s, cols, mm.MaxColors)
	case errP != nil || n < 1 || n > mm.MaxPegs:
		return preset{}, true, fmt.Errorf("--rules %q: %s pegs; want 1 to %d", s, pegs, mm.MaxPegs)
	case distinct && n > c:
		return preset{}, true, fmt.Errorf("--rules %q: %d pegs of different colours need at least %d colours, not %d", s, n, n, c)
	}
	r := mm.Rules{Colors: c, Pegs: n, Distinct: distinct}
	return preset{name: sizeName(r), rules: r}, true, nil
}

// sizeName writes r as a size: 8x5, 10x4-distinct.
func sizeName(r mm.Rules) string {
	s := strconv.Itoa(r.Colors) + "x" + strconv.Itoa(r.Pegs)
	if r.Distinct {
		s += "-distinct"
	}
	return s
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// completeRules completes --rules: the games' names, and sizes once a
// number is typed (8 offers 8x3 to 8x6, 8x5 offers 8x5-distinct too).
func completeRules(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	const directive = cobra.ShellCompDirectiveNoFileComp
	typed := strings.ToLower(toComplete)
	var out []string
	for _, p := range presets {
		if strings.HasPrefix(p.name, typed) {
			out = append(out, p.name+"\t"+p.doc)
		}
	}
	cols, pegs, hasX := strings.Cut(typed, "x")
	if !isDigits(cols) {
		return out, directive
	}
	c, err := strconv.Atoi(cols)
	if err != nil || c < 2 || c > mm.MaxColors {
		return out, directive
	}
	offer := func(r mm.Rules) {
		name := sizeName(r)
		if !strings.HasPrefix(name, typed) {
			return
		}
		doc := describeRules(r) + ", " + codesText(r)
		out = append(out, name+"\t"+doc)
	}
	if !hasX || pegs == "" {
		for n := 3; n <= 6; n++ {
			offer(mm.Rules{Colors: c, Pegs: n})
		}
		return out, directive
	}
	digits := strings.TrimRightFunc(pegs, func(r rune) bool { return r < '0' || r > '9' })
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > mm.MaxPegs {
		return out, directive
	}
	offer(mm.Rules{Colors: c, Pegs: n})
	if n <= c {
		offer(mm.Rules{Colors: c, Pegs: n, Distinct: true})
	}
	return out, directive
}

// codesText writes the number of codes of r: "32768 codes", or its order
// of magnitude past 10^15.
func codesText(r mm.Rules) string {
	if r.Log10Size() < 15 {
		return strconv.FormatUint(r.Size(), 10) + " codes"
	}
	return fmt.Sprintf("about 10^%.1f codes", r.Log10Size())
}
