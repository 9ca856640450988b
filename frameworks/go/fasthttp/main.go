// webshootout workloads on valyala/fasthttp (see docs/workloads.md).
package main

import (
	"crypto/tls"
	"encoding/json"
	"log"
	"strconv"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/valyala/fasthttp"

	"webshootout/common"
)

type app struct {
	*common.Backend
	static   fasthttp.RequestHandler
	upgrader websocket.FastHTTPUpgrader
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
	row, err := common.RandomWorld(ctx, a.Pool)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, row)
}

func (a *app) queries(ctx *fasthttp.RequestCtx) {
	rows, err := common.RandomWorlds(ctx, a.Pool, common.Count(string(ctx.QueryArgs().Peek("queries"))))
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, rows)
}

func (a *app) updates(ctx *fasthttp.RequestCtx) {
	rows, err := common.UpdateWorlds(ctx, a.Pool, common.Count(string(ctx.QueryArgs().Peek("queries"))))
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(ctx, rows)
}

// fortunes renders with html/template: fasthttp has no template engine of its own. The page is rendered
// into the response body, which is reset to an error text if the template fails.
func (a *app) fortunes(ctx *fasthttp.RequestCtx) {
	rows, err := common.Fortunes(ctx, a.Pool)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	ctx.SetContentType("text/html; charset=utf-8")
	if err := common.FortunesTemplate.Execute(ctx, rows); err != nil {
		ctx.ResetBody()
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
	}
}

func (a *app) session(ctx *fasthttp.RequestCtx) {
	// The cookie's bytes belong to the request buffer: copy them into a string.
	uid := string(ctx.Request.Header.Cookie(common.SessionCookie))
	visit, err := common.Bump(ctx, a.Pool, uid)
	if err != nil {
		text(ctx, fasthttp.StatusInternalServerError, err.Error())
		return
	}
	if visit.FreshUID != "" {
		c := fasthttp.AcquireCookie()
		c.SetKey(common.SessionCookie)
		c.SetValue(visit.FreshUID)
		c.SetPath("/")
		c.SetHTTPOnly(true)
		c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
		ctx.Response.Header.SetCookie(c)
		fasthttp.ReleaseCookie(c)
	}
	text(ctx, fasthttp.StatusOK, "Count is "+strconv.Itoa(visit.Count))
}

func (a *app) hash(ctx *fasthttp.RequestCtx) {
	args := ctx.QueryArgs()
	status, body := a.HashFile.Answer(string(args.Peek("n")), args.Has("n"))
	text(ctx, status, body)
}

func (a *app) websocket(ctx *fasthttp.RequestCtx) {
	// Upgrade answers the failed handshake itself; the error only says why.
	if err := a.upgrader.Upgrade(ctx, func(conn *websocket.Conn) { common.Echo(conn) }); err != nil {
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
	case "/async":
		// fasthttp runs each connection's handler on a goroutine of its worker pool, which grows on demand up
		// to Server.Concurrency (fasthttp.DefaultConcurrency, 256 * 1024): time.Sleep parks that goroutine,
		// not a thread, and the other connections get workers of their own.
		time.Sleep(common.AsyncWait)
		text(ctx, fasthttp.StatusOK, "Hello, World!")
	case "/json":
		writeJSON(ctx, map[string]string{"message": "Hello, World!"})
	case "/db":
		a.db(ctx)
	case "/session":
		a.session(ctx)
	case "/hash":
		a.hash(ctx)
	case "/queries":
		a.queries(ctx)
	case "/updates":
		a.updates(ctx)
	case "/fortunes":
		a.fortunes(ctx)
	case "/cached-queries":
		writeJSON(ctx, a.Cache.Random(common.Count(string(ctx.QueryArgs().Peek("count")))))
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
	b := common.Start()
	defer b.Pool.Close()

	fs := &fasthttp.FS{
		Root:        b.StaticDir,
		PathRewrite: fasthttp.NewPathPrefixStripper(len("/static")),
	}
	a := &app{Backend: b, static: fs.NewRequestHandler()}
	// fasthttp sends Server (this Name) and a Date it refreshes every second on every response.
	server := &fasthttp.Server{Handler: a.route, Name: "fasthttp"}

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	if b.TLS() {
		// fasthttp's own TLS (crypto/tls). It has no HTTP/2, so ALPN names http/1.1 alone; the certificate
		// is added to this config by ListenAndServeTLS.
		server.TLSConfig = &tls.Config{NextProtos: []string{"http/1.1"}}
		log.Fatal(server.ListenAndServeTLS(b.Addr, b.TLSCert, b.TLSKey))
	}
	log.Fatal(server.ListenAndServe(b.Addr))
}
