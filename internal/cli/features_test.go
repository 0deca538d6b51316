package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

func TestVersionOf(t *testing.T) {
	tests := []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}}, "mastermind v1.2.0 go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "cf0a33460d87263b95a71ef9171b9d081a23cd11"}, {Key: "vcs.time", Value: "2026-11-23T08:52:10Z"},
			{Key: "vcs.modified", Value: "true"}}},
			"mastermind (commit cf0a33460d87 of 2026-11-23T08:52:10Z, modified) go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"mastermind (devel: built without its commit; go build -buildvcs=true records it) go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "cf0a33460d87263b95a71ef9171b9d081a23cd11"}}},
			"mastermind (commit cf0a33460d87) go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261123085210-cf0a33460d87+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "cf0a33460d87263b95a71ef9171b9d081a23cd11"}}},
			"mastermind v0.0.0-20261123085210-cf0a33460d87+dirty go1.26.8"},
	}
	for _, tt := range tests {
		if got := versionOf(&tt.bi); got != tt.want {
			t.Errorf("versionOf(%+v) = %q; want %q", tt.bi.Main, got, tt.want)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if got := mustRun(t, "", args...); got != version()+"\n" || !strings.HasPrefix(got, "mastermind ") {
			t.Errorf("mastermind %s = %q; want %q", args[0], got, version())
		}
	}
}

// TestCompletion asks the completion machinery as the shells do.
func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"__complete", "bench", "--strategy", "k"}, []string{"knuth\t"}, []string{"entropy"}},
		{[]string{"__complete", "bench", "--strategy", "knuth,en"}, []string{"knuth,entropy\t"}, []string{"knuth,knuth"}},
		{[]string{"__complete", "tree", "--format", ""}, []string{"text\t", "json\t", "dot\t", "irving\t"}, nil},
		{[]string{"__complete", "merge", "--format", ""}, []string{"text\t", "json\t", "dot\t"}, []string{"irving"}},
		{[]string{"__complete", "score", "--rules", "b"}, []string{"bulls-cows\t", "bagels\t"}, nil},
		{[]string{"__complete", ""}, []string{"completion\t", "serve\t", "version\t", "man\t"}, nil},
	}
	for _, tt := range tests {
		out := mustRun(t, "", tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("mastermind %s: no %q in\n%s", strings.Join(tt.args, " "), w, out)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(out, w) {
				t.Errorf("mastermind %s: %q in\n%s", strings.Join(tt.args, " "), w, out)
			}
		}
	}
	if out := mustRun(t, "", "completion", "bash"); !strings.Contains(out, "__start_mastermind") {
		t.Errorf("completion bash does not define the completion function")
	}
	if help := mustRun(t, "", "--help"); !strings.Contains(help, "completion") {
		t.Errorf("--help does not list completion")
	}
}

// TestPresets checks --rules: each game's size, Bulls and Cows' digits,
// and flags beside it changing it.
func TestPresets(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"score", "--rules", "bulls-cows", "0123", "3210"}, "0 4\n"},
		{[]string{"score", "--rules", "Bulls-Cows", "--json", "4071", "4017"}, `{"black":2,"white":2}` + "\n"},
		{[]string{"score", "--rules", "super", "11223", "32211"}, "1 4\n"},
		{[]string{"score", "--rules", "logik", "88888", "18181"}, "2 0\n"},
		{[]string{"score", "--rules", "grand", "1ABP", "PBA1"}, "0 4\n"},
		{[]string{"score", "--rules", "bagels", "012", "210"}, "1 2\n"},
		{[]string{"score", "--rules", "bulls-cows", "--pegs", "3", "012", "210"}, "1 2\n"},
		{[]string{"score", "--rules", "super", "--alphabet", "RGBYOPWK", "RRGGB", "KWRRG"}, "0 3\n"},
	}
	for _, tt := range tests {
		if got := mustRun(t, "", tt.args...); got != tt.want {
			t.Errorf("mastermind %s = %q; want %q", strings.Join(tt.args, " "), got, tt.want)
		}
	}
	var sj solveJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "solve", "--rules", "bulls-cows", "--json", "4071")), &sj); err != nil {
		t.Fatal(err)
	}
	if sj.Rules != (rulesJSON{10, 4, true}) || !sj.Solved || sj.Secret != "4071" || sj.Guesses[0].Guess != "0123" {
		t.Errorf("solve --rules bulls-cows = %+v; want 10 distinct digits, 4 pegs, from 0123", sj)
	}
	// A code with a repeated digit is not a Bulls and Cows code.
	if _, _, err := runCmd(t, "", "score", "--rules", "bulls-cows", "1123", "1234"); err == nil || !strings.Contains(err.Error(), "distinct") {
		t.Errorf("score --rules bulls-cows 1123 = %v; want an error about distinct colours", err)
	}
}

