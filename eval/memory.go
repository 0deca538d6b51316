package eval

import (
	"fmt"

	mm "github.com/mastermind-toolkit/mastermind"
)

// MemoryBudget is the most memory, in bytes, that Run and BuildTree plan
// to hold for a decision tree: they refuse up front, with ErrMemory, work
// whose estimate exceeds it. It is 8 GiB, a third of the project's 24 GiB
// machine, which other work shares: enough for sampled games on every
// enumerable space (at most 2²⁴ codes, 7.5 GB split), for every secret of
// up to 2.8 million codes, and for whole trees of up to 10.7 million.
var MemoryBudget int64 = 8 << 30

// ErrMemory is returned, wrapped, for work that would need more memory than
// MemoryBudget. It wraps mm.ErrTooLarge.
var ErrMemory = fmt.Errorf("%w for memory", mm.ErrTooLarge)

// Bytes a decision tree holds, measured on 10 colours × 6 pegs (10⁶ codes)
// with first-consistent (peak resident memory; see BENCHMARKS.md):
const (
	// splitBytes: per code of an enumerable space, whose candidates the
	// tree's first guesses split into states of their own, however few
	// secrets are played (16 × 6, 20 000 sampled games: 7.3 GB).
	splitBytes = 450
	// gameBytes: per secret played through the tree (10 × 6, every
	// secret: 2.9 GB in all).
	gameBytes = 2600
	// treeBytes: per secret of a whole mm.Tree, built and written as
	// JSON (10 × 6: 0.72 GB).
	treeBytes = 800
)

// CheckMemory returns an error wrapping ErrMemory if playing the secrets
// of opts under r with s would grow a decision tree larger than
// MemoryBudget. Only deterministic strategies on enumerable spaces grow
// one; Run plays the others' games each on its own, in memory that does
// not grow with the games.
func CheckMemory(r mm.Rules, s mm.Strategy, opts *Options) error {
	if mm.IsRandomized(s) {
		return nil
	}
	if _, ok := walks(r.WithDefaults(), s); ok {
		return nil // a byte a code, and the candidates of the nodes under way
	}
	if opts == nil {
		opts = &Options{}
	}
	r = r.WithDefaults()
	size := r.Size()
	if size > mm.MaxSpace {
		return nil // not enumerated: Run plays each game on its own
	}
	games := size
	if !opts.All && (opts.Games > 0 || size > DefaultAllLimit) {
		games = uint64(DefaultGames)
		if opts.Games > 0 {
			games = uint64(opts.Games)
		}
		games = min(games, size)
	}
	sampled := games < size
	share := 1.0 // of every secret, those a shard plays
	if opts.Selected > 0 && uint64(opts.Selected) < games {
		if !sampled {
			share = float64(opts.Selected) / float64(games)
		}
		games = uint64(opts.Selected)
	}
	need := float64(size)*splitBytes + float64(games)*gameBytes
	if need <= float64(MemoryBudget) {
		return nil
	}
	most := float64(MemoryBudget) / (splitBytes + gameBytes*share) // every secret played, or a share of them
	if sampled {
		most = max(most, (float64(MemoryBudget)-float64(games)*gameBytes)/splitBytes)
	}
	return fmt.Errorf("%w: playing %d secrets of %s through %v's decision tree needs about %s, more than the %s budget; "+
		"a variant of at most %.0f codes fits (%s), or a randomised strategy",
		ErrMemory, games, r, s, bytesText(need), bytesText(float64(MemoryBudget)), most, fitting(r, most))
}

// CheckTreeMemory returns an error wrapping ErrMemory if the whole decision
// tree of a strategy over n candidates of r would need more than
// MemoryBudget.
func CheckTreeMemory(r mm.Rules, n int) error {
	need := float64(n) * treeBytes
	if need <= float64(MemoryBudget) {
		return nil
	}
	most := float64(MemoryBudget) / treeBytes
	return fmt.Errorf("%w: the decision tree of %d codes of %s needs about %s, more than the %s budget; "+
		"a variant of at most %.0f codes fits (%s)",
		ErrMemory, n, r.WithDefaults(), bytesText(need), bytesText(float64(MemoryBudget)), most, fitting(r, most))
}

// fitting names the variant nearest r, with fewer colours or else fewer
// pegs, that has at most most codes.
func fitting(r mm.Rules, most float64) string {
	r = r.WithDefaults()
	for c := r.Colors - 1; c >= 2; c-- {
		f := mm.Rules{Colors: c, Pegs: r.Pegs, Distinct: r.Distinct}
		if f.Validate() == nil && float64(f.Size()) <= most {
			return "such as " + f.String()
		}
	}
	for p := r.Pegs - 1; p >= 1; p-- {
		f := mm.Rules{Colors: r.Colors, Pegs: p, Distinct: r.Distinct}
		if float64(f.Size()) <= most {
			return "such as " + f.String()
		}
	}
	return "none of these colours"
}

// bytesText writes n bytes as "3.1 GiB" or "450 MiB".
func bytesText(n float64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", n/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", n/(1<<20))
}
