package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/exact"
	"github.com/mastermind-toolkit/mastermind/internal/shard"
	"github.com/mastermind-toolkit/mastermind/records"
)

// TestOptimaResume solves the table's smallest rows, runs again and
// solves nothing, and solves a row again to the same bytes.
func TestOptimaResume(t *testing.T) {
	dir := t.TempDir()
	out := mustRun(t, "", "optima", "--dir", dir, "--max-codes", "30")
	for _, row := range []string{"2x3: 8 codes, total 18", "3x3: 27 codes, total 73", "2x4: 16 codes, total 44",
		"3x3-distinct: 6 codes, total 15", "4x3-distinct: 24", "4x4-distinct: 24"} {
		if !strings.Contains(out, row) {
			t.Errorf("optima --max-codes 30 said\n%s\nwant a line %q", out, row)
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "optimal.csv"))
	if err != nil || strings.Count(string(csv), "\n") != 7 {
		t.Fatalf("optimal.csv = %q, %v; want a header and 6 rows", csv, err)
	}
	if again := mustRun(t, "", "optima", "--dir", dir, "--max-codes", "30"); again != "" {
		t.Errorf("a second run solved rows already in the table:\n%s", again)
	}
	tree := filepath.Join(dir, "optimal", "3x3.json.gz")
	before, err := os.ReadFile(tree)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "optima", "--dir", dir, "--only", "3x3", "--redo")
	if err != nil || !strings.HasPrefix(out, "3x3: 27 codes") {
		t.Errorf("--only 3x3 --redo said %q, %v", out, err)
	}
	// 3 x 3 needs 4 guesses at most: whether 3 suffice is asked of Fits,
	// which answers, before any search of the least total within 3.
	if !strings.Contains(errOut, "3x3: no strategy keeps to 3 guesses") {
		t.Errorf("--only 3x3 --redo wrote on stderr\n%s\nwant a line saying no strategy keeps to 3 guesses", errOut)
	}
	if after, _ := os.ReadFile(tree); string(after) != string(before) {
		t.Errorf("3x3 solved again wrote a different tree file")
	}
	list := mustRun(t, "", "optima", "--dir", dir, "--list")
	if !strings.Contains(list, "| [3 × 3](optimal/3x3.json.gz) | 27 | 73 | 2.7037 | 4 | 4 | 73 |") {
		t.Errorf("--list =\n%s", list)
	}
}

func TestOptimaErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--only", "6x"}, "want COLORSxPEGS"},
		{[]string{"--only", "6x4x"}, "want COLORSxPEGS"},
		{[]string{"--only", "6x04"}, "want COLORSxPEGS"},
		{[]string{"--redo"}, "--redo needs --only"},
		{[]string{"--rules", "super"}, "name rows with --only"},
		// --max-codes 1: no row to solve, should a flag be taken.
		{[]string{"--colors", "8", "--max-codes", "1"}, "--colors: optima solves the table's variants"},
		{[]string{"--pegs", "5", "--max-codes", "1"}, "--pegs: optima solves the table's variants"},
		{[]string{"--list"}, "--list: there is no table at " + filepath.Join(dir, "optimal.csv")},
		{[]string{"--max-codes", "0"}, "--max-codes"},
		{[]string{"--only", "1x3"}, "1 colours"},
		{[]string{"--only", "12x12"}, "too large"},
	} {
		_, _, err := runCmd(t, "", append([]string{"optima", "--dir", dir}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("optima %v: %v; want an error saying %q", tc.args, err, tc.want)
		}
	}
}

func TestBound(t *testing.T) {
	out := mustRun(t, "", "bound", "--colors", "6", "--pegs", "4", "--depth", "2")
	if !strings.HasPrefix(out, "6 colours × 4 pegs: every strategy needs at least 5429 guesses in all (mean 4.1890), by every guess 2 deep; the least from first guess 1123;") {
		t.Errorf("bound = %q", out)
	}
	if _, _, err := runCmd(t, "", "bound", "--depth", "0"); err == nil || !strings.Contains(err.Error(), "--depth") {
		t.Errorf("bound --depth 0: %v", err)
	}
	out = mustRun(t, "", "bound", "--colors", "6", "--pegs", "4", "--depth", "2", "--exact", "64")
	if !strings.HasPrefix(out, "6 colours × 4 pegs: every strategy needs at least 5625 guesses in all (mean 4.3403), by every guess 2 deep;") {
		t.Errorf("bound --exact 64 = %q", out)
	}
	if _, _, err := runCmd(t, "", "bound", "--exact", "-1"); err == nil || !strings.Contains(err.Error(), "--exact") {
		t.Errorf("bound --exact -1: %v", err)
	}
}