// TestNamedColours checks codes written with colour names.
func TestNamedColours(t *testing.T) {
	args := []string{"--alphabet", "red,green,blue,yellow,orange,purple"}
	if got := mustRun(t, "", append([]string{"score", "red red green green", "green,red,red,blue"}, args...)...); got != "1 2\n" {
		t.Errorf("score with names = %q; want 1 2", got)
	}
	if got := mustRun(t, "", append([]string{"solve", "blue yellow red green"}, args...)...); !strings.Contains(got, "solved BYRG in") {
		t.Errorf("solve with names =\n%s", got)
	}
}

// TestCSV checks that every table is also CSV: one heading, rows of the
// same width.
func TestCSV(t *testing.T) {
	tests := []struct {
		args []string
		head string
		rows int
	}{
		{[]string{"partition", "--csv", "1122", "1234"}, "black,white,1122,1234", 14},
		{[]string{"openings", "--csv", "--colors", "4", "--pegs", "3"}, "rank,opening,strategy,colors,pegs,distinct,games,total,mean,max,seconds", 3},
		{[]string{"bench", "--csv", "--strategy", "knuth", "--max-guesses", "4"}, "strategy,colors,pegs,distinct,games,total,mean,median,stddev,min,max,seconds,won,won_share,1,2,3,4", 1},
		{[]string{"grid", "--csv", "--pegs", "2,3", "--colors", "3", "--games", "5", "--max-guesses", "2"}, "strategy,pegs,colors,log10_size,games,min,max,mean,seconds_per_game,error,won,won_share", 2},
	}
	for _, tt := range tests {
		out := mustRun(t, "", tt.args...)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Errorf("mastermind %s: %v\n%s", strings.Join(tt.args, " "), err, out)
			continue
		}
		if strings.Join(recs[0], ",") != tt.head || len(recs) != tt.rows+1 {
			t.Errorf("mastermind %s: heading %q and %d rows; want %q and %d", strings.Join(tt.args, " "), strings.Join(recs[0], ","), len(recs)-1, tt.head, tt.rows)
		}
	}
	rows, _ := csv.NewReader(strings.NewReader(mustRun(t, "", "partition", "--csv", "1111", "1234"))).ReadAll()
	if strings.Join(rows[1], ",") != "0,0,625,16" {
		t.Errorf("partition --csv first row = %v; want 0,0,625,16 (Table II)", rows[1])
	}
}

