package cli

import "testing"

func TestCountValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1000", 1000, true},
		{"1_000_000", 1000000, true},
		{"1e9", 1000000000, true},
		{"2.5e3", 2500, true},
		{"1e-3", 0, false},
		{"1.5", 0, false},
		{"1e30", 0, false},
		{"many", 0, false},
		{"", 0, false},
	} {
		var v countValue
		err := v.Set(c.in)
		if (err == nil) != c.ok || (c.ok && int(v) != c.want) {
			t.Errorf("Set(%q) = %d, %v; want %d, ok %t", c.in, v, err, c.want, c.ok)
		}
	}
}