// TestFileJournal checks that a journal kept in files gives back, when
// opened again, the units and beaten first guesses a search put in it, and
// refuses to serve another variant or limit.
func TestFileJournal(t *testing.T) {
	dir := t.TempDir()
	r := mm.Rules{Colors: 5, Pegs: 4}
	st, _ := mm.NewState(r, nil)
	j, err := openJournal(dir, r, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exact.SolveOpenings(context.Background(), st, nil, j)
	if err != nil {
		t.Fatal(err)
	}
	again, err := openJournal(dir, r, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if again.Units() == 0 || again.Units() != j.Units() {
		t.Fatalf("reopened, the journal has %d units; %d were put", again.Units(), j.Units())
	}
	// Everything from the journal: the same tree, no unit solved again.
	got, err := exact.SolveOpenings(context.Background(), st, nil, again)
	if err != nil || got.Total != want.Total || got.Depth != want.Depth || again.Units() != j.Units() {
		t.Fatalf("from the journal: %+v, %v, %d units; want %d, depth %d, %d units", got, err, again.Units(), want.Total, want.Depth, j.Units())
	}
	var a, b bytes.Buffer
	records.WriteOptimumTree(&a, records.NewFile(r, "optimal", nil, want.Tree))
	records.WriteOptimumTree(&b, records.NewFile(r, "optimal", nil, got.Tree))
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the tree from the journal differs")
	}
	g, _ := r.ParseCode("1234")
	if err := again.Beat(g); err != nil {
		t.Fatal(err)
	}
	if third, _ := openJournal(dir, r, 0, -1); !third.Beaten(g) {
		t.Error("a beaten first guess was not kept")
	}
	if _, err := openJournal(dir, mm.Rules{Colors: 6, Pegs: 4}, 0, -1); err == nil {
		t.Error("the journal of 5x4 opened for 6x4")
	}
}

// TestFileJournalLooser checks that the search within a limit takes from
// the search without one the units that keep to the limit, no others, and
// their totals as floors, and still finds Solve's least total within the
// limit.
func TestFileJournalLooser(t *testing.T) {
	dir := t.TempDir()
	r := mm.Rules{Colors: 6, Pegs: 4}
	st, _ := mm.NewState(r, nil)
	ctx := context.Background()
	j0, _ := openJournal(dir, r, 0, -1)
	if _, err := exact.SolveOpenings(ctx, st, nil, j0); err != nil {
		t.Fatal(err)
	}
	j5, _ := openJournal(dir, r, 5, -1)
	j5.looser = []*fileJournal{j0}
	opts := &exact.Options{MaxDepth: 5, AnyWorstCase: true}
	got, err := exact.SolveOpenings(ctx, st, opts, j5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exact.Solve(ctx, st, &exact.Options{MaxDepth: 5})
	if err != nil || got.Total != want.Total || got.Depth > 5 {
		t.Fatalf("within 5 from the search without a limit: %d depth %d; Solve %d, %v", got.Total, got.Depth, want.Total, err)
	}
	if j5.Kept() == 0 || j5.Kept() >= j0.Units() {
		t.Errorf("within 5: %d units solved, %d without a limit; want some, and fewer", j5.Kept(), j0.Units())
	}
	took, deep := 0, 0
	for _, u := range j0.list.Units {
		g, _ := r.ParseCode(u.Guess)
		f := mm.Feedback{Black: u.Black, White: u.White}
		if fl, ok := j5.Floor(g, f); !ok || fl > u.Total {
			t.Errorf("floor of %s %v = %d, %v; want at most %d", u.Guess, f, fl, ok, u.Total)
		}
		own, solved := j5.list.unit(u.Guess, u.Black, u.White)
		v, ok := j5.Unit(g, f)
		switch {
		case !ok:
			t.Errorf("unit %s %v not found within 5", u.Guess, f)
		case u.Depth+1 <= 5 && !solved:
			took++
			if v.Total != u.Total {
				t.Errorf("unit %s %v within 5: %d; without a limit %d", u.Guess, f, v.Total, u.Total)
			}
		case u.Depth+1 > 5:
			deep++
			if !solved || own.Total < u.Total || v.Depth+1 > 5 {
				t.Errorf("unit %s %v of depth %d without a limit, within 5: %+v (solved %v)", u.Guess, f, u.Depth, v, solved)
			}
		}
	}
	if took == 0 || deep == 0 {
		t.Errorf("%d units taken from the search without a limit, %d too deep for it; want some of each", took, deep)
	}
}

// TestFileJournalDamaged checks that a part whose tree file is missing or
// is not the tree listed is solved again, to the same result.
func TestFileJournalDamaged(t *testing.T) {
	dir := t.TempDir()
	r := mm.Rules{Colors: 4, Pegs: 4}
	st, _ := mm.NewState(r, nil)
	j, _ := openJournal(dir, r, 0, -1)
	want, err := exact.SolveOpenings(context.Background(), st, nil, j)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "0-*.json.gz"))
	if len(files) < 2 {
		t.Fatalf("%d tree files", len(files))
	}
	os.Remove(files[0])
	swapped, _ := os.ReadFile(files[len(files)-1])
	os.WriteFile(files[1], swapped, 0o644) // another part's tree
	again, _ := openJournal(dir, r, 0, -1)
	got, err := exact.SolveOpenings(context.Background(), st, nil, again)
	if err != nil || got.Total != want.Total || got.Depth != want.Depth {
		t.Fatalf("with a tree file gone and one swapped: %+v, %v; want %d, depth %d", got, err, want.Total, want.Depth)
	}
	if again.Units() != j.Units() {
		t.Errorf("the parts solved again were listed twice: %d entries, %d parts", again.Units(), j.Units())
	}
}

