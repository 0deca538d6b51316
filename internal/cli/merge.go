package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// mergeOutput lists, for each command that runs in shards, the output
// flags merge passes on to it.
var mergeOutput = map[string][]string{
	"bench":    {"json", "csv", "plot", "plot-size"},
	"bound":    {},
	"openings": {"json", "csv"},
	"tree":     {"json", "format"},
	"grid":     {"json", "csv", "plot", "plot-size"},
}

func newMerge(e *Env) *cobra.Command {
	var (
		asJSON, asCSV          bool
		format, plot, plotSize string
	)
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Merge the partial results of a job's shards into the job's output",
		Long: `merge reads the partial results that the shards of a job wrote — bench,
tree, openings, grid or bound run with --shard K/N, or as the tasks of a
Slurm array job or the pods of a Kubernetes Indexed Job — and prints what
the command prints when it runs whole: the same totals, histograms, trees,
bounds, JSON and CSV. Wall seconds are the sum of the shards' seconds.
--json, --csv and --format (trees) choose the output, as they do for the
command; --plot draws bench's and grid's figures.

A directory given stands for the partials in it: its files whose names end
in .json, hidden ones aside (the shards' files being written are hidden).
Every shard of the job must be given, once. A shard missing, repeated or
cut short, or one of another job (other rules, strategies, flags or
version of mastermind), is an error that names it, and nothing is printed:
rerun that shard alone (--shard K/N, or its array task with --shard-count)
and merge again.`,
		Example: `  mastermind bench --rules super --shard 0/2 --out part-0.json
  mastermind bench --rules super --shard 1/2 --out part-1.json
  mastermind merge part-0.json part-1.json
  mastermind merge --json parts/*.json
  mastermind merge /results`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("expected the partial results of a job's shards, FILE...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := partialFiles(args)
			if err != nil {
				return err
			}
			p, err := shard.Collect(files)
			if err != nil {
				return err
			}
			allowed, ok := mergeOutput[p.Command]
			if !ok {
				return fmt.Errorf("%s: partials of %q, which merge does not know", files[0], p.Command)
			}
			argv := []string{p.Command}
			keys := make([]string, 0, len(p.Settings))
			for k := range p.Settings {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				argv = append(argv, "--"+k+"="+p.Settings[k])
			}
			var err2 error
			cmd.Flags().Visit(func(f *pflag.Flag) {
				switch {
				case err2 != nil:
				case slices.Contains([]string{"rules", "colors", "pegs", "distinct", "alphabet"}, f.Name):
					// Not "does not apply to bench": it does, to the shards.
					err2 = fmt.Errorf("--%s: merge takes the rules the shards ran, from their partials; give it to the %s of every shard", f.Name, p.Command)
				case !slices.Contains(allowed, f.Name):
					err2 = fmt.Errorf("--%s does not apply to %s", f.Name, p.Command)
				default:
					argv = append(argv, "--"+f.Name+"="+f.Value.String())
				}
			})
			if err2 != nil {
				return err2
			}
			if plot != "" && (e.full.Histograms == nil || e.full.MeanBySize == nil) {
				return e.delegate("--plot")
			}
			inner := *e
			inner.merged = p
			return inner.run(cmd.Context(), argv)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&asCSV, "csv", false, "print the result as CSV (bench, openings, grid)")
	f.StringVar(&format, "format", "text", "tree: text, json or dot")
	f.StringVar(&plot, "plot", "", "bench, grid: also draw the figure into this file")
	f.StringVar(&plotSize, "plot-size", "", "bench, grid: size of the --plot figure in pixels, WIDTHxHEIGHT")
	return cmd
}

// partialFiles returns the files that args name: files, and the .json
// files of directories, hidden ones aside.
func partialFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil || !fi.IsDir() {
			files = append(files, a) // Collect says what is wrong with it
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		n := len(files)
		for _, de := range entries {
			if name := de.Name(); !de.IsDir() && strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
				files = append(files, filepath.Join(a, name))
			}
		}
		if len(files) == n {
			return nil, fmt.Errorf("%s holds no partial results (files ending in .json)", a)
		}
	}
	return files, nil
}
