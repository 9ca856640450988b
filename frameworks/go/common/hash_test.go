package common

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func TestParseNRefusesWithTheReason(t *testing.T) {
	for _, c := range []struct {
		raw     string
		present bool
		want    string
	}{
		{"", false, "missing query parameter n"},
		{"x", true, "n must be an integer"},
		{"1.5", true, "n must be an integer"},
		{"0", true, "n must be between 1 and 100000"},
		{"100001", true, "n must be between 1 and 100000"},
	} {
		if _, err := parseN(c.raw, c.present); err == nil || err.Error() != c.want {
			t.Errorf("parseN(%q, %v) = %v, want %q", c.raw, c.present, err, c.want)
		}
	}
	for _, raw := range []string{"1", "100000"} {
		if _, err := parseN(raw, true); err != nil {
			t.Errorf("parseN(%q) refused: %v", raw, err)
		}
	}
}

func TestIteratedSHA256HashesTheRawDigest(t *testing.T) {
	// Expected values from Python's hashlib.
	if got := iteratedSHA256Hex([]byte("abc"), 1); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("d_1 = %s", got)
	}
	if got := iteratedSHA256Hex([]byte("hello"), 3); got != "6c92efed736019d91804be8749edd36be572a345bd51c80f1ac4ea0d932c0dc7" {
		t.Errorf("d_3 = %s", got)
	}
}

func TestAnswerReadsTheFileOnEveryCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	file := HashFile(path)
	for _, content := range []string{"abc", "other"} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		status, body := file.Answer("1", true)
		if want := iteratedSHA256Hex([]byte(content), 1); status != http.StatusOK || body != want {
			t.Errorf("after writing %q: %d %q, want 200 %q", content, status, body, want)
		}
	}
	if status, body := file.Answer("0", true); status != http.StatusBadRequest || body != "n must be between 1 and 100000" {
		t.Errorf("n=0: %d %q", status, body)
	}
	if status, _ := HashFile(filepath.Join(t.TempDir(), "absent")).Answer("1", true); status != http.StatusInternalServerError {
		t.Errorf("missing file: status %d, want 500", status)
	}
}
