package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version returns the version line: the module's version as the build
// recorded it (the tag for "go install …@v1.2.0" or a pseudo-version),
// then the commit and its time when the build recorded them, and the Go
// version. A build from a clone that recorded no module version is named
// by its commit alone; one that recorded neither says how to record it.
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
	devel := v == "(devel)"
	out := []string{"mastermind"}
	switch {
	case devel && rev == "":
		out = append(out, "(devel: built without its commit; go build -buildvcs=true records it)")
	case !devel:
		out = append(out, v)
	}
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
a pseudo-version from a clone, with the commit when the build recorded
it (a build from a clone that recorded no version is named by its commit
alone), and the Go version. "mastermind --version" prints the same.`,
		Args: argsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(e.Stdout, version())
			return err
		},
	}
}
