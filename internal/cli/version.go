package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version returns the version line: the module's version as the build
// recorded it (the tag for "go install …@v1.2.0", a pseudo-version or
// "(devel)" otherwise), then the commit and its time when the build
// recorded them, and the Go version.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "mastermind (unknown version) " + runtime.Version()
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	out := []string{"mastermind", v}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		c := "commit " + rev[:min(12, len(rev))]
		if at != "" {
			c += " of " + at
		}
		if modified {
			c += ", modified"
		}
		out = append(out, "("+c+")")
	}
	out = append(out, bi.GoVersion)
	return strings.Join(out, " ")
}

func newVersion(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of mastermind",
		Long: `version prints the module version the command was built from: the tag
for "go install github.com/mastermind-toolkit/mastermind/cmd/...@v1.2.0",
a pseudo-version or "(devel)" otherwise, with the commit when the build
recorded it, and the Go version. "mastermind --version" prints the same.`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(e.Stdout, version())
			return err
		},
	}
}
