package palette_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/palette"
)

// TestWebPage checks that the web page colours the pegs as the terminal
// and the plots do: the same names and values in the same order, and the
// same hues beyond them.
func TestWebPage(t *testing.T) {
	js, err := os.ReadFile("../server/web/app.js")
	if err != nil {
		t.Fatal(err)
	}
	entry := regexp.MustCompile(`\["([a-z ]+)", "(#[0-9a-f]{6})"\]`)
	var got []string
	for _, m := range entry.FindAllStringSubmatch(string(js), -1) {
		got = append(got, m[1]+" "+m[2])
	}
	var want []string
	for _, c := range palette.Named() {
		want = append(want, c.Name+" "+c.Hex())
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("app.js colours:\n%s\nthe palette:\n%s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
	if !strings.Contains(string(js), `"hsl(" + Math.round((k * 137.508) % 360) + " 65% 55%)"`) {
		t.Errorf("app.js no longer colours pegs beyond the named ones as palette.Of does")
	}
}

func TestOf(t *testing.T) {
	if c := palette.Of(0); c.Name != "red" || c.Hex() != "#e6194b" {
		t.Errorf("Of(0) = %v %s; want red #e6194b", c.Name, c.Hex())
	}
	if c := palette.Of(3); c.Name != "blue" {
		t.Errorf("Of(3) = %s; want blue, as on the web page", c.Name)
	}
	// Colour 23: hue 23·137.508 mod 360 = 282.7 → 283°, hsl(283 65% 55%).
	if c := palette.Of(23); c.Hex() != "#ad42d7" || c.Name != "colour 24" {
		t.Errorf("Of(23) = %s %s; want colour 24 #ad42d7", c.Name, c.Hex())
	}
	seen := map[string]bool{}
	for k := range 64 {
		h := palette.Of(k).Hex()
		if seen[h] {
			t.Errorf("colour %d repeats %s", k+1, h)
		}
		seen[h] = true
	}
	for _, tt := range []struct {
		in   string
		want string
	}{{"Red", "red"}, {"gray", "grey"}, {" navy ", "navy"}} {
		if c, ok := palette.ByName(tt.in); !ok || c.Name != tt.want {
			t.Errorf("ByName(%q) = %v, %v; want %s", tt.in, c.Name, ok, tt.want)
		}
	}
	if _, ok := palette.ByName("chartreuse"); ok {
		t.Errorf("ByName(chartreuse) found a colour")
	}
	if c, ok := palette.ByLetter('k'); !ok || c.Name != "black" {
		t.Errorf("ByLetter(k) = %v, %v; want black", c.Name, ok)
	}
	if !palette.Of(21).Dark() || palette.Of(20).Dark() {
		t.Errorf("black should be dark and white light")
	}
}

// TestANSI256 checks the 256-colour form of the named colours: each a
// colour of the cube, not a grey, but for grey, white and black.
func TestANSI256(t *testing.T) {
	want := map[string]uint8{"red": 161, "green": 71, "yellow": 220, "blue": 62, "white": 231, "black": 16}
	for _, c := range palette.Named() {
		i := c.ANSI256()
		grey := i >= 232 || i == 16 || i == 231 || i == 59 || i == 102 || i == 145 || i == 188
		if grey != (c.Name == "grey" || c.Name == "white" || c.Name == "black") {
			t.Errorf("%s %s -> colour %d, grey %v", c.Name, c.Hex(), i, grey)
		}
		if w, ok := want[c.Name]; ok && i != w {
			t.Errorf("%s %s -> colour %d; want %d", c.Name, c.Hex(), i, w)
		}
	}
}
