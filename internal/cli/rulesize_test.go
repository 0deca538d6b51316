package cli

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestRulesSize checks that --rules takes a size, COLORSxPEGS with
// -distinct for different colours, as optima and the records name
// variants, and that flags beside it change it as they change a game.
func TestRulesSize(t *testing.T) {
	tests := []struct {
		args []string
		want rulesJSON
	}{
		{[]string{"--rules", "8x5"}, rulesJSON{8, 5, false}},
		{[]string{"--rules", "8X5"}, rulesJSON{8, 5, false}},
		{[]string{"--rules", "8×5"}, rulesJSON{8, 5, false}},
		{[]string{"--rules", "10x4-distinct"}, rulesJSON{10, 4, true}},
		{[]string{"--rules", "10x4d"}, rulesJSON{10, 4, true}},
		{[]string{"--rules", "10x4-d"}, rulesJSON{10, 4, true}},
		{[]string{"--rules", "8x5", "--pegs", "4"}, rulesJSON{8, 4, false}},
		{[]string{"--rules", "9x4-distinct", "--distinct=false"}, rulesJSON{9, 4, false}},
		{[]string{"--rules", "2x1"}, rulesJSON{2, 1, false}},
	}
	for _, tt := range tests {
		args := append([]string{"solve", "--json", "--strategy", "first-consistent", "--seed", "3"}, tt.args...)
		var sj solveJSON
		if err := json.Unmarshal([]byte(mustRun(t, "", args...)), &sj); err != nil {
			t.Fatalf("mastermind %s: %v", strings.Join(args, " "), err)
		}
		if sj.Rules != tt.want || !sj.Solved {
			t.Errorf("mastermind %s: rules %+v, solved %v; want %+v, solved", strings.Join(args, " "), sj.Rules, sj.Solved, tt.want)
		}
	}
	// Every command that takes --rules takes a size: grid takes its pegs
	// and colours from it.
	out := mustRun(t, "", "grid", "--rules", "5x3", "--games", "2", "--strategy", "first-consistent", "--csv")
	if !strings.Contains(out, "first-consistent,3,5,") {
		t.Errorf("grid --rules 5x3 --csv:\n%s\nwant a row of 3 pegs and 5 colours", out)
	}
	if got := mustRun(t, "", "score", "--rules", "10x4-distinct", "123A", "A321"); got != "0 4\n" {
		t.Errorf("score --rules 10x4-distinct 123A A321 = %q; want \"0 4\\n\"", got)
	}
	if _, _, err := runCmd(t, "", "score", "--rules", "10x4-distinct", "1123", "1234"); err == nil || !strings.Contains(err.Error(), "distinct") {
		t.Errorf("score --rules 10x4-distinct 1123 1234 = %v; want an error about distinct colours", err)
	}
}

// TestRulesSizeErrors checks that a bad size gets one line that names
// --rules and what is wrong.
func TestRulesSizeErrors(t *testing.T) {
	tests := []struct {
		rules, want string
	}{
		{"1x4", `--rules "1x4": 1 colours; want 2 to 64`},
		{"65x4", `--rules "65x4": 65 colours; want 2 to 64`},
		{"8x0", `--rules "8x0": 0 pegs; want 1 to 100`},
		{"8x101", `--rules "8x101": 101 pegs; want 1 to 100`},
		{"3x4-distinct", `--rules "3x4-distinct": 4 pegs of different colours need at least 4 colours, not 3`},
		{"8x5q", `--rules "8x5q": want a game (classic, super, logik, grand, bulls-cows or bagels) or a size such as 8x5 or 10x4-distinct`},
		{"8x", `--rules "8x": want a game`},
		{"chess", `--rules "chess": unknown; known: classic, super, logik, grand, bulls-cows or bagels, or a size such as 8x5 or 10x4-distinct`},
		{"99999999999999999999x4", `colours; want 2 to 64`},
	}
	for _, tt := range tests {
		_, _, err := runCmd(t, "", "score", "--rules", tt.rules, "1", "1")
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("score --rules %s: error %v; want one line with %q", tt.rules, err, tt.want)
		}
		if code := Report(io.Discard, err); code != 2 {
			t.Errorf("score --rules %s: exit status %d; want 2", tt.rules, code)
		}
	}
}

// TestCompleteRules checks that the shells complete sizes as well as
// games.
func TestCompleteRules(t *testing.T) {
	tests := []struct {
		typed string
		want  []string
		not   []string
	}{
		{"", []string{"classic\t", "bulls-cows\t"}, []string{"x"}},
		{"8", []string{"8x3\t", "8x4\t", "8x5\t8 colours × 5 pegs, 32768 codes", "8x6\t"}, []string{"classic", "distinct"}},
		{"8x5", []string{"8x5\t", "8x5-distinct\t8 colours × 5 pegs, distinct, 6720 codes"}, []string{"8x4"}},
		{"10x4-", []string{"10x4-distinct\t"}, []string{"10x4\t"}},
		{"4x5", []string{"4x5\t"}, []string{"distinct"}},
		{"1", nil, []string{"1x"}},
	}
	for _, tt := range tests {
		out := mustRun(t, "", "__complete", "bench", "--rules", tt.typed)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("completing --rules %q: no %q in\n%s", tt.typed, w, out)
			}
		}
		for _, w := range tt.not {
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, ":") || strings.HasPrefix(line, "Completion") {
					continue
				}
				if name, _, _ := strings.Cut(line, "\t"); strings.Contains(name, w) {
					t.Errorf("completing --rules %q: %q in %q", tt.typed, w, line)
				}
			}
		}
	}
}

// TestSolveDrawn checks solve without a secret: it draws one, says which
// and with what seed, and --seed draws the same one again, the code play
// holds with that seed.
func TestSolveDrawn(t *testing.T) {
	out := mustRun(t, "", "solve", "--seed", "7")
	if !strings.HasPrefix(out, "secret 2212, drawn at random with --seed 7\n\n") || !strings.Contains(out, "solved 2212 in ") {
		t.Errorf("solve --seed 7:\n%s\nwant secret 2212 named first and solved", out)
	}
	if again := mustRun(t, "", "solve", "--seed", "7"); again != out {
		t.Errorf("solve --seed 7 twice:\n%s\nthen\n%s", out, again)
	}
	// Without --seed the seed is random and named, and plays the game
	// again.
	var first solveJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "solve", "--json", "--rules", "super")), &first); err != nil {
		t.Fatal(err)
	}
	if first.Seed == nil || len(first.Secret) != 5 || !first.Solved {
		t.Fatalf("solve --json --rules super = %+v; want a seed, a secret of 5 pegs, solved", first)
	}
	seed := strconv.FormatUint(*first.Seed, 10)
	var again solveJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "solve", "--json", "--rules", "super", "--seed", seed)), &again); err != nil {
		t.Fatal(err)
	}
	if again.Secret != first.Secret || len(again.Guesses) != len(first.Guesses) {
		t.Errorf("solve --seed %s drew %s in %d guesses; the first run drew %s in %d", seed, again.Secret, len(again.Guesses), first.Secret, len(first.Guesses))
	}
	// A secret given has no seed in the JSON, and no line saying so.
	if out := mustRun(t, "", "solve", "--json", "3632"); strings.Contains(out, `"seed"`) {
		t.Errorf("solve --json 3632 = %s; want no seed", out)
	}
	if out := mustRun(t, "", "solve", "3632"); strings.Contains(out, "drawn") {
		t.Errorf("solve 3632:\n%s\nwant no line about a drawn secret", out)
	}
}
