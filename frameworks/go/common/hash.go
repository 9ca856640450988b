package common

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
)

const maxN = 100000

// HashFile is the file the hash workload reads on every request (the check rewrites it between requests).
type HashFile string

// Answer is the hash workload's status and text body for the query's n (raw, and whether it was
// given): the hex digest, or 400 with the one-line reason n is refused.
func (f HashFile) Answer(raw string, present bool) (status int, body string) {
	n, err := parseN(raw, present)
	if err != nil {
		return http.StatusBadRequest, err.Error()
	}
	data, err := os.ReadFile(string(f))
	if err != nil {
		return http.StatusInternalServerError, err.Error()
	}
	return http.StatusOK, iteratedSHA256Hex(data, n)
}

func parseN(raw string, present bool) (int, error) {
	if !present {
		return 0, errors.New("missing query parameter n")
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, errors.New("n must be an integer")
	}
	if n < 1 || n > maxN {
		return 0, fmt.Errorf("n must be between 1 and %d", maxN)
	}
	return n, nil
}

// iteratedSHA256Hex is the lowercase hex of d_n: d_1 = SHA-256(data), d_(k+1) = SHA-256(d_k).
func iteratedSHA256Hex(data []byte, n int) string {
	digest := sha256.Sum256(data)
	for i := 1; i < n; i++ {
		digest = sha256.Sum256(digest[:])
	}
	return hex.EncodeToString(digest[:])
}
