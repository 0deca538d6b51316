package chart_test

import (
	"strings"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/chart"
)

func TestCheckFile(t *testing.T) {
	for _, f := range []string{"a.svg", "a.PNG", "dir/a.pdf", "a.eps", "a.jpg", "a.jpeg", "a.tif", "a.tiff"} {
		if err := chart.CheckFile(f); err != nil {
			t.Errorf("CheckFile(%q) = %v", f, err)
		}
	}
	for _, f := range []string{"a.txt", "a", "png"} {
		if err := chart.CheckFile(f); err == nil || !strings.HasPrefix(err.Error(), "mastermind: ") {
			t.Errorf("CheckFile(%q) = %v; want an error", f, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		ok   bool
	}{
		{"1200x800", 1200, 800, true},
		{" 640X480 ", 640, 480, true},
		{"100x10000", 100, 10000, true},
		{"99x800", 0, 0, false},
		{"800", 0, 0, false},
		{"axb", 0, 0, false},
		{"800x-1", 0, 0, false},
		{"20000x800", 0, 0, false},
	}
	for _, tt := range tests {
		w, h, err := chart.ParseSize(tt.in)
		if (err == nil) != tt.ok || w != tt.w || h != tt.h {
			t.Errorf("ParseSize(%q) = %d, %d, %v; want %d, %d, ok %v", tt.in, w, h, err, tt.w, tt.h, tt.ok)
		}
	}
}
