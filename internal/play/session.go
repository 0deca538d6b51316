package play

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/large"
)

// A Kind says what a Line of a session's reply is, so that a front end can
// style it or leave it out.
type Kind int

const (
	// Info is ordinary text: an introduction, a hint, a summary.
	Info Kind = iota
	// Problem is input that could not be used, or answers that contradict
	// each other: what went wrong and the ways out.
	Problem
	// Progress reports the state of the board: the guess to play next or
	// the feedback a guess received. A graphical front end that draws the
	// board may leave it out.
	Progress
	// Done reports the end of the game.
	Done
)

// A Line is one line of a session's reply.
type Line struct {
	Kind Kind
	Text string
}

// A Session is a game played one line of input at a time. Its methods do
// no I/O; a Session is not safe for concurrent use.
type Session interface {
	// Start returns the introduction and the first prompt's context.
	Start() []Line
	// Do handles one line the person typed and returns the reply. Bad
	// input gets a Problem line and changes nothing; Do never panics on
	// input.
	Do(input string) []Line
	// Prompt returns the prompt for the next line of input.
	Prompt() string
	// Over reports whether the session has ended.
	Over() bool
	// Board describes the game for a front end that draws it.
	Board() Board
}

// A Board is what a graphical front end draws: the guesses played, the one
// to play next, and what is known.
type Board struct {
	Title    string       // what the session is, e.g. "assist · 6 colours × 4 pegs · knuth"
	Rules    mm.Rules     // the variant, defaults applied
	Alphabet *mm.Alphabet // the symbols of the colours
	Rows     []Row        // the guesses played and the current one, in order
	Limit    int          // rows the game allows, 0 for no limit
	Secret   mm.Code      // the code, once it may be shown
	Revealed bool         // Secret is set
	Status   string       // one line on what is known, e.g. "7 codes possible"
	// Uncounted reports that rows could carry counts of the codes left
	// but the variant is too large to count them.
	Uncounted bool
	// Typing reports that the current guess is the code the person is
	// typing, which a front end may preview in the current row.
	Typing bool
	// Suggest is a code the last reply proposed (play's hint), which a
	// front end with an input line may put there to be edited or sent;
	// empty when the last reply proposed none.
	Suggest string
}

// A Row is one guess on the board.
type Row struct {
	N         int         // the row's number on the board, from 1
	Guess     mm.Code     // the guess; the zero Code when there is none yet
	Feedback  mm.Feedback // the answer, if Answered
	Answered  bool        // the guess has its feedback
	Remaining int         // codes possible after the answer; -1 if unknown
	Own       bool        // assist: the person's guess, not the proposed one
	Conflict  bool        // assist: the answer is one of a contradictory set
	Dropped   bool        // assist: the answer was dropped and is not used
}

// A Scored is a guess with the figures a hint shows: how the guess would
// split the codes still possible.
type Scored struct {
	Guess      mm.Code
	Consistent bool    // the guess could be the code
	Parts      int     // classes the possible codes fall into
	Largest    int     // size of the largest class: the worst case
	Expected   float64 // expected size of the class of the code, Σ n²/N
	Entropy    float64 // entropy of the partition, in bits
}

// A Ranker returns the k best guesses in st, best first, for hints. The
// mastermind command passes strategy.Rank.
type Ranker func(st *mm.State, k int) ([]Scored, error)

// Config is what a session needs besides its own settings.
type Config struct {
	Rules    mm.Rules     // the variant; the zero Rules is classic 6 × 4
	Alphabet *mm.Alphabet // symbols of the colours; nil for the default
	// Strategy proposes the guesses of Assist and plays the hints and the
	// summary game of Game. It must not be nil.
	Strategy mm.Strategy
	// Name names the strategy in messages; empty means its String method
	// or "the solver".
	Name string
	// Rank scores alternatives for Assist's hints; nil means hints show
	// only the proposed guess.
	Rank Ranker
	// RankBy says in a few words what Rank orders by, for the hint's
	// heading, e.g. "knuth: smallest worst case first".
	RankBy string
	// Save writes data to the file called name, for assist's "save"; nil
	// means the session cannot be saved.
	Save func(name string, data []byte) error
	// Rand is the random source of randomised strategies; nil means a
	// source seeded with 0.
	Rand *rand.Rand
}

func (c *Config) check() error {
	c.Rules = c.Rules.WithDefaults()
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	if c.Strategy == nil {
		return errors.New("mastermind: play: no strategy")
	}
	if c.Alphabet == nil {
		c.Alphabet = mm.DefaultAlphabet
	}
	if c.Rules.Colors > c.Alphabet.Len() {
		return fmt.Errorf("mastermind: %d colours need an alphabet of at least %d symbols, and %q has %d",
			c.Rules.Colors, c.Rules.Colors, c.Alphabet.String(), c.Alphabet.Len())
	}
	if c.Name == "" {
		c.Name = "the solver"
		if s, ok := c.Strategy.(fmt.Stringer); ok {
			c.Name = s.String()
		}
	}
	if c.Rand == nil {
		c.Rand = rand.New(rand.NewPCG(0, 0))
	}
	return nil
}

