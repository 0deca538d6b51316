package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/records"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

func newTree(e *Env, rf *rulesFlags) *cobra.Command {
	var (
		name   string
		yes    bool
		format string
		asJSON bool
		so     strategy.Options
		sf     shardFlags
	)
	cmd := &cobra.Command{
		Use:   "tree",
		Short: "Write the whole decision tree of a deterministic strategy",
		Long: `tree writes the decision tree of a deterministic strategy: its first guess,
and for every feedback some secret gives, the guess it plays next, down to
the last guess of every game.

--format text (the default) indents one line per node: the feedback that
led there, the guess, and how many secrets reach it. --format json (or
--json) nests {"guess","size","branches":[{"black","white","next"}]} under
a header with the totals and, for deep, the settings that shaped the tree;
bench --tree FILE plays such a file back. --format irving is the compact
notation of published strategies, one line {GUESS:{BW:NODE,...}} with a
leaf as its guess alone, after a comment line that names the rules;
bench --tree reads it too, and strategies copied from papers without that
line under the rules flags given. --format dot is a GraphViz digraph:
render it with "dot -Tsvg tree.dot > tree.svg".

--exact N, for a strategy other than deep (which plays its small sets
optimally itself), searches every subtree of at most N codes exactly once
the tree is made, and puts an optimal subtree in its place where that
saves guesses (or, at the same total, lowers the worst case); the JSON
header records it as the setting "exact". The tree is never worse for it;
the cost is one exact search per subtree, seconds for subtrees of a few
dozen codes, minutes for hundreds.

Following the tree for every secret gives exactly the figures of bench --all.`,
		Example: `  mastermind tree --strategy knuth
  mastermind tree --strategy optimal --format json > optimal.json
  mastermind tree --strategy knuth --format irving > knuth.txt
  mastermind tree --strategy knuth --exact 100 --format json > knuth.json
  mastermind tree --strategy optimal --max-depth 5 --format dot \
      | dot -Tsvg > tree.svg`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, a, err := rf.rules(cmd)
			if err != nil {
				return err
			}
			format = strings.ToLower(format)
			if format != "text" && format != "json" && format != "dot" && format != "irving" {
				return fmt.Errorf("--format %q: want text, json, dot or irving", format)
			}
			if asJSON {
				if cmd.Flags().Changed("format") && format != "json" {
					return fmt.Errorf("--json and --format %s exclude each other", format)
				}
				format = "json"
			}
			name = strings.ToLower(strings.TrimSpace(name))
			// --exact is deep's own; for the other strategies tree
			// replaces the small subtrees of the tree they make.
			polish := 0
			if name != "deep" {
				if cmd.Flags().Changed("exact") {
					if name == "optimal" {
						return fmt.Errorf("--exact: optimal's tree is optimal already")
					}
					if err := atLeast(1, "exact", so.Exact); err != nil {
						return err
					}
					if err := exact.CheckPolish(r, so.Exact); err != nil {
						return err
					}
					polish = so.Exact
				}
				if err := checkStrategyFlagsBut(cmd, []string{name}, "exact"); err != nil {
					return err
				}
			} else if err := checkStrategyFlags(cmd, []string{name}); err != nil {
				return err
			}
			var done func()
			so.Progress, done = e.progressLine()
			defer done()
			s, err := MakeStrategy(name, so, r, a)
			if err != nil {
				return err
			}
			sh, err := e.sharding(cmd, &sf, "json", "format")
			if err != nil {
				return err
			}
			var t *mm.Tree
			switch {
			case sh.on:
				return e.writeWorksShard(cmd.Context(), cmd, sh, r, []strategyWork{{name, s}}, shard.Options{Trees: true})
			case sh.merged != nil:
				works, err := sh.mergedWorks([]string{name})
				if err != nil {
					return err
				}
				if t, err = works[0].Tree(sh.merged.Results); err != nil {
					return err
				}
			default:
				// Strategies that build their own tree (deep, optimal)
				// report through so.Progress; the others count the
				// secrets found.
				var found func(int)
				var rb *runBar
				if _, own := s.(eval.Treer); !own && r.Size() <= mm.MaxSpace {
					rb = e.newRunBar(int(r.Size()))
					rb.label(name)
					found = rb.b.set
				}
				if r.Size() <= mm.MaxSpace {
					// Refused for memory before a guess of the time.
					if err := eval.CheckTreeMemory(r, int(r.Size())); err != nil {
						rb.stop()
						return err
					}
					if err := e.announceRun(cmd.Context(), rb, r, []string{name}, []mm.Strategy{s}, int(r.Size()), false, 0, yes, false); err != nil {
						rb.stop()
						return err
					}
				}
				t, err = eval.BuildTreeProgress(cmd.Context(), r, s, found)
				rb.stop() // before the tree is written
				if err != nil {
					return err
				}
			}
			if polish > 0 {
				if t, err = e.polishTree(cmd.Context(), r, a, t, polish); err != nil {
					return err
				}
			}
			w := bufio.NewWriter(e.Stdout)
			defer w.Flush()
			switch format {
			case "json":
				// The settings that shaped the tree, for strategies that
				// have some (deep's effort), so that a book matches them.
				var settings map[string]string
				if st, ok := s.(interface {
					Settings(mm.Rules) map[string]string
				}); ok {
					settings = st.Settings(r)
				}
				if polish > 0 {
					settings = maps.Clone(settings)
					if settings == nil {
						settings = map[string]string{}
					}
					settings["exact"] = strconv.Itoa(polish)
				}
				return records.Write(w, records.NewFile(r, name, settings, t), a)
			case "dot":
				return writeDOT(w, a, name, r, t)
			case "irving":
				return records.WriteIrving(w, records.NewFile(r, name, nil, t), a)
			}
			stats := eval.TreeStats(t)
			fmt.Fprintf(w, "# %s on %s: %d secrets, %d guesses in all (mean %.4f), at most %d; %d nodes\n",
				name, r, stats.Games, stats.Total, stats.Mean(), stats.Max, t.Nodes())
			writeTreeText(w, a, t, "", "")
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "strategy", "knuth", "deterministic strategy whose tree to write")
	f.BoolVar(&yes, "yes", false, "start a tree guessed to take more than an hour (refused without it)")
	f.StringVar(&format, "format", "text", "text, json, dot or irving")
	f.BoolVar(&asJSON, "json", false, "write the tree as JSON, as --format json")
	addStrategyFlags(f, &so)
	f.Lookup("exact").Usage = "largest number of codes left played optimally: deep's own (0: sized to the variant); for other strategies, each subtree of at most this many codes is replaced by an optimal one where that saves guesses"
	sf.add(f)
	return cmd
}

