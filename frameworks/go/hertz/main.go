// webshootout workloads on CloudWeGo Hertz, its own router and HTTP/1.1 server on the netpoll transport
// (see docs/workloads.md).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/cloudwego/hertz/pkg/app"
	"github.com/cloudwego/hertz/pkg/app/server"
	"github.com/cloudwego/hertz/pkg/common/config"
	"github.com/cloudwego/hertz/pkg/common/hlog"
	"github.com/cloudwego/hertz/pkg/common/utils"
	"github.com/cloudwego/hertz/pkg/network/netpoll"
	"github.com/cloudwego/hertz/pkg/network/standard"
	"github.com/cloudwego/hertz/pkg/protocol"
	"github.com/cloudwego/hertz/pkg/protocol/consts"
	"github.com/hertz-contrib/gzip"
	"github.com/hertz-contrib/http2/factory"
	"github.com/hertz-contrib/websocket"

	"webshootout/common"
)

type handlers struct {
	*common.Backend
	upgrader websocket.HertzUpgrader
}

// fail answers a database or template error as 500 with its text, like the other Go stacks.
func fail(c *app.RequestContext, err error) {
	c.String(consts.StatusInternalServerError, err.Error())
}

func (h *handlers) db(ctx context.Context, c *app.RequestContext) {
	row, err := common.RandomWorld(ctx, h.Pool)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(consts.StatusOK, row)
}

func (h *handlers) queries(ctx context.Context, c *app.RequestContext) {
	rows, err := common.RandomWorlds(ctx, h.Pool, common.Count(c.Query("queries")))
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(consts.StatusOK, rows)
}

func (h *handlers) updates(ctx context.Context, c *app.RequestContext) {
	rows, err := common.UpdateWorlds(ctx, h.Pool, common.Count(c.Query("queries")))
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(consts.StatusOK, rows)
}

func (h *handlers) cached(ctx context.Context, c *app.RequestContext) {
	c.JSON(consts.StatusOK, h.Cache.Random(common.Count(c.Query("count"))))
}

// fortunes renders through Hertz's HTML render, the engine's html/template set by SetHTMLTemplate.
func (h *handlers) fortunes(ctx context.Context, c *app.RequestContext) {
	rows, err := common.Fortunes(ctx, h.Pool)
	if err != nil {
		fail(c, err)
		return
	}
	c.HTML(consts.StatusOK, "fortunes", rows)
}

// session is the shared transaction on usersessions: Hertz's session middleware (hertz-contrib/sessions)
// has cookie and Redis stores only, none in PostgreSQL.
func (h *handlers) session(ctx context.Context, c *app.RequestContext) {
	// The cookie's bytes belong to the request buffer, which Hertz reuses: string() copies them.
	visit, err := common.Bump(ctx, h.Pool, string(c.Cookie(common.SessionCookie)))
	if err != nil {
		fail(c, err)
		return
	}
	if visit.FreshUID != "" {
		c.SetCookie(common.SessionCookie, visit.FreshUID, 0, "/", "", protocol.CookieSameSiteLaxMode, false, true)
	}
	c.String(consts.StatusOK, "Count is "+strconv.Itoa(visit.Count))
}

func (h *handlers) hash(ctx context.Context, c *app.RequestContext) {
	status, body := h.HashFile.Answer(c.Query("n"), c.QueryArgs().Has("n"))
	c.String(status, body)
}

// itemBody is what POST and PUT /items take, for c.BindAndValidate: `required` has the binder refuse a body
// without the member, and the vd expression (Hertz's validator) refuses null, which leaves a pointer nil;
// pointers, so that "" and 0 stay valid.
type itemBody struct {
	Name     *string `json:"name,required" vd:"$!=nil"`
	Quantity *int32  `json:"quantity,required" vd:"$!=nil"`
}

// pageQuery is GET /items's query for c.BindAndValidate: the default tag stands for an absent parameter,
// one that is not an integer fails the binding, and vd holds the bounds (common.MaxPageSize).
type pageQuery struct {
	Page int64 `query:"page" default:"1" vd:"$>=1"`
	Size int   `query:"size" default:"10" vd:"$>=1&&$<=100"`
}

