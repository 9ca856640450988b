package common

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestUploadAnswerCountsAndHashesTheWholeBody(t *testing.T) {
	const empty = "0 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	if got, err := UploadAnswer(bytes.NewReader(nil)); err != nil || got != empty {
		t.Errorf("empty body: %q, %v", got, err)
	}
	if got := UploadAnswerOf(nil); got != empty {
		t.Errorf("empty buffered body: %q", got)
	}
	body := bytes.Repeat([]byte("0123456789abcdef"), 5000)
	want := UploadAnswerOf(body)
	// One byte per read: an answer made from the first read alone would differ.
	if got, err := UploadAnswer(iotest.OneByteReader(bytes.NewReader(body))); err != nil || got != want {
		t.Errorf("read a byte at a time: %q, %v; want %q", got, err, want)
	}
	if want[:6] != "80000 " {
		t.Errorf("count: %q", want)
	}
}

func TestUploadAnswerReturnsTheReadError(t *testing.T) {
	limit := errors.New("too large")
	body := io.MultiReader(bytes.NewReader([]byte("abc")), iotest.ErrReader(limit))
	if got, err := UploadAnswer(body); !errors.Is(err, limit) || got != "" {
		t.Errorf("%q, %v", got, err)
	}
}

func TestItemsBuildsTheArrayClampedToTheContract(t *testing.T) {
	for raw, want := range map[string]int{"1": 1, "100": 100, "1000": 1000, "1001": 1000, "0": 1, "x": 1, "": 1} {
		items := Items(raw)
		if len(items) != want {
			t.Errorf("Items(%q): %d items, want %d", raw, len(items), want)
			continue
		}
		for i, item := range items {
			if item.ID != i+1 || item.Message != "Hello, World!" {
				t.Fatalf("Items(%q)[%d] = %+v", raw, i, item)
			}
		}
	}
}
