// Package chart draws the toolkit's figures with gonum/plot: guess-count
// histograms side by side, and mean guesses against the size of the space.
// The file's extension (.svg, .png, .pdf, .eps, .jpg, .tif) picks the
// format.
package chart

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// A Histogram is one strategy's counts: Counts[n] games took n guesses.
type Histogram struct {
	Name   string
	Counts []int
}

// checkExt reports whether file's extension is a format plot can write.
func checkExt(file string) error {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".svg", ".png", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff":
		return nil
	}
	return fmt.Errorf("mastermind: cannot tell the format of %q; use .svg or .png", file)
}

// Histograms writes a bar chart of the histograms, one group of bars per
// number of guesses and one bar per strategy in each group. Where counts
// spread over many guess numbers they are gathered into at most 40 bins.
func Histograms(file, title string, hs []Histogram) error {
	if err := checkExt(file); err != nil {
		return err
	}
	hi := 0
	for _, h := range hs {
		hi = max(hi, len(h.Counts)-1)
	}
	width := max(1, (hi+39)/40)
	var labels []string
	for lo := 1; lo <= hi; lo += width {
		if width == 1 {
			labels = append(labels, strconv.Itoa(lo))
		} else {
			labels = append(labels, fmt.Sprintf("%d–%d", lo, min(hi, lo+width-1)))
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "guesses"
	p.Y.Label.Text = "games"
	p.Legend.Top = true
	barW := vg.Points(max(2, 40/float64(len(hs))))
	for i, h := range hs {
		vals := make(plotter.Values, len(labels))
		for b := range labels {
			for g := 1 + b*width; g < 1+(b+1)*width && g < len(h.Counts); g++ {
				vals[b] += float64(h.Counts[g])
			}
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(i)
		bars.Offset = barW * vg.Length(float64(i)-float64(len(hs)-1)/2)
		p.Add(bars)
		p.Legend.Add(h.Name, bars)
	}
	p.NominalX(labels...)
	w := vg.Length(max(16, len(labels)*len(hs)/2+8)) * vg.Centimeter / 2
	return p.Save(max(w, 14*vg.Centimeter), 10*vg.Centimeter, file)
}

// A Point is one size of game: log₁₀ of its number of codes, and the mean
// number of guesses.
type Point struct {
	Log10Size float64
	Mean      float64
}

// A Series is one strategy's points.
type Series struct {
	Name   string
	Points []Point
}

// MeanBySize writes mean guesses against log₁₀ of the space's size, one
// line of points per strategy, as seeds/001's graphs did.
func MeanBySize(file, title string, ss []Series) error {
	if err := checkExt(file); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "log10(number of codes)"
	p.Y.Label.Text = "mean guesses"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.Points))
		for j, pt := range s.Points {
			xys[j] = plotter.XY{X: pt.Log10Size, Y: pt.Mean}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		sc.Color = plotutil.Color(i)
		sc.Shape = plotutil.Shape(i)
		sc.Radius = vg.Points(3)
		p.Add(sc)
		p.Legend.Add(s.Name, sc)
	}
	p.X.Min = 0
	p.Y.Min = 0
	return p.Save(18*vg.Centimeter, 12*vg.Centimeter, file)
}
