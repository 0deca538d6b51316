package draw

import "gonum.org/v1/plot"

// NiceTicks exposes the axes' ticker to the tests.
func NiceTicks(lo, hi float64) []plot.Tick { return niceTicks{}.Ticks(lo, hi) }
