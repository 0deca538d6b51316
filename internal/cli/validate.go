package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// atLeast checks integer flags given as name, value pairs against the
// least value allowed, with one wording for every flag: "--games 0: want
// 1 or more".
func atLeast(least int, pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		name, v := pairs[i].(string), pairs[i+1].(int)
		if v < least {
			return fmt.Errorf("--%s %d: want %d or more", name, v, least)
		}
	}
	return nil
}

// strategyFlags are the strategy flags that only some strategies read,
// with those strategies.
var strategyFlags = []struct {
	flag  string
	users []string
}{
	{"max-depth", []string{"optimal"}},
	{"memory", []string{"optimal"}},
	{"effort", []string{"deep"}},
	{"top", []string{"deep"}},
	{"plies", []string{"deep"}},
	{"exact", []string{"deep"}},
	{"no-book", []string{"deep", "entropy"}},
	{"consistent-only", []string{"knuth", "expected-size", "entropy", "most-parts"}},
	{"win-bonus", []string{"entropy"}},
	{"near", []string{"entropy"}},
	{"rollout", []string{"entropy"}},
	{"rollout-max", []string{"entropy"}},
	{"rollout-small", []string{"entropy"}},
	{"budget", []string{"auto", "sampler", "fit"}},
}

// checkStrategyFlags refuses a strategy flag that none of the named
// strategies reads, rather than ignoring it.
func checkStrategyFlags(cmd *cobra.Command, names []string) error {
	return checkStrategyFlagsBut(cmd, names, "")
}

// checkStrategyFlagsBut is checkStrategyFlags but for the flag skip, which
// the command reads itself.
func checkStrategyFlagsBut(cmd *cobra.Command, names []string, skip string) error {
	for _, sf := range strategyFlags {
		if sf.flag == skip || !cmd.Flags().Changed(sf.flag) || slices.ContainsFunc(names, func(n string) bool { return slices.Contains(sf.users, n) }) {
			continue
		}
		return fmt.Errorf("--%s applies to %s only, not to %s", sf.flag, orList(sf.users), orList(names))
	}
	return nil
}

// orList writes "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Plural writes "1 guess", "5 guesses", "2 games".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
