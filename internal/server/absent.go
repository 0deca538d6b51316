package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	mm "github.com/mastermind-toolkit/mastermind"
)

// A field left out of a request takes the server's default, but colors or
// pegs given as 0 is a mistake, like -1: "pegs":0 is refused, not played
// as the default 4 pegs.

// UnmarshalJSON reads a NewGame, refusing colors or pegs given as 0.
func (g *NewGame) UnmarshalJSON(b []byte) error {
	type plain NewGame
	return unmarshalRules(b, (*plain)(g), &g.Colors, &g.Pegs)
}

// UnmarshalJSON reads an AssistRequest, refusing colors or pegs given as 0.
func (a *AssistRequest) UnmarshalJSON(b []byte) error {
	type plain AssistRequest
	return unmarshalRules(b, (*plain)(a), &a.Colors, &a.Pegs)
}

// unmarshalRules decodes object b into v, which must be a type without
// UnmarshalJSON, with no unknown fields, and refuses a colors or pegs
// field that is present with the value 0.
func unmarshalRules(b []byte, v any, colors, pegs *int) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	for name := range fields {
		for _, f := range []struct {
			name string
			v    int
		}{{"colors", *colors}, {"pegs", *pegs}} {
			// encoding/json matches names in any case, and the last
			// occurrence wins: look at the value decoded.
			if strings.EqualFold(name, f.name) && f.v == 0 {
				return fmt.Errorf("%w: %s 0; leave %s out for the server's default (GET /api/config)", mm.ErrInvalidRules, f.name, f.name)
			}
		}
	}
	return nil
}
