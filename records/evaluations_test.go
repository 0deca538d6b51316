package records_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// evaluation is a row of README.md's table of evaluations: a directory of
// a job's partial results, and what merging them gives.
type evaluation struct {
	dir                 string
	games, total, worst int
	histogram           string // "1:1 2:34 …"
}

// evaluations reads the table of README.md whose rows name a directory of
// partials, as a link [large/D/](large/D/), with the columns: partials,
// variant, strategy, games, total, worst, histogram, then any others.
func evaluations(t *testing.T) []evaluation {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []evaluation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 10 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "[large/") {
			continue
		}
		link := strings.TrimSpace(cells[1])
		end := strings.Index(link, "]")
		if end < 0 {
			t.Fatalf("README.md: %q is not a link [large/D/](large/D/)", link)
		}
		dir := link[1:end]
		var e evaluation
		e.dir = strings.TrimSuffix(dir, "/")
		for i, p := range []*int{&e.games, &e.total, &e.worst} {
			n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(cells[4+i]), " ", ""))
			if err != nil {
				t.Fatalf("README.md, %s: column %d: %v", dir, 4+i, err)
			}
			*p = n
		}
		e.histogram = strings.TrimSpace(cells[7])
		out = append(out, e)
	}
	return out
}

// TestEvaluations merges the partial results of each evaluation under
// large/, as mastermind merge does, and checks them against README.md's
// table; and that every directory of partials under large/ is in it.
func TestEvaluations(t *testing.T) {
	rows := evaluations(t)
	listed := map[string]bool{}
	for _, e := range rows {
		listed[e.dir] = true
		files, err := filepath.Glob(filepath.Join(e.dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no partial results (%v)", e.dir, err)
		}
		p, err := shard.Collect(files)
		if err != nil {
			t.Fatalf("%s: %v", e.dir, err)
		}
		job, err := shard.ReadJob(p.Plan)
		if err != nil {
			t.Fatalf("%s: %v", e.dir, err)
		}
		if len(job.Works) != 1 {
			t.Fatalf("%s: %d works; want one", e.dir, len(job.Works))
		}
		st, _, err := job.Works[0].Report(p.Results)
		if err != nil {
			t.Fatalf("%s: %v", e.dir, err)
		}
		var h []string
		for n, c := range st.Histogram {
			if c > 0 {
				h = append(h, strconv.Itoa(n)+":"+strconv.Itoa(c))
			}
		}
		got := evaluation{dir: e.dir, games: st.Games, total: st.Total, worst: st.Max, histogram: strings.Join(h, " ")}
		if got != e || st.Failed != 0 {
			t.Errorf("%s: merged %+v (%d failed); README.md says %+v", e.dir, got, st.Failed, e)
		}
	}
	entries, err := os.ReadDir("large")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		if name := "large/" + d.Name(); d.IsDir() && !listed[name] {
			t.Errorf("%s holds partial results that README.md's table of evaluations does not list", name)
		}
	}
}
