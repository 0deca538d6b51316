package large

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// readHistory reads a game of r from path: one turn a line, the guess's
// colours (from 0) separated by spaces, "|", then black and white.
func readHistory(t *testing.T, r mm.Rules, path string) *mm.State {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := mm.NewState(r, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		guess, answer, ok := strings.Cut(sc.Text(), "|")
		var pegs, bw []int
		for _, w := range append(strings.Fields(guess), strings.Fields(answer)...) {
			n, err := strconv.Atoi(w)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			pegs = append(pegs, n)
		}
		if !ok || len(pegs) != r.Pegs+2 {
			t.Fatalf("%s: %q is not a turn of %v", path, sc.Text(), r)
		}
		pegs, bw = pegs[:r.Pegs], pegs[r.Pegs:]
		g, err := mm.NewCode(pegs...)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Play(g, mm.Feedback{Black: bw[0], White: bw[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return st
}
