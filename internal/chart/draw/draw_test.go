package draw_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/internal/chart/draw"
	"github.com/mastermind-toolkit/mastermind/internal/palette"
)

var classic = []chart.Histogram{
	{Name: "knuth", Counts: []int{0, 1, 6, 62, 533, 694}},
	{Name: "expected-size", Counts: []int{0, 1, 10, 54, 645, 583, 3}},
	{Name: "entropy", Counts: []int{0, 1, 4, 71, 612, 596, 12}},
	{Name: "most-parts", Counts: []int{0, 1, 12, 72, 635, 569, 7}},
}

// keep, when set, writes the figures of the tests where a person can look
// at them: go test -run Figures -keep /tmp/figs.
var keep = os.Getenv("MASTERMIND_KEEP_FIGURES")

func dir(t *testing.T) string {
	if keep != "" {
		os.MkdirAll(keep, 0o755)
		return keep
	}
	return t.TempDir()
}

// readPNG decodes a PNG file.
func readPNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return img
}

// checkFrame checks a PNG's size and that nothing is drawn on its outer
// margin: every pixel within 8 of an edge is white, so no bar, point,
// label or title is cut at the edge.
func checkFrame(t *testing.T, file string, w, h int) image.Image {
	t.Helper()
	img := readPNG(t, file)
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("%s is %dx%d; want %dx%d", file, b.Dx(), b.Dy(), w, h)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x >= 8 && x < w-8 && y >= 8 && y < h-8 {
				continue
			}
			r, g, b, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || b < 0xf000 {
				t.Fatalf("%s: pixel (%d, %d) on the margin is drawn on: something reaches the edge", file, x, y)
			}
		}
	}
	return img
}

// hasColour reports whether img has a pixel of exactly c.
func hasColour(img image.Image, c color.Color) bool {
	cr, cg, cb, _ := c.RGBA()
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if r>>8 == cr>>8 && g>>8 == cg>>8 && bb>>8 == cb>>8 {
				return true
			}
		}
	}
	return false
}

func TestHistograms(t *testing.T) {
	d := dir(t)
	png := filepath.Join(d, "hist.png")
	if err := draw.Histograms(chart.Frame{File: png, Title: "6 colours × 4 pegs, every secret: guesses per game"}, classic); err != nil {
		t.Fatal(err)
	}
	img := checkFrame(t, png, chart.DefaultWidth, chart.DefaultHeight)
	for i := range classic {
		if c := palette.Of(i); !hasColour(img, c) {
			t.Errorf("no bar in %s's colour %s", c.Name, c.Hex())
		}
	}
	svg := filepath.Join(d, "hist.svg")
	if err := draw.Histograms(chart.Frame{File: svg, Title: "classic", Width: 800, Height: 500}, classic); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	for _, want := range []string{"knuth", "most-parts", "guesses", `width="600pt"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	// Wide spreads are gathered into at most 40 bins.
	wide := make([]int, 1297)
	for i := 1; i < len(wide); i++ {
		wide[i] = 1
	}
	small := filepath.Join(d, "wide.png")
	if err := draw.Histograms(chart.Frame{File: small, Title: "random: a long title that would not fit a small figure if it kept its size", Width: 400, Height: 300},
		[]chart.Histogram{{Name: "random", Counts: wide}}); err != nil {
		t.Fatal(err)
	}
	checkFrame(t, small, 400, 300)
	if err := draw.Histograms(chart.Frame{File: filepath.Join(d, "h.txt")}, classic); err == nil || !strings.HasPrefix(err.Error(), "mastermind: ") {
		t.Errorf("Histograms(h.txt) = %v; want an error about the format", err)
	}
}

func TestMeanBySize(t *testing.T) {
	d := dir(t)
	file := filepath.Join(d, "grid.png")
	ss := []chart.Series{
		{Name: "incremental", Points: []chart.Point{{Log10Size: 0.95, Mean: 4}, {Log10Size: 3.1, Mean: 9.5}, {Log10Size: 6, Mean: 20}}},
		{Name: "random-consistent", Points: []chart.Point{{Log10Size: 0.95, Mean: 3}, {Log10Size: 3.1, Mean: 4.5}, {Log10Size: 6, Mean: 7.2}}},
		{Name: "auto", Points: []chart.Point{{Log10Size: 0.95, Mean: 2.9}, {Log10Size: 3.1, Mean: 4.3}, {Log10Size: 6, Mean: 6.8}, {Log10Size: 17.6, Mean: 15.2}}},
	}
	if err := draw.MeanBySize(chart.Frame{File: file, Title: "mean guesses against the size of the space"}, ss); err != nil {
		t.Fatal(err)
	}
	img := checkFrame(t, file, chart.DefaultWidth, chart.DefaultHeight)
	for i := range ss {
		if c := palette.Of(i); !hasColour(img, c) {
			t.Errorf("no point in %s's colour %s", c.Name, c.Hex())
		}
	}
}

func ExampleHistograms() {
	file := filepath.Join(os.TempDir(), "mastermind-example-histogram.svg")
	defer os.Remove(file)
	err := draw.Histograms(chart.Frame{File: file, Title: "6 colours × 4 pegs"}, []chart.Histogram{
		{Name: "knuth", Counts: []int{0, 1, 6, 62, 533, 694}},
	})
	fmt.Println(err)
	// Output: <nil>
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   string
	}{
		{0, 26.5, "0 5 10 15 20 25"},
		{0, 735, "0 100 200 300 400 500 600 700"},
		{0, 1.3, "0.0 0.2 0.4 0.6 0.8 1.0 1.2"},
		{2.5, 4.1, "2.6 2.8 3.0 3.2 3.4 3.6 3.8 4.0"},
	}
	for _, tt := range tests {
		var labels []string
		for _, tk := range draw.NiceTicks(tt.lo, tt.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != tt.want {
			t.Errorf("ticks of [%v, %v] = %q; want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}