// bindItem binds and validates the body, or answers the refusal. Hertz's binder reports a broken body, a
// type its JSON (sonic) cannot bind and a missing member alike, as plain errors; common.RefusedStatus tells
// broken JSON (400) from a wrong shape (422) by the body itself.
func bindItem(c *app.RequestContext, in *itemBody) bool {
	if err := c.BindAndValidate(in); err != nil {
		c.JSON(common.RefusedStatus(c.Request.Body()), utils.H{"error": err.Error()})
		return false
	}
	return true
}

func itemFailed(c *app.RequestContext, err error) {
	if errors.Is(err, common.ErrNoItem) {
		c.JSON(consts.StatusNotFound, utils.H{"error": err.Error()})
		return
	}
	fail(c, err)
}

func (h *handlers) item(ctx context.Context, c *app.RequestContext) {
	item, err := common.GetItem(ctx, h.Pool, c.Param("id"))
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(consts.StatusOK, item)
}

func (h *handlers) itemPage(ctx context.Context, c *app.RequestContext) {
	var q pageQuery
	if err := c.BindAndValidate(&q); err != nil {
		c.JSON(consts.StatusBadRequest, utils.H{"error": err.Error()})
		return
	}
	items, err := common.ItemPage(ctx, h.Pool, q.Page, q.Size)
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(consts.StatusOK, items)
}

func (h *handlers) createItem(ctx context.Context, c *app.RequestContext) {
	var in itemBody
	if !bindItem(c, &in) {
		return
	}
	item, err := common.CreateItem(ctx, h.Pool, *in.Name, *in.Quantity)
	if err != nil {
		itemFailed(c, err)
		return
	}
	// The collection's path is the one this POST was routed on.
	c.Header("Location", string(c.Path())+"/"+strconv.Itoa(int(item.ID)))
	c.JSON(consts.StatusCreated, item)
}

func (h *handlers) updateItem(ctx context.Context, c *app.RequestContext) {
	var in itemBody
	if !bindItem(c, &in) {
		return
	}
	item, err := common.UpdateItem(ctx, h.Pool, c.Param("id"), *in.Name, *in.Quantity)
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(consts.StatusOK, item)
}

func (h *handlers) deleteItem(ctx context.Context, c *app.RequestContext) {
	if err := common.DeleteItem(ctx, h.Pool, c.Param("id")); err != nil {
		itemFailed(c, err)
		return
	}
	c.Status(consts.StatusNoContent)
}

// echo upgrades by Hertz's hijack (hertz-contrib/websocket, gorilla's API over RequestContext).
func (h *handlers) echo(ctx context.Context, c *app.RequestContext) {
	err := h.upgrader.Upgrade(c, func(conn *websocket.Conn) { common.Echo(conn) })
	if err != nil {
		hlog.Warnf("websocket upgrade: %v", err)
	}
}

// http2Headers gives an HTTP/2 answer the Server (the engine's name) and Date that Hertz's HTTP/1.1 server
// writes itself: hertz-contrib/http2 writes neither. Set before the handler runs, because over HTTP/2 a
// render that writes into the body (c.HTML) sends the headers with its first bytes.
func http2Headers(serverName []byte) app.HandlerFunc {
	return func(ctx context.Context, c *app.RequestContext) {
		if string(c.Request.Header.GetProtocol()) == consts.HTTP20 {
			c.Response.Header.SetServerBytes(serverName)
			c.Response.Header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
		}
		c.Next(ctx)
	}
}

// options is the server's production form: netpoll, Hertz's documented default transport on Linux
// (cloudwego.io/docs/hertz/tutorials/basic-feature/network-lib), named here so the choice is visible, HTTP/1.1
// only; with TLS_CERT/TLS_KEY, Go's net transport, which that page prescribes for TLS (netpoll has none),
// with ALPN offering h2 and http/1.1 (hertz-contrib/http2's h2 example). No h2c: with WithH2C, Hertz's
// engine logs a warning for every HTTP/1.1 connection it serves (route/engine.go, Serve).
func options(b *common.Backend) []config.Option {
	opts := []config.Option{
		server.WithHostPorts(b.Addr),
		server.WithDisablePrintRoute(true),
		// Hertz's own request-body limit ("sets the limitation of request body size", default 4 MB), at
		// 2 MiB for upload: past it, Content-Length or chunked, the server stops reading and answers 413.
		server.WithMaxRequestBodySize(common.MaxUpload),
	}
	if !b.TLS() {
		return append(opts, server.WithTransport(netpoll.NewTransporter))
	}
	cert, err := tls.LoadX509KeyPair(b.TLSCert, b.TLSKey)
	if err != nil {
		log.Fatal(err)
	}
	// Hertz appends http/1.1 to NextProtos itself when ALPN is on; h2 first, so a client offering both
	// gets it.
	return append(opts,
		server.WithTransport(standard.NewTransporter),
		server.WithTLS(&tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}}),
		server.WithALPN(true),
	)
}

