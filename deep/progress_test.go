package deep

import (
	"testing"
	"time"
)

func TestEstimateLeft(t *testing.T) {
	for _, tc := range []struct {
		elapsed       time.Duration
		settled, goal int64
		want          string // "" for no estimate
	}{
		{time.Minute, 0, 100, ""}, // nothing built yet: no pace
		{time.Minute, 10, 0, ""},  // no goal: not a whole variant's tree
		{10 * time.Minute, 25, 100, "about 30 min left"},
		{10 * time.Minute, 50, 100, "about 10 min left"},
		{10 * time.Minute, 99, 100, "under a minute left"},
		{10 * time.Minute, 120, 100, "under a minute left"}, // past the goal: none left
	} {
		d, ok := estimateLeft(tc.elapsed, tc.settled, tc.goal)
		got := ""
		if ok {
			got = leftText(d)
		}
		if got != tc.want {
			t.Errorf("estimateLeft(%v, %d, %d) = %q; want %q", tc.elapsed, tc.settled, tc.goal, got, tc.want)
		}
	}
}
