package stdhttp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"webshootout/common"
)

func TestWithServerNamesTheServerOnEveryResponse(t *testing.T) {
	mux := http.NewServeMux()
	h := &Handlers{}
	mux.HandleFunc("GET /plaintext", h.Plaintext)
	server := httptest.NewServer(WithServer("Go net/http", mux))
	defer server.Close()
	for path, status := range map[string]int{"/plaintext": http.StatusOK, "/absent": http.StatusNotFound} {
		resp, err := http.Get(server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != status || resp.Header.Get("Server") != "Go net/http" || resp.Header.Get("Date") == "" {
			t.Errorf("%s: %d, Server %q, Date %q", path, resp.StatusCode, resp.Header.Get("Server"), resp.Header.Get("Date"))
		}
	}
}

func TestHashAnswersTextWithCharset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &Handlers{HashFile: common.HashFile(path)}
	for query, status := range map[string]int{"?n=1": http.StatusOK, "?n=x": http.StatusBadRequest, "": http.StatusBadRequest} {
		rec := httptest.NewRecorder()
		h.Hash(rec, httptest.NewRequest("GET", "/hash"+query, nil))
		if rec.Code != status || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("%q: %d %q", query, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}

func TestCachedAnswersTheCountOfRowsAsJSON(t *testing.T) {
	h := &Handlers{Cache: common.NewWorldCache([]common.World{{ID: 1, RandomNumber: 5}})}
	for query, want := range map[string]int{"?count=3": 3, "?count=x": 1, "?count=900": 500, "": 1} {
		rec := httptest.NewRecorder()
		h.Cached(rec, httptest.NewRequest("GET", "/cached-queries"+query, nil))
		var rows []common.World
		if err := json.Unmarshal(rec.Body.Bytes(), &rows); err != nil {
			t.Fatalf("%q: %v in %q", query, err, rec.Body.String())
		}
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || len(rows) != want {
			t.Errorf("%q: %d %q, %d rows, want %d", query, rec.Code, rec.Header().Get("Content-Type"), len(rows), want)
		}
	}
}

func TestAsyncWaitsThenAnswersAsPlaintextAndWaitsOverlap(t *testing.T) {
	h := &Handlers{}
	const n = 16
	recs := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	started := time.Now()
	for i := range recs {
		recs[i] = httptest.NewRecorder()
		wg.Add(1)
		go func(rec *httptest.ResponseRecorder) {
			defer wg.Done()
			h.Async(rec, httptest.NewRequest("GET", "/async", nil))
		}(recs[i])
	}
	wg.Wait()
	took := time.Since(started)
	if took < common.AsyncWait || took > n*common.AsyncWait/2 {
		t.Errorf("%d concurrent answers took %v: want at least %v and well under %v (the waits in turn)",
			n, took, common.AsyncWait, n*common.AsyncWait)
	}
	for _, rec := range recs {
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" ||
			rec.Header().Get("Content-Length") != "13" || rec.Body.String() != "Hello, World!" {
			t.Errorf("%d %q %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Content-Length"), rec.Body.String())
		}
	}
}

func TestUploadAnswersTheBodysCountAndDigestAndRefusesOverTheLimit(t *testing.T) {
	h := &Handlers{}
	body := strings.Repeat("x", 1<<20)
	rec := httptest.NewRecorder()
	h.Upload(rec, httptest.NewRequest("POST", "/upload", strings.NewReader(body)))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" ||
		rec.Body.String() != common.UploadAnswerOf([]byte(body)) {
		t.Errorf("1 MiB: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
	rec = httptest.NewRecorder()
	h.Upload(rec, httptest.NewRequest("POST", "/upload", strings.NewReader(strings.Repeat("x", common.MaxUpload+1))))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("over the limit: %d %q", rec.Code, rec.Body.String())
	}
}

func TestJSONCompAnswersTheArray(t *testing.T) {
	rec := httptest.NewRecorder()
	(&Handlers{}).JSONComp(rec, httptest.NewRequest("GET", "/json-comp?n=3", nil))
	want := `[{"id":1,"message":"Hello, World!"},{"id":2,"message":"Hello, World!"},{"id":3,"message":"Hello, World!"}]`
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || rec.Body.String() != want {
		t.Errorf("%d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
}
