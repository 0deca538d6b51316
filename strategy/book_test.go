package strategy_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/eval"
	"github.com/mastermind-toolkit/mastermind/internal/race"
	"github.com/mastermind-toolkit/mastermind/internal/slow"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// TestBookCoversTree builds books of a strategy and checks them against its
// tree: every node of more than Min candidates has the tree's guess, no
// other node has one, and the text form reads back the same.
func TestBookCoversTree(t *testing.T) {
	cases := []struct {
		name string
		s    mm.Strategy
		r    mm.Rules
		min  int
	}{
		{"knuth", strategy.Knuth{}, mm.Classic, 10},
		{"entropy", strategy.Entropy{WinBonus: 1.5, NoBook: true}, mm.Classic, 1},
		{"most-parts", strategy.MostParts{}, mm.Rules{Colors: 5, Pegs: 3, Distinct: true}, 4},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+strconv.Itoa(c.min), func(t *testing.T) {
			b, err := strategy.BuildBook(context.Background(), c.name, c.s, c.r, c.min, nil)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := eval.BuildTree(context.Background(), c.r, c.s)
			if err != nil {
				t.Fatal(err)
			}
			st, err := mm.NewState(c.r, nil)
			if err != nil {
				t.Fatal(err)
			}
			in := 0
			var walk func(n *mm.Tree, st *mm.State)
			walk = func(n *mm.Tree, st *mm.State) {
				g, ok := b.Guess(st)
				switch {
				case n.Size > c.min && !ok:
					t.Errorf("node %v of %d codes: not in the book", st.Turns(), n.Size)
				case n.Size > c.min && g != n.Guess:
					t.Errorf("node %v: the book plays %v, the strategy %v", st.Turns(), g, n.Guess)
				case n.Size <= c.min && ok:
					t.Errorf("node %v of %d codes, at most min %d: in the book", st.Turns(), n.Size, c.min)
				}
				if ok {
					in++
				}
				for _, br := range n.Branches {
					kid, err := st.Play(n.Guess, br.Feedback)
					if err != nil {
						t.Fatal(err)
					}
					walk(br.Next, kid)
				}
			}
			walk(tree, st)
			if in == 0 || in != b.Len() {
				t.Errorf("%d nodes of the tree in the book, which holds %d", in, b.Len())
			}

			var buf bytes.Buffer
			if _, err := b.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := strategy.ReadBook(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if back.Rules != b.Rules || back.Strategy != b.Strategy || back.Min != b.Min ||
				strings.Join(back.Lines(), "\n") != strings.Join(b.Lines(), "\n") ||
				settingsOf(back) != settingsOf(b) {
				t.Errorf("read back: %v %s %v min %d, %d nodes; wrote %v %s %v min %d, %d nodes",
					back.Rules, back.Strategy, back.Settings, back.Min, back.Len(), b.Rules, b.Strategy, b.Settings, b.Min, b.Len())
			}
		})
	}
}

func settingsOf(b *strategy.Book) string {
	var buf bytes.Buffer
	b.WriteTo(&buf)
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "strategy ") {
			return l
		}
	}
	return ""
}

