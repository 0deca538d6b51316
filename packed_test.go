package mastermind

import (
	"math/rand/v2"
	"testing"
)

// naiveScore returns black and white pegs by counting colours.
func naiveScore(a, b []uint8) (black, white int) {
	var ca, cb [256]int
	for i := range a {
		if a[i] == b[i] {
			black++
		}
		ca[a[i]]++
		cb[b[i]]++
	}
	total := 0
	for k := range ca {
		total += min(ca[k], cb[k])
	}
	return black, total - black
}

func TestPackerKeys(t *testing.T) {
	for pegs := 1; pegs <= 32; pegs++ {
		pk := newPacker(pegs, 6)
		seen := map[int]bool{}
		for b := 0; b <= pegs; b++ {
			for w := 0; b+w <= pegs; w++ {
				k := pk.key(b, w)
				if k < 0 || k >= pk.keys() {
					t.Errorf("pegs %d: key(%d, %d) = %d; want 0 to %d", pegs, b, w, k, pk.keys()-1)
				}
				if seen[k] {
					t.Errorf("pegs %d: key(%d, %d) = %d is shared", pegs, b, w, k)
				}
				seen[k] = true
				if gb, gw := pk.feedback(k); gb != b || gw != w {
					t.Errorf("pegs %d: feedback(key(%d, %d)) = %d, %d", pegs, b, w, gb, gw)
				}
				if k > 1<<16-1 {
					t.Errorf("pegs %d: key(%d, %d) = %d does not fit keysOf's uint16", pegs, b, w, k)
				}
			}
		}
	}
}

// TestPacker checks keyOf, count and keysOf against naive counting, for
// packings of one, two and many words, up to 32 pegs of 64 colours.
func TestPacker(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sizes := [][2]int{{4, 6}, {1, 2}, {5, 8}, {8, 8}, {4, 17}, {8, 16}, {2, 64}, {3, 44}, {10, 20}, {32, 64}, {20, 35}, {16, 4}}
	for _, sz := range sizes {
		pegs, colors := sz[0], sz[1]
		pk := newPacker(pegs, colors)
		if pk.words != (pegs*colors+63)/64 || pk.stride() != 2*pk.words {
			t.Errorf("newPacker(%d, %d): Words %d, Stride %d", pegs, colors, pk.words, pk.stride())
		}
		const n = 300
		codes := make([][]uint8, n)
		data := make([]uint64, n*pk.stride())
		for i := range codes {
			codes[i] = make([]uint8, pegs)
			few := 1 + rng.IntN(colors) // often few colours, for many matches
			for j := range codes[i] {
				codes[i][j] = uint8(rng.IntN(few))
			}
			pk.pack(data[i*pk.stride():(i+1)*pk.stride()], codes[i])
		}
		packed := func(i int) []uint64 { return data[i*pk.stride() : (i+1)*pk.stride()] }
		counts := make([]uint32, pk.keys())
		keys := make([]uint16, n)
		for g := range 20 {
			clear(counts)
			pk.count(packed(g), data, counts)
			pk.keysOf(packed(g), data, keys)
			want := make([]uint32, pk.keys())
			for i := range codes {
				b, w := naiveScore(codes[g], codes[i])
				k := pk.key(b, w)
				if got := pk.keyOf(packed(g), packed(i)); got != k {
					gb, gw := pk.feedback(got)
					t.Fatalf("%dx%d: keyOf(%v, %v) = (%d, %d); want (%d, %d)", colors, pegs, codes[g], codes[i], gb, gw, b, w)
				}
				if int(keys[i]) != k {
					t.Fatalf("%dx%d: keysOf(%v)[%d] = %d; want %d", colors, pegs, codes[g], i, keys[i], k)
				}
				want[k]++
			}
			for k := range want {
				if counts[k] != want[k] {
					t.Fatalf("%dx%d: count(%v)[%d] = %d; want %d", colors, pegs, codes[g], k, counts[k], want[k])
				}
			}
		}
		// pack clears what it writes over.
		buf := make([]uint64, pk.stride())
		for i := range buf {
			buf[i] = ^uint64(0)
		}
		pk.pack(buf, codes[0])
		for i := range buf {
			if buf[i] != packed(0)[i] {
				t.Fatalf("%dx%d: pack over a dirty buffer differs in word %d", colors, pegs, i)
			}
		}
	}
}
