// webshootout workloads on gin (see docs/workloads.md).
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

	"github.com/gin-gonic/gin"
	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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

func (a *app) db(c *gin.Context) {
	var row world
	err := a.pool.QueryRow(c, "SELECT id, randomnumber FROM world WHERE id = $1",
		rand.IntN(10000)+1).Scan(&row.ID, &row.RandomNumber)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.JSON(http.StatusOK, row)
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

func (a *app) session(c *gin.Context) {
	uid, _ := c.Cookie(cookieName)
	fresh, count, err := bump(c, a.pool, uid)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	if fresh != "" {
		c.SetSameSite(http.SameSiteLaxMode)
		c.SetCookie(cookieName, fresh, 0, "/", "", false, true)
	}
	c.String(http.StatusOK, "Count is %d", count)
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

func (a *app) hash(c *gin.Context) {
	n, reason := parseN(c.GetQuery("n"))
	if reason != "" {
		c.String(http.StatusBadRequest, reason)
		return
	}
	data, err := os.ReadFile(a.hashFile)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	digest := sha256.Sum256(data)
	for i := 1; i < n; i++ {
		digest = sha256.Sum256(digest[:])
	}
	c.String(http.StatusOK, hex.EncodeToString(digest[:]))
}

func (a *app) websocket(c *gin.Context) {
	conn, err := a.upgrader.Upgrade(c.Writer, c.Request, nil)
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
	// gin.New rather than gin.Default: no per-request access log, only panic recovery.
	r := gin.New()
	r.Use(gin.Recovery())
	r.GET("/plaintext", func(c *gin.Context) { c.String(http.StatusOK, "Hello, World!") })
	r.GET("/json", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"message": "Hello, World!"}) })
	r.GET("/db", a.db)
	r.GET("/session", a.session)
	r.GET("/hash", a.hash)
	r.GET("/ws", a.websocket)
	// Static is http.FileServer underneath: the directory path answers with its index.html.
	r.Static("/static", os.Getenv("STATIC_DIR"))

	addr := net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT"))
	log.Printf("listening on %s in %s mode with GOMAXPROCS=%d", addr, gin.Mode(), workers)
	log.Fatal(r.Run(addr))
}
