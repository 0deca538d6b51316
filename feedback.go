package mastermind

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Feedback is the codemaker's answer to a guess: Black pegs for the right
// colour in the right place, White pegs for the right colour in the wrong
// place.
type Feedback struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// String writes f as "B W", the form the score command prints.
func (f Feedback) String() string {
	return strconv.Itoa(f.Black) + " " + strconv.Itoa(f.White)
}

// Solved reports whether f says every one of pegs pegs is right.
func (f Feedback) Solved(pegs int) bool { return f.Black == pegs && f.White == 0 }

// Score returns the feedback a guess receives when the secret is secret.
// Score is symmetric: Score(a, b) == Score(b, a). Repeated colours count
// once per matching pair, so 1122 against 2211 is 0 black and 4 white.
//
// Score panics if the codes differ in length. It costs O(pegs); the packed
// scoring of Set is far faster for many codes.
func Score(secret, guess Code) Feedback {
	if secret.n != guess.n {
		panic(fmt.Sprintf("mastermind: Score of a %d-peg code against a %d-peg code", secret.n, guess.n))
	}
	var left [MaxColors]int8
	black := 0
	for i := uint8(0); i < secret.n; i++ {
		s, g := secret.pegs[i], guess.pegs[i]
		if s == g {
			black++
			continue
		}
		left[s]++
		left[g]--
	}
	// Every colour contributes min(secret count, guess count) matches; the
	// unmatched pegs of the secret minus those the guess lacks give the
	// whites: Σ min(s, g) = Σ s − Σ max(0, s − g).
	white := int(secret.n) - black
	for i := uint8(0); i < secret.n; i++ {
		if k := secret.pegs[i]; secret.pegs[i] != guess.pegs[i] && left[k] > 0 {
			white -= int(left[k])
			left[k] = 0
		}
	}
	return Feedback{Black: black, White: white}
}

// ParseFeedback reads a feedback for codes of pegs pegs. It accepts the
// forms people type:
//
//	"2 1", "2,1", "2/1"   black then white as numbers
//	"21"                  two digits, black then white (see below)
//	"2b1w", "1w 2b", "2b" counts followed by b (black) or w (white)
//	"BBW", "bbw", "-"     one letter per peg; "-", "0" or "none" for no pegs
//	"1A2B", "2A", "0A1B"  Bulls and Cows: bulls (black) A, then cows (white) B
//	"1 bull 2 cows"       the same in words
//
// The result is checked with CheckFeedback for the number of pegs. On a
// board of 10 or more pegs, two digits together that also read as one
// count of black pegs, such as "10", are refused with an error wrapping
// ErrAmbiguousFeedback rather than guessed at; "21" on 10 pegs is 2 black
// and 1 white.
func ParseFeedback(s string, pegs int) (Feedback, error) {
	t := strings.TrimSpace(s)
	f, err := parseFeedback(t)
	if err != nil {
		return Feedback{}, &ParseError{What: "feedback", Input: s, Pos: -1, Msg: err.Error()}
	}
	if n, err := strconv.Atoi(t); err == nil && len(t) == 2 && t[0] != '0' && n <= pegs {
		return Feedback{}, fmt.Errorf("%w: %q on %d pegs is %d black, or %c black and %c white: type %q or %q",
			ErrAmbiguousFeedback, t, pegs, n, t[0], t[1], t+" 0", t[:1]+" "+t[1:])
	}
	if err := (Rules{Pegs: pegs, Colors: MaxColors}).CheckFeedback(f); err != nil {
		return Feedback{}, err
	}
	return f, nil
}

func parseFeedback(s string) (Feedback, error) {
	low := strings.ToLower(s)
	switch low {
	case "":
		return Feedback{}, fmt.Errorf("empty; type black and white, e.g. \"2 1\" or \"BBW\"")
	case "-", "0", "none", "nothing":
		return Feedback{}, nil
	}
	// Numbers separated by space, comma or slash.
	fields := strings.FieldsFunc(low, func(r rune) bool { return r == ' ' || r == ',' || r == '/' || r == '\t' })
	if len(fields) == 2 && isDigits(fields[0]) && isDigits(fields[1]) {
		b, _ := strconv.Atoi(fields[0])
		w, _ := strconv.Atoi(fields[1])
		return Feedback{Black: b, White: w}, nil
	}
	compact := strings.Join(fields, "")
	if len(compact) == 2 && isDigits(compact) {
		return Feedback{Black: int(compact[0] - '0'), White: int(compact[1] - '0')}, nil
	}
	// Bulls and Cows: 1A2B, or words.
	words := strings.NewReplacer("bulls", "a", "bull", "a", "cows", "c", "cow", "c").Replace(compact)
	if strings.ContainsAny(words, "ac") {
		return counts(words, map[byte]string{'a': "bulls", 'b': "cows", 'c': "cows"}, "1A2B")
	}
	// Letters only: one per peg.
	if strings.Trim(compact, "bw") == "" {
		return Feedback{Black: strings.Count(compact, "b"), White: strings.Count(compact, "w")}, nil
	}
	// Counts with suffixes: 2b1w, 1w2b, 2b.
	return counts(compact, map[byte]string{'b': "black", 'w': "white"}, "2b1w")
}

// counts reads numbers each followed by a letter of kinds, which names
// black (the first kind named "black" or "bulls") or white; example is
// the form to suggest.
func counts(s string, kinds map[byte]string, example string) (Feedback, error) {
	var f Feedback
	seen := map[string]bool{}
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && unicode.IsDigit(rune(rest[i])) {
			i++
		}
		if i > 3 {
			return Feedback{}, fmt.Errorf("%s is too many pegs", rest[:i])
		}
		if i == 0 || i == len(rest) {
			return Feedback{}, fmt.Errorf("not a feedback; type black and white, e.g. \"2 1\", %q or \"BBW\"", example)
		}
		n, _ := strconv.Atoi(rest[:i])
		kind, ok := kinds[rest[i]]
		switch {
		case !ok && example == "1A2B":
			return Feedback{}, fmt.Errorf("unknown letter %q; use A for bulls and B for cows", rest[i])
		case !ok:
			return Feedback{}, fmt.Errorf("unknown letter %q; use b for black and w for white", rest[i])
		case seen[kind]:
			return Feedback{}, fmt.Errorf("%s given twice", kind)
		}
		seen[kind] = true
		if kind == "black" || kind == "bulls" {
			f.Black = n
		} else {
			f.White = n
		}
		rest = rest[i+1:]
	}
	return f, nil
}

func isDigits(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
