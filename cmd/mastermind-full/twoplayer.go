package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/cli"
)

// codemakerTries is how many codes a codemaker at a terminal may type
// before two-player play gives up.
const codemakerTries = 5

// readCodemaker reads the code of a two-player game: at a terminal without
// echo, asking again after a code that is not one; otherwise from the
// first line of stdin. It returns the code and the reader the game goes
// on with.
func readCodemaker(e *cli.Env, r mm.Rules, a *mm.Alphabet) (mm.Code, io.Reader, error) {
	what := fmt.Sprintf("Codemaker: type a code of %d pegs in the colours %s", r.Pegs, a.String()[:min(len(a.String()), r.Colors)])
	if a.Named() {
		what = fmt.Sprintf("Codemaker: type a code of %d colours (%s)", r.Pegs, strings.Join(colourNames(a, r.Colors), ", "))
	}
	if f, ok := e.Stdin.(*os.File); ok && cli.IsTerminal(f) && cli.IsTerminal(e.Stdout) {
		for try := 1; ; try++ {
			fmt.Fprintf(e.Stdout, "%s; it will not show: ", what)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(e.Stdout)
			if err != nil {
				return mm.Code{}, nil, fmt.Errorf("reading the codemaker's code: %w", err)
			}
			c, err := a.Parse(r, string(b))
			if err == nil {
				fmt.Fprintln(e.Stdout, "The code is set. Codebreaker, your turn.")
				return c, e.Stdin, nil
			}
			// The message does not quote what was typed, which would show it.
			fmt.Fprintln(e.Stdout, "That is not a code; try again.")
			if try == codemakerTries {
				return mm.Code{}, nil, errors.New("the codemaker typed no code")
			}
		}
	}
	in := bufio.NewReader(e.Stdin)
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		return mm.Code{}, nil, errors.New("--two-player: stdin ended before the codemaker's code")
	}
	c, err := a.Parse(r, strings.TrimSpace(line))
	if err != nil {
		return mm.Code{}, nil, fmt.Errorf("--two-player: the codemaker's code on the first line of stdin: %w", err)
	}
	fmt.Fprintf(e.Stdout, "%s: (hidden)\nThe code is set. Codebreaker, your turn.\n\n", what)
	return c, in, nil
}

func colourNames(a *mm.Alphabet, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = a.Name(k)
	}
	return out
}
