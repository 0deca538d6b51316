package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestBook writes a book to standard output and to a file: the two are the
// same, read back whole, and open with the strategy's first guess.
func TestBook(t *testing.T) {
	out := mustRun(t, "", "book", "--strategy", "knuth", "--min", "10")
	b, err := strategy.ReadBook(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if b.Strategy != "knuth" || b.Min != 10 || b.Len() < 10 || b.Lines()[0] != "1122" {
		t.Errorf("book: %s, min %d, %d nodes, first line %q; want knuth, 10, at least 10, 1122", b.Strategy, b.Min, b.Len(), b.Lines()[0])
	}
	if !strings.Contains(out, "# Regenerate: mastermind book --colors 6 --pegs 4 --strategy knuth --min 10\n") {
		t.Errorf("the header does not give the command:\n%s", out[:200])
	}
	path := filepath.Join(t.TempDir(), "book.txt")
	mustRun(t, "", "book", "--strategy", "knuth", "--min", "10", "--out", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != out {
		t.Errorf("--out wrote %d bytes unlike standard output's %d", len(data), len(out))
	}
}
