package strategy

import (
	"fmt"
	"slices"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// Options are the settings that strategies share. The zero Options are the
// defaults.
type Options struct {
	// ConsistentOnly restricts the scoring strategies to guesses that could
	// be the secret.
	ConsistentOnly bool
	// MaxDepth bounds the guesses of any game for optimal; 0 for no
	// limit.
	MaxDepth int
}

type entry struct {
	name string
	doc  string
	make func(Options) mm.Strategy
}

var registry = []entry{
	{"knuth", "minimise the largest class (Knuth 1977)",
		func(o Options) mm.Strategy { return Knuth{ConsistentOnly: o.ConsistentOnly} }},
	{"expected-size", "minimise the expected class size, Σ n² (Irving)",
		func(o Options) mm.Strategy { return ExpectedSize{ConsistentOnly: o.ConsistentOnly} }},
	{"entropy", "maximise the entropy of the partition (Neuwirth)",
		func(o Options) mm.Strategy { return Entropy{ConsistentOnly: o.ConsistentOnly} }},
	{"most-parts", "maximise the number of classes (Kooi; Max-Parts)",
		func(o Options) mm.Strategy { return MostParts{ConsistentOnly: o.ConsistentOnly} }},
	{"first-consistent", "the lowest code consistent with the history",
		func(Options) mm.Strategy { return FirstConsistent{} }},
	{"random-consistent", "a uniformly random consistent code (Shapiro)",
		func(Options) mm.Strategy { return RandomConsistent{} }},
	{"optimal", "exact minimum of total guesses over all secrets, then of the worst case",
		func(o Options) mm.Strategy { return Optimal{MaxDepth: o.MaxDepth} }},
}

// Names returns the names New accepts, in the order of the documentation.
func Names() []string {
	out := make([]string, len(registry))
	for i, e := range registry {
		out[i] = e.name
	}
	return out
}

// Describe returns a one-line description of the named strategy.
func Describe(name string) string {
	for _, e := range registry {
		if e.name == name {
			return e.doc
		}
	}
	return ""
}

// New returns the strategy called name, set up with o.
func New(name string, o Options) (mm.Strategy, error) {
	for _, e := range registry {
		if e.name == name {
			return e.make(o), nil
		}
	}
	names := Names()
	slices.Sort(names)
	return nil, fmt.Errorf("mastermind: unknown strategy %q; known: %s", name, strings.Join(names, ", "))
}
