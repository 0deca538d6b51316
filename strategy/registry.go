package strategy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/huge"
	"github.com/mastermind-toolkit/mastermind/large"
)

// Options are the settings that strategies share. The zero Options are the
// defaults.
type Options struct {
	// ConsistentOnly restricts the scoring strategies to guesses that could
	// be the secret.
	ConsistentOnly bool
	// WinBonus is entropy's Entropy.WinBonus, in nats.
	WinBonus float64
	// Near and AllCodes are entropy's Entropy.Near and Entropy.AllCodes.
	Near, AllCodes bool
	// Rollout, RolloutMax and RolloutSmall are entropy's Entropy.Rollout,
	// Entropy.RolloutMax and Entropy.RolloutSmall.
	Rollout, RolloutMax, RolloutSmall int
	// MaxDepth bounds the guesses of any game for optimal; 0 for no
	// limit.
	MaxDepth int
	// Memory is the size in bytes of the optimal search's transposition
	// table; 0 for the search's default.
	Memory int64
	// Progress, if not nil, receives news of long computations (the
	// optimal search).
	Progress func(line string)
	// Alphabet writes the codes of Progress's lines; nil for the default.
	Alphabet *mm.Alphabet
	// Opening overrides the first guess: "pairs" for seeds/004's two pegs
	// of each colour, or a code in the default alphabet; "own" or "" keeps
	// the strategy's own (merc's own is "pairs", the paper's 1122, unless
	// "own" is given explicitly).
	Opening string
	// Budget is the time auto aims to spend on one guess, and sets how
	// much sampler draws and searches; 0 means DefaultBudget, or where
	// the sampler plays its default for the size (large.DefaultBudgetFor).
	Budget time.Duration
	// Effort names how hard deep works ("quick", "normal", "high",
	// "record"; "" for normal), and Top, Plies and Exact override its
	// settings when not 0 (see package deep).
	Effort            string
	Top, Plies, Exact int
	// NoBook has deep compute every decision rather than read a shipped
	// record tree, and entropy every guess rather than read a shipped
	// book.
	NoBook bool
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
		func(o Options) mm.Strategy {
			return Entropy{ConsistentOnly: o.ConsistentOnly, WinBonus: o.WinBonus, Near: o.Near, AllCodes: o.AllCodes, Rollout: o.Rollout, RolloutMax: o.RolloutMax, RolloutSmall: o.RolloutSmall, NoBook: o.NoBook}
		}},
	{"most-parts", "maximise the number of classes (Kooi; Max-Parts)",
		func(o Options) mm.Strategy { return MostParts{ConsistentOnly: o.ConsistentOnly} }},
	{"first-consistent", "the lowest code consistent with the history",
		func(Options) mm.Strategy { return FirstConsistent{} }},
	{"random-consistent", "a uniformly random consistent code (Shapiro)",
		func(Options) mm.Strategy { return RandomConsistent{} }},
	{"optimal", "exact minimum of total guesses over all secrets, then of the worst case",
		func(o Options) mm.Strategy {
			return Optimal{MaxDepth: o.MaxDepth, Memory: o.Memory, Progress: o.Progress, Alphabet: o.Alphabet}
		}},
	{"random", "a uniformly random code never guessed before, ignoring feedback (Rhodes's baseline)",
		func(Options) mm.Strategy { return Random{} }},
	{"merc", "Rhodes's maximum expected reduction in consistency",
		func(Options) mm.Strategy { return MERC{} }},
	{"merc-literal", "merc with the paper's formula read literally",
		func(Options) mm.Strategy { return MERC{Literal: true} }},
	{"annealing", "Rhodes's simulated annealing",
		func(Options) mm.Strategy { return Annealing{} }},
	{"incremental", "Bhushan's incremental brute force, position by position",
		func(Options) mm.Strategy { return Incremental{} }},
	{"permuted", "Bhushan's permuted elimination: count colours, then arrange",
		func(Options) mm.Strategy { return Permuted{} }},
	{"sampler", "the code that best splits a uniform sample of the consistent codes, found by local search; up to 30 × 30",
		func(o Options) mm.Strategy { return large.Sampler{Budget: o.Budget} }},
	{"split", "count the colours, then halve runs of positions, counting colours in each half, and try the orders of short runs; any size with repeats, up to 100 pegs × 64 colours",
		func(Options) mm.Strategy { return huge.Split{} }},
	{"fit", "count the colours, then play codes that fit every answer, found by annealing over swaps of pegs, within --budget per guess; any size with repeats",
		func(o Options) mm.Strategy { return huge.Fit{Budget: o.Budget} }},
	{"auto", "an exact heuristic where the space is small, sampler where not, within --budget per guess; fit beyond 30 pegs and on long codes of few colours",
		func(o Options) mm.Strategy { return Auto{Budget: o.Budget} }},
}

// Register adds a strategy under name, for packages that build on this one
// and so cannot be listed here (deep registers itself so). It must be
// called from an init function, and panics if the name is taken: that is a
// programming error.
func Register(name, doc string, make func(Options) mm.Strategy) {
	for _, e := range registry {
		if e.name == name {
			panic("strategy: " + name + " registered twice")
		}
	}
	registry = append(registry, entry{name, doc, make})
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

// New returns the strategy called name, set up with o. Options.Opening may
// be "", "own" or "pairs"; any other value is read as a code in the default
// alphabet when the game starts.
func New(name string, o Options) (mm.Strategy, error) {
	for _, e := range registry {
		if e.name != name {
			continue
		}
		if name == "merc" || name == "merc-literal" {
			// merc opens with pairs by default, as in the paper.
			m := MERC{Literal: name == "merc-literal", OwnOpening: o.Opening == "own"}
			if o.Opening == "" || o.Opening == "own" || o.Opening == "pairs" {
				return m, nil
			}
			return Opening{Text: o.Opening, Then: m}, nil
		}
		s := e.make(o)
		switch o.Opening {
		case "", "own":
			return s, nil
		case "pairs":
			return Opening{Pairs: true, Then: s}, nil
		}
		return Opening{Text: o.Opening, Then: s}, nil
	}
	names := Names()
	slices.Sort(names)
	return nil, fmt.Errorf("mastermind: unknown strategy %q; known: %s", name, strings.Join(names, ", "))
}
