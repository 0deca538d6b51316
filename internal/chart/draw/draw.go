// Package draw draws the figures of package chart with gonum/plot: bar
// charts of guess counts and mean guesses against the size of the space,
// in the pegs' palette, with the legend beside the plot rather than over
// it.
package draw

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mastermind-toolkit/mastermind/internal/chart"
	"github.com/mastermind-toolkit/mastermind/internal/palette"
)

// pixel is one pixel of a raster figure: vgimg draws at 96 per inch.
const pixel = vg.Inch / 96

// Histograms draws a bar chart of the histograms into f.File: one group
// of bars per number of guesses and one bar per strategy in each group.
// Where counts spread over many guess numbers they are gathered into at
// most 40 bins.
func Histograms(f chart.Frame, hs []chart.Histogram) error {
	if err := chart.CheckFile(f.File); err != nil {
		return err
	}
	hi := 0
	for _, h := range hs {
		hi = max(hi, len(h.Counts)-1)
	}
	if hi < 1 {
		return fmt.Errorf("mastermind: no games to draw")
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
	p := newPlot(f.Title, "guesses", "games")
	p.Y.Min = 0
	leg := newLegend()
	w, _ := size(f)
	// A group of bars takes 80% of its slot on the axis.
	slot := (w - 160*pixel) / vg.Length(len(labels)+1)
	barW := max(vg.Points(1), slot*0.8/vg.Length(len(hs)))
	for i, h := range hs {
		vals := make(plotter.Values, len(labels))
		for b := range labels {
			for g := 1 + b*width; g < 1+(b+1)*width && g < len(h.Counts); g++ {
				vals[b] += float64(h.Counts[g])
			}
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return fmt.Errorf("mastermind: %w", err)
		}
		c := colour(i)
		bars.Color = c
		bars.LineStyle.Width = vg.Points(0.5)
		bars.LineStyle.Color = outline(c)
		bars.Offset = barW * vg.Length(float64(i)-float64(len(hs)-1)/2)
		p.Add(bars)
		leg.Add(h.Name, bars)
	}
	top := 0.0
	for _, pl := range hs {
		for b := range labels {
			n := 0
			for g := 1 + b*width; g < 1+(b+1)*width && g < len(pl.Counts); g++ {
				n += pl.Counts[g]
			}
			top = max(top, float64(n))
		}
	}
	p.Y.Max = top * 1.06
	// Label every k-th group where the labels would run into each other.
	approx := vg.Points(float64(len(labels[len(labels)-1])+2) * 6.5)
	if k := int(approx*vg.Length(len(labels))/(w-160*pixel)) + 1; k > 1 {
		for i := range labels {
			if i%k != 0 {
				labels[i] = ""
			}
		}
	}
	p.NominalX(labels...)
	// Room for half a slot beyond the first and last groups, so that no bar
	// is cut at the edges.
	p.X.Min, p.X.Max = -0.6, float64(len(labels)-1)+0.6
	p.Add(plotter.NewGrid())
	return save(p, leg, f)
}

// MeanBySize draws mean guesses against log₁₀ of the space's size into
// f.File, one line of points per strategy, as in Bhushan's Mastermind
// Solver.
func MeanBySize(f chart.Frame, ss []chart.Series) error {
	if err := chart.CheckFile(f.File); err != nil {
		return err
	}
	p := newPlot(f.Title, "log10(number of codes)", "mean guesses")
	p.Add(plotter.NewGrid())
	leg := newLegend()
	var hiX, hiY float64
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.Points))
		for j, pt := range s.Points {
			xys[j] = plotter.XY{X: pt.Log10Size, Y: pt.Mean}
			hiX, hiY = max(hiX, pt.Log10Size), max(hiY, pt.Mean)
		}
		c := colour(i)
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("mastermind: %w", err)
		}
		sc.Color = c
		sc.Shape = shapes[i%len(shapes)]
		sc.Radius = vg.Points(4)
		// A dark edge under each point keeps light colours visible on
		// white.
		edge, _ := plotter.NewScatter(xys)
		edge.Color = outline(c)
		edge.Shape = sc.Shape
		edge.Radius = vg.Points(5.5)
		p.Add(edge, sc)
		leg.Add(s.Name, edge, sc)
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max, p.Y.Max = max(1, hiX*1.04), max(1, hiY*1.06)
	return save(p, leg, f)
}

// shapes are filled glyphs, one per series in turn.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// colour returns the colour of series i: the pegs' palette, skipping
// white, whose bars would not show on the white ground.
func colour(i int) color.Color {
	c := palette.Of(i)
	if c.Name == "white" {
		c = palette.Of(len(palette.Named()))
	}
	return c
}

// outline returns a darker shade of c, for edges.
func outline(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA{R: uint8(r >> 9), G: uint8(g >> 9), B: uint8(b >> 9), A: 255}
}

// newPlot returns a plot with a larger title and axis labels than
// gonum's defaults.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(16)
	p.Title.Padding = vg.Points(10)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(13)
		a.Tick.Label.Font.Size = vg.Points(11)
		a.Padding = vg.Points(4)
	}
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	return p
}

// niceTicks labels an axis every 1, 2 or 5 times a power of ten, about
// eight labels in all, without needless decimals.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 8
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k*step + 0 // +0 turns -0 into 0
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		// A minor tick half way.
		if mid := v + step/2; mid <= hi {
			ticks = append(ticks, plot.Tick{Value: mid})
		}
	}
	return ticks
}

func newLegend() plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle.Font.Size = vg.Points(12)
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(4)
	return leg
}

// size returns the frame's size, the default where it has none.
func size(f chart.Frame) (w, h vg.Length) {
	pw, ph := f.Width, f.Height
	if pw <= 0 || ph <= 0 {
		pw, ph = chart.DefaultWidth, chart.DefaultHeight
	}
	return vg.Length(pw) * pixel, vg.Length(ph) * pixel
}

// save draws p with its legend to the right of it, inside a margin, and
// writes the file.
func save(p *plot.Plot, leg plot.Legend, f chart.Frame) (err error) {
	w, h := size(f)
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(f.File)), ".")
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return fmt.Errorf("mastermind: %w", err)
	}
	dc := draw.New(c)
	margin := vg.Points(12)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	dc = draw.Crop(dc, margin, -margin, margin, -margin)
	legW := leg.Rectangle(dc).Size().X
	gap := vg.Points(16)
	area := draw.Crop(dc, 0, -(legW + gap), 0, 0)
	// Shrink a title too long for the plot rather than cut it.
	ts := &p.Title.TextStyle
	for ts.Font.Size > vg.Points(6) && ts.Rectangle(p.Title.Text).Size().X > area.Size().X {
		ts.Font.Size -= vg.Points(0.5)
	}
	p.Draw(area)
	// The legend starts level with the top of the plot area, below the
	// title.
	top := ts.Rectangle(p.Title.Text).Size().Y + p.Title.Padding + vg.Points(4)
	leg.Draw(draw.Crop(dc, dc.Size().X-legW, 0, 0, -top))

	out, err := os.Create(f.File)
	if err != nil {
		return fmt.Errorf("mastermind: %w", err)
	}
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("mastermind: %w", cerr)
		}
	}()
	if _, err := c.WriteTo(out); err != nil {
		return fmt.Errorf("mastermind: writing %s: %w", f.File, err)
	}
	return nil
}