// TestOptimaLocked checks that a second run on a table another run holds
// is refused, not let to overwrite it.
func TestOptimaLocked(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "optimal"), 0o755)
	unlock, err := lockDir(filepath.Join(dir, "optimal", ".lock"), false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "", "optima", "--dir", dir, "--max-codes", "10")
	if err == nil || !strings.Contains(err.Error(), "one run at a time") {
		t.Errorf("optima on a locked table: %v; want refused", err)
	}
	_, _, err = runCmd(t, "", "optima", "--dir", dir, "--max-codes", "10", "--shard", "0/2")
	unlock()
	if err == nil || !strings.Contains(err.Error(), "shards wait") {
		t.Errorf("a shard on a table a whole run holds: %v; want refused", err)
	}
	// Shards share the lock, and keep a whole run or a merge out.
	unlock, err = lockDir(filepath.Join(dir, "optimal", ".lock"), true)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "", "optima", "--dir", dir, "--max-codes", "10", "--merge")
	if err == nil || !strings.Contains(err.Error(), "none while shards run") {
		t.Errorf("a merge while a shard runs: %v; want refused", err)
	}
	if _, _, err := runCmd(t, "", "optima", "--dir", dir, "--max-codes", "10", "--shard", "1/2"); err != nil {
		t.Errorf("a shard beside another: %v", err)
	}
	unlock()
	if _, _, err := runCmd(t, "", "optima", "--dir", dir, "--max-codes", "10"); err != nil {
		t.Errorf("optima once the lock was let go: %v", err)
	}
}

