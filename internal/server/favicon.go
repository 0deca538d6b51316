package server

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"sync"
	"time"
)

// favicon returns the site's icon, /favicon.ico: four pegs of the page's
// colours on a dark board, 32 × 32, drawn once and written as an ICO file
// that holds a PNG, which every browser reads.
var favicon = sync.OnceValue(func() []byte {
	const n = 32
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	board := color.NRGBA{0x33, 0x2b, 0x26, 0xff}
	pegs := []struct {
		x, y float64
		c    color.NRGBA
	}{
		{9.5, 9.5, color.NRGBA{0xd6, 0x27, 0x28, 0xff}},
		{22.5, 9.5, color.NRGBA{0x2c, 0xa0, 0x2c, 0xff}},
		{9.5, 22.5, color.NRGBA{0x1f, 0x77, 0xb4, 0xff}},
		{22.5, 22.5, color.NRGBA{0xff, 0xd7, 0x00, 0xff}},
	}
	for y := range n {
		for x := range n {
			// A board with its corners cut, the pegs discs of radius 5.
			cx, cy := min(x, n-1-x), min(y, n-1-y)
			if cx+cy < 3 {
				continue
			}
			img.SetNRGBA(x, y, board)
			for _, p := range pegs {
				dx, dy := float64(x)-p.x, float64(y)-p.y
				if dx*dx+dy*dy <= 25 {
					img.SetNRGBA(x, y, p.c)
				}
			}
		}
	}
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		panic(err) // an in-memory image always encodes
	}
	var b bytes.Buffer
	// ICONDIR: reserved, type 1 (icon), one image; then its entry: width,
	// height, no palette, reserved, 1 plane, 32 bits a pixel, the size of
	// the PNG and where it starts (after these 6 + 16 bytes).
	binary.Write(&b, binary.LittleEndian, []uint16{0, 1, 1})
	b.Write([]byte{n, n, 0, 0})
	binary.Write(&b, binary.LittleEndian, []uint16{1, 32})
	binary.Write(&b, binary.LittleEndian, []uint32{uint32(pngData.Len()), 22})
	b.Write(pngData.Bytes())
	return b.Bytes()
})

// serveFavicon answers GET /favicon.ico, which browsers ask for on their
// own.
func serveFavicon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/x-icon")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeContent(w, r, "favicon.ico", time.Time{}, bytes.NewReader(favicon()))
}
