package common

import "testing"

func TestWorldCacheAnswersRowsOfTheTable(t *testing.T) {
	rows := make([]World, worldRows)
	for i := range rows {
		rows[i] = World{ID: int32(i + 1), RandomNumber: int32(i+1) * 3}
	}
	cache := NewWorldCache(rows)
	picked := cache.Random(500)
	if len(picked) != 500 {
		t.Fatalf("%d rows, want 500", len(picked))
	}
	for _, row := range picked {
		if row.ID < 1 || row.ID > worldRows || row.RandomNumber != row.ID*3 {
			t.Errorf("row %+v is not the table's", row)
		}
	}
}
