package records_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/records"
)

// TestIrvingRoundTrip writes shipped trees in the compact notation and
// reads them back: the same tree, sizes and all, and the same replay.
func TestIrvingRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range records.Shipped() {
		f, err := records.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.Rules.Size() > 5000 && testing.Short() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := records.WriteIrving(&buf, f, nil); err != nil {
				t.Fatal(err)
			}
			back, err := records.Read(bytes.NewReader(buf.Bytes()), nil)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if back.Rules != f.Rules || back.Strategy != f.Strategy {
				t.Errorf("read back %v %q; want %v %q", back.Rules, back.Strategy, f.Rules, f.Strategy)
			}
			if !reflect.DeepEqual(back.Tree, f.Tree) {
				t.Errorf("the tree read back differs from the one written")
			}
			guesses, err := records.Replay(back)
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, g := range guesses {
				total += g
			}
			if total != f.Total {
				t.Errorf("replay: %d guesses in all; want %d", total, f.Total)
			}
		})
	}
}

// TestIrvingPublished reads the well-known strategy for 2 pegs and 3
// colours, written without its rules, under the rules given: 21 guesses
// in all over the 9 secrets.
func TestIrvingPublished(t *testing.T) {
	const s = "{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}\n"
	a, err := mm.NewAlphabet("ABC")
	if err != nil {
		t.Fatal(err)
	}
	r := mm.Rules{Colors: 3, Pegs: 2}
	f, err := records.ReadFor(strings.NewReader(s), a, r)
	if err != nil {
		t.Fatal(err)
	}
	guesses, err := records.Replay(f)
	if err != nil {
		t.Fatal(err)
	}
	total, most := 0, 0
	for _, g := range guesses {
		total += g
		most = max(most, g)
	}
	if total != 21 || most != 3 || f.Tree.Size != 9 {
		t.Errorf("%d guesses in all, at most %d, root size %d; want 21, 3, 9", total, most, f.Tree.Size)
	}
	// Written back, with its rules named, it reads without them.
	var buf bytes.Buffer
	if err := records.WriteIrving(&buf, f, a); err != nil {
		t.Fatal(err)
	}
	want := "# mastermind tree colors=3 pegs=2 distinct=false\n{AB:{00:CC,01:{BC:{01:CA}},02:BA,10:{AC:{00:BB,01:CB,10:AA}}}}\n"
	if buf.String() != want {
		t.Errorf("WriteIrving =\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestIrvingErrors(t *testing.T) {
	r := mm.Rules{Colors: 3, Pegs: 2}
	tests := []struct{ name, file, want string }{
		{"unclosed", "{11:{10:22}", "want '}', found the end"},
		{"bad guess", "{11:{10:44}}", `guess "44"`},
		{"bad feedback", "{11:{30:22}}", `feedback "30" after 11`},
		{"win branch", "{11:{20:22}}", "the win has no branch"},
		{"twice", "{11:{10:22,10:33}}", "given twice"},
		{"trailing", "{11:{10:22}} 33", "text after the tree"},
		{"bad header", "# mastermind tree colours=3\n11", `unknown setting "colours"`},
		{"bad rules", "# mastermind tree colors=1 pegs=2\n11", "colo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := records.ReadFor(strings.NewReader(tt.file), nil, r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadFor(%q): %v; want an error with %q", tt.file, err, tt.want)
			}
		})
	}
	if _, err := records.Read(strings.NewReader("{11:{10:22}}"), nil); err == nil || !strings.Contains(err.Error(), "does not say its rules") {
		t.Errorf("Read of a tree without rules: %v", err)
	}
	deep := strings.Repeat("{11:{10:", 2000) + "22" + strings.Repeat("}}", 2000)
	if _, err := records.ReadFor(strings.NewReader(deep), nil, r); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("a tree nested 2000 deep: %v", err)
	}
}
