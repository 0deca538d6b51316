package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// linked are the documents whose relative links TestLinks follows,
// relative to this directory; docs/*.md are added to them.
var linked = []string{"../../README.md", "../../BENCHMARKS.md", "../../EXPERIMENTS.md", "../../records/README.md"}

// mdLink matches an inline Markdown link or image, [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinks checks that every relative link of the README, BENCHMARKS.md,
// EXPERIMENTS.md, records/README.md and docs/*.md points to a file or
// directory that exists, and that a #fragment names a heading of the
// document it points to, as GitHub makes anchors of headings.
func TestLinks(t *testing.T) {
	more, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(more) == 0 {
		t.Fatal("no docs/*.md")
	}
	docs := append(append([]string{}, linked...), more...)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(data))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range outsideCode(string(data)) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				path := doc
				if file != "" {
					path = filepath.Join(filepath.Dir(doc), file)
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d: link %q: %v", doc, i+1, target, err)
						continue
					}
				}
				checked++
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(path, ".md") {
					t.Errorf("%s:%d: link %q: an anchor in a file that is not Markdown", doc, i+1, target)
					continue
				}
				if !anchorsOf(path)[frag] {
					t.Errorf("%s:%d: link %q: %s has no heading with that anchor", doc, i+1, target, path)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d links; the documents link more than that", checked)
	}
}

// outsideCode returns doc's lines with those of fenced code blocks and
// inline code spans blanked, so that links are read only from prose.
func outsideCode(doc string) []string {
	lines := strings.Split(doc, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			lines[i] = ""
			continue
		}
		if fence {
			lines[i] = ""
			continue
		}
		// Drop inline code spans, but keep a link whose text is code,
		// [`records/`](records/README.md).
		parts := strings.Split(l, "`")
		for j := 1; j < len(parts); j += 2 {
			parts[j] = "x"
		}
		lines[i] = strings.Join(parts, "")
	}
	return lines
}

// headingAnchors returns the anchors GitHub gives the headings of doc:
// the text lower-cased, without Markdown marks and punctuation, spaces
// made hyphens, and -1, -2… after a repeated one.
func headingAnchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimLeft(l, "#")
		if text == "" || text[0] != ' ' {
			continue
		}
		text = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(strings.TrimSpace(text), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}
