//go:build linux

package exact

import (
	"context"
	"testing"

	mm "github.com/mastermind-toolkit/mastermind"
)

// TestTablesFreed checks that the tables mapped outside the heap are
// reused and freed, not leaked: solving again maps nothing more, and once
// the codes are evicted and the free lists emptied, nothing is left.
func TestTablesFreed(t *testing.T) {
	drain := func() {
		codesCache.Lock()
		evictCodes()
		codesCache.Unlock()
		for _, f := range []func(){tables.empty, buckets.empty} {
			f()
		}
	}
	drain()
	before := mapped()
	st, err := mm.NewState(mm.Classic, nil)
	if err != nil {
		t.Fatal(err)
	}
	solve := func() {
		t.Helper()
		res, err := Solve(context.Background(), st, &Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 5625 {
			t.Fatalf("6 x 4: total %d, want 5625", res.Total)
		}
	}
	solve()
	first := mapped()
	// The feedback table, the transposition table and a slab of pools.
	if first < before+3 {
		t.Errorf("after a 6 x 4 search %d tables are mapped, want at least %d: are they in the heap?", first, before+3)
	}
	for range 3 {
		solve()
	}
	if got := mapped(); got != first {
		t.Errorf("after four 6 x 4 searches %d tables are mapped, after one %d: the later ones did not reuse the first's", got, first)
	}
	drain()
	if got := mapped(); got != before {
		t.Errorf("%d tables are still mapped once the codes are evicted and the free lists emptied, want %d", got, before)
	}
}

// empty drops everything the list keeps.
func (f *freeList[T]) empty() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, x := range f.items {
		if f.drop != nil {
			f.drop(x)
		}
	}
	f.items = nil
}
