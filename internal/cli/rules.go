package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A preset is a published game, named by --rules.
type preset struct {
	name     string
	rules    mm.Rules
	alphabet string // "" for the default symbols
	doc      string
}

// presets are the games --rules names, the default first.
var presets = []preset{
	{"classic", mm.Rules{Colors: 6, Pegs: 4}, "", "Mastermind (Meirowitz, 1970): 6 colours, 4 pegs, repeats allowed"},
	{"super", mm.Rules{Colors: 8, Pegs: 5}, "", "Super Mastermind (also Deluxe or Advanced): 8 colours, 5 pegs"},
	{"logik", mm.Rules{Colors: 8, Pegs: 5}, "", "Logik, the Czechoslovak Mastermind: 8 colours, 5 pegs"},
	{"grand", mm.Rules{Colors: 25, Pegs: 4}, "", "Grand Mastermind: 25 pegs (5 shapes in 5 colours), 4 places"},
	{"bulls-cows", mm.Rules{Colors: 10, Pegs: 4, Distinct: true}, "0123456789",
		"Bulls and Cows: 4 different digits 0-9; answers may be written 1A2B (bulls, cows)"},
	{"bagels", mm.Rules{Colors: 10, Pegs: 3, Distinct: true}, "0123456789",
		"Pico Fermi Bagels: 3 different digits 0-9"},
}

// presetNames returns the names of the presets, "a, b or c".
func presetNames() string {
	var s []string
	for _, p := range presets {
		s = append(s, p.name)
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// findPreset returns the preset called name, in any letter case, or the
// variant a size such as 8x5 or 10x4-distinct names.
func findPreset(name string) (preset, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, p := range presets {
		if p.name == key {
			return p, nil
		}
	}
	if p, ok, err := parseSize(name); ok {
		return p, err
	}
	return preset{}, fmt.Errorf("--rules %q: unknown; known: %s, or %s", name, presetNames(), sizeExample)
}

// rulesFlags are the flags every command takes.
type rulesFlags struct {
	preset       string
	colors, pegs int
	distinct     bool
	alphabet     string
}

// add registers the flags.
func (f *rulesFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.preset, "rules", "classic", "the game: "+presetNames()+", or "+sizeExample+"; --colors, --pegs, --distinct and --alphabet change it")
	fs.IntVar(&f.colors, "colors", mm.DefaultColors, "number of colours")
	fs.IntVar(&f.pegs, "pegs", mm.DefaultPegs, "number of pegs in a code")
	fs.BoolVar(&f.distinct, "distinct", false, "codes may not repeat a colour (Bulls and Cows)")
	fs.StringVar(&f.alphabet, "alphabet", "", "symbols for the colours, colour 1 first, such as RGBYOP, or names such as red,green,blue (default "+mm.DefaultSymbols+", then 0, a-z and #@ past 35 colours)")
}

// rules returns the variant and alphabet the flags of cmd describe: the
// preset of --rules, changed by the flags given beside it.
func (f *rulesFlags) rules(cmd *cobra.Command) (mm.Rules, *mm.Alphabet, error) {
	r, a, err := f.variant(cmd)
	if err != nil {
		return r, nil, err
	}
	if err := checkRules(r); err != nil {
		return r, nil, err
	}
	if r.Colors > a.Len() && a == mm.DefaultAlphabet && f.alphabet == "" {
		a = wideAlphabet
	}
	if r.Colors > a.Len() {
		what := "give --alphabet with at least that many"
		if f.alphabet != "" {
			what = "give it more"
		}
		return r, nil, fmt.Errorf("--colors %d needs %d symbols, and the alphabet %s has %d; %s",
			r.Colors, r.Colors, a.String(), a.Len(), what)
	}
	return r, a, nil
}

// variant returns the rules and alphabet of the flags, unchecked.
func (f *rulesFlags) variant(cmd *cobra.Command) (mm.Rules, *mm.Alphabet, error) {
	p, err := findPreset(f.preset)
	if err != nil {
		return mm.Rules{}, nil, err
	}
	r := p.rules
	changed := cmd.Flags().Changed
	if changed("colors") {
		r.Colors = f.colors
	}
	if changed("pegs") {
		r.Pegs = f.pegs
	}
	if changed("distinct") {
		r.Distinct = f.distinct
	}
	symbols := p.alphabet
	if f.alphabet != "" {
		symbols = f.alphabet
	}
	a, err := parseAlphabet(symbols)
	if err != nil {
		return r, nil, err
	}
	return r, a, nil
}

// wideSymbols write the colours of a variant of more than the default
// alphabet's 35 when --alphabet is not given: 1–9 and A–Z as by default,
// then 0, the lower-case letters a–z (which then parse in their own case)
// and #@, 64 in all (mm.MaxColors), as NewNamedAlphabet goes on past 35.
const wideSymbols = mm.DefaultSymbols + "0abcdefghijklmnopqrstuvwxyz#@"

var wideAlphabet = func() *mm.Alphabet {
	a, err := mm.NewAlphabet(wideSymbols)
	if err != nil || a.Len() != mm.MaxColors {
		panic(fmt.Sprintf("wideSymbols: %d symbols, %v", a.Len(), err))
	}
	return a
}()

// parseAlphabet reads --alphabet: symbols such as "RGBYOP", or colour
// names separated by commas such as "red,green,blue".
func parseAlphabet(s string) (*mm.Alphabet, error) {
	switch {
	case s == "":
		return mm.DefaultAlphabet, nil
	case strings.Contains(s, ","):
		var names []string
		for _, n := range strings.Split(s, ",") {
			names = append(names, strings.TrimSpace(n))
		}
		a, err := mm.NewNamedAlphabet(names)
		if err != nil {
			return nil, fmt.Errorf("--alphabet: %w", err)
		}
		return a, nil
	}
	a, err := mm.NewAlphabet(s)
	if err != nil {
		return nil, fmt.Errorf("--alphabet: %w", err)
	}
	return a, nil
}

// checkRules validates rules given on the command line, with the flags
// named in the message.
func checkRules(r mm.Rules) error {
	switch {
	case r.Colors < 2 || r.Colors > mm.MaxColors:
		return fmt.Errorf("--colors %d: want 2 to %d", r.Colors, mm.MaxColors)
	case r.Pegs < 1 || r.Pegs > mm.MaxPegs:
		return fmt.Errorf("--pegs %d: want 1 to %d", r.Pegs, mm.MaxPegs)
	case r.Distinct && r.Pegs > r.Colors:
		return fmt.Errorf("--distinct: %d pegs of different colours need at least %d colours, not %d", r.Pegs, r.Pegs, r.Colors)
	}
	return r.Validate()
}

// describeRules returns the heading of a variant, such as
// "6 colours × 4 pegs" or "10 colours × 4 pegs, distinct".
func describeRules(r mm.Rules) string {
	s := fmt.Sprintf("%d colours × %d pegs", r.Colors, r.Pegs)
	if r.Pegs == 1 {
		s = fmt.Sprintf("%d colours × 1 peg", r.Colors)
	}
	if r.Distinct {
		s += ", distinct"
	}
	return s
}
