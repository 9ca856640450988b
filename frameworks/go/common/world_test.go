package common

import (
	"reflect"
	"testing"
)

func TestCountClampsToOneThrough500(t *testing.T) {
	for raw, want := range map[string]int{"": 1, "x": 1, "1.5": 1, "0": 1, "-3": 1, "1": 1, "20": 20,
		"500": 500, "501": 500, "99999999999999999999": 1} {
		if got := Count(raw); got != want {
			t.Errorf("Count(%q) = %d, want %d", raw, got, want)
		}
	}
}

func TestRandomIDStaysWithinTheTable(t *testing.T) {
	seen := map[int32]bool{}
	for range 200000 {
		id := RandomID()
		if id < 1 || id > worldRows {
			t.Fatalf("id %d outside 1..%d", id, worldRows)
		}
		seen[id] = true
	}
	if !seen[1] || !seen[worldRows] {
		t.Errorf("the ends were never drawn: 1 %v, %d %v", seen[1], worldRows, seen[worldRows])
	}
}

func TestLockOrderSortsByIDAndLeavesTheAnswerAlone(t *testing.T) {
	rows := []World{{7, 1}, {3, 2}, {7, 3}, {1, 4}}
	want := []World{{1, 4}, {3, 2}, {7, 1}, {7, 3}}
	if got := lockOrder(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("lockOrder = %v, want %v", got, want)
	}
	if rows[0] != (World{7, 1}) {
		t.Errorf("the answer's rows were reordered: %v", rows)
	}
}
