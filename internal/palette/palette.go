// Package palette holds the colours of the pegs, shared by the terminal UI,
// the web page and the plots, so that colour k looks the same everywhere.
//
// The first 22 colours are named (red, green, yellow, blue, …), in an order
// that keeps the first few as distinct as possible; beyond them colours are
// hues spread around the colour wheel by the golden angle. The web page
// (internal/server/web/app.js) lists the same names and values; a test
// checks that they agree.
package palette

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// A Colour is a named colour of a peg.
type Colour struct {
	Name    string
	R, G, B uint8
}

// Hex returns the colour as "#rrggbb".
func (c Colour) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// RGBA returns the colour's alpha-premultiplied components, so that a
// Colour is a color.Color.
func (c Colour) RGBA() (r, g, b, a uint32) {
	return uint32(c.R) * 0x101, uint32(c.G) * 0x101, uint32(c.B) * 0x101, 0xffff
}

// ANSI256 returns the nearest colour of a 256-colour terminal, among the
// 6×6×6 cube and the greys (16 to 255), by weighted RGB distance; the
// terminal libraries' own conversion can map a saturated red to a grey.
func (c Colour) ANSI256() uint8 {
	best, bestD := 16, math.Inf(1)
	for i := 16; i < 256; i++ {
		r, g, b := xterm(i)
		if d := redmean(c, r, g, b); d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// xterm returns the components of colour i (16 to 255) of a 256-colour
// terminal.
func xterm(i int) (r, g, b int) {
	if i >= 232 {
		v := 8 + 10*(i-232)
		return v, v, v
	}
	i -= 16
	level := func(q int) int {
		if q == 0 {
			return 0
		}
		return 55 + 40*q
	}
	return level(i / 36), level(i / 6 % 6), level(i % 6)
}

// redmean is a cheap perceptual distance between c and (r, g, b).
func redmean(c Colour, r, g, b int) float64 {
	rm := (float64(c.R) + float64(r)) / 2
	dr, dg, db := float64(int(c.R)-r), float64(int(c.G)-g), float64(int(c.B)-b)
	return (2+rm/256)*dr*dr + 4*dg*dg + (2+(255-rm)/256)*db*db
}

// Dark reports whether black text reads worse than white on the colour.
func (c Colour) Dark() bool {
	return 0.2126*float64(c.R)+0.7152*float64(c.G)+0.0722*float64(c.B) <= 0.5*255
}

// named are the colours with names, in colour order.
var named = []Colour{
	{"red", 0xe6, 0x19, 0x4b}, {"green", 0x3c, 0xb4, 0x4b}, {"yellow", 0xff, 0xe1, 0x19}, {"blue", 0x43, 0x63, 0xd8},
	{"orange", 0xf5, 0x82, 0x31}, {"purple", 0x91, 0x1e, 0xb4}, {"cyan", 0x42, 0xd4, 0xf4}, {"magenta", 0xf0, 0x32, 0xe6},
	{"lime", 0xbf, 0xef, 0x45}, {"pink", 0xfa, 0xbe, 0xd4}, {"teal", 0x46, 0x99, 0x90}, {"lavender", 0xdc, 0xbe, 0xff},
	{"brown", 0x9a, 0x63, 0x24}, {"beige", 0xff, 0xfa, 0xc8}, {"maroon", 0x80, 0x00, 0x00}, {"mint", 0xaa, 0xff, 0xc3},
	{"olive", 0x80, 0x80, 0x00}, {"apricot", 0xff, 0xd8, 0xb1}, {"navy", 0x00, 0x00, 0x75}, {"grey", 0xa9, 0xa9, 0xa9},
	{"white", 0xff, 0xff, 0xff}, {"black", 0x00, 0x00, 0x00},
}

// Named returns the named colours in colour order.
func Named() []Colour { return append([]Colour(nil), named...) }

// Of returns colour k, counting from 0. Past the named colours it is hue
// k·137.508° at 65% saturation and 55% lightness, named "colour k+1".
func Of(k int) Colour {
	if k >= 0 && k < len(named) {
		return named[k]
	}
	h := math.Mod(math.Round(math.Mod(float64(k)*137.508, 360)), 360)
	c := hsl(h, 0.65, 0.55)
	c.Name = fmt.Sprintf("colour %d", k+1)
	return c
}

// ByName returns the named colour called name, in any letter case; "gray"
// is grey.
func ByName(name string) (Colour, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "gray" {
		name = "grey"
	}
	for _, c := range named {
		if c.Name == name {
			return c, true
		}
	}
	return Colour{}, false
}

// letters are the colours that letters usually stand for, as in the
// alphabet RGBYOP.
var letters = map[rune]string{
	'R': "red", 'G': "green", 'B': "blue", 'Y': "yellow", 'O': "orange", 'P': "purple",
	'C': "cyan", 'M': "magenta", 'W': "white", 'K': "black", 'N': "brown",
}

// ByLetter returns the colour a letter usually stands for: R red, G green,
// B blue, Y yellow, O orange, P purple, C cyan, M magenta, W white, K black,
// N brown; in either case.
func ByLetter(r rune) (Colour, bool) {
	name, ok := letters[unicode.ToUpper(r)]
	if !ok {
		return Colour{}, false
	}
	return ByName(name)
}

// hsl returns the colour of hue h in degrees, saturation s and lightness l
// in [0, 1], as CSS computes it.
func hsl(h, s, l float64) Colour {
	f := func(n float64) uint8 {
		k := math.Mod(n+h/30, 12)
		a := s * min(l, 1-l)
		v := l - a*max(-1, min(k-3, 9-k, 1))
		return uint8(math.Round(v * 255))
	}
	return Colour{R: f(0), G: f(8), B: f(4)}
}
