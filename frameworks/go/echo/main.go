// webshootout workloads on labstack/echo v4 over net/http (see docs/workloads.md).
package main

import (
	"errors"
	"html/template"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

type app struct {
	*common.Backend
	upgrader websocket.Upgrader
}

func (a *app) db(c echo.Context) error {
	row, err := common.RandomWorld(c.Request().Context(), a.Pool)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, row)
}

func (a *app) queries(c echo.Context) error {
	rows, err := common.RandomWorlds(c.Request().Context(), a.Pool, common.Count(c.QueryParam("queries")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rows)
}

func (a *app) updates(c echo.Context) error {
	rows, err := common.UpdateWorlds(c.Request().Context(), a.Pool, common.Count(c.QueryParam("queries")))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rows)
}

func (a *app) fortunes(c echo.Context) error {
	rows, err := common.Fortunes(c.Request().Context(), a.Pool)
	if err != nil {
		return err
	}
	return c.Render(http.StatusOK, "fortunes", rows)
}

func (a *app) cached(c echo.Context) error {
	return c.JSON(http.StatusOK, a.Cache.Random(common.Count(c.QueryParam("count"))))
}

// session is the shared transaction on usersessions: echo-contrib/session stores sessions through
// gorilla/sessions, which has no PostgreSQL store of its own (only third-party ones).
func (a *app) session(c echo.Context) error {
	uid := ""
	if cookie, err := c.Cookie(common.SessionCookie); err == nil {
		uid = cookie.Value
	}
	visit, err := common.Bump(c.Request().Context(), a.Pool, uid)
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
	status, body := a.HashFile.Answer(q.Get("n"), q.Has("n"))
	return c.String(status, body)
}

// upload streams the body into SHA-256 through the limit middleware.BodyLimit put on it: past the limit the
// read fails with echo.ErrStatusRequestEntityTooLarge, which Echo's error handler answers 413.
func upload(c echo.Context) error {
	answer, err := common.UploadAnswer(c.Request().Body)
	var httpErr *echo.HTTPError
	switch {
	case errors.As(err, &httpErr):
		return httpErr
	case err != nil:
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	return c.String(http.StatusOK, answer)
}

func (a *app) websocket(c echo.Context) error {
	// gorilla writes the 101 (or the refusal) itself; its error needs no second answer.
	if conn, err := a.upgrader.Upgrade(c.Response(), c.Request(), nil); err == nil {
		common.Echo(conn)
	}
	return nil
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	a := &app{Backend: b}
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
	// net/http serves each connection in its own goroutine: time.Sleep parks it without holding a thread.
	e.GET("/async", func(c echo.Context) error {
		time.Sleep(common.AsyncWait)
		return c.String(http.StatusOK, "Hello, World!")
	})
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
	// Echo's own middleware.Gzip at its defaults (level -1, gzip's default; MinLength 0; Vary:
	// Accept-Encoding), as route-level middleware (e.GET's trailing middleware arguments).
	e.GET("/json-comp", func(c echo.Context) error {
		return c.JSON(http.StatusOK, common.Items(c.QueryParam("n")))
	}, middleware.Gzip())
	// Echo's own middleware.BodyLimit on the route (echo.labstack.com/docs/middleware/body-limit): it refuses a
	// larger Content-Length before the handler and stops a longer chunked body mid-read. "2MiB": gommon's
	// parser, which reads the limit, takes a bare "2M" as 2,000,000 bytes.
	e.POST("/upload", upload, middleware.BodyLimit("2MiB"))
	e.GET("/ws", a.websocket)
	e.Static("/static", b.StaticDir)

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	// Echo's documented custom-server form (an http.Server with Echo as Handler) in place of e.Start,
	// so that TLS, h2 and h2c come from net/http itself (../common/stdhttp/serve.go).
	log.Fatal(stdhttp.ListenAndServe(b, e))
}
