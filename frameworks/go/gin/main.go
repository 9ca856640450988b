// webshootout workloads on gin (see docs/workloads.md).
package main

import (
	"errors"
	"html/template"
	"log"
	"net/http"
	"strconv"
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

// itemBody is what POST and PUT /items take, checked by Gin's binding: pointers, so that `required` (the
// validator's non-nil test for a pointer) refuses a missing member or null but takes "" and 0.
type itemBody struct {
	Name     *string `json:"name" binding:"required"`
	Quantity *int32  `json:"quantity" binding:"required"`
}

// pageQuery is GET /items's query, bound by Gin's form binding with its defaults and validated
// (common.DefaultPage, DefaultPageSize, MaxPageSize); a value that is not an integer fails the binding.
type pageQuery struct {
	Page int64 `form:"page,default=1" binding:"min=1"`
	Size int   `form:"size,default=10" binding:"min=1,max=100"`
}

// bindItem binds the body into in, or answers the refusal: the binding's errors are the codec's own
// (encoding/json's, or go-json's in bin/server-tuned) or the validator's, so common.RefusedStatus tells
// broken JSON (400) from a wrong shape (422) by the body, which ShouldBindBodyWithJSON kept in the context.
func bindItem(c *gin.Context, in *itemBody) bool {
	err := c.ShouldBindBodyWithJSON(in)
	if err == nil {
		return true
	}
	body, _ := c.Get(gin.BodyBytesKey)
	raw, _ := body.([]byte)
	c.JSON(common.RefusedStatus(raw), gin.H{"error": err.Error()})
	return false
}

func itemFailed(c *gin.Context, err error) {
	if errors.Is(err, common.ErrNoItem) {
		c.JSON(http.StatusNotFound, gin.H{"error": err.Error()})
		return
	}
	c.String(http.StatusInternalServerError, err.Error())
}

func (a *app) item(c *gin.Context) {
	item, err := common.GetItem(c, a.Pool, c.Param("id"))
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(http.StatusOK, item)
}

func (a *app) itemPage(c *gin.Context) {
	var q pageQuery
	if err := c.ShouldBindQuery(&q); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	items, err := common.ItemPage(c, a.Pool, q.Page, q.Size)
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(http.StatusOK, items)
}

func (a *app) createItem(c *gin.Context) {
	var in itemBody
	if !bindItem(c, &in) {
		return
	}
	item, err := common.CreateItem(c, a.Pool, *in.Name, *in.Quantity)
	if err != nil {
		itemFailed(c, err)
		return
	}
	// The collection's path is the one this POST was routed on.
	c.Header("Location", c.Request.URL.Path+"/"+strconv.Itoa(int(item.ID)))
	c.JSON(http.StatusCreated, item)
}

func (a *app) updateItem(c *gin.Context) {
	var in itemBody
	if !bindItem(c, &in) {
		return
	}
	item, err := common.UpdateItem(c, a.Pool, c.Param("id"), *in.Name, *in.Quantity)
	if err != nil {
		itemFailed(c, err)
		return
	}
	c.JSON(http.StatusOK, item)
}

func (a *app) deleteItem(c *gin.Context) {
	if err := common.DeleteItem(c, a.Pool, c.Param("id")); err != nil {
		itemFailed(c, err)
		return
	}
	c.Status(http.StatusNoContent)
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
	items := r.Group("/items")
	items.GET("", a.itemPage)
	items.POST("", a.createItem)
	items.GET("/:id", a.item)
	items.PUT("/:id", a.updateItem)
	items.DELETE("/:id", a.deleteItem)
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
