// webshootout workloads on gin (see docs/workloads.md).
package main

import (
	"errors"
	"html/template"
	"log"
	"net/http"
	"time"

	"github.com/gin-contrib/gzip"
	"github.com/gin-gonic/gin"
	ginjson "github.com/gin-gonic/gin/codec/json"
	"github.com/gorilla/websocket"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

type app struct {
	*common.Backend
	upgrader websocket.Upgrader
}

func (a *app) db(c *gin.Context) {
	row, err := common.RandomWorld(c, a.Pool)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.JSON(http.StatusOK, row)
}

func (a *app) queries(c *gin.Context) {
	rows, err := common.RandomWorlds(c, a.Pool, common.Count(c.Query("queries")))
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.JSON(http.StatusOK, rows)
}

func (a *app) updates(c *gin.Context) {
	rows, err := common.UpdateWorlds(c, a.Pool, common.Count(c.Query("queries")))
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.JSON(http.StatusOK, rows)
}

func (a *app) fortunes(c *gin.Context) {
	rows, err := common.Fortunes(c, a.Pool)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.HTML(http.StatusOK, "fortunes", rows)
}

func (a *app) cached(c *gin.Context) {
	c.JSON(http.StatusOK, a.Cache.Random(common.Count(c.Query("count"))))
}

func (a *app) session(c *gin.Context) {
	uid, _ := c.Cookie(common.SessionCookie)
	visit, err := common.Bump(c, a.Pool, uid)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	if visit.FreshUID != "" {
		c.SetSameSite(http.SameSiteLaxMode)
		c.SetCookie(common.SessionCookie, visit.FreshUID, 0, "/", "", false, true)
	}
	c.String(http.StatusOK, "Count is %d", visit.Count)
}

func (a *app) hash(c *gin.Context) {
	status, body := a.HashFile.Answer(c.GetQuery("n"))
	c.String(status, body)
}

// upload streams the body into SHA-256. Gin has no body limit of its own (MaxMultipartMemory bounds
// multipart forms only), so the request's body goes through net/http's http.MaxBytesReader at 2 MiB
// ("intended for limiting the size of incoming request bodies"; pkg.go.dev/net/http#MaxBytesReader), which
// also has the server close the connection after the 413 instead of reading the rest.
func upload(c *gin.Context) {
	answer, err := common.UploadAnswer(http.MaxBytesReader(c.Writer, c.Request.Body, common.MaxUpload))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		c.String(http.StatusRequestEntityTooLarge, err.Error())
	case err != nil:
		c.String(http.StatusBadRequest, err.Error())
	default:
		c.String(http.StatusOK, answer)
	}
}

func (a *app) websocket(c *gin.Context) {
	// gorilla writes the 101 itself, from the headers given here only.
	if conn, err := a.upgrader.Upgrade(c.Writer, c.Request, c.Writer.Header()); err == nil {
		common.Echo(conn)
	}
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	a := &app{Backend: b}
	// gin.New rather than gin.Default: no per-request access log, only panic recovery.
	r := gin.New()
	// Gin's HTML rendering is html/template; the page is the shared one, parsed here for gin alone.
	r.SetHTMLTemplate(template.Must(template.New("fortunes").Parse(common.FortunesHTML)))
	r.Use(gin.Recovery())
	// Registered before the routes so that it also runs for 404s and static files; net/http sets Date.
	r.Use(func(c *gin.Context) { c.Header("Server", "Gin") })
	r.GET("/plaintext", func(c *gin.Context) { c.String(http.StatusOK, "Hello, World!") })
	// net/http serves each connection in its own goroutine: time.Sleep parks it without holding a thread.
	r.GET("/async", func(c *gin.Context) {
		time.Sleep(common.AsyncWait)
		c.String(http.StatusOK, "Hello, World!")
	})
	r.GET("/json", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"message": "Hello, World!"}) })
	r.GET("/db", a.db)
	r.GET("/session", a.session)
	r.GET("/hash", a.hash)
	r.GET("/queries", a.queries)
	r.GET("/updates", a.updates)
	r.GET("/fortunes", a.fortunes)
	r.GET("/cached-queries", a.cached)
	// gin-contrib/gzip, Gin's gzip middleware, at its DefaultCompression, given as route middleware (Gin runs
	// a route's handlers before the last one as its middleware): gzip for any response, Vary:
	// Accept-Encoding, no minimum size.
	r.GET("/json-comp", gzip.Gzip(gzip.DefaultCompression), func(c *gin.Context) {
		c.JSON(http.StatusOK, common.Items(c.Query("n")))
	})
	r.POST("/upload", upload)
	r.GET("/ws", a.websocket)
	// Static is http.FileServer underneath: the directory path answers with its index.html.
	r.Static("/static", b.StaticDir)

	// The codec is fixed at build time by Gin's tags (bin/server-tuned is built with -tags=go_json): the log
	// names the one this binary carries, so a run's log shows which build served it.
	log.Printf("listening on %s in %s mode with GOMAXPROCS=%d, JSON by %s", b.Addr, gin.Mode(), b.Workers,
		ginjson.Package)
	// Gin's documented custom-server form (an http.Server with the engine as Handler) in place of
	// r.Run, so that TLS, h2 and h2c come from net/http itself (../common/stdhttp/serve.go).
	log.Fatal(stdhttp.ListenAndServe(b, r.Handler()))
}
