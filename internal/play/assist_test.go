package play_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/play"
	"github.com/mastermind-toolkit/mastermind/strategy"
)

// knuthRank is strategy.Rank for knuth, as the mastermind command injects
// it.
func knuthRank(st *mm.State, k int) ([]play.Scored, error) {
	ranked, err := strategy.Rank(st, "knuth", k, false)
	out := make([]play.Scored, len(ranked))
	for i, s := range ranked {
		out[i] = play.Scored{Guess: s.Guess, Consistent: s.Consistent, Parts: s.Parts,
			Largest: s.Largest, Expected: s.Expected, Entropy: s.Entropy}
	}
	return out, err
}

func newAssist(t *testing.T, r mm.Rules) *play.Assist {
	t.Helper()
	a, err := play.NewAssist(play.Config{Rules: r, Strategy: strategy.Knuth{}, Rank: knuthRank, RankBy: "knuth"})
	if err != nil {
		t.Fatalf("NewAssist: %v", err)
	}
	return a
}

func code(t *testing.T, s string) mm.Code {
	t.Helper()
	c, err := mm.Classic.ParseCode(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// text joins the lines of a reply.
func text(ls []play.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func hasKind(ls []play.Line, k play.Kind) bool {
	for _, l := range ls {
		if l.Kind == k {
			return true
		}
	}
	return false
}

// TestAssistSolvesEverySecret plays a scripted codemaker through Assist for
// every secret of classic Mastermind: knuth must find each in at most 5
// guesses, and the count of codes left must shrink to the secret.
func TestAssistSolvesEverySecret(t *testing.T) {
	sp, err := mm.SpaceOf(mm.Classic)
	if err != nil {
		t.Fatal(err)
	}
	step := 1
	if testing.Short() {
		step = 61 // 22 secrets
	}
	total := 0
	for i := 0; i < sp.Len(); i += step {
		secret := sp.Code(i)
		a := newAssist(t, mm.Classic)
		guesses := 0
		for !a.Over() {
			g, ok := a.Guess()
			if !ok {
				t.Fatalf("secret %s: no guess after %d answers", secret, guesses)
			}
			guesses++
			if guesses > 5 {
				t.Fatalf("secret %s: more than 5 guesses", secret)
			}
			if reply := a.Do(mm.Score(secret, g).String()); hasKind(reply, play.Problem) {
				t.Fatalf("secret %s: answer %s to %s: %q", secret, mm.Score(secret, g), g, text(reply))
			}
			if n := a.Remaining(); n < 1 {
				t.Fatalf("secret %s: %d codes left", secret, n)
			}
		}
		if !a.Solved() {
			t.Fatalf("secret %s: session over but not solved", secret)
		}
		total += guesses
	}
	if step == 1 && total != 5801 {
		t.Errorf("knuth took %d guesses over all secrets; want 5801", total)
	}
}

// play sends the lines to a and returns the last reply.
func send(a play.Session, lines ...string) []play.Line {
	var reply []play.Line
	for _, l := range lines {
		reply = a.Do(l)
	}
	return reply
}

func TestAssistConflictAndUndo(t *testing.T) {
	a := newAssist(t, mm.Classic)
	// The secret is 3632: 1122 gets 1 0, 1344 gets 0 1, 3526 gets 1 2.
	send(a, "1 0", "0 1", "1 2")
	before := a.Remaining()
	g, _ := a.Guess() // 1462
	// Mistype 1462's answer: three black cannot agree with 1344's 0 1.
	reply := a.Do("BBB")
	got := text(reply)
	if !hasKind(reply, play.Problem) {
		t.Fatalf("impossible answer: reply %q has no problem", got)
	}
	rows := a.Conflict()
	if len(rows) == 0 || rows[len(rows)-1] != 4 {
		t.Fatalf("Conflict() = %v; want a set ending with answer 4", rows)
	}
	for _, r := range rows {
		if !strings.Contains(got, "answer "+string(rune('0'+r))+":") {
			t.Errorf("reply does not name answer %d:\n%s", r, got)
		}
	}
	for _, way := range []string{`"undo"`, `"drop N"`, `"fix N ANSWER"`} {
		if !strings.Contains(got, way) {
			t.Errorf("reply does not offer %s:\n%s", way, got)
		}
	}
	if _, ok := a.Guess(); ok {
		t.Errorf("a guess is proposed while answers conflict")
	}
	// Further answers wait until the conflict is resolved.
	if reply := a.Do("1 1"); !hasKind(reply, play.Problem) || a.Conflict() == nil {
		t.Errorf("answer during a conflict: %q; want it refused", text(reply))
	}
	reply = a.Do("undo")
	if a.Conflict() != nil || hasKind(reply, play.Problem) {
		t.Fatalf("after undo: conflict %v, reply %q", a.Conflict(), text(reply))
	}
	if g2, ok := a.Guess(); !ok || g2 != g || a.Remaining() != before {
		t.Fatalf("after undo: guess %v %v, %d left; want %v again with %d left", g2, ok, a.Remaining(), g, before)
	}
	send(a, "1 1")
	if g, _ := a.Guess(); g != code(t, "3632") || a.Remaining() != 1 {
		t.Fatalf("after the right answer: guess %v with %d left; want 3632, the only code", g, a.Remaining())
	}
	send(a, "4 0")
	if !a.Solved() {
		t.Fatalf("not solved after 4 0")
	}
}

func TestAssistSmallestConflictNamesOldAnswer(t *testing.T) {
	a := newAssist(t, mm.Classic)
	// 1122 gets 0 0 by mistake: no 1 and no 2. Then the person plays 1111
	// and is told one black: answers 1 and 2 cannot both be true, and
	// neither is the answer before it.
	send(a, "0 0", "guess 3456", "1 0")
	reply := a.Do("guess 1111")
	if hasKind(reply, play.Problem) {
		t.Fatalf("guess 1111: %q", text(reply))
	}
	got := text(a.Do("1 0"))
	if c := a.Conflict(); len(c) != 2 || c[0] != 1 || c[1] != 3 {
		t.Fatalf("Conflict() = %v; want [1 3]\n%s", c, got)
	}
	if !strings.Contains(got, "cannot both be true") {
		t.Errorf("reply:\n%s", got)
	}
	// Correct the first answer: 1122 got 1 0 after all.
	reply = a.Do("fix 1 1 0")
	if a.Conflict() != nil || hasKind(reply, play.Problem) {
		t.Fatalf("after fix: conflict %v, reply %q", a.Conflict(), text(reply))
	}
	if a.Remaining() < 1 {
		t.Fatalf("after fix: %d codes left", a.Remaining())
	}
}

func TestAssistDrop(t *testing.T) {
	a := newAssist(t, mm.Classic)
	send(a, "0 0", "guess 1111", "1 0") // conflict: answers 1 and 2
	if c := a.Conflict(); len(c) != 2 {
		t.Fatalf("Conflict() = %v; want two answers", c)
	}
	reply := a.Do("drop 1")
	if a.Conflict() != nil || hasKind(reply, play.Problem) {
		t.Fatalf("after drop 1: conflict %v, reply %q", a.Conflict(), text(reply))
	}
	b := a.Board()
	if len(b.Rows) != 3 || !b.Rows[0].Dropped || b.Rows[1].N != 2 || b.Rows[2].N != 3 || b.Rows[2].Answered {
		t.Fatalf("board rows after drop 1: %+v; want row 1 dropped, row 2 answered, row 3 to answer", b.Rows)
	}
	// Only 1111's one black is known: 4·5³ = 500 codes have exactly one 1.
	if n := a.Remaining(); n != 500 {
		t.Errorf("Remaining() = %d; want 500", n)
	}
}

// TestAssistBadInput sends input that is not an answer, a code or a
// command: each gets a message and a retry, and the state does not move.
func TestAssistBadInput(t *testing.T) {
	a := newAssist(t, mm.Classic)
	send(a, "1 0")
	g, _ := a.Guess()
	n := a.Remaining()
	for _, in := range []string{
		"5 0", "3 1", "2 3", "0 5", "9", "12 1", "1b1b", "2b3b", "bbbbb", "2x", "-1 0",
		"hello", "🙂", "12345", "123", "1237", "1 2 3", "99999999999999999999",
		strings.Repeat("b", 100), strings.Repeat("1", 40),
		"guess", "guess 7777", "guess 12", "drop", "drop x", "drop 9", "fix", "fix 1", "fix 1 9 9", "fix 9 1 0",
	} {
		reply := a.Do(in)
		if !hasKind(reply, play.Problem) {
			t.Errorf("Do(%q) = %q; want a problem", in, text(reply))
		}
		if g2, _ := a.Guess(); g2 != g || a.Remaining() != n || a.Over() {
			t.Fatalf("Do(%q) changed the state: guess %v, %d left", in, g2, a.Remaining())
		}
	}
	// Every accepted form of the same answer.
	for _, in := range []string{"0 1", "0,1", "01", "1w", "0b1w", "W", "w"} {
		b := newAssist(t, mm.Classic)
		if reply := b.Do(in); hasKind(reply, play.Problem) {
			t.Errorf("Do(%q) = %q; want it taken as 0 black 1 white", in, text(reply))
		} else if b.Remaining() != 256 {
			t.Errorf("Do(%q): %d codes left; want 256", in, b.Remaining())
		}
	}
}

func TestAssistUndoAtStartAndOwnGuess(t *testing.T) {
	a := newAssist(t, mm.Classic)
	if reply := a.Do("undo"); !hasKind(reply, play.Problem) {
		t.Errorf("undo at start: %q; want a problem", text(reply))
	}
	reply := a.Do("1234")
	if g, _ := a.Guess(); g != code(t, "1234") || !strings.Contains(text(reply), "your own") {
		t.Fatalf("own guess: guess %v, reply %q", g, text(reply))
	}
	a.Do("undo") // forgets the typed guess
	if g, _ := a.Guess(); g != code(t, "1122") {
		t.Fatalf("after undo of a typed guess: guess %v; want 1122", g)
	}
	send(a, "guess 1234", "0 4")
	if n := a.Remaining(); n != 9 {
		t.Errorf("1234 with 0 4: %d codes left; want 9", n)
	}
	if rows := a.Board().Rows; !rows[0].Own {
		t.Errorf("row 1 not marked as the person's guess")
	}
}

func TestAssistHint(t *testing.T) {
	a := newAssist(t, mm.Classic)
	send(a, "1 0")
	got := text(a.Do("hint"))
	for _, want := range []string{"knuth proposes 1344", "worst", "1344*", "44"} {
		if !strings.Contains(got, want) {
			t.Errorf("hint lacks %q:\n%s", want, got)
		}
	}
}

func TestAssistLargeVariant(t *testing.T) {
	r := mm.Rules{Colors: 10, Pegs: 8} // 10⁸ codes: not enumerated
	a, err := play.NewAssist(play.Config{Rules: r, Strategy: strategy.Knuth{}, Rank: knuthRank})
	if err != nil {
		t.Fatal(err)
	}
	start := text(a.Start())
	for _, want := range []string{"too many to enumerate", "are caught when", "cannot propose a guess", "guess 12345678"} {
		if !strings.Contains(start, want) {
			t.Errorf("start lacks %q:\n%s", want, start)
		}
	}
	if reply := a.Do("1 0"); !hasKind(reply, play.Problem) {
		t.Errorf("answer without a guess: %q; want a problem", text(reply))
	}
	reply := a.Do("12345678")
	if !strings.Contains(text(reply), "? codes possible") {
		t.Errorf("own guess: %q; want ? codes", text(reply))
	}
	reply = a.Do("2 1")
	if a.Remaining() != -1 || a.Conflict() != nil {
		t.Errorf("after an answer: Remaining %d, Conflict %v; want -1, nil", a.Remaining(), a.Conflict())
	}
	if !strings.Contains(text(a.Do("hint")), "No scores here") {
		t.Errorf("hint on a large variant should say there are no scores")
	}
	if b := a.Board(); !b.Uncounted || !strings.Contains(b.Status, "?") {
		t.Errorf("board: %+v", b)
	}
}

// TestAssistLargeConflict answers contradict each other on a variant too
// large to enumerate: the constraint search catches it and blames the two
// answers at fault, not the innocent one between them.
func TestAssistLargeConflict(t *testing.T) {
	r := mm.Rules{Colors: 10, Pegs: 8}
	a, err := play.NewAssist(play.Config{Rules: r, Strategy: strategy.Knuth{}})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	// No peg of colour 1; a code with one peg not 1 then scores 2 blacks.
	reply := send(a, "11111111", "0 0", "23456789", "0 3", "11111112", "2 0")
	if got := a.Conflict(); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("Conflict() = %v; want answers 1 and 3:\n%s", got, text(reply))
	}
	if !strings.Contains(text(reply), "cannot both be true") {
		t.Errorf("reply does not explain the conflict:\n%s", text(reply))
	}
	reply = send(a, "fix 3 1 0")
	if a.Conflict() != nil || hasKind(reply, play.Problem) {
		t.Errorf("after fixing answer 3: Conflict %v, reply %q", a.Conflict(), text(reply))
	}
}

func TestAssistQuit(t *testing.T) {
	a := newAssist(t, mm.Classic)
	reply := send(a, "1 0", "quit")
	if !a.Over() || a.Solved() || !strings.Contains(text(reply), "Stopped after 1 answer") {
		t.Fatalf("quit: over %v, solved %v, reply %q", a.Over(), a.Solved(), text(reply))
	}
}

func TestNewAssistErrors(t *testing.T) {
	for _, cfg := range []play.Config{
		{},
		{Rules: mm.Rules{Colors: 1, Pegs: 4}, Strategy: strategy.Knuth{}},
		{Rules: mm.Rules{Colors: 40, Pegs: 4}, Strategy: strategy.Knuth{}},
	} {
		if _, err := play.NewAssist(cfg); err == nil {
			t.Errorf("NewAssist(%+v) succeeded; want an error", cfg)
		}
	}
}

// TestAssistUndoChanges checks that undo takes back the last change of
// any kind: a drop restores the answer dropped, a fix restores the answer
// before it, and answers come back off in the reverse order given.
func TestAssistUndoChanges(t *testing.T) {
	a := newAssist(t, mm.Classic)
	say := func(in string) string { return text(a.Do(in)) }
	say("1 0") // 1122
	say("0 1") // 1344
	if n := a.Remaining(); n != 44 {
		t.Fatalf("after two answers, %d codes; want 44", n)
	}
	if got := say("drop 1"); !strings.Contains(got, "Dropped answer 1") {
		t.Fatalf("drop 1 = %q", got)
	}
	dropped := a.Remaining()
	if got := say("undo"); !strings.Contains(got, "Restored answer 1 (1122: 1 black, 0 white)") {
		t.Errorf("undo after drop = %q; want answer 1 restored", got)
	}
	if n := a.Remaining(); n != 44 || n == dropped {
		t.Errorf("after undoing the drop, %d codes; want 44 again", n)
	}
	if rows := a.Board().Rows; rows[0].Dropped {
		t.Errorf("row 1 is still shown dropped after the undo")
	}
	if got := say("fix 2 0 2"); !strings.Contains(got, "Answer 2 is now 0 black, 2 white") {
		t.Fatalf("fix 2 0 2 = %q", got)
	}
	if got := say("undo"); !strings.Contains(got, "Answer 2 is back to 0 black, 1 white (was 0 black, 2 white)") {
		t.Errorf("undo after fix = %q", got)
	}
	if n := a.Remaining(); n != 44 {
		t.Errorf("after undoing the fix, %d codes; want 44", n)
	}
	if got := say("undo"); !strings.Contains(got, "Took back answer 2 (1344") {
		t.Errorf("third undo = %q; want answer 2 taken back", got)
	}
	if got := say("undo"); !strings.Contains(got, "Took back answer 1 (1122") {
		t.Errorf("fourth undo = %q; want answer 1 taken back", got)
	}
	if got := say("undo"); !strings.Contains(got, "There is no answer to take back") {
		t.Errorf("undo with nothing left = %q", got)
	}
	if n := a.Remaining(); n != 1296 {
		t.Errorf("after undoing everything, %d codes; want 1296", n)
	}
}

// TestUnknownWords checks that a mistyped command is reported as one in
// both sessions, not read as a bad code, while a code of the wrong length
// still says what is wrong with it.
func TestUnknownWords(t *testing.T) {
	a := newAssist(t, mm.Classic)
	g, err := play.NewGame(play.Config{Strategy: strategy.Knuth{}}, code(t, "3632"), 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []play.Session{a, g} {
		for _, in := range []string{"hnit", "udno", "Quti", "hello"} {
			if got := text(s.Do(in)); !strings.Contains(got, `Unknown command "`+in+`"; "help" lists the commands.`) {
				t.Errorf("%T.Do(%q) = %q; want an unknown command", s, in, got)
			}
		}
		if got := text(s.Do("12345")); !strings.Contains(got, "has 5 pegs; want 4") {
			t.Errorf("%T.Do(12345) = %q; want the code's length", s, got)
		}
	}
	rgb, _ := mm.NewAlphabet("RGBYOP")
	b, err := play.NewAssist(play.Config{Alphabet: rgb, Strategy: strategy.Knuth{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(b.Do("rgb")); !strings.Contains(got, "has 3 pegs; want 4") {
		t.Errorf("RGBYOP: Do(rgb) = %q; want a code of the wrong length", got)
	}
	if got := text(b.Do("help!")); strings.Contains(got, "Unknown command") {
		t.Errorf("RGBYOP: Do(help!) = %q; a word with a sign is not taken for a command", got)
	}
}

// TestGameRepeatedGuess checks that play refuses a guess already made
// without using a turn.
func TestGameRepeatedGuess(t *testing.T) {
	g, err := play.NewGame(play.Config{Strategy: strategy.Knuth{}}, code(t, "3632"), 3)
	if err != nil {
		t.Fatal(err)
	}
	g.Do("1122")
	got := text(g.Do("1 1 2 2"))
	if !strings.Contains(got, "You played 1122 already, as guess 1 (1 black, 0 white); that costs no turn.") {
		t.Errorf("a repeated guess = %q; want it refused", got)
	}
	if n := len(g.Turns()); n != 1 || g.Prompt() != "guess 2/3> " {
		t.Errorf("after a repeated guess: %d turns, prompt %q; want 1 and guess 2/3", n, g.Prompt())
	}
	g.Do("1344")
	g.Do("3632")
	if !g.Won() {
		t.Errorf("the game is not won after 3632 within 3 guesses")
	}
}

// TestHintFootnote checks that the "* could be the code" footnote comes
// only with a starred guess.
func TestHintFootnote(t *testing.T) {
	for _, tt := range []struct {
		answer string
		star   bool
	}{{"1 0", true}, {"0 2", false}} {
		a := newAssist(t, mm.Classic)
		a.Do(tt.answer)
		hint := text(a.Do("hint"))
		if got := strings.Contains(hint, "* could be the code"); got != tt.star || strings.Contains(hint, "*\n") && !tt.star {
			t.Errorf("after 1122 got %s, the hint\n%s\nhas the footnote: %v; want %v", tt.answer, hint, got, tt.star)
		}
		if got := strings.Count(hint, "*"); (got > 0) != tt.star {
			t.Errorf("after 1122 got %s: %d stars in\n%s", tt.answer, got, hint)
		}
	}
}

// TestAssistBigMistyped plays 20 × 20 with auto's guesses against a
// planted secret, answer 3 mistyped: once the answers contradict each
// other, which the complete solver proves, the answers named must include
// answer 3 (every other is the secret's), and the reply must say which.
// Before, every guess proposed that does not fit the answers (auto's
// sampler may choose one to learn more) must be said not to be among
// the codes possible.
func TestAssistBigMistyped(t *testing.T) {
	r := mm.Rules{Colors: 20, Pegs: 20}
	a, err := play.NewAssist(play.Config{Rules: r, Strategy: strategy.Auto{Budget: 50 * time.Millisecond}, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	rng := rand.New(rand.NewPCG(5, 5))
	secret := mm.RandomCode(r, rng)
	var turns []mm.Turn
	unfit := 0
	for k := 1; k <= 30; k++ {
		g, ok := a.Guess()
		if !ok {
			t.Fatalf("turn %d: no guess proposed", k)
		}
		f := mm.Score(secret, g)
		if k == 3 {
			f.Black, f.White = f.Black+1, f.White-1 // 1 6 for 0 7
		}
		reply := a.Do(f.String())
		turns = append(turns, mm.Turn{Guess: g, Feedback: f})
		if next, ok := a.Guess(); ok && a.Conflict() == nil {
			// Never a guess that cannot be the code without saying so.
			fits := true
			for _, t := range turns {
				fits = fits && mm.Score(next, t.Guess) == t.Feedback
			}
			if said := strings.Contains(text(reply), "this guess not among them"); said == fits {
				t.Errorf("turn %d: guess %s fits every answer: %v; the reply says otherwise:\n%s", k+1, next, fits, text(reply))
			}
			if !fits {
				unfit++
			}
		}
		if c := a.Conflict(); c != nil {
			if !slices.Contains(c, 3) {
				t.Fatalf("turn %d: answers %v named; want answer 3 among them:\n%s", k, c, text(reply))
			}
			t.Logf("turn %d: answers %v named; %d guesses did not fit", k, c, unfit)
			for _, want := range []string{"cannot all be true together", "answer 3: ", "(without it, codes fit)"} {
				if !strings.Contains(text(reply), want) {
					t.Errorf("turn %d: reply lacks %q:\n%s", k, want, text(reply))
				}
			}
			return
		}
	}
	t.Fatal("no conflict found in 30 turns")
}
