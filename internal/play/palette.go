package play

import (
	"image/color"

	"charm.land/lipgloss/v2"

	mm "github.com/mastermind-toolkit/mastermind"
	"github.com/mastermind-toolkit/mastermind/internal/palette"
)

// pegColours returns the colour of each of the colours of r as written
// with alphabet a, from the palette the web page and the plots share. An
// alphabet of colour names (red,green,…) takes the named colours, and one
// whose symbols are all letters that name colours (R red, G green, B blue,
// Y yellow, O orange, P purple, C cyan, M magenta, W white, K black, N
// brown), none twice, takes those; otherwise colour k is the palette's
// colour k.
func pegColours(r mm.Rules, a *mm.Alphabet) []palette.Colour {
	r = r.WithDefaults()
	out := make([]palette.Colour, r.Colors)
	for i := range out {
		out[i] = palette.Of(i)
	}
	for _, lookup := range []func(k int) (palette.Colour, bool){
		func(k int) (palette.Colour, bool) { return palette.ByName(a.Name(k)) },
		func(k int) (palette.Colour, bool) { return palette.ByLetter(a.Symbol(k)) },
	} {
		named := make([]palette.Colour, r.Colors)
		used := map[string]bool{}
		ok := true
		for k := range named {
			c, found := lookup(k)
			if !found || used[c.Name] {
				ok = false
				break
			}
			used[c.Name] = true
			named[k] = c
		}
		if ok {
			return named
		}
	}
	return out
}

// contrast returns black or white, whichever reads better on c.
func contrast(c palette.Colour) color.Color {
	if c.Dark() {
		return lipgloss.Color("#ffffff")
	}
	return lipgloss.Color("#000000")
}