// TestOptimaShards shares rows out among shards, two at once, in rounds
// until the merge writes them, and checks that the rows and trees are the
// whole run's, byte for byte, with the shards' time added up.
func TestOptimaShards(t *testing.T) {
	whole, sharded := t.TempDir(), t.TempDir()
	const only = "4x4,3x4,5x3-distinct"
	mustRun(t, "", "optima", "--dir", whole, "--only", only)
	if _, _, err := runCmd(t, "", "optima", "--dir", sharded, "--only", only, "--merge"); err == nil ||
		!strings.Contains(err.Error(), "searches not done: 4x4, 3x4, 5x3-distinct") {
		t.Fatalf("merge before any shard ran: %v; want it to name the rows not done", err)
	}
	if _, err := os.Stat(filepath.Join(sharded, "optimal", "partial")); err == nil {
		t.Errorf("a merge before any shard ran wrote journals")
	}
	rounds := 0
	for ; ; rounds++ {
		if rounds > 4 {
			t.Fatalf("no merge after %d rounds of shards", rounds)
		}
		outs := make([]string, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for k := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[k], _, errs[k] = runCmd(t, "", "optima", "--dir", sharded, "--only", only, "--shard", fmt.Sprintf("%d/2", k))
			}()
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("round %d, shard %d/2: %v", rounds, k, err)
			}
			if !strings.Contains(outs[k], fmt.Sprintf("shard %d/2 kept", k)) && !strings.Contains(outs[k], "every search is done") {
				t.Errorf("round %d, shard %d/2 said\n%s", rounds, k, outs[k])
			}
		}
		if _, _, err := runCmd(t, "", "optima", "--dir", sharded, "--only", only, "--merge"); err == nil {
			break
		} else if !strings.Contains(err.Error(), "searches not done") {
			t.Fatalf("merge after round %d: %v", rounds, err)
		}
	}
	if rounds < 1 {
		t.Errorf("merged after the first round; every row should need a second search, of its fewest guesses")
	}
	read := func(dir string) []records.Optimum {
		rows, err := readOptima(filepath.Join(dir, "optimal.csv"))
		if err != nil || len(rows) != 3 {
			t.Fatalf("%s: %d rows, %v", dir, len(rows), err)
		}
		return rows
	}
	wall := 0.0
	for i, s := range read(sharded) {
		w := read(whole)[i]
		wall += s.WallSeconds
		s.CPUSeconds, s.WallSeconds, w.CPUSeconds, w.WallSeconds = 0, 0, 0, 0
		if s != w {
			t.Errorf("sharded row %+v; whole %+v", s, w)
		}
		a, _ := os.ReadFile(filepath.Join(whole, s.File))
		b, err := os.ReadFile(filepath.Join(sharded, s.File))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the sharded tree differs from the whole run's (%v)", s.File, err)
		}
	}
	// (The shards share this process's CPU clock, so only the wall time
	// says that their time was added.)
	if wall <= 0 {
		t.Errorf("the sharded rows took %.1f s wall in all; want the shards' time", wall)
	}
	if _, err := os.Stat(filepath.Join(sharded, "optimal", "partial")); err == nil {
		t.Errorf("the partial directory is left after the merge")
	}
	_, _, err := runCmd(t, "", "optima", "--dir", sharded, "--only", "4x4", "--shard", "0/2", "--merge")
	if err == nil || !strings.Contains(err.Error(), "run whole") {
		t.Errorf("optima --shard --merge: %v; want refused", err)
	}
}

// unit returns the entry of the unit of g's answer black, white in l.
func (l *journalList) unit(g string, black, white int) (journalUnit, bool) {
	for _, u := range l.Units {
		if u.Guess == g && u.Black == black && u.White == white {
			return u, true
		}
	}
	return journalUnit{}, false
}

// boundOf returns what a line of bound or of its merge proves: the line
// up to the sets and seconds.
func boundOf(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, "; the least from first guess ")
	if i < 0 {
		t.Fatalf("not a bound: %q", out)
	}
	j := strings.Index(out[i+1:], ";")
	if j < 0 {
		t.Fatalf("not a bound: %q", out)
	}
	return out[:i+1+j]
}

// TestBoundShards checks that the shards of bound, merged, prove what the
// whole search proves, and that a shard run again with a partial of some
// of its units bounds only the others and merges the same.
func TestBoundShards(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		shards int
	}{
		{[]string{"bound", "--colors", "6", "--pegs", "4", "--depth", "3"}, 3},
		{[]string{"bound", "--colors", "6", "--pegs", "4", "--depth", "2", "--exact", "16"}, 2},
		{[]string{"bound", "--colors", "7", "--pegs", "4", "--depth", "2", "--cutoff", "11228"}, 4},
	} {
		whole := boundOf(t, mustRun(t, "", tc.args...))
		dir := t.TempDir()
		files := runShards(t, dir, tc.shards, tc.args...)
		if got := boundOf(t, mustRun(t, "", append([]string{"merge"}, files...)...)); got != whole {
			t.Errorf("%v in %d shards merged: %q; the whole run %q", tc.args, tc.shards, got, whole)
		}

		// A partial that lost the results of some units, as one stopped
		// midway has not got them: rerun, the shard bounds them.
		p, err := shard.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		n := len(p.Results)
		p.Results = p.Results[:n/2]
		if err := shard.WriteFile(files[0], p); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runCmd(t, "", "merge", dir); err == nil || !strings.Contains(err.Error(), "lacks the result") {
			t.Errorf("merge of a shard cut short: %v; want it refused", err)
		}
		a := append(slices.Clone(tc.args), "--shard", fmt.Sprintf("0/%d", tc.shards), "--out", files[0])
		_, stderr, err := runCmd(t, "", a...)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%d units done (%d in this run", n, n-n/2); !strings.Contains(stderr, want) {
			t.Errorf("the shard resumed said %q; want %q", stderr, want)
		}
		if got := boundOf(t, mustRun(t, "", "merge", dir)); got != whole {
			t.Errorf("%v resumed and merged: %q; the whole run %q", tc.args, got, whole)
		}
	}
}

func TestBoundShardErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "part.json")
	mustRun(t, "", "bound", "--colors", "5", "--pegs", "3", "--depth", "2", "--shard", "0/2", "--out", out)
	whole := filepath.Join(dir, "whole.json")
	mustRun(t, "", "bound", "--colors", "5", "--pegs", "3", "--depth", "2", "--out", whole)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bound", "--colors", "5", "--pegs", "3", "--depth", "3", "--shard", "0/2", "--out", out}, "another job"},
		{[]string{"bound", "--colors", "5", "--pegs", "3", "--depth", "2", "--shard", "1/2", "--out", out}, "another job or shard"},
		{[]string{"bound", "--rules", "logik", "--depth", "4", "--exact", "8", "--workers", "64", "--shard", "0/9", "--out", out}, "give --workers"},
		{[]string{"bound", "--depth", "3", "--run-limit", "1h"}, "--out"},
		{[]string{"bound", "--depth", "3", "--cutoff", "-1"}, "--cutoff"},
		{[]string{"merge", "--json", whole}, "--json does not apply to bound"},
	} {
		_, _, err := runCmd(t, "", tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want an error saying %q", tc.args, err, tc.want)
		}
	}
}

// TestBoundPieces checks that the pieces a shard of bound keeps of its
// units under way are read back by the next run of the shard, but for
// those of units done since, and refused for another job.
func TestBoundPieces(t *testing.T) {
	dir := t.TempDir()
	p, err := shard.NewPartial("bound", map[string]string{"depth": "4"}, shard.Spec{Index: 1, Count: 3}, "plan", []int64{5, 4, 3, 2, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "part-1.json.pieces")
	bp, err := openPieces(path, p)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := mm.NewCode(0, 1, 2, 3)
	f := mm.Feedback{Black: 1, White: 2}
	for u, v := range []int{10, 20, 30} {
		if err := bp.Keep(u, g, f, 100+u, v, int64(u+1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bp.flush(); err != nil {
		t.Fatal(err)
	}
	p.Results = []shard.Result{{Unit: 1}} // unit 1 done since
	again, err := openPieces(path, p)
	if err != nil {
		t.Fatal(err)
	}
	if v, sets, ok := again.Piece(2, g, f, 102); !ok || v != 30 || sets != 3 {
		t.Errorf("piece of unit 2 read back: %d, %d sets, %v; want 30, 3, true", v, sets, ok)
	}
	if _, _, ok := again.Piece(1, g, f, 101); ok {
		t.Error("a piece of a unit done was read back")
	}
	if _, _, ok := again.Piece(2, g, f, 103); ok {
		t.Error("a piece of another room was read back")
	}
	for _, u := range []int{0, 2} {
		if err := again.finished(u); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the pieces of no unit under way are still there: %v", err)
	}
	if err := bp.flush(); err != nil { // written again, for the test below
		t.Fatal(err)
	}
	bp.dirty = true
	if err := bp.flush(); err != nil {
		t.Fatal(err)
	}
	other, _ := shard.NewPartial("bound", map[string]string{"depth": "3"}, shard.Spec{Index: 1, Count: 3}, "plan", []int64{5, 4, 3, 2, 1, 1})
	if _, err := openPieces(path, other); err == nil || !strings.Contains(err.Error(), "another job") {
		t.Errorf("pieces of another job: %v; want them refused", err)
	}
}

// TestBoundMergeCPU checks that the merge of a shard run one unit at a
// time adds up its units' CPU seconds, even where a unit took none
// measurable (a sum was once left out whenever one rounded to 0).
func TestBoundMergeCPU(t *testing.T) {
	if _, ok := cpuTime(); !ok {
		t.Skip("no CPU time on this system")
	}
	out := filepath.Join(t.TempDir(), "part.json")
	mustRun(t, "", "bound", "--colors", "3", "--pegs", "3", "--depth", "2", "--workers", "1", "--out", out)
	if got := mustRun(t, "", "merge", out); !strings.HasSuffix(strings.TrimSpace(got), " s CPU") {
		t.Errorf("merge of a run one unit at a time: %q; want its CPU seconds", got)
	}
}
