package score

import (
	"math/rand/v2"
	"testing"
)

// naive returns black and white pegs by counting colours.
func naive(a, b []uint8) (black, white int) {
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

func TestKeys(t *testing.T) {
	for pegs := 1; pegs <= 32; pegs++ {
		pk := New(pegs, 6)
		seen := map[int]bool{}
		for b := 0; b <= pegs; b++ {
			for w := 0; b+w <= pegs; w++ {
				k := pk.Key(b, w)
				if k < 0 || k >= pk.Keys() {
					t.Errorf("pegs %d: Key(%d, %d) = %d; want 0 to %d", pegs, b, w, k, pk.Keys()-1)
				}
				if seen[k] {
					t.Errorf("pegs %d: Key(%d, %d) = %d is shared", pegs, b, w, k)
				}
				seen[k] = true
				if gb, gw := pk.Feedback(k); gb != b || gw != w {
					t.Errorf("pegs %d: Feedback(Key(%d, %d)) = %d, %d", pegs, b, w, gb, gw)
				}
				if k > 1<<16-1 {
					t.Errorf("pegs %d: Key(%d, %d) = %d does not fit KeysOf's uint16", pegs, b, w, k)
				}
			}
		}
	}
}

// TestPacked checks KeyOf, Count and KeysOf against naive counting, for
// packings of one, two and many words, up to 32 pegs of 64 colours.
func TestPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sizes := [][2]int{{4, 6}, {1, 2}, {5, 8}, {8, 8}, {4, 17}, {8, 16}, {2, 64}, {3, 44}, {10, 20}, {32, 64}, {20, 35}, {16, 4}}
	for _, sz := range sizes {
		pegs, colors := sz[0], sz[1]
		pk := New(pegs, colors)
		if pk.Words != (pegs*colors+63)/64 || pk.Stride() != 2*pk.Words {
			t.Errorf("New(%d, %d): Words %d, Stride %d", pegs, colors, pk.Words, pk.Stride())
		}
		const n = 300
		codes := make([][]uint8, n)
		data := make([]uint64, n*pk.Stride())
		for i := range codes {
			codes[i] = make([]uint8, pegs)
			few := 1 + rng.IntN(colors) // often few colours, for many matches
			for j := range codes[i] {
				codes[i][j] = uint8(rng.IntN(few))
			}
			pk.Pack(data[i*pk.Stride():(i+1)*pk.Stride()], codes[i])
		}
		packed := func(i int) []uint64 { return data[i*pk.Stride() : (i+1)*pk.Stride()] }
		counts := make([]uint32, pk.Keys())
		keys := make([]uint16, n)
		for g := range 20 {
			clear(counts)
			pk.Count(packed(g), data, counts)
			pk.KeysOf(packed(g), data, keys)
			want := make([]uint32, pk.Keys())
			for i := range codes {
				b, w := naive(codes[g], codes[i])
				k := pk.Key(b, w)
				if got := pk.KeyOf(packed(g), packed(i)); got != k {
					gb, gw := pk.Feedback(got)
					t.Fatalf("%dx%d: KeyOf(%v, %v) = (%d, %d); want (%d, %d)", colors, pegs, codes[g], codes[i], gb, gw, b, w)
				}
				if int(keys[i]) != k {
					t.Fatalf("%dx%d: KeysOf(%v)[%d] = %d; want %d", colors, pegs, codes[g], i, keys[i], k)
				}
				want[k]++
			}
			for k := range want {
				if counts[k] != want[k] {
					t.Fatalf("%dx%d: Count(%v)[%d] = %d; want %d", colors, pegs, codes[g], k, counts[k], want[k])
				}
			}
		}
		// Pack clears what it writes over.
		buf := make([]uint64, pk.Stride())
		for i := range buf {
			buf[i] = ^uint64(0)
		}
		pk.Pack(buf, codes[0])
		for i := range buf {
			if buf[i] != packed(0)[i] {
				t.Fatalf("%dx%d: Pack over a dirty buffer differs in word %d", colors, pegs, i)
			}
		}
	}
}
