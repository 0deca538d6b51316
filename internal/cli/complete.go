package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mastermind-toolkit/mastermind/strategy"
)

// addCompletions registers the values the shells complete for flags that
// take names: --rules (games and sizes), --strategy (lists too), --format.
func addCompletions(root *cobra.Command) {
	root.RegisterFlagCompletionFunc("rules", completeRules)
	for _, cmd := range root.Commands() {
		if cmd.Flags().Lookup("strategy") != nil {
			cmd.RegisterFlagCompletionFunc("strategy", completeStrategies)
		}
		if cmd.Flags().Lookup("format") != nil {
			formats := []string{"text\tindented lines", "json\tnested JSON", "dot\tGraphViz digraph"}
			if cmd.Name() == "tree" {
				// merge combines trees as JSON, and writes no irving.
				formats = append(formats, "irving\tone line, as published strategies are written")
			}
			cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
		}
		for _, name := range []string{"plot", "db", "out"} {
			if cmd.Flags().Lookup(name) != nil {
				cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return nil, cobra.ShellCompDirectiveDefault // file names
				})
			}
		}
	}
}

// completeStrategies completes a strategy name, or the last of a
// comma-separated list of them.
func completeStrategies(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	head := ""
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		head, toComplete = toComplete[:i+1], toComplete[i+1:]
	}
	var out []string
	for _, n := range strategy.Names() {
		if strings.HasPrefix(n, strings.ToLower(toComplete)) {
			out = append(out, head+n+"\t"+strategy.Describe(n))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// flagError rewrites pflag's errors in the command's words: a number out
// of range says so, and an unknown flag comes with the nearest known ones.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"), strings.HasPrefix(msg, "unknown shorthand flag"):
		name := strings.TrimPrefix(msg, "unknown flag: --")
		if s := suggestFlags(cmd, name); len(s) > 0 {
			return fmt.Errorf("%s; did you mean %s?", msg, strings.Join(s, " or "))
		}
	case strings.HasPrefix(msg, "invalid argument"):
		// invalid argument "x" for "--games" flag: strconv.ParseInt: parsing "x": invalid syntax
		val, rest, _ := strings.Cut(strings.TrimPrefix(msg, "invalid argument "), " for ")
		if v, err := strconv.Unquote(val); err == nil {
			val = v
		}
		spec, _, ok := strings.Cut(strings.TrimPrefix(rest, `"`), `" flag`)
		if !ok {
			break
		}
		name := spec[strings.LastIndex(spec, "--")+2:]
		f := cmd.Flags().Lookup(name)
		if f == nil {
			break
		}
		if strings.Contains(msg, "out of range") {
			return fmt.Errorf("--%s %s: too large; want %s", name, val, typeWords(f))
		}
		return fmt.Errorf("--%s %q: want %s", name, val, typeWords(f))
	}
	return err
}

// typeWords says in words what a flag takes.
func typeWords(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "int", "int64", "int32":
		return "a whole number"
	case "uint64", "uint", "uint32":
		return "a whole number, 0 or more"
	case "float64", "float32":
		return "a number"
	case "duration":
		return "a duration such as 2s or 250ms"
	case "bool":
		return "true or false"
	}
	return "a " + f.Value.Type()
}

// suggestFlags returns the flags of cmd nearest to name: within two edits,
// or starting with it.
func suggestFlags(cmd *cobra.Command, name string) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(strings.ToLower(name), f.Name)
		if d <= 2 || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			cs = append(cs, cand{"--" + f.Name, d})
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if !seen[c.name] && len(out) < 3 {
			seen[c.name] = true
			out = append(out, c.name)
		}
	}
	return out
}

// editDistance returns the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
