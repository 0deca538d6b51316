package eval

import (
	"math"
	"slices"
)

// Stats summarises the number of guesses a strategy needed over a set of
// games. Histogram[n] is the number of games solved in n guesses; it has
// Max+1 entries. Games, Total, Max and the histogram count the games
// solved; Failed counts those not solved within a guess limit.
type Stats struct {
	Games     int
	Total     int
	Max       int
	Histogram []int
	Failed    int
}

// Played returns the number of games played, solved or failed.
func (s Stats) Played() int { return s.Games + s.Failed }

// Won returns the share of the games played that were solved, from 0 to
// 1; 1 when no game was played.
func (s Stats) Won() float64 {
	if s.Played() == 0 {
		return 1
	}
	return float64(s.Games) / float64(s.Played())
}

// Summarize returns the statistics of games that took guesses[i] guesses.
func Summarize(guesses []int) Stats {
	var s Stats
	for _, g := range guesses {
		s.Add(g)
	}
	return s
}

// Add records one game solved in n guesses.
func (s *Stats) Add(n int) {
	if n >= len(s.Histogram) {
		s.Histogram = append(s.Histogram, make([]int, n+1-len(s.Histogram))...)
	}
	s.Histogram[n]++
	s.Games++
	s.Total += n
	s.Max = max(s.Max, n)
}

// Merge adds the games of t to s.
func (s *Stats) Merge(t Stats) { s.merge(t) }

// merge adds t's counts to s, histograms bin by bin.
func (s *Stats) merge(t Stats) {
	if len(t.Histogram) > len(s.Histogram) {
		s.Histogram = append(s.Histogram, make([]int, len(t.Histogram)-len(s.Histogram))...)
	}
	for n, c := range t.Histogram {
		s.Histogram[n] += c
	}
	s.Games += t.Games
	s.Total += t.Total
	s.Max = max(s.Max, t.Max)
	s.Failed += t.Failed
}

// Min returns the fewest guesses any game took, or 0 for no games.
func (s Stats) Min() int {
	for n, c := range s.Histogram {
		if c > 0 {
			return n
		}
	}
	return 0
}

// Mean returns the mean number of guesses, or 0 for no games.
func (s Stats) Mean() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Total) / float64(s.Games)
}

// Median returns the median number of guesses: the middle game's, or the
// mean of the two middle games' for an even number of games.
func (s Stats) Median() float64 {
	if s.Games == 0 {
		return 0
	}
	return (float64(s.nth(s.Games/2+1)) + float64(s.nth((s.Games+1)/2))) / 2
}

// nth returns the guesses of the k-th game in sorted order, from 1.
func (s Stats) nth(k int) int {
	seen := 0
	for n, c := range s.Histogram {
		seen += c
		if seen >= k {
			return n
		}
	}
	return s.Max
}

// StdDev returns the population standard deviation of the guesses.
func (s Stats) StdDev() float64 {
	if s.Games == 0 {
		return 0
	}
	mean := s.Mean()
	v := 0.0
	for n, c := range s.Histogram {
		d := float64(n) - mean
		v += float64(c) * d * d
	}
	return math.Sqrt(v / float64(s.Games))
}

// Counts returns the guess counts that occur, ascending.
func (s Stats) Counts() []int {
	var out []int
	for n, c := range s.Histogram {
		if c > 0 {
			out = append(out, n)
		}
	}
	return slices.Clip(out)
}
