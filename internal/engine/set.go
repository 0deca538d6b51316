package engine

// slicedMin is the fewest candidates split with masks: below it, scoring a
// candidate at a time from packed codes costs less than a guess's fixed
// cost of summing masks.
const slicedMin = 12

// famSlicedMin is slicedMin where the scan bounds guess families
// (family.go) under entropy or expected-size: the families need the masks,
// and on sets of 5 to 11 candidates their bounds drop enough guesses to
// pay for them (10 × 4 every secret, one thread: 0.83 and 0.94 of the
// CPU), where under knuth and most-parts they do not (1.00 and 1.02).
const famSlicedMin = 5

// slicedMin returns the fewest candidates the scan splits with masks under
// o, with guess families bounded or not.
func (o Objective) slicedMin(families bool) int {
	if families && (o == SumNLogN || o == SumSquares) {
		return famSlicedMin
	}
	return slicedMin
}

// A set is a candidate set loaded for scoring: its members, and for
// sliced scoring the masks of each 64 of them.
type set struct {
	v       *Variant
	gen     uint64   // counts the loads, so that scratch knows its sums are stale
	members []uint32 // space indices, ascending
	sliced  bool
	words   int      // planes of masks
	stride  int      // words from one plane to the next, 2S
	masks   []uint64 // [w·stride + offset]
	last    uint64   // the members of the last plane
	// spreads[w] is spread of the members past plane w into the
	// variant's classes, for Σ n·ln n's bound as each plane is scored.
	spreads []int64
	// The members' packed codes side by side, for scoring a candidate at
	// a time.
	packed []uint64
	// For guess families (family.go), ready once famReady has run: the
	// members counted, and the shares of the last peg's kinds.
	famN     int
	famKind  [planeWords]int64
	famMost  [planeWords]int32
	famShift int64
}

// load makes s the set of members (ascending space indices).
func (s *set) load(v *Variant, members []uint32) { s.loadMin(v, members, slicedMin) }

// loadMin is load, with masks from least members on.
func (s *set) loadMin(v *Variant, members []uint32, least int) {
	s.v, s.members = v, members
	s.gen++
	n := len(members)
	s.sliced = v.off != nil && n >= least
	if !s.sliced {
		w := 2 * v.words
		if cap(s.packed) < n*w {
			s.packed = make([]uint64, 0, n*w)
		}
		s.packed = s.packed[:0]
		for _, c := range members {
			s.packed = append(s.packed, v.pk[int(c)*w:(int(c)+1)*w]...)
		}
		return
	}
	W := (n + 63) / 64
	stride := 2 * v.S
	// The kernel reads each plane as planeWords words: the last one runs
	// into padding.
	size := (W-1)*stride + planeWords
	if cap(s.masks) < size {
		s.masks = make([]uint64, size)
	}
	s.words, s.stride = W, stride
	s.masks = s.masks[:size]
	clear(s.masks)
	s.last = ^uint64(0) >> (63 - uint(n-1)%64)
	s.spreads = s.spreads[:0]
	for w := range W {
		s.spreads = append(s.spreads, spread(max(0, n-64*(w+1)), v.pairs))
	}
	P2 := 2 * v.P
	for j, c := range members {
		m := (*[planeWords]uint64)(s.masks[(j>>6)*stride:])
		bit := uint64(1) << (j & 63)
		for _, o := range v.off[int(c)*P2 : int(c)*P2+P2] {
			m[o] |= bit
		}
	}
}

// scratch is one worker's memory for scoring guesses.
type scratch struct {
	counts []uint32
	keys   []uint16
	sizes  [64]int32
	// pre[j] holds the sums over the first j pegs of the guess last
	// scored against preSet's first plane, whose first offsets were
	// preKey.
	pre    [maxSliced + 1][6]uint64
	preKey uint64
	preSet *set
	preGen uint64
	// mend has first mend the sums of the guess before where that
	// costs less (scoreList sets it, ready clears it): last holds them, of the
	// guess of offsets lastOff (its first 2P bytes, in two words) against
	// lastSet's first plane.
	mend    bool
	last    [6]uint64
	lastOff [2]uint64
	lastSet *set
	lastGen uint64
	// famPre[w] holds the sums of plane w over the first pegs of the
	// last family bounded (family.go), whose first offsets were famKey,
	// against famSet; famCnt its classes.
	famPre [][maxSliced + 1][6]uint64
	famKey uint64
	famSet *set
	famGen uint64
	famCnt [64]int32
	// famThr is famThreshold's last answer, for famThrObj and
	// famThrLimit against famThrSet.
	famThr      int64
	famThrLimit int64
	famThrObj   Objective
	famThrSet   *set
	famThrGen   uint64
	// famChecked counts the families a scan bounded, famDropped the
	// guesses it dropped.
	famChecked int64
	famDropped int64
	// results holds a scan's best guess of each chunk.
	results []Pick
}

func (sc *scratch) ready(s *set) {
	sc.mend = false
	if len(sc.counts) < s.v.keys {
		sc.counts = make([]uint32, s.v.keys)
	}
	if cap(sc.keys) < len(s.members) {
		sc.keys = make([]uint16, len(s.members))
	}
	sc.keys = sc.keys[:len(s.members)]
}
