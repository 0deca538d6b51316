// Package chart describes the toolkit's figures: guess-count histograms
// side by side, and mean guesses against the size of the space. It holds
// the data and checks the file; package draw draws them with gonum/plot,
// which only the full command links.
package chart

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// A Frame is where a figure goes: its file, whose extension (.svg, .png,
// .pdf, .eps, .jpg, .tif) picks the format, its title, and its size in
// pixels (at 96 per inch for the vector formats).
type Frame struct {
	File          string
	Title         string
	Width, Height int
}

// Default size of a figure, in pixels.
const (
	DefaultWidth  = 1200
	DefaultHeight = 800
)

// A Histogram is one strategy's counts: Counts[n] games took n guesses.
type Histogram struct {
	Name   string
	Counts []int
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

// CheckFile reports whether file's extension is a format the figures can
// be written in.
func CheckFile(file string) error {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".svg", ".png", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff":
		return nil
	}
	return fmt.Errorf("mastermind: cannot tell the format of %q; use .svg or .png (or .pdf, .eps, .jpg, .tif)", file)
}

// ParseSize reads a size "WxH" in pixels, each 100 to 10000.
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		w, err = strconv.Atoi(strings.TrimSpace(a))
	}
	if ok && err == nil {
		h, err = strconv.Atoi(strings.TrimSpace(b))
	}
	if !ok || err != nil || w < 100 || h < 100 || w > 10000 || h > 10000 {
		return 0, 0, fmt.Errorf("mastermind: size %q: want WIDTHxHEIGHT in pixels, each 100 to 10000, such as 1200x800", s)
	}
	return w, h, nil
}
