// webshootout workloads on gin (see docs/workloads.md).
package main

import (
	"log"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5/pgxpool"

	"webshootout/common"
)

type app struct {
	pool     *pgxpool.Pool
	hashFile common.HashFile
	upgrader websocket.Upgrader
}

func (a *app) db(c *gin.Context) {
	row, err := common.RandomWorld(c, a.pool)
	if err != nil {
		c.String(http.StatusInternalServerError, err.Error())
		return
	}
	c.JSON(http.StatusOK, row)
}

func (a *app) session(c *gin.Context) {
	uid, _ := c.Cookie(common.SessionCookie)
	visit, err := common.Bump(c, a.pool, uid)
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
	status, body := a.hashFile.Answer(c.GetQuery("n"))
	c.String(status, body)
}

func (a *app) websocket(c *gin.Context) {
	// gorilla writes the 101 itself, from the headers given here only.
	if conn, err := a.upgrader.Upgrade(c.Writer, c.Request, c.Writer.Header()); err == nil {
		common.Echo(conn)
	}
}

func main() {
	env, pool := common.Start()
	defer pool.Close()

	a := &app{pool: pool, hashFile: env.HashFile}
	// gin.New rather than gin.Default: no per-request access log, only panic recovery.
	r := gin.New()
	r.Use(gin.Recovery())
	// Registered before the routes so that it also runs for 404s and static files; net/http sets Date.
	r.Use(func(c *gin.Context) { c.Header("Server", "Gin") })
	r.GET("/plaintext", func(c *gin.Context) { c.String(http.StatusOK, "Hello, World!") })
	r.GET("/json", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"message": "Hello, World!"}) })
	r.GET("/db", a.db)
	r.GET("/session", a.session)
	r.GET("/hash", a.hash)
	r.GET("/ws", a.websocket)
	// Static is http.FileServer underneath: the directory path answers with its index.html.
	r.Static("/static", env.StaticDir)

	log.Printf("listening on %s in %s mode with GOMAXPROCS=%d", env.Addr, gin.Mode(), env.Workers)
	log.Fatal(r.Run(env.Addr))
}