// newState returns the state at the start of a game under c, with its
// candidates enumerated when the variant allows, so that every answer is
// counted and checked, and otherwise watched by the constraint search of
// package large, which catches plain contradictions.
func (c *Config) newState() (*mm.State, error) {
	st, err := mm.NewState(c.Rules, c.Rand)
	if err != nil {
		return nil, err
	}
	if enumerable(c.Rules) {
		if _, err := st.Candidates(); err != nil {
			return nil, err
		}
		return st, nil
	}
	return large.Watch(st), nil
}

// enumerable reports whether the codes of r can be enumerated, to count
// them and to check answers.
func enumerable(r mm.Rules) bool { return r.Size() <= mm.MaxSpace }

// describeRules writes the variant for people: "6 colours × 4 pegs",
// "10 colours × 4 pegs, no repeats", with the symbols when there are few.
func describeRules(r mm.Rules, a *mm.Alphabet) string {
	s := fmt.Sprintf("%d colours × %d pegs", r.Colors, r.Pegs)
	if r.Pegs == 1 {
		s = fmt.Sprintf("%d colours × 1 peg", r.Colors)
	}
	if r.Distinct {
		s += ", no colour twice"
	}
	return s + ", colours " + symbols(r, a)
}

// symbols returns the symbols of the colours of r, each with its name
// when the alphabet names them ("R red, G green, …").
func symbols(r mm.Rules, a *mm.Alphabet) string {
	if !a.Named() {
		return string([]rune(a.String())[:r.Colors])
	}
	s := make([]string, r.Colors)
	for k := range s {
		s[k] = string(a.Symbol(k)) + " " + a.Name(k)
	}
	return strings.Join(s, ", ")
}

// feedbackText writes f for people: "1 black, 2 white".
func feedbackText(f mm.Feedback) string {
	return fmt.Sprintf("%d black, %d white", f.Black, f.White)
}

// codes writes a number of codes: "1 code", "7 codes", "? codes".
func codes(n int) string {
	switch {
	case n < 0:
		return "? codes"
	case n == 1:
		return "1 code"
	}
	return fmt.Sprintf("%d codes", n)
}

// plain returns err's text for a person: without the "mastermind: "
// prefixes and the sentinel's words where the rest says it better.
func plain(err error) string {
	s := err.Error()
	for _, p := range []string{
		mm.ErrInvalidFeedback.Error() + ": ",
		mm.ErrInvalidCode.Error() + ": ",
		mm.ErrTooLarge.Error() + ": ",
	} {
		s = strings.ReplaceAll(s, p, "")
	}
	return strings.ReplaceAll(s, "mastermind: ", "")
}

// command splits input into a lower-case command word and the rest.
func command(input string) (word, rest string) {
	input = strings.TrimSpace(input)
	word, rest, _ = strings.Cut(input, " ")
	return strings.ToLower(word), strings.TrimSpace(rest)
}

func info(format string, args ...any) Line {
	return Line{Info, fmt.Sprintf(format, args...)}
}

func problem(format string, args ...any) Line {
	return Line{Problem, fmt.Sprintf(format, args...)}
}

func progress(format string, args ...any) Line {
	return Line{Progress, fmt.Sprintf(format, args...)}
}

func done(format string, args ...any) Line {
	return Line{Done, fmt.Sprintf(format, args...)}
}

// parseCode reads a code typed by the person. Its error is for people.
func parseCode(r mm.Rules, a *mm.Alphabet, s string) (mm.Code, error) {
	c, err := a.Parse(r, s)
	var pe *mm.ParseError
	if errors.As(err, &pe) {
		return mm.Code{}, errors.New(pe.Msg)
	}
	if err != nil {
		return mm.Code{}, errors.New(plain(err))
	}
	return c, nil
}

// unknownWord reports whether s is one word of letters that cannot be a
// code because some letter is not a colour of the rules, such as "hnit"
// with the colours 123456: a mistyped command rather than a bad code.
func unknownWord(r mm.Rules, a *mm.Alphabet, s string) bool {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) < 2 || strings.ContainsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) }) {
		return false
	}
	for _, c := range s {
		if _, err := a.Parse(mm.Rules{Colors: r.Colors, Pegs: 1}, string(c)); err != nil {
			return true
		}
	}
	return false
}

// unknownCommand is the reply to an unknown word.
func unknownCommand(s string) []Line {
	return []Line{problem(`Unknown command %q; "help" lists the commands.`, strings.TrimSpace(s))}
}

// looksLikeCode reports whether s is written as a code: only symbols of
// the alphabet (and separators), and either as many as the rules' pegs or
// all of them colours of the rules. An error parsing it as a code then
// says more than "not understood".
func looksLikeCode(r mm.Rules, a *mm.Alphabet, s string) bool {
	if a.Named() {
		words := strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' || c == '\t' })
		names := 0
		for _, w := range words {
			if _, err := a.Parse(mm.Rules{Colors: a.Len(), Pegs: 1}, w); err == nil && utf8.RuneCountInString(w) > 1 {
				names++
			}
		}
		if names > 0 && names == len(words) {
			return true
		}
	}
	n, inColours := 0, true
	for _, c := range s {
		if c == ' ' || c == ',' || c == '\t' {
			continue
		}
		if _, err := a.Parse(mm.Rules{Colors: a.Len(), Pegs: 1}, string(c)); err != nil {
			return false
		}
		if _, err := a.Parse(mm.Rules{Colors: r.Colors, Pegs: 1}, string(c)); err != nil {
			inColours = false
		}
		n++
	}
	return n > 0 && (n == r.Pegs || inColours)
}
