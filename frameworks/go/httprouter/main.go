// webshootout workloads on julienschmidt/httprouter over net/http (see docs/workloads.md).
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

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/julienschmidt/httprouter"
)

const cookieName = "uid"

type app struct {
	pool     *pgxpool.Pool
	hashFile string
	upgrader websocket.Upgrader
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

func (a *app) plaintext(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	text(w, http.StatusOK, "Hello, World!")
}

func (a *app) json(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	writeJSON(w, map[string]string{"message": "Hello, World!"})
}

func (a *app) db(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	var row world
	err := a.pool.QueryRow(r.Context(), "SELECT id, randomnumber FROM world WHERE id = $1",
		rand.IntN(10000)+1).Scan(&row.ID, &row.RandomNumber)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, row)
}

// bump increments the visitor's counter, or creates a visitor when uid is unknown; it returns the
// uid to set as cookie ("" when the visitor was known) and the new count.
func bump(ctx context.Context, pool *pgxpool.Pool, uid string) (fresh string, count int, err error) {
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var data string
		err := pgx.ErrNoRows
		if uid != "" {
			err = tx.QueryRow(ctx, "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE", uid).Scan(&data)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			fresh, count = crand.Text(), 1
			body, _ := json.Marshal(sessionData{Count: count})
			_, err = tx.Exec(ctx, "INSERT INTO usersessions (uid, data) VALUES ($1, $2)", fresh, string(body))
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
	return fresh, count, err
}

func (a *app) session(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	uid := ""
	if c, err := r.Cookie(cookieName); err == nil {
		uid = c.Value
	}
	fresh, count, err := bump(r.Context(), a.pool, uid)
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

func (a *app) hash(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	q := r.URL.Query()
	n, reason := parseN(q.Get("n"), q.Has("n"))
	if reason != "" {
		text(w, http.StatusBadRequest, reason)
		return
	}
	data, err := os.ReadFile(a.hashFile)
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

func (a *app) websocket(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	conn, err := a.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	for {
		typ, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if err := conn.WriteMessage(typ, msg); err != nil {
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

	a := &app{pool: pool, hashFile: os.Getenv("HASH_FILE")}
	router := httprouter.New()
	router.GET("/plaintext", a.plaintext)
	router.GET("/json", a.json)
	router.GET("/db", a.db)
	router.GET("/session", a.session)
	router.GET("/hash", a.hash)
	router.GET("/ws", a.websocket)
	// ServeFiles is http.FileServer underneath: the directory path answers with its index.html.
	router.ServeFiles("/static/*filepath", http.Dir(os.Getenv("STATIC_DIR")))

	addr := net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT"))
	log.Printf("listening on %s with GOMAXPROCS=%d", addr, workers)
	log.Fatal(http.ListenAndServe(addr, router))
}
