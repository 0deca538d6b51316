package server_test

import (
	"bytes"
	"encoding/binary"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

// TestFavicon checks that /favicon.ico, which browsers ask for on their
// own, is an icon: an ICO file holding one 32 × 32 PNG, not a 404.
func TestFavicon(t *testing.T) {
	e := newEnv(t, nil)
	status, h, b := e.call(t, "GET", "/favicon.ico", "")
	if status != http.StatusOK || h.Get("Content-Type") != "image/x-icon" {
		t.Fatalf("GET /favicon.ico: %d, Content-Type %q; want 200 and image/x-icon", status, h.Get("Content-Type"))
	}
	if len(b) < 22 || !bytes.Equal(b[:6], []byte{0, 0, 1, 0, 1, 0}) {
		t.Fatalf("GET /favicon.ico: % x…; want an ICO header of one image", b[:min(len(b), 6)])
	}
	size, off := binary.LittleEndian.Uint32(b[14:]), binary.LittleEndian.Uint32(b[18:])
	if int(off)+int(size) != len(b) {
		t.Fatalf("GET /favicon.ico: image of %d bytes at %d in %d", size, off, len(b))
	}
	img, err := png.Decode(bytes.NewReader(b[off:]))
	if err != nil {
		t.Fatalf("GET /favicon.ico: the image is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 32 || r.Dy() != 32 || b[6] != 32 || b[7] != 32 {
		t.Errorf("GET /favicon.ico: %v, entry %d x %d; want 32 x 32", r, b[6], b[7])
	}
}

// TestNoscript checks that the pages, without JavaScript, point to where
// the API is documented, docs/server.md, not to the README.
func TestNoscript(t *testing.T) {
	e := newEnv(t, nil)
	for _, path := range []string{"/", "/assist.html"} {
		status, _, b := e.call(t, "GET", path, "")
		_, rest, ok := strings.Cut(string(b), "<noscript>")
		text, _, _ := strings.Cut(rest, "</noscript>")
		if status != http.StatusOK || !ok || !strings.Contains(text, "docs/server.md") {
			t.Errorf("GET %s: %d, <noscript> %q; want it to name docs/server.md", path, status, text)
		}
	}
}
