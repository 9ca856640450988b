// webshootout workloads on the standard library's net/http (see docs/workloads.md).
package main

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const cookieName = "uid"

type server struct {
	pool      *pgxpool.Pool
	hashFile  string
	staticDir string
}

type world struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

type sessionData struct {
	Count int `json:"count"`
}

func text(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write([]byte(body))
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func (s *server) plaintext(w http.ResponseWriter, r *http.Request) {
	text(w, http.StatusOK, "Hello, World!")
}

func (s *server) json(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]string{"message": "Hello, World!"})
}

func (s *server) db(w http.ResponseWriter, r *http.Request) {
	var row world
	err := s.pool.QueryRow(r.Context(), "SELECT id, randomnumber FROM world WHERE id = $1",
		rand.IntN(10000)+1).Scan(&row.ID, &row.RandomNumber)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, row)
}

// bump increments the visitor's counter, or creates a visitor when uid is unknown; it returns the
// uid to set as cookie ("" when the visitor was known) and the new count.
func bump(ctx context.Context, pool *pgxpool.Pool, uid string) (newUIDValue string, count int, err error) {
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var data string
		err := pgx.ErrNoRows
		if uid != "" {
			err = tx.QueryRow(ctx, "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE", uid).Scan(&data)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			newUIDValue, count = crand.Text(), 1
			body, _ := json.Marshal(sessionData{Count: count})
			_, err = tx.Exec(ctx, "INSERT INTO usersessions (uid, data) VALUES ($1, $2)", newUIDValue, string(body))
			return err
		}
		if err != nil {
			return err
		}
		var sd sessionData
		if err := json.Unmarshal([]byte(data), &sd); err != nil {
			return err
		}
		count = sd.Count + 1
		body, _ := json.Marshal(sessionData{Count: count})
		_, err = tx.Exec(ctx, "UPDATE usersessions SET data = $1 WHERE uid = $2", string(body), uid)
		return err
	})
	return newUIDValue, count, err
}

func (s *server) session(w http.ResponseWriter, r *http.Request) {
	uid := ""
	if c, err := r.Cookie(cookieName); err == nil {
		uid = c.Value
	}
	fresh, count, err := bump(r.Context(), s.pool, uid)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if fresh != "" {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: fresh, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteLaxMode})
	}
	text(w, http.StatusOK, "Count is "+strconv.Itoa(count))
}

// parseN returns n or the one-line reason it is not acceptable.
func parseN(raw string, present bool) (int, string) {
	if !present {
		return 0, "missing query parameter n"
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, "n must be an integer"
	}
	if n < 1 || n > 100000 {
		return 0, "n must be between 1 and 100000"
	}
	return n, ""
}

func (s *server) hash(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	n, reason := parseN(q.Get("n"), q.Has("n"))
	if reason != "" {
		text(w, http.StatusBadRequest, reason)
		return
	}
	data, err := os.ReadFile(s.hashFile)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	digest := sha256.Sum256(data)
	for i := 1; i < n; i++ {
		digest = sha256.Sum256(digest[:])
	}
	text(w, http.StatusOK, hex.EncodeToString(digest[:]))
}

func (s *server) websocket(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	ctx := r.Context()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			return
		}
	}
}

func main() {
	workers, err := strconv.Atoi(os.Getenv("WORKERS"))
	if err != nil || workers < 1 {
		workers = runtime.NumCPU()
	}
	runtime.GOMAXPROCS(workers)

	cfg, err := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	// Requests block on the database, so a few connections per CPU keep the CPUs busy.
	cfg.MaxConns = int32(max(8, 4*workers))
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()

	s := &server{pool: pool, hashFile: os.Getenv("HASH_FILE"), staticDir: os.Getenv("STATIC_DIR")}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /plaintext", s.plaintext)
	mux.HandleFunc("GET /json", s.json)
	mux.HandleFunc("GET /db", s.db)
	mux.HandleFunc("GET /session", s.session)
	mux.HandleFunc("GET /hash", s.hash)
	// FileServer answers the directory with its index.html (and redirects the explicit
	// /index.html path to it), so the workload's path is the directory.
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.Dir(s.staticDir))))
	mux.HandleFunc("GET /ws", s.websocket)

	addr := net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT"))
	log.Printf("listening on %s with GOMAXPROCS=%d", addr, workers)
	log.Fatal(http.ListenAndServe(addr, mux))
}
