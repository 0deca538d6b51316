package records

import (
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestFindReadsOnlyItsTree checks that Find returns the shipped tree of the
// rules, strategy and settings asked for, reading no other tree whole: the
// largest take seconds to read.
func TestFindReadsOnlyItsTree(t *testing.T) {
	opened = sync.Map{}
	t.Cleanup(func() { opened = sync.Map{} })
	settings := map[string]string{"top": "4", "plies": "2", "exact": "128", "worst": "true"}
	tests := []struct {
		name     string
		rules    mm.Rules
		strategy string
		settings map[string]string
		want     string // "" for none
	}{
		{"the 8 x 5 record", mm.Rules{Colors: 8, Pegs: 5}, "deep", settings, "8x5-deep.json.gz"},
		{"other settings", mm.Rules{Colors: 8, Pegs: 5}, "deep", map[string]string{"top": "1"}, ""},
		{"other strategy", mm.Rules{Colors: 8, Pegs: 5}, "entropy", settings, ""},
		{"other rules", mm.Rules{Colors: 8, Pegs: 5, Distinct: true}, "deep", settings, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Find(tt.rules, tt.strategy, tt.settings)
			if ok != (tt.want != "") {
				t.Fatalf("Find found %v; want %q", ok, tt.want)
			}
			if ok && (f.Rules != tt.rules.WithDefaults() || f.Strategy != tt.strategy || f.Tree == nil) {
				t.Errorf("Find returned %v %s, tree %v", f.Rules, f.Strategy, f.Tree != nil)
			}
		})
	}
	var read []any
	opened.Range(func(k, _ any) bool { read = append(read, k); return true })
	if len(read) != 1 || read[0] != "8x5-deep.json.gz" {
		t.Errorf("Find read %v whole; want only 8x5-deep.json.gz", read)
	}
}

// TestHeader checks that every shipped file's header agrees with the file
// read whole.
func TestHeader(t *testing.T) {
	for _, name := range Shipped() {
		h, err := header(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := Open(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h.Rules != f.Rules.WithDefaults() || h.Strategy != f.Strategy || !sameSettings(h.Settings, f.Settings) {
			t.Errorf("%s: header says %v %s %v; the file %v %s %v", name, h.Rules, h.Strategy, h.Settings, f.Rules, f.Strategy, f.Settings)
		}
	}
}
