// webshootout workloads on kataras/iris v12, its own router, view engine and WebSocket module over
// net/http (see docs/workloads.md).
package main

import (
	"errors"
	"log"
	"net/http"
	"time"

	"github.com/kataras/iris/v12"
	"github.com/kataras/iris/v12/middleware/recover"
	"github.com/kataras/iris/v12/websocket"

	"webshootout/common"
)

type handlers struct {
	*common.Backend
}

func (h *handlers) db(ctx iris.Context) {
	row, err := common.RandomWorld(ctx.Request().Context(), h.Pool)
	if err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
		return
	}
	ctx.JSON(row)
}

func (h *handlers) queries(ctx iris.Context) {
	rows, err := common.RandomWorlds(ctx.Request().Context(), h.Pool, common.Count(ctx.URLParam("queries")))
	if err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
		return
	}
	ctx.JSON(rows)
}

func (h *handlers) updates(ctx iris.Context) {
	rows, err := common.UpdateWorlds(ctx.Request().Context(), h.Pool, common.Count(ctx.URLParam("queries")))
	if err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
		return
	}
	ctx.JSON(rows)
}

func (h *handlers) cached(ctx iris.Context) {
	ctx.JSON(h.Cache.Random(common.Count(ctx.URLParam("count"))))
}

// fortunes renders with Iris's HTML view engine (iris.HTML, html/template underneath), registered in main.
func (h *handlers) fortunes(ctx iris.Context) {
	rows, err := common.Fortunes(ctx.Request().Context(), h.Pool)
	if err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
		return
	}
	if err := ctx.View("fortunes.html", rows); err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
	}
}

// session is the shared transaction on usersessions: Iris's sessions package keeps its data in memory or
// in its sessiondb backends (Redis, BadgerDB, BoltDB), none of them PostgreSQL.
func (h *handlers) session(ctx iris.Context) {
	visit, err := common.Bump(ctx.Request().Context(), h.Pool, ctx.GetCookie(common.SessionCookie))
	if err != nil {
		ctx.StopWithError(iris.StatusInternalServerError, err)
		return
	}
	if visit.FreshUID != "" {
		ctx.SetCookie(&http.Cookie{Name: common.SessionCookie, Value: visit.FreshUID, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	ctx.Text("Count is %d", visit.Count)
}

func (h *handlers) hash(ctx iris.Context) {
	status, body := h.HashFile.Answer(ctx.URLParam("n"), ctx.URLParamExists("n"))
	ctx.StatusCode(status)
	ctx.Text("%s", body)
}

// upload answers for the body as ctx.GetBody reads it, through the iris.LimitRequestBodySize put before it
// (net/http's MaxBytesReader underneath): past the limit the read fails and the answer is 413.
func upload(ctx iris.Context) {
	body, err := ctx.GetBody()
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		ctx.StopWithError(iris.StatusRequestEntityTooLarge, err)
	case err != nil:
		ctx.StopWithError(iris.StatusBadRequest, err)
	default:
		ctx.Text("%s", common.UploadAnswerOf(body))
	}
}

// echo sends a WebSocket message back to its sender as it came.
func echo(nsConn *websocket.NSConn, msg websocket.Message) error {
	nsConn.Conn.Write(msg)
	return nil
}

func main() {
	b := common.Start()
	defer b.Pool.Close()
	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)

	h := &handlers{Backend: b}
	// iris.New has no request logger (iris.Default would add one); the recover middleware as iris.Default
	// has it. Iris's logger at warn: no startup lines.
	app := iris.New()
	app.Logger().SetLevel("warn")
	app.UseRouter(recover.New())
	// Iris sets no Server header itself; its application builder (iris.NewGuide) names it "Iris" in a
	// router middleware, which this copies. net/http writes the Date.
	app.UseRouter(func(ctx iris.Context) {
		ctx.Header("Server", "Iris")
		ctx.Next()
	})
	// The HTML engine parses the templates once at Build (Reload stays off, Iris's production setting).
	app.RegisterView(iris.HTML(common.Templates, ".html"))

	app.Get("/plaintext", func(ctx iris.Context) { ctx.Text("Hello, World!") })
	// net/http serves each connection in its own goroutine: time.Sleep parks it without holding a thread.
	app.Get("/async", func(ctx iris.Context) {
		time.Sleep(common.AsyncWait)
		ctx.Text("Hello, World!")
	})
	app.Get("/json", func(ctx iris.Context) { ctx.JSON(iris.Map{"message": "Hello, World!"}) })
	app.Get("/db", h.db)
	app.Get("/session", h.session)
	app.Get("/hash", h.hash)
	app.Get("/queries", h.queries)
	app.Get("/updates", h.updates)
	app.Get("/fortunes", h.fortunes)
	app.Get("/cached-queries", h.cached)
	// iris.Compression, Iris's own compression middleware, as route middleware (its doc: "app.Use (for
	// matched routes)"; a route's handlers run in turn): the client's preferred of gzip, deflate, br and
	// snappy (context.AllEncodings) at each one's default level, any size, Vary: Accept-Encoding.
	app.Get("/json-comp", iris.Compression, func(ctx iris.Context) { ctx.JSON(common.Items(ctx.URLParam("n"))) })
	// iris.LimitRequestBodySize, Iris's request-body limit ("sets a request body size limit for all next
	// handlers in the chain"), at 2 MiB as route middleware, the form of Iris's upload examples.
	app.Post("/upload", iris.LimitRequestBodySize(common.MaxUpload), upload)
	// Iris's WebSocket module (neffos on gorilla/websocket) in its native-messages form: one unnamed
	// namespace whose only event is OnNativeMessage takes plain WebSocket clients, not neffos's own protocol.
	ws := websocket.New(websocket.DefaultGorillaUpgrader, websocket.Events{websocket.OnNativeMessage: echo})
	app.Get("/ws", websocket.Handler(ws))
	// Iris's own file server, with its default options.
	app.HandleDir("/static", iris.Dir(b.StaticDir))

	// On SIGTERM Iris's interrupt handler shuts the server down gracefully and Run returns nil.
	if err := app.Run(runner(b), iris.WithoutStartupLog, iris.WithoutServerError(iris.ErrServerClosed)); err != nil {
		log.Fatal(err)
	}
}

// runner serves with Iris's host supervisor on net/http: with TLS_CERT/TLS_KEY, the TLS runner, whose TLS
// config offers h2 and http/1.1 by ALPN (TLSNoRedirect: no second server on :80 redirecting to it);
// otherwise the Server runner with net/http's Protocols taking HTTP/1.1 and h2c with prior knowledge.
func runner(b *common.Backend) iris.Runner {
	if b.TLS() {
		return iris.TLS(b.Addr, b.TLSCert, b.TLSKey, iris.TLSNoRedirect)
	}
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	return iris.Server(&http.Server{Addr: b.Addr, Protocols: &protocols})
}