func main() {
	b := common.Start()
	defer b.Pool.Close()
	// Hertz logs through hlog at Info by default (startup lines); warnings and errors only. It has no
	// access log unless an access-log middleware is added, and none is.
	hlog.SetLevel(hlog.LevelWarn)
	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)

	h := &handlers{Backend: b}
	// server.Default is server.New with the Recovery middleware, as Hertz's quick start serves. Hertz sends
	// its own Server ("hertz") and a Date it refreshes each second.
	srv := server.Default(options(b)...)
	// A hijacked WebSocket connection must not go back to Hertz's pool of hijack wrappers
	// (hertz-contrib/websocket's README).
	srv.NoHijackConnPool = true
	// HTTP/2 is Hertz's protocol suite with hertz-contrib/http2's server (a port of golang.org/x/net/http2),
	// chosen by ALPN over TLS.
	if b.TLS() {
		srv.AddProtocol("h2", factory.NewServerFactory())
		srv.Use(http2Headers(srv.GetServerName()))
	}
	srv.SetHTMLTemplate(common.FortunesTemplate)

	srv.GET("/plaintext", func(ctx context.Context, c *app.RequestContext) {
		c.String(consts.StatusOK, "Hello, World!")
	})
	// netpoll hands each request to a goroutine of its pool (bytedance/gopkg gopool, capped at MaxInt32):
	// time.Sleep parks that goroutine, not an event loop or a thread.
	srv.GET("/async", func(ctx context.Context, c *app.RequestContext) {
		time.Sleep(common.AsyncWait)
		c.String(consts.StatusOK, "Hello, World!")
	})
	srv.GET("/json", func(ctx context.Context, c *app.RequestContext) {
		c.JSON(consts.StatusOK, utils.H{"message": "Hello, World!"})
	})
	srv.GET("/db", h.db)
	srv.GET("/session", h.session)
	srv.GET("/hash", h.hash)
	srv.GET("/queries", h.queries)
	srv.GET("/updates", h.updates)
	srv.GET("/fortunes", h.fortunes)
	srv.GET("/cached-queries", h.cached)
	srv.GET("/ws", h.echo)
	items := srv.Group("/items")
	items.GET("", h.itemPage)
	items.POST("", h.createItem)
	items.GET("/:id", h.item)
	items.PUT("/:id", h.updateItem)
	items.DELETE("/:id", h.deleteItem)
	// hertz-contrib/gzip, Hertz's gzip middleware (cloudwego.io/docs/hertz/tutorials/basic-feature/middleware/
	// gzip), at gzip.DefaultCompression as route middleware: gzip for any size once the handler has written
	// the body, Vary: Accept-Encoding.
	srv.GET("/json-comp", gzip.Gzip(gzip.DefaultCompression), func(ctx context.Context, c *app.RequestContext) {
		c.JSON(consts.StatusOK, common.Items(c.Query("n")))
	})
	// The server has read the whole body, Content-Length or chunked, before the handler runs.
	srv.POST("/upload", func(ctx context.Context, c *app.RequestContext) {
		c.String(consts.StatusOK, common.UploadAnswerOf(c.Request.Body()))
	})
	// Hertz's file handler looks the request path up under Root as it is; the stripper drops "/static".
	srv.StaticFS("/static", &app.FS{Root: b.StaticDir, PathRewrite: app.NewPathSlashesStripper(1),
		IndexNames: []string{"index.html"}})

	// Spin serves until SIGTERM, then shuts down gracefully within Hertz's 5 s exit wait.
	srv.Spin()
}
