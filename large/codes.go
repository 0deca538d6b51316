package large

import (
	"bytes"
	"slices"

	mm "github.com/mastermind-toolkit/mastermind"
)

// The package keeps codes as their colours, one byte a peg, and lists of
// codes of one length flat, code i at [i·pegs, (i+1)·pegs): searches and
// scoring touch contiguous memory, and mm.Code appears only where codes
// leave the package.

// toCode returns the code whose colours are x, all in range.
func toCode(x []uint8) mm.Code {
	var buf [mm.MaxPegs]int
	for i, k := range x {
		buf[i] = int(k)
	}
	c, err := mm.NewCode(buf[:len(x)]...)
	if err != nil {
		panic("large: " + err.Error())
	}
	return c
}

// toCodes returns the codes of a flat list.
func toCodes(flat []uint8, pegs int) []mm.Code {
	if len(flat) == 0 {
		return nil
	}
	out := make([]mm.Code, len(flat)/pegs)
	for i := range out {
		out[i] = toCode(flat[i*pegs : (i+1)*pegs])
	}
	return out
}

// flatten returns the colours of codes, one after another.
func flatten(codes []mm.Code, pegs int) []uint8 {
	out := make([]uint8, 0, len(codes)*pegs)
	for _, c := range codes {
		out = appendCode(out, c)
	}
	return out
}

// sortCodes sorts a flat list in lexicographic order, which is the order of
// mm.Code.Compare.
func sortCodes(flat []uint8, pegs int) []uint8 {
	n := len(flat) / pegs
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	row := func(i int) []uint8 { return flat[i*pegs : (i+1)*pegs] }
	slices.SortFunc(idx, func(a, b int) int { return bytes.Compare(row(a), row(b)) })
	out := make([]uint8, 0, len(flat))
	for _, i := range idx {
		out = append(out, row(i)...)
	}
	return out
}
