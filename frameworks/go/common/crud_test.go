package common

import (
	"errors"
	"net/http"
	"testing"
)

func TestItemIDTakesOnly32BitIntegers(t *testing.T) {
	for raw, want := range map[string]int32{"1": 1, "1000": 1000, "2147483647": 2147483647, "-4": -4} {
		if got, err := itemID(raw); err != nil || got != want {
			t.Errorf("itemID(%q) = %d, %v, want %d", raw, got, err, want)
		}
	}
	for _, raw := range []string{"", "x", "1.0", "2147483648", " 1"} {
		if _, err := itemID(raw); !errors.Is(err, ErrNoItem) {
			t.Errorf("itemID(%q): %v, want ErrNoItem (no row has it)", raw, err)
		}
	}
}

func TestRefusedStatusTellsBrokenJSONFromAWrongShape(t *testing.T) {
	for body, want := range map[string]int{
		`{"name": "broken", `:        http.StatusBadRequest,
		``:                           http.StatusBadRequest,
		`{"name": "x"} trailing`:     http.StatusBadRequest,
		`{"name": "no quantity"}`:    http.StatusUnprocessableEntity,
		`{"name": 5, "quantity": 3}`: http.StatusUnprocessableEntity,
		`[{"name": "x"}]`:            http.StatusUnprocessableEntity,
		`null`:                       http.StatusUnprocessableEntity,
	} {
		if got := RefusedStatus([]byte(body)); got != want {
			t.Errorf("RefusedStatus(%q) = %d, want %d", body, got, want)
		}
	}
}