// polishTree replaces every subtree of t of at most most codes by an
// optimal one where that is cheaper (exact.Polish), with its progress on
// the news line and a line on what it saved.
func (e *Env) polishTree(ctx context.Context, r mm.Rules, a *mm.Alphabet, t *mm.Tree, most int) (*mm.Tree, error) {
	st, err := mm.NewState(r, nil)
	if err != nil {
		return nil, err
	}
	n := e.newsLine()
	start := time.Now()
	out, stats, err := exact.Polish(ctx, st, t, most, &exact.PolishOptions{
		Progress: func(p exact.PolishProgress) {
			n.show(fmt.Sprintf("exact subtrees of <= %d codes: %d/%d, %d guesses saved, %s",
				most, p.Done, p.Subtrees, p.Gained, time.Since(start).Round(time.Second)))
		},
	})
	n.done()
	if err != nil {
		return nil, err
	}
	n.printf("exact subtrees of <= %d codes: %d searched, %d replaced: %d -> %d guesses\n",
		most, stats.Subtrees, stats.Replaced, stats.Before, stats.After)
	return out, nil
}

func writeTreeText(w io.Writer, a *mm.Alphabet, t *mm.Tree, indent, edge string) {
	fmt.Fprintf(w, "%s%s%s (%d)\n", indent, edge, a.Format(t.Guess), t.Size)
	for _, b := range t.Branches {
		writeTreeText(w, a, b.Next, indent+"  ", fmt.Sprintf("%d %d: ", b.Feedback.Black, b.Feedback.White))
	}
}

func writeDOT(w io.Writer, a *mm.Alphabet, name string, r mm.Rules, t *mm.Tree) error {
	fmt.Fprintf(w, "digraph %q {\n", name+" "+r.String())
	fmt.Fprintln(w, "  node [shape=box, fontname=\"monospace\"];")
	fmt.Fprintln(w, "  edge [fontname=\"monospace\", fontsize=10];")
	id := 0
	var walk func(t *mm.Tree) int
	walk = func(t *mm.Tree) int {
		me := id
		id++
		label := a.Format(t.Guess)
		if t.Size > 1 {
			label += fmt.Sprintf("\\n%d left", t.Size)
		}
		fmt.Fprintf(w, "  n%d [label=\"%s\"];\n", me, strings.ReplaceAll(label, "\"", "\\\""))
		for _, b := range t.Branches {
			k := walk(b.Next)
			fmt.Fprintf(w, "  n%d -> n%d [label=\"%d %d\"];\n", me, k, b.Feedback.Black, b.Feedback.White)
		}
		return me
	}
	walk(t)
	_, err := fmt.Fprintln(w, "}")
	return err
}