// TestMaxGuesses checks that --max-guesses counts the games not won within
// the limit as failed and reports the share won: knuth wins 1+6+62+533 =
// 602 of the 1296 games of 6 × 4 within 4 guesses.
func TestMaxGuesses(t *testing.T) {
	var bj struct {
		MaxGuesses int
		Results    []struct {
			Games, Won, Total, Max int
			WonShare               float64
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", "bench", "--strategy", "knuth", "--max-guesses", "4", "--json")), &bj); err != nil {
		t.Fatal(err)
	}
	r := bj.Results[0]
	if bj.MaxGuesses != 4 || r.Games != 1296 || r.Won != 602 || r.WonShare != 0.4645 || r.Max != 4 {
		t.Errorf("bench --max-guesses 4 --json = %+v; want 1296 games, 602 won (0.4645), max 4", bj)
	}
	golden(t, "bench-max-guesses.golden", noSeconds(mustRun(t, "", "bench", "--strategy", "knuth,random-consistent", "--max-guesses", "5")))
	out := mustRun(t, "", "openings", "--strategy", "knuth", "--max-guesses", "5")
	if !strings.Contains(out, "at most 5 guesses a game") || !strings.Contains(out, "won %") {
		t.Errorf("openings --max-guesses 5:\n%s", out)
	}
	grid := mustRun(t, "", "grid", "--pegs", "3,4", "--colors", "6", "--games", "50", "--strategy", "knuth", "--max-guesses", "4")
	if !strings.Contains(grid, "won %") || !strings.Contains(grid, "at most 4 guesses a game") {
		t.Errorf("grid --max-guesses 4:\n%s", grid)
	}
}

// noSeconds drops the timing row of a bench table.
func noSeconds(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "seconds") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// TestGridDistinct checks that a size that cannot be played with distinct
// colours is a cell with its reason, not the end of the run.
func TestGridDistinct(t *testing.T) {
	out := mustRun(t, "", "grid", "--pegs", "3,5", "--colors", "4,6", "--distinct", "--games", "10", "--strategy", "knuth", "--json")
	var got struct{ Cells []gridCell }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Cells) != 4 {
		t.Fatalf("%d cells; want 4", len(got.Cells))
	}
	for _, c := range got.Cells {
		bad := c.Pegs == 5 && c.Colors == 4
		if bad != (c.Error != "") || (bad && !strings.Contains(c.Error, "5 pegs of different colours need at least 5 colours")) || (!bad && c.Games != 10) {
			t.Errorf("cell %+v", c)
		}
	}
	text := mustRun(t, "", "grid", "--pegs", "3,5", "--colors", "4,6", "--distinct", "--games", "10", "--strategy", "knuth")
	if !strings.Contains(text, "(not playable)") {
		t.Errorf("grid table does not list the unplayable size:\n%s", text)
	}
}

// TestManPage checks that docs/mastermind.1 is the page "mastermind man"
// writes now; go test -update (or go generate ./internal/cli) rewrites it.
func TestManPage(t *testing.T) {
	got := mustRun(t, "", "man")
	file := filepath.Join("..", "..", "docs", "mastermind.1")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s is not the page mastermind man writes; run go generate ./internal/cli", file)
	}
	for _, w := range []string{".TH MASTERMIND 1", `.SS "mastermind bench"`, `\fB\-\-strategy\fR`, ".SH EXIT STATUS", "bulls\\-cows"} {
		if !strings.Contains(got, w) {
			t.Errorf("the man page lacks %q", w)
		}
	}
	// Every line a roff request or text that is not taken for one.
	for i, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "'") {
			t.Errorf("line %d starts with a quote: %q", i+1, line)
		}
	}
}

// TestStrategyNames checks that strategy names are read in any letter
// case, and that tree takes --json like every result command.
func TestStrategyNames(t *testing.T) {
	if got := mustRun(t, "", "solve", "--strategy", "KNUTH", "3632"); !strings.Contains(got, "solved 3632 in 5 guesses with knuth") {
		t.Errorf("solve --strategy KNUTH =\n%s", got)
	}
	var bj struct{ Results []struct{ Strategy string } }
	if err := json.Unmarshal([]byte(mustRun(t, "", "bench", "--strategy", "Knuth, ENTROPY,knuth", "--json")), &bj); err != nil {
		t.Fatal(err)
	}
	if len(bj.Results) != 2 || bj.Results[0].Strategy != "knuth" || bj.Results[1].Strategy != "entropy" {
		t.Errorf("bench --strategy 'Knuth, ENTROPY,knuth' = %+v; want knuth and entropy once each", bj.Results)
	}
	var tj treeJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "tree", "--json", "--colors", "3", "--pegs", "2")), &tj); err != nil {
		t.Fatalf("tree --json: %v", err)
	}
	if tj.Games != 9 || tj.Tree == nil || tj.Strategy != "knuth" {
		t.Errorf("tree --json = %+v", tj)
	}
}

