package stdhttp

import (
	"net/url"
	"testing"
)

func TestPageArgDefaultsAndBounds(t *testing.T) {
	for query, want := range map[string]struct {
		n  int64
		ok bool
	}{
		"":          {10, true},
		"size=1":    {1, true},
		"size=100":  {100, true},
		"size=0":    {0, false},
		"size=101":  {101, false},
		"size=ten":  {0, false},
		"size=":     {0, false},
		"size=-1":   {-1, false},
		"size=7&x=": {7, true},
	} {
		q, _ := url.ParseQuery(query)
		n, ok := pageArg(q, "size", 10, 1, 100)
		if ok != want.ok || (ok && n != want.n) {
			t.Errorf("size from %q: %d, %v; want %d, %v", query, n, ok, want.n, want.ok)
		}
	}
}
