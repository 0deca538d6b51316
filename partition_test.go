package mastermind_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/gametest"
)

// table2 is the content of testdata/table2.golden: the guesses, the
// feedbacks of the rows and, for each guess, the count of each row.
type table2 struct {
	guesses   []string
	feedbacks []mm.Feedback
	counts    [][]int // counts[row][guess]
}

func readTable2(t *testing.T) table2 {
	t.Helper()
	f, err := os.Open("testdata/table2.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tab table2
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if fields[0] == "feedback" {
			tab.guesses = fields[1:]
			continue
		}
		var fb mm.Feedback
		if _, err := fmt.Sscanf(fields[0], "[%d,%d]", &fb.Black, &fb.White); err != nil {
			t.Fatalf("table2.golden: bad row %q: %v", line, err)
		}
		if len(fields) != len(tab.guesses)+1 {
			t.Fatalf("table2.golden: row %q has %d counts; want %d", line, len(fields)-1, len(tab.guesses))
		}
		row := make([]int, len(tab.guesses))
		for i, s := range fields[1:] {
			if row[i], err = strconv.Atoi(s); err != nil {
				t.Fatalf("table2.golden: row %q: %v", line, err)
			}
		}
		tab.feedbacks = append(tab.feedbacks, fb)
		tab.counts = append(tab.counts, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestTable2 reproduces Table II of seeds/002 exactly: the partition of all
// 6x4 codes by the first guesses 1111, 1112, 1122, 1123 and 1234.
func TestTable2(t *testing.T) {
	tab := readTable2(t)
	if want := []string{"1111", "1112", "1122", "1123", "1234"}; strings.Join(tab.guesses, " ") != strings.Join(want, " ") {
		t.Fatalf("table2.golden guesses = %v; want %v", tab.guesses, want)
	}
	r := mm.Classic
	if len(tab.feedbacks) != r.NumFeedbacks() {
		t.Fatalf("table2.golden has %d rows; want NumFeedbacks() = %d", len(tab.feedbacks), r.NumFeedbacks())
	}
	fs := r.Feedbacks()
	for i, f := range tab.feedbacks {
		if fs[i] != f {
			t.Errorf("row %d of table2.golden is %v but Feedbacks()[%d] = %v", i, f, i, fs[i])
		}
	}
	sp := mustSpace(t, r)
	for j, gs := range tab.guesses {
		g := gametest.MustParse(t, r, gs)
		parts, err := sp.All().Partition(g)
		if err != nil {
			t.Fatalf("Partition(%v): %v", g, err)
		}
		got := map[mm.Feedback]int{}
		total := 0
		for _, p := range parts {
			if p.Count == 0 {
				t.Errorf("Partition(%v) lists empty part %v", g, p)
			}
			got[p.Feedback] = p.Count
			total += p.Count
		}
		if total != 1296 {
			t.Errorf("Partition(%v) counts %d codes; want 1296", g, total)
		}
		for i, f := range tab.feedbacks {
			if got[f] != tab.counts[i][j] {
				t.Errorf("Partition(%v)[%v] = %d; want %d (Table II)", g, f, got[f], tab.counts[i][j])
			}
			delete(got, f)
		}
		for f, n := range got {
			t.Errorf("Partition(%v) has part %v of %d codes, which Table II lacks", g, f, n)
		}
	}
	// Knuth's criterion picks 1122: the smallest largest part of the five.
	best, bestMax := "", 1<<30
	for j, gs := range tab.guesses {
		m := 0
		for i := range tab.feedbacks {
			m = max(m, tab.counts[i][j])
		}
		if m < bestMax {
			best, bestMax = gs, m
		}
	}
	if best != "1122" || bestMax != 256 {
		t.Errorf("smallest largest part of Table II: %s with %d; want 1122 with 256", best, bestMax)
	}
}

func TestPartitionErrors(t *testing.T) {
	sp := mustSpace(t, mm.Classic)
	for _, g := range []mm.Code{mustCode(t, 0, 0, 0), mustCode(t, 0, 0, 0, 6), mustCode(t, 0, 0, 0, 0, 0)} {
		if _, err := sp.All().Partition(g); !errors.Is(err, mm.ErrInvalidCode) {
			t.Errorf("Partition(%v) error = %v; want ErrInvalidCode", g, err)
		}
		if _, err := sp.All().Filter(g, mm.Feedback{}); !errors.Is(err, mm.ErrInvalidCode) {
			t.Errorf("Filter(%v) error = %v; want ErrInvalidCode", g, err)
		}
	}
}

func ExampleSet_Partition() {
	sp, err := mm.SpaceOf(mm.Classic)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _ := mm.Classic.ParseCode("1122")
	parts, err := sp.All().Partition(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range parts {
		fmt.Println(p)
	}
	// Output:
	// 0 0: 256
	// 0 1: 256
	// 0 2: 96
	// 0 3: 16
	// 0 4: 1
	// 1 0: 256
	// 1 1: 208
	// 1 2: 36
	// 2 0: 114
	// 2 1: 32
	// 2 2: 4
	// 3 0: 20
	// 4 0: 1
}
