// Package stdhttp holds the net/http handlers of the workloads, so that go-nethttp (ServeMux), httprouter,
// chi and gorilla/mux (which route to plain http.HandlerFuncs) differ only in their routing.
package stdhttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"webshootout/common"
)

// Handlers serves plaintext, json, db, session, hash, async, json-comp (uncompressed: each stack wraps
// it in its compression middleware), upload and TechEmpower's queries, updates, fortunes and cached.
type Handlers struct {
	Pool     *pgxpool.Pool
	HashFile common.HashFile
	Cache    *common.WorldCache
}

// New serves from what common.Start opened.
func New(b *common.Backend) *Handlers {
	return &Handlers{Pool: b.Pool, HashFile: b.HashFile, Cache: b.Cache}
}

// WithServer sends the Server header on every response: net/http sets Date itself but no Server.
func WithServer(name string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", name)
		next.ServeHTTP(w, r)
	})
}

func text(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write([]byte(body))
}

func writeJSON(w http.ResponseWriter, v any) {
	answerJSON(w, http.StatusOK, v)
}

func answerJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

func (h *Handlers) Plaintext(w http.ResponseWriter, r *http.Request) {
	text(w, http.StatusOK, "Hello, World!")
}

// Async answers as Plaintext after common.AsyncWait: net/http serves each connection in its own
// goroutine, which time.Sleep parks without holding a thread.
func (h *Handlers) Async(w http.ResponseWriter, r *http.Request) {
	time.Sleep(common.AsyncWait)
	text(w, http.StatusOK, "Hello, World!")
}

func (h *Handlers) JSON(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]string{"message": "Hello, World!"})
}

// JSONComp is the json-comp array as net/http answers it; the stack's compression middleware around it
// decides the encoding.
func (h *Handlers) JSONComp(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, common.Items(r.URL.Query().Get("n")))
}

// Upload streams the body into SHA-256 through http.MaxBytesReader, net/http's limit on request bodies
// ("intended for limiting the size of incoming request bodies"; pkg.go.dev/net/http#MaxBytesReader), at
// common.MaxUpload. Past it the read fails with *http.MaxBytesError and the server closes the connection
// after the 413, so the rest of an over-size body is never read.
func (h *Handlers) Upload(w http.ResponseWriter, r *http.Request) {
	answer, err := common.UploadAnswer(http.MaxBytesReader(w, r.Body, common.MaxUpload))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		text(w, http.StatusRequestEntityTooLarge, err.Error())
	case err != nil:
		text(w, http.StatusBadRequest, err.Error())
	default:
		text(w, http.StatusOK, answer)
	}
}

func (h *Handlers) DB(w http.ResponseWriter, r *http.Request) {
	row, err := common.RandomWorld(r.Context(), h.Pool)
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, row)
}

func (h *Handlers) Queries(w http.ResponseWriter, r *http.Request) {
	rows, err := common.RandomWorlds(r.Context(), h.Pool, common.Count(r.URL.Query().Get("queries")))
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, rows)
}

func (h *Handlers) Updates(w http.ResponseWriter, r *http.Request) {
	rows, err := common.UpdateWorlds(r.Context(), h.Pool, common.Count(r.URL.Query().Get("queries")))
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, rows)
}

func (h *Handlers) Cached(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, h.Cache.Random(common.Count(r.URL.Query().Get("count"))))
}

// Fortunes renders into a buffer first, so that a template error can still answer 500.
func (h *Handlers) Fortunes(w http.ResponseWriter, r *http.Request) {
	rows, err := common.Fortunes(r.Context(), h.Pool)
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	var page bytes.Buffer
	if err := common.FortunesTemplate.Execute(&page, rows); err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(page.Len()))
	w.Write(page.Bytes())
}

func (h *Handlers) Session(w http.ResponseWriter, r *http.Request) {
	uid := ""
	if c, err := r.Cookie(common.SessionCookie); err == nil {
		uid = c.Value
	}
	visit, err := common.Bump(r.Context(), h.Pool, uid)
	if err != nil {
		text(w, http.StatusInternalServerError, err.Error())
		return
	}
	if visit.FreshUID != "" {
		http.SetCookie(w, &http.Cookie{Name: common.SessionCookie, Value: visit.FreshUID, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	text(w, http.StatusOK, "Count is "+strconv.Itoa(visit.Count))
}

func (h *Handlers) Hash(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	status, body := h.HashFile.Answer(q.Get("n"), q.Has("n"))
	text(w, status, body)
}
