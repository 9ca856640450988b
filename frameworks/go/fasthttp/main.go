// webshootout workloads on valyala/fasthttp (see docs/workloads.md).
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
	"os"
	"runtime"
	"strconv"

	"github.com/fasthttp/websocket"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valyala/fasthttp"
)

const cookieName = "uid"

type app struct {
	pool     *pgxpool.Pool
	hashFile string
	static   fasthttp.RequestHandler
	upgrader websocket.FastHTTPUpgrader
}

type world struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

type sessionData struct {
	Count int `json:"count"`
}

func text(ctx *fasthttp.RequestCtx, status int, body string) {
	ctx.SetStatusCode(status)
	ctx.SetContentType("text/plain; charset=utf-8")
	ctx.SetBodyString(body)
}

func writeJSON(ctx *fasthttp.RequestCtx, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}

func (a *app) db(ctx *fasthttp.RequestCtx) {
	var row world
	err := a.pool.QueryRow(ctx, "SELECT id, randomnumber FROM world WHERE id = $1",
		rand.IntN(10000)+1).Scan(&row.ID, &row.RandomNumber)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, row)
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

func (a *app) session(ctx *fasthttp.RequestCtx) {
	// The cookie's bytes belong to the request buffer: copy them into a string.
	uid := string(ctx.Request.Header.Cookie(cookieName))
	fresh, count, err := bump(ctx, a.pool, uid)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	if fresh != "" {
		c := fasthttp.AcquireCookie()
		c.SetKey(cookieName)
		c.SetValue(fresh)
		c.SetPath("/")
		c.SetHTTPOnly(true)
		c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
		ctx.Response.Header.SetCookie(c)
		fasthttp.ReleaseCookie(c)
	}
	text(ctx, fasthttp.StatusOK, "Count is "+strconv.Itoa(count))
}

// parseN returns n or the one-line reason it is not acceptable.
func parseN(raw []byte, present bool) (int, string) {
	if !present {
		return 0, "missing query parameter n"
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return 0, "n must be an integer"
	}
	if n < 1 || n > 100000 {
		return 0, "n must be between 1 and 100000"
	}
	return n, ""
}

func (a *app) hash(ctx *fasthttp.RequestCtx) {
	args := ctx.QueryArgs()
	n, reason := parseN(args.Peek("n"), args.Has("n"))
	if reason != "" {
		text(ctx, fasthttp.StatusBadRequest, reason)
		return
	}
	data, err := os.ReadFile(a.hashFile)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	digest := sha256.Sum256(data)
	for i := 1; i < n; i++ {
		digest = sha256.Sum256(digest[:])
	}
	text(ctx, fasthttp.StatusOK, hex.EncodeToString(digest[:]))
}

func (a *app) websocket(ctx *fasthttp.RequestCtx) {
	err := a.upgrader.Upgrade(ctx, func(conn *websocket.Conn) {
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
	})
	if err != nil {
		log.Printf("websocket upgrade: %v", err)
	}
}

// route dispatches on the path: fasthttp has no router of its own.
func (a *app) route(ctx *fasthttp.RequestCtx) {
	if !ctx.IsGet() {
		text(ctx, fasthttp.StatusMethodNotAllowed, "method not allowed")
		return
	}
	path := ctx.Path()
	switch string(path) {
	case "/plaintext":
		text(ctx, fasthttp.StatusOK, "Hello, World!")
	case "/json":
		writeJSON(ctx, map[string]string{"message": "Hello, World!"})
	case "/db":
		a.db(ctx)
	case "/session":
		a.session(ctx)
	case "/hash":
		a.hash(ctx)
	case "/ws":
		a.websocket(ctx)
	default:
		if len(path) > len("/static/") && string(path[:len("/static/")]) == "/static/" {
			a.static(ctx)
			return
		}
		text(ctx, fasthttp.StatusNotFound, "not found")
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

	fs := &fasthttp.FS{
		Root:        os.Getenv("STATIC_DIR"),
		PathRewrite: fasthttp.NewPathPrefixStripper(len("/static")),
	}
	a := &app{pool: pool, hashFile: os.Getenv("HASH_FILE"), static: fs.NewRequestHandler()}
	server := &fasthttp.Server{Handler: a.route, Name: "fasthttp"}

	addr := net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT"))
	log.Printf("listening on %s with GOMAXPROCS=%d", addr, workers)
	log.Fatal(server.ListenAndServe(addr))
}
