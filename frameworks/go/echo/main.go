// webshootout workloads on labstack/echo v4 over net/http (see docs/workloads.md).
package main

import (
	"encoding/json"
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

// itemBody is what POST and PUT /items take: pointers, so that a missing member (or null) is told from ""
// and 0.
type itemBody struct {
	Name     *string `json:"name"`
	Quantity *int32  `json:"quantity"`
}

// bindItem binds the body with c.Bind, Echo's binder over encoding/json, and checks that both members came.
// Echo answers every binding error 400; one whose cause is an *json.UnmarshalTypeError was JSON of another
// shape (not an object, a name that is not a string, a quantity that is not a 32-bit integer), which the
// contract answers 422, as it does a missing member.
func bindItem(c echo.Context) (itemBody, error) {
	var in itemBody
	if err := c.Bind(&in); err != nil {
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) {
			// The type error as Internal, not Echo's 400: Echo's error handler answers an Internal HTTPError's
			// status in place of the outer one's.
			return in, echo.NewHTTPError(http.StatusUnprocessableEntity, err.Error()).SetInternal(wrongType)
		}
		return in, err
	}
	if in.Name == nil || in.Quantity == nil {
		return in, echo.NewHTTPError(http.StatusUnprocessableEntity, "an item needs a string name and an integer quantity")
	}
	return in, nil
}

// itemFailed turns common.ErrNoItem into Echo's 404; any other error goes to Echo's handler as a 500.
func itemFailed(err error) error {
	if errors.Is(err, common.ErrNoItem) {
		return echo.NewHTTPError(http.StatusNotFound, err.Error())
	}
	return err
}

func (a *app) item(c echo.Context) error {
	item, err := common.GetItem(c.Request().Context(), a.Pool, c.Param("id"))
	if err != nil {
		return itemFailed(err)
	}
	return c.JSON(http.StatusOK, item)
}

// itemPage reads page and size with Echo's QueryParamsBinder, which leaves an absent one at its default and
// fails on one that is not an integer. Its *echo.BindingError is no *echo.HTTPError, which Echo's error
// handler would answer 500: it goes in one as the cause of a 400.
func (a *app) itemPage(c echo.Context) error {
	page, size := int64(common.DefaultPage), common.DefaultPageSize
	if err := echo.QueryParamsBinder(c).Int64("page", &page).Int("size", &size).BindError(); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error()).SetInternal(err)
	}
	if page < 1 || size < 1 || size > common.MaxPageSize {
		return echo.NewHTTPError(http.StatusBadRequest, "page must be from 1, size from 1 to 100")
	}
	items, err := common.ItemPage(c.Request().Context(), a.Pool, page, size)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, items)
}

func (a *app) createItem(c echo.Context) error {
	in, err := bindItem(c)
	if err != nil {
		return err
	}
	item, err := common.CreateItem(c.Request().Context(), a.Pool, *in.Name, *in.Quantity)
	if err != nil {
		return err
	}
	// The collection's path is the one this POST was routed on.
	c.Response().Header().Set(echo.HeaderLocation, c.Request().URL.Path+"/"+strconv.Itoa(int(item.ID)))
	return c.JSON(http.StatusCreated, item)
}

func (a *app) updateItem(c echo.Context) error {
	in, err := bindItem(c)
	if err != nil {
		return err
	}
	item, err := common.UpdateItem(c.Request().Context(), a.Pool, c.Param("id"), *in.Name, *in.Quantity)
	if err != nil {
		return itemFailed(err)
	}
	return c.JSON(http.StatusOK, item)
}

func (a *app) deleteItem(c echo.Context) error {
	if err := common.DeleteItem(c.Request().Context(), a.Pool, c.Param("id")); err != nil {
		return itemFailed(err)
	}
	return c.NoContent(http.StatusNoContent)
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
	items := e.Group("/items")
	items.GET("", a.itemPage)
	items.POST("", a.createItem)
	items.GET("/:id", a.item)
	items.PUT("/:id", a.updateItem)
	items.DELETE("/:id", a.deleteItem)
	e.Static("/static", b.StaticDir)

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	// Echo's documented custom-server form (an http.Server with Echo as Handler) in place of e.Start,
	// so that TLS, h2 and h2c come from net/http itself (../common/stdhttp/serve.go).
	log.Fatal(stdhttp.ListenAndServe(b, e))
}
