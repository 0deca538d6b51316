package chart_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/chart"
)

func TestHistograms(t *testing.T) {
	dir := t.TempDir()
	hs := []chart.Histogram{
		{Name: "knuth", Counts: []int{0, 1, 6, 62, 533, 694}},
		{Name: "most-parts", Counts: []int{0, 1, 12, 72, 635, 569, 7}},
	}
	for _, name := range []string{"h.svg", "h.png"} {
		file := filepath.Join(dir, name)
		if err := chart.Histograms(file, "6 colours × 4 pegs", hs); err != nil {
			t.Fatalf("Histograms(%s): %v", name, err)
		}
		if fi, err := os.Stat(file); err != nil || fi.Size() < 1000 {
			t.Errorf("Histograms(%s) wrote %v bytes, %v", name, fi.Size(), err)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "h.svg"))
	for _, want := range []string{"knuth", "most-parts", "guesses"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	// Wide spreads are gathered into at most 40 bins.
	wide := make([]int, 1297)
	for i := 1; i < len(wide); i++ {
		wide[i] = 1
	}
	if err := chart.Histograms(filepath.Join(dir, "w.svg"), "random", []chart.Histogram{{Name: "random", Counts: wide}}); err != nil {
		t.Fatal(err)
	}
	if err := chart.Histograms(filepath.Join(dir, "h.txt"), "", hs); err == nil || !strings.HasPrefix(err.Error(), "mastermind: ") {
		t.Errorf("Histograms(h.txt) = %v; want an error about the format", err)
	}
}

func TestMeanBySize(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.svg")
	ss := []chart.Series{{Name: "incremental", Points: []chart.Point{{Log10Size: 1.2, Mean: 4}, {Log10Size: 6, Mean: 20}}}}
	if err := chart.MeanBySize(file, "grid", ss); err != nil {
		t.Fatal(err)
	}
	if svg, _ := os.ReadFile(file); !strings.Contains(string(svg), "incremental") {
		t.Errorf("the SVG lacks the series name")
	}
}

func ExampleHistograms() {
	file := filepath.Join(os.TempDir(), "mastermind-example-histogram.svg")
	defer os.Remove(file)
	err := chart.Histograms(file, "6 colours × 4 pegs", []chart.Histogram{
		{Name: "knuth", Counts: []int{0, 1, 6, 62, 533, 694}},
	})
	fmt.Println(err)
	// Output: <nil>
}