// TestHugeGames checks that bench --games 1000000000 neither allocates its
// games up front nor crashes: it starts at once in a little memory and
// stops when cancelled, as a failure (exit status 1).
func TestHugeGames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	var out, errOut bytes.Buffer
	err := Run(ctx, []string{"bench", "--games", "1000000000", "--strategy", "first-consistent"}, strings.NewReader(""), &out, &errOut, nil)
	close(done)
	if !errors.Is(err, context.DeadlineExceeded) || !IsFailure(err) {
		t.Errorf("bench --games 1000000000, cancelled: %v; want the deadline, as a failure", err)
	}
	if p := peak.Load(); p > 256<<20 {
		t.Errorf("bench --games 1000000000 used %d MiB of heap; the games are not streamed", p>>20)
	}
}

// TestScorePrompt checks that score with no arguments says on stderr what
// it waits for when stdin is a terminal, and only then.
func TestScorePrompt(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var out, errOut bytes.Buffer
		e := newEnv(strings.NewReader("1122 1213\n"), &out, &errOut, nil)
		e.StdinTTY = tty
		if err := e.run(context.Background(), []string{"score"}); err != nil || out.String() != "1 2\n" {
			t.Fatalf("score at a terminal %v: %q, %v", tty, out.String(), err)
		}
		if hint := strings.Contains(errOut.String(), "SECRET GUESS"); hint != tty {
			t.Errorf("score with stdin a terminal %v wrote %q on stderr", tty, errOut.String())
		}
	}
}

// TestServeHelp checks that serve's help lists every endpoint of the API,
// the assist and the coach among them, in lines of at most 79 columns.
func TestServeHelp(t *testing.T) {
	out := mustRun(t, "", "serve", "--help")
	api, _, _ := strings.Cut(out, "Usage:")
	for _, w := range []string{"POST /api/games ", "/guesses", "GET  /api/games/{id}\n", "/hint", "GET  /api/games/{id}/coach", "POST /api/assist", "/api/stats", "/api/config", "/assist.html"} {
		if !strings.Contains(api, w) {
			t.Errorf("serve --help does not list %q:\n%s", w, api)
		}
	}
	for _, line := range strings.Split(api, "\n") {
		if n := utf8.RuneCountInString(line); n > 79 {
			t.Errorf("serve --help: a line of %d columns: %q", n, line)
		}
	}
}

// TestWideAlphabet checks that variants of more than the default
// alphabet's 35 colours, up to 64, play without --alphabet: past Z the
// symbols go on with 0, a–z (in their own case) and #@.
func TestWideAlphabet(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"score", "--colors", "40", "1aaA", "Aaa1"}, "2 2\n"},
		{[]string{"score", "--colors", "64", "0#@z", "@#0Z"}, "1 2\n"},
		{[]string{"solve", "--colors", "64", "--pegs", "3", "--strategy", "auto", "--seed", "1", "a#@"}, "solved a#@ in "},
	} {
		if out := mustRun(t, "", tt.args...); !strings.Contains(out, tt.want) {
			t.Errorf("mastermind %s =\n%s\nwant %q", strings.Join(tt.args, " "), out, tt.want)
		}
	}
}

// TestRefusedBeforeBuilding checks that optimal refuses a variant too large
// for its tables before the game's state is built: on 8 × 8 the state
// alone took 467 MB before the refusal. What is counted is the bytes
// allocated, not the time.
func TestRefusedBeforeBuilding(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := runCmd(t, "", "solve", "--strategy", "optimal", "--colors", "8", "--pegs", "8", "12345678")
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("solve --strategy optimal of 8x8 = nil error; want a refusal")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("solve --strategy optimal of 8x8 allocated %d MiB before it refused; want under 64", n>>20)
	}
}
