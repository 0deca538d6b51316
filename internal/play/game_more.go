package play

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// This file holds what a Game does besides guessing: undo, the list of
// codes still possible, and saving and resuming a game.

// undo takes back the last guess, for a mistyped one: the board, the codes
// possible and the coach's notes are as they were before it. The summary
// says how many guesses were taken back.
func (g *Game) undo() []Line {
	if len(g.prev) == 0 {
		return []Line{problem("There is no guess to take back.")}
	}
	t := g.st.Turn(g.st.Len() - 1)
	g.st = g.prev[len(g.prev)-1]
	g.prev = g.prev[:len(g.prev)-1]
	if g.coach && len(g.notes) > 0 {
		g.notes = g.notes[:len(g.notes)-1]
	}
	g.undos++
	g.page = 0
	g.changes++
	return []Line{info("Took back guess %d, %s (%s).", g.st.Len()+1, g.format(t.Guess), feedbackText(t.Feedback))}
}

// list shows a page of the codes still possible, as assist's list does.
// A variant of more than 2²⁰ codes is not enumerated for it.
func (g *Game) list(s string) []Line {
	if !enumerable(g.cfg.Rules) || !g.st.Known() {
		return []Line{problem(`This variant has %s codes: too many to list; "hint" proposes a guess.`, sizeText(g.cfg.Rules))}
	}
	set, err := g.st.Candidates()
	if err != nil {
		return []Line{problem("The codes left cannot be listed: %s.", plain(err))}
	}
	g.lists++
	return listPage(set, g.cfg.Alphabet, &g.page, s)
}

// save writes the game to file name through Config.Save.
func (g *Game) save(name string) []Line {
	if name == "" {
		return []Line{problem(`Type "save" and a file name, e.g. "save game.txt".`)}
	}
	if g.cfg.Save == nil {
		return []Line{problem("Saving is not available here.")}
	}
	if err := g.cfg.Save(name, g.Saved()); err != nil {
		return []Line{problem("Not saved: %s.", plain(err))}
	}
	g.saved, g.savedAt = name, g.changes
	return []Line{info("Saved the game after %s to %s; resume with: mastermind play --resume %s",
		plural(g.st.Len(), "guess"), name, name),
		info(`"quit" now leaves it without showing the code.`)}
}

// savedGameHeader begins every saved game.
const savedGameHeader = "# mastermind play session"

// codeKey is written before the game's code in a saved game, which is
// encoded so that a glance at the file does not give it away; it is not
// hidden from anyone who decodes it.
const codeKey = "mastermind code "

// Saved returns the game as a file that ReadSaved reads back: the rules,
// the game's settings and code, then the guesses played, one a line.
func (g *Game) Saved() []byte {
	var b strings.Builder
	writeSavedRules(&b, savedGameHeader, g.cfg)
	fmt.Fprintf(&b, "limit %d\n", g.limit)
	switch {
	case g.adversary:
		b.WriteString("adversary\n")
	default:
		if g.twoPlayer {
			b.WriteString("two-player\n")
		}
		code := base64.StdEncoding.EncodeToString([]byte(codeKey + g.format(g.secret)))
		fmt.Fprintf(&b, "code %s\n", code)
	}
	if g.coach {
		b.WriteString("coach\n")
	}
	fmt.Fprintf(&b, "hints %d\nlists %d\nundos %d\n", g.hints, g.lists, g.undos)
	fmt.Fprintf(&b, "strategy %s\n\n", g.cfg.Name)
	for _, t := range g.st.Turns() {
		b.WriteString(g.format(t.Guess) + "\n")
	}
	return []byte(b.String())
}

// A SavedGame holds what a saved game of play adds to a SavedSession.
type SavedGame struct {
	Secret    mm.Code // the code; the zero Code for an adversary
	Limit     int     // guesses allowed, 0 for no limit
	Adversary bool
	Coach     bool
	TwoPlayer bool
	// Hints, Lists and Undos count what the person asked for before
	// saving, for the summary.
	Hints, Lists, Undos int
}

// readGameSetting reads a setting of a saved game into s and reports
// whether key is one.
func readGameSetting(s *SavedSession, key, val string) (bool, error) {
	g := s.Game
	var err error
	switch key {
	case "limit":
		g.Limit, err = savedCount(val)
	case "adversary":
		g.Adversary = true
	case "coach":
		g.Coach = true
	case "two-player":
		g.TwoPlayer = true
	case "code":
		s.code = val
	case "hints":
		g.Hints, err = savedCount(val)
	case "lists":
		g.Lists, err = savedCount(val)
	case "undos":
		g.Undos, err = savedCount(val)
	default:
		return false, nil
	}
	return true, err
}

// savedCount reads a whole number, 0 or more.
func savedCount(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n, nil
}

// readGameCode decodes the code of a saved game, once its rules and
// alphabet are known.
func readGameCode(s *SavedSession) error {
	g := s.Game
	switch {
	case g.Adversary && s.code != "":
		return errors.New("an adversary's game has no code, and this one has one")
	case g.Adversary:
		return nil
	case s.code == "":
		return errors.New("the game's code is missing")
	}
	raw, err := base64.StdEncoding.DecodeString(s.code)
	text, ok := strings.CutPrefix(string(raw), codeKey)
	if err != nil || !ok {
		return errors.New("the game's code does not read: the file is damaged")
	}
	if g.Secret, err = parseCode(s.Rules, s.Alphabet, text); err != nil {
		return fmt.Errorf("the game's code does not fit its rules: %v", err)
	}
	return nil
}

// ResumeGame returns the game saved in s, under cfg (whose rules and
// alphabet must be the saved ones), with its guesses played again. It
// fails, naming the guess, when a saved guess is refused or ends the game.
func ResumeGame(cfg Config, s SavedSession) (*Game, error) {
	if s.Game == nil {
		return nil, errors.New("a saved assist session, not a game: resume it with mastermind assist --resume")
	}
	sg := s.Game
	g, err := NewGameOptions(cfg, sg.Secret, sg.Limit, GameOptions{Adversary: sg.Adversary, Coach: sg.Coach, TwoPlayer: sg.TwoPlayer})
	if err != nil {
		return nil, err
	}
	for i, in := range s.Inputs {
		before := g.st.Len()
		out := g.guess(in)
		if g.st.Len() == before {
			why := "it is not a guess"
			for _, l := range out {
				if l.Kind == Problem {
					why = l.Text
					break
				}
			}
			return nil, fmt.Errorf("saved guess %d (%q) is refused: %s", i+1, in, why)
		}
		if g.over {
			return nil, fmt.Errorf("saved guess %d (%q) ends the game: there is nothing to resume", i+1, in)
		}
	}
	g.hints, g.lists, g.undos = sg.Hints, sg.Lists, sg.Undos
	g.resumed = true
	return g, nil
}
