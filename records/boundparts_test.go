package records_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mastermind-toolkit/mastermind/internal/shard"
)

// TestBoundPartials checks the shards of bounds kept under bound/: each a
// finished shard of mastermind bound (a partial with the results of all
// its units), each value within what its unit allows: at least the
// counting bound of its codes, and at most its room, if it has one.
func TestBoundPartials(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("bound", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p, err := shard.ReadFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if p.Command != "bound" {
			t.Errorf("%s: a partial of %s, not bound", f, p.Command)
			continue
		}
		if got, want := len(p.Results), len(p.Mine()); got != want {
			t.Errorf("%s: shard %v has %d of its %d units done; keep finished shards only", f, p.Shard, got, want)
		}
		var plan struct {
			Units []struct {
				Fill int `json:"fill"`
				Room int `json:"room"`
			} `json:"units"`
		}
		if err := json.Unmarshal(p.Plan, &plan); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, r := range p.Results {
			var v struct {
				Value int `json:"value"`
			}
			if err := json.Unmarshal(r.Data, &v); err != nil || r.Unit < 0 || r.Unit >= len(plan.Units) {
				t.Errorf("%s: unit %d: %s (%v)", f, r.Unit, r.Data, err)
				continue
			}
			u := plan.Units[r.Unit]
			if v.Value < u.Fill || (u.Room > 0 && v.Value > u.Room) {
				t.Errorf("%s: unit %d has value %d, outside %d to %d", f, r.Unit, v.Value, u.Fill, u.Room)
			}
		}
	}
}
