package common

import "strconv"

// maxItems is the largest n the json-comp check and load ask for.
const maxItems = 1000

// Item is one object of the json-comp array.
type Item struct {
	ID      int    `json:"id"`
	Message string `json:"message"`
}

// Items builds, on every request, the json-comp array for the raw ?n=: {"id": i, "message": "Hello,
// World!"} for i = 1..n. The contract asks only for 1..1000; anything else is clamped there, as Count
// clamps TechEmpower's parameter, so no request can make the server build an unbounded array.
func Items(raw string) []Item {
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		n = 1
	}
	items := make([]Item, min(n, maxItems))
	for i := range items {
		items[i] = Item{ID: i + 1, Message: "Hello, World!"}
	}
	return items
}