// TestBookSettings checks that a book names what changes its guesses:
// consistent-only is a setting of every scoring strategy, and the command
// in the header writes it as the flag it is.
func TestBookSettings(t *testing.T) {
	plain, err := strategy.BuildBook(context.Background(), "knuth", strategy.Knuth{}, mm.Classic, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := strategy.BuildBook(context.Background(), "knuth", strategy.Knuth{ConsistentOnly: true}, mm.Classic, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cons.Settings["consistent-only"] != "true" || plain.Settings["consistent-only"] != "" {
		t.Errorf("settings: consistent-only %v, plain %v", cons.Settings, plain.Settings)
	}
	if strings.Join(cons.Lines(), "\n") == strings.Join(plain.Lines(), "\n") {
		t.Error("knuth's book is the same with and without consistent-only: the test shows nothing")
	}
	if want := "mastermind book --colors 6 --pegs 4 --strategy knuth --consistent-only --min 10"; cons.Command() != want {
		t.Errorf("Command() = %q; want %q", cons.Command(), want)
	}
}

// TestReadBookErrors feeds malformed books to ReadBook: each is refused
// with a message, never read in part.
func TestReadBookErrors(t *testing.T) {
	head := "variant 6 4 false\nstrategy knuth\nmin 10\n"
	cases := []struct{ name, text, want string }{
		{"empty", "", "missing"},
		{"no min", "variant 6 4 false\nstrategy knuth\n", "missing"},
		{"node first", "1122\n" + head, "before the variant"},
		{"bad variant", "variant 6 x false\nstrategy knuth\nmin 10\n", "line 1"},
		{"bad rules", "variant 1 4 false\nstrategy knuth\nmin 10\n", "line 1"},
		{"bad min", "variant 6 4 false\nstrategy knuth\nmin 0\n", "min N"},
		{"bad setting", "variant 6 4 false\nstrategy entropy win-bonus\nmin 10\n", "KEY=VALUE"},
		{"bad guess", head + "11227\n", "line 4"},
		{"bad turn", head + "1122 3345\n", "GUESS:FEEDBACK"},
		{"bad feedback", head + "1122:5b0w 3345\n", "line 4"},
		{"twice", head + "1122\n1122\n", "second guess"},
		{"variant again", head + "1122\nvariant 8 8 false\n", "after the nodes"},
		{"strategy twice", "variant 6 4 false\nstrategy knuth\nstrategy entropy\nmin 10\n", "second strategy"},
		{"min in two", "variant 6 4 false\nstrategy knuth\nmin 1 0\n", "min N"},
		{"no pegs", "variant 6 0 false\nstrategy knuth\nmin 10\n", "want both given"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := strategy.ReadBook(strings.NewReader(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadBook(%q) = %v, %v; want an error with %q", c.text, b, err, c.want)
			}
		})
	}
}

// TestBuildBookRefuses checks BuildBook's refusals.
func TestBuildBookRefuses(t *testing.T) {
	if _, err := strategy.BuildBook(context.Background(), "random-consistent", strategy.RandomConsistent{}, mm.Classic, 10, nil); err == nil {
		t.Error("a book of a randomised strategy: no error")
	}
	if _, err := strategy.BuildBook(context.Background(), "knuth", strategy.Knuth{}, mm.Classic, 0, nil); err == nil {
		t.Error("a book of min 0: no error")
	}
	first, _ := mm.Classic.ParseCode("1234")
	if _, err := strategy.BuildBook(context.Background(), "knuth", strategy.Opening{First: first, Then: strategy.Knuth{}}, mm.Classic, 10, nil); err == nil {
		t.Error("a book of knuth opening with 1234: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := strategy.BuildBook(ctx, "entropy", strategy.Entropy{NoBook: true}, mm.Rules{Colors: 8, Pegs: 5}, 10, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a book with its context done: %v, want context.Canceled", err)
	}
}

// TestShippedBooks checks every book shipped with the toolkit against the
// strategy it names: its nodes are exactly those of more than Min
// candidates below its own guesses, and its guesses, at the root and at
// nodes spread over the book, are the strategy's own, computed again. The
// whole check is `mastermind book` with the command in the file's header,
// and a diff.
//
// The walk over every node and the seven guesses computed again take 9 s
// of CPU for 8 × 8 (16.7 M codes at the root), so they are the slow tier
// (go test -tags slow, which CI runs); the plain run computes again the
// guess at one of the book's deepest nodes, the cheapest, and checks that
// the three deepest and the nodes one guess below them are in the book
// exactly when they have more than Min candidates.
func TestShippedBooks(t *testing.T) {
	t.Parallel()
	bs, err := strategy.Books()
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) == 0 {
		t.Fatal("no book shipped")
	}
	for _, b := range bs {
		t.Run(b.Rules.String()+"/"+b.Strategy, func(t *testing.T) {
			var s mm.Strategy
			switch b.Strategy {
			case "entropy":
				e := strategy.Entropy{Near: b.Settings["pool"] == "near", NoBook: true}
				if v, ok := b.Settings["win-bonus"]; ok {
					if e.WinBonus, err = strconv.ParseFloat(v, 64); err != nil {
						t.Fatal(err)
					}
				}
				for k := range b.Settings {
					if k != "pool" && k != "win-bonus" {
						t.Fatalf("setting %s: this test does not know it", k)
					}
				}
				s = e
			default:
				t.Fatalf("a book of %s: this test does not know the strategy", b.Strategy)
			}
			if !slow.Enabled {
				lines := b.Lines()
				for i, line := range lines[max(0, len(lines)-3):] {
					st := bookNode(t, b, line)
					if _, err := st.Candidates(); err != nil {
						t.Fatal(err)
					}
					if st.Remaining() <= b.Min {
						t.Errorf("node %v of %d codes, at most min %d: in the book", st.Turns(), st.Remaining(), b.Min)
					}
					want, _ := b.Guess(st)
					if i == 0 {
						got, err := s.Guess(st)
						if err != nil {
							t.Fatal(err)
						}
						if got != want {
							t.Errorf("node %v of %d codes: the book plays %v, %s computes %v", st.Turns(), st.Remaining(), want, b.Strategy, got)
						}
					}
					_, kids, err := st.Branch(want)
					if err != nil {
						t.Fatal(err)
					}
					for _, k := range kids {
						if _, ok := b.Guess(k); ok != (k.Remaining() > b.Min) {
							t.Errorf("node %v of %d codes (min %d): in the book %v", k.Turns(), k.Remaining(), b.Min, ok)
						}
					}
				}
				return
			}
			if race.Enabled {
				// A minute and 5 GB under the race detector, for the
				// splits of 16.7 M codes; the engine's goroutines meet
				// the detector in its own tests.
				t.Skip("the walk over every code takes a minute and 5 GB under -race: go test -tags slow runs it")
			}
			// Every node the book's guesses lead to with more than Min
			// candidates is in it, and nothing else. Depth first, keeping
			// the paths only: the candidates of 8 × 8 take 400 MB a level.
			st, err := mm.NewState(b.Rules, nil)
			if err != nil {
				t.Fatal(err)
			}
			var paths [][]mm.Turn
			var visit func(st *mm.State)
			visit = func(st *mm.State) {
				g, ok := b.Guess(st)
				if !ok {
					t.Fatalf("node %v of %d codes: not in the book", st.Turns(), st.Remaining())
				}
				paths = append(paths, st.Turns())
				_, kids, err := st.Branch(g)
				if err != nil {
					t.Fatal(err)
				}
				for i, k := range kids {
					kids[i] = nil
					if k.Remaining() > b.Min {
						visit(k)
					}
				}
			}
			visit(st)
			if len(paths) != b.Len() {
				t.Fatalf("%d nodes of more than %d codes below the book's guesses; the book holds %d", len(paths), b.Min, b.Len())
			}
			// The root and 6 nodes spread over the rest, computed again.
			for i := 0; i < 7; i++ {
				st, err := mm.NewState(b.Rules, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, turn := range paths[i*(len(paths)-1)/6] {
					if st, err = st.Play(turn.Guess, turn.Feedback); err != nil {
						t.Fatal(err)
					}
				}
				want, _ := b.Guess(st)
				got, err := s.Guess(st)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("node %v of %d codes: the book plays %v, %s computes %v", st.Turns(), st.Remaining(), want, b.Strategy, got)
				}
			}
		})
	}
}

// bookNode plays the turns of one of b's lines (GUESS:FEEDBACK ...
// GUESS) from the start.
func bookNode(t *testing.T, b *strategy.Book, line string) *mm.State {
	t.Helper()
	st, err := mm.NewState(b.Rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(line)
	for _, turn := range fields[:len(fields)-1] {
		gs, fs, ok := strings.Cut(turn, ":")
		if !ok {
			t.Fatalf("line %q: turn %q", line, turn)
		}
		g, err := b.Rules.ParseCode(gs)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		f, err := mm.ParseFeedback(fs, b.Rules.Pegs)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if st, err = st.Play(g, f); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
	}
	return st
}
