// webshootout workloads on labstack/echo v4 over net/http (see docs/workloads.md).
package main

import (
	"context"
	"html/template"
	"log"
	"net/http"
	"strconv"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"

	"webshootout/common"
)

type app struct {
	pool     *pgxpool.Pool
	cache    *common.WorldCache
	hashFile common.HashFile
	upgrader websocket.Upgrader
}

func (a *app) db(c echo.Context) error {
	row, err := common.RandomWorld(c.Request().Context(), a.pool)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, row)
}

func (a *app) queries(c echo.Context) error {
	rows, err := common.RandomWorlds(c.Request().Context(), a.pool, common.Count(c.QueryParam("queries")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rows)
}

func (a *app) updates(c echo.Context) error {
	rows, err := common.UpdateWorlds(c.Request().Context(), a.pool, common.Count(c.QueryParam("queries")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rows)
}

func (a *app) fortunes(c echo.Context) error {
	rows, err := common.Fortunes(c.Request().Context(), a.pool)
	if err != nil {
		return err
	}
	return c.Render(http.StatusOK, "fortunes", rows)
}

func (a *app) cached(c echo.Context) error {
	return c.JSON(http.StatusOK, a.cache.Random(common.Count(c.QueryParam("count"))))
}

// session is the shared transaction on usersessions: echo-contrib/session stores sessions through
// gorilla/sessions, which has no PostgreSQL store of its own (only third-party ones).
func (a *app) session(c echo.Context) error {
	uid := ""
	if cookie, err := c.Cookie(common.SessionCookie); err == nil {
		uid = cookie.Value
	}
	visit, err := common.Bump(c.Request().Context(), a.pool, uid)
	if err != nil {
		return err
	}
	if visit.FreshUID != "" {
		c.SetCookie(&http.Cookie{Name: common.SessionCookie, Value: visit.FreshUID, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	return c.String(http.StatusOK, "Count is "+strconv.Itoa(visit.Count))
}

func (a *app) hash(c echo.Context) error {
	q := c.QueryParams()
	status, body := a.hashFile.Answer(q.Get("n"), q.Has("n"))
	return c.String(status, body)
}

func (a *app) websocket(c echo.Context) error {
	// gorilla writes the 101 (or the refusal) itself; its error needs no second answer.
	if conn, err := a.upgrader.Upgrade(c.Response(), c.Request(), nil); err == nil {
		common.Echo(conn)
	}
	return nil
}

func main() {
	env, pool := common.Start()
	defer pool.Close()
	cache, err := common.LoadWorldCache(context.Background(), pool)
	if err != nil {
		log.Fatal(err)
	}

	a := &app{pool: pool, cache: cache, hashFile: env.HashFile}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	// Echo's template hook, with html/template as its documentation shows.
	e.Renderer = &echo.TemplateRenderer{Template: template.Must(template.New("fortunes").Parse(common.FortunesHTML))}
	// No middleware.Logger: no access log. Echo sets no Server header (net/http sets Date); added before
	// routing so that 404s and static files carry it too.
	e.Pre(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set(echo.HeaderServer, "Echo")
			return next(c)
		}
	})
	e.GET("/plaintext", func(c echo.Context) error { return c.String(http.StatusOK, "Hello, World!") })
	e.GET("/json", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"message": "Hello, World!"})
	})
	e.GET("/db", a.db)
	e.GET("/session", a.session)
	e.GET("/hash", a.hash)
	e.GET("/queries", a.queries)
	e.GET("/updates", a.updates)
	e.GET("/fortunes", a.fortunes)
	e.GET("/cached-queries", a.cached)
	e.GET("/ws", a.websocket)
	e.Static("/static", env.StaticDir)

	log.Printf("listening on %s with GOMAXPROCS=%d", env.Addr, env.Workers)
	log.Fatal(e.Start(env.Addr))
}
