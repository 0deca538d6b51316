package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table writes rows of cells in columns: the first column left-aligned,
// the others right-aligned, two spaces apart. A row may end in a note,
// written after the columns and left out of their widths.
type table struct {
	w     io.Writer
	rows  [][]string
	notes map[int]string // by row
}

func newTable(w io.Writer) *table { return &table{w: w} }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

// noted adds a row of cells followed by a note.
func (t *table) noted(note string, cells ...string) {
	if t.notes == nil {
		t.notes = map[int]string{}
	}
	t.notes[len(t.rows)] = note
	t.row(cells...)
}

func (t *table) flush() error {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for ri, r := range t.rows {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 {
				line.WriteString(c + pad)
			} else {
				line.WriteString("  " + pad + c)
			}
		}
		if note, ok := t.notes[ri]; ok {
			line.WriteString("  " + note)
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	t.rows, t.notes = nil, nil
	_, err := io.WriteString(t.w, b.String())
	return err
}
