package shard

import (
	"cmp"
	"container/heap"
	"math/bits"
	"slices"
)

// Assign deals units of the given costs to n shards and returns the shard
// of each: the costliest first (ties in the units' order), each to the
// shard with the least cost so far (ties to the lowest index) — the
// longest-processing-time rule, within 4/3 of the best split. Costs are
// integers so that every machine computes the same split. It takes
// O(u log u + u log n) time for u units.
func Assign(costs []int64, n int) []int {
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
	h := make(loads, n)
	for i := range h {
		h[i] = load{shard: i}
	}
	out := make([]int, len(costs))
	for _, u := range order {
		out[u] = h[0].shard
		h[0].cost += costs[u]
		heap.Fix(&h, 0)
	}
	return out
}

// Normalize scales costs so that they add up to about total, keeping their
// proportions: the units of works of unlike cost estimates can so be dealt
// together, each work spread evenly over the shards. Every cost stays at
// least 1; costs must not be negative.
func Normalize(costs []int64, total int64) []int64 {
	var sum int64
	for _, c := range costs {
		sum += c
	}
	out := make([]int64, len(costs))
	for i, c := range costs {
		if sum > 0 && c > 0 {
			// c·total/sum in 128 bits: c ≤ sum, so the quotient fits.
			hi, lo := bits.Mul64(uint64(c), uint64(total))
			q, _ := bits.Div64(hi, lo, uint64(sum))
			out[i] = int64(q)
		}
		out[i] = max(1, out[i])
	}
	return out
}

type load struct {
	cost  int64
	shard int
}

// loads is a min-heap of shards by cost, then index.
type loads []load

func (h loads) Len() int { return len(h) }
func (h loads) Less(i, j int) bool {
	return h[i].cost < h[j].cost || (h[i].cost == h[j].cost && h[i].shard < h[j].shard)
}
func (h loads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loads) Push(x any)   { *h = append(*h, x.(load)) }
func (h *loads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
