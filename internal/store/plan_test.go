package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// The queries that must not grow with the games stored read them through
// an index: their plans search the index and scan no table of games.
func TestQueryPlans(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "games.db"), &Options{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	tests := []struct {
		query string
		args  []any
		want  string // in the plan
	}{
		{statsQuery, nil, "SCAN stats"},
		{deadlinesQuery, nil, "USING COVERING INDEX games_expiring"},
		{expireQuery, []any{0, 1}, "USING INDEX games_expiring"},
		{endedQuery, []any{0, 1}, "USING INDEX games_ended"},
		{idleQuery, []any{0, 1}, "USING INDEX games_playing"},
	}
	for _, tt := range tests {
		plan := explain(t, ctx, s.r, tt.query, tt.args...)
		if !strings.Contains(plan, tt.want) || strings.Contains(plan, "SCAN games\n") || strings.Contains(plan, "SCAN games ") {
			t.Errorf("plan of %s:\n%s\nwant %q and no scan of games", strings.Join(strings.Fields(tt.query), " "), plan, tt.want)
		}
	}
}

func explain(t *testing.T, ctx context.Context, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}
