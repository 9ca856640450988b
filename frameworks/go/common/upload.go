package common

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"strconv"
)

// MaxUpload is the request-body limit each stack gives its framework for the upload workloads: the
// contract accepts bodies up to 1 MiB and wants one over 16 MiB refused; 2 MiB sits between, with room.
const MaxUpload = 2 << 20

// UploadAnswer reads body to its end as it arrives, hashing each read, and answers
// "<bytes read> <lowercase hex SHA-256>"; a read error (the framework's limit, a broken chunk, a
// client gone) is returned for the caller to answer in its framework's way.
func UploadAnswer(body io.Reader) (string, error) {
	digest := sha256.New()
	n, err := io.Copy(digest, body)
	if err != nil {
		return "", err
	}
	return answer(n, digest), nil
}

// UploadAnswerOf is UploadAnswer for a framework that hands the handler the whole body, already read.
func UploadAnswerOf(body []byte) string {
	digest := sha256.New()
	digest.Write(body)
	return answer(int64(len(body)), digest)
}

func answer(n int64, digest hash.Hash) string {
	return strconv.FormatInt(n, 10) + " " + hex.EncodeToString(digest.Sum(nil))
}
