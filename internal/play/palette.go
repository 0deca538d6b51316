package play

import (
	"fmt"
	"image/color"
	"math"
	"unicode"

	"charm.land/lipgloss/v2"

	mm "github.com/mastermind-toolkit/mastermind"
)

// basePalette holds the colours of the first pegs, as distinct as a
// terminal allows: the six of classic Mastermind first.
var basePalette = []string{
	"#e53935", // red
	"#43a047", // green
	"#1e88e5", // blue
	"#fdd835", // yellow
	"#fb8c00", // orange
	"#8e24aa", // purple
	"#00acc1", // cyan
	"#f06292", // pink
	"#eeeeee", // white
	"#8d6e63", // brown
	"#c0ca33", // lime
	"#3949ab", // indigo
	"#00897b", // teal
	"#757575", // grey
	"#880e4f", // maroon
	"#827717", // olive
}

// letterColors are the colours that letters of a custom alphabet usually
// stand for, as in --alphabet RGBYOP.
var letterColors = map[rune]string{
	'R': "#e53935", 'G': "#43a047", 'B': "#1e88e5", 'Y': "#fdd835",
	'O': "#fb8c00", 'P': "#8e24aa", 'C': "#00acc1", 'W': "#eeeeee",
	'K': "#212121", 'M': "#d81b60", 'N': "#8d6e63",
}

// palette returns the colour of each of the colours of r as written with
// alphabet a. When every symbol is a letter that names a colour (R red, G
// green, B blue, Y yellow, O orange, P purple, C cyan, W white, K black, M
// magenta, N brown) and no two share one, the pegs take those colours;
// otherwise the colours come from a fixed palette, then from hues spread
// around the colour wheel.
func palette(r mm.Rules, a *mm.Alphabet) []color.Color {
	r = r.WithDefaults()
	out := make([]color.Color, r.Colors)
	if named := namedColors(r, a); named != nil {
		for i, h := range named {
			out[i] = lipgloss.Color(h)
		}
		return out
	}
	for i := range out {
		if i < len(basePalette) {
			out[i] = lipgloss.Color(basePalette[i])
			continue
		}
		// Golden-angle hues, alternating lightness, for the rest.
		j := i - len(basePalette)
		h := math.Mod(float64(j)*137.508+15, 360)
		l := []float64{0.45, 0.65, 0.3}[j%3]
		out[i] = hsl(h, 0.7, l)
	}
	return out
}

func namedColors(r mm.Rules, a *mm.Alphabet) []string {
	var out []string
	used := map[string]bool{}
	for i := 0; i < r.Colors; i++ {
		h, ok := letterColors[unicode.ToUpper(a.Symbol(i))]
		if !ok || used[h] {
			return nil
		}
		used[h] = true
		out = append(out, h)
	}
	return out
}

// hsl returns the colour of hue h in degrees, saturation s and lightness l
// in [0, 1].
func hsl(h, s, l float64) color.Color {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	to := func(v float64) uint8 { return uint8(math.Round((v + m) * 255)) }
	return lipgloss.Color(fmt.Sprintf("#%02x%02x%02x", to(r), to(g), to(b)))
}

// contrast returns black or white, whichever reads better on c.
func contrast(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	lum := 0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)
	if lum/0xffff > 0.5 {
		return lipgloss.Color("#000000")
	}
	return lipgloss.Color("#ffffff")
}
