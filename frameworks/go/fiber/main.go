// webshootout workloads on gofiber/fiber v2 over fasthttp (see docs/workloads.md).
package main

import (
	"crypto/tls"
	"errors"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/compress"
	"github.com/gofiber/template/html/v2"

	"webshootout/common"
)

type app struct {
	*common.Backend
}

func (a *app) db(c *fiber.Ctx) error {
	row, err := common.RandomWorld(c.UserContext(), a.Pool)
	if err != nil {
		return err
	}
	return c.JSON(row)
}

func (a *app) queries(c *fiber.Ctx) error {
	rows, err := common.RandomWorlds(c.UserContext(), a.Pool, common.Count(c.Query("queries")))
	if err != nil {
		return err
	}
	return c.JSON(rows)
}

func (a *app) updates(c *fiber.Ctx) error {
	rows, err := common.UpdateWorlds(c.UserContext(), a.Pool, common.Count(c.Query("queries")))
	if err != nil {
		return err
	}
	return c.JSON(rows)
}

func (a *app) fortunes(c *fiber.Ctx) error {
	rows, err := common.Fortunes(c.UserContext(), a.Pool)
	if err != nil {
		return err
	}
	return c.Render("fortunes", rows)
}

func (a *app) cached(c *fiber.Ctx) error {
	return c.JSON(a.Cache.Random(common.Count(c.Query("count"))))
}

// session is the shared transaction on usersessions: fiber's session middleware needs a storage, and its
// PostgreSQL one (gofiber/storage/postgres) is refused by the Go module proxy reachable here.
func (a *app) session(c *fiber.Ctx) error {
	// Fiber's strings point into the request buffer, reused after the handler: copy.
	uid := strings.Clone(c.Cookies(common.SessionCookie))
	visit, err := common.Bump(c.UserContext(), a.Pool, uid)
	if err != nil {
		return err
	}
	if visit.FreshUID != "" {
		c.Cookie(&fiber.Cookie{Name: common.SessionCookie, Value: visit.FreshUID, Path: "/",
			HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode})
	}
	return c.SendString("Count is " + strconv.Itoa(visit.Count))
}

func (a *app) hash(c *fiber.Ctx) error {
	status, body := a.HashFile.Answer(c.Query("n"), c.Context().QueryArgs().Has("n"))
	return c.Status(status).SendString(body)
}

// itemBody is what POST and PUT /items take: pointers, so that a missing member (or null) is told from ""
// and 0.
type itemBody struct {
	Name     *string `json:"name"`
	Quantity *int32  `json:"quantity"`
}

// pageQuery is GET /items's query for c.QueryParser, which leaves an absent parameter at the value set
// before it and fails on one that is not an integer.
type pageQuery struct {
	Page int64 `query:"page"`
	Size int   `query:"size"`
}

// bindItem parses the body with c.BodyParser (the configured JSONDecoder: encoding/json, or go-json in
// fiber-tuned) and checks that both members came. The decoders' errors differ by codec, so
// common.RefusedStatus tells broken JSON (400) from a wrong shape (422) by the body itself.
func bindItem(c *fiber.Ctx) (itemBody, error) {
	var in itemBody
	if err := c.BodyParser(&in); err != nil {
		return in, fiber.NewError(common.RefusedStatus(c.Body()), err.Error())
	}
	if in.Name == nil || in.Quantity == nil {
		return in, fiber.NewError(fiber.StatusUnprocessableEntity, "an item needs a string name and an integer quantity")
	}
	return in, nil
}

// itemFailed turns common.ErrNoItem into fiber's 404; any other error goes to the error handler as a 500.
func itemFailed(err error) error {
	if errors.Is(err, common.ErrNoItem) {
		return fiber.NewError(fiber.StatusNotFound, err.Error())
	}
	return err
}

func (a *app) item(c *fiber.Ctx) error {
	item, err := common.GetItem(c.UserContext(), a.Pool, c.Params("id"))
	if err != nil {
		return itemFailed(err)
	}
	return c.JSON(item)
}

func (a *app) itemPage(c *fiber.Ctx) error {
	q := pageQuery{Page: common.DefaultPage, Size: common.DefaultPageSize}
	if err := c.QueryParser(&q); err != nil {
		return fiber.NewError(fiber.StatusBadRequest, err.Error())
	}
	if q.Page < 1 || q.Size < 1 || q.Size > common.MaxPageSize {
		return fiber.NewError(fiber.StatusBadRequest, "page must be from 1, size from 1 to 100")
	}
	items, err := common.ItemPage(c.UserContext(), a.Pool, q.Page, q.Size)
	if err != nil {
		return err
	}
	return c.JSON(items)
}

func (a *app) createItem(c *fiber.Ctx) error {
	in, err := bindItem(c)
	if err != nil {
		return err
	}
	item, err := common.CreateItem(c.UserContext(), a.Pool, *in.Name, *in.Quantity)
	if err != nil {
		return err
	}
	// The collection's path is the one this POST was routed on.
	c.Location(c.Path() + "/" + strconv.Itoa(int(item.ID)))
	return c.Status(fiber.StatusCreated).JSON(item)
}

func (a *app) updateItem(c *fiber.Ctx) error {
	in, err := bindItem(c)
	if err != nil {
		return err
	}
	item, err := common.UpdateItem(c.UserContext(), a.Pool, c.Params("id"), *in.Name, *in.Quantity)
	if err != nil {
		return itemFailed(err)
	}
	return c.JSON(item)
}

func (a *app) deleteItem(c *fiber.Ctx) error {
	if err := common.DeleteItem(c.UserContext(), a.Pool, c.Params("id")); err != nil {
		return itemFailed(err)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	a := &app{Backend: b}
	// Fiber's html engine is html/template, loading the shared page from ../common.
	views := html.NewFileSystem(http.FS(common.Templates), ".html")
	// Prefork stays off (fiber's default): one process on GOMAXPROCS = WORKERS threads, like the other Go
	// stacks. No logger middleware: no access log. Fasthttp sends this Server name and a Date it refreshes.
	// BodyLimit is fiber's own limit on request bodies (docs.gofiber.io/v2.x/api/fiber, Config: "Max body
	// size that the server accepts", default 4 * 1024 * 1024), at 2 MiB for upload: fasthttp (its
	// MaxRequestBodySize) stops reading a larger body, chunked or not, and answers 413.
	config := fiber.Config{
		BodyLimit:             common.MaxUpload,
		ServerHeader:          "Fiber",
		Views:                 views,
		DisableStartupMessage: true,
	}
	codec := jsonCodec(&config)
	server := fiber.New(config)
	server.Get("/plaintext", func(c *fiber.Ctx) error { return c.SendString("Hello, World!") })
	// fasthttp runs each connection's handler on a goroutine of its worker pool, which grows on demand up to
	// Concurrency (fiber's default, 256 * 1024): time.Sleep parks that goroutine, not a thread, and the other
	// connections get workers of their own.
	server.Get("/async", func(c *fiber.Ctx) error {
		time.Sleep(common.AsyncWait)
		return c.SendString("Hello, World!")
	})
	server.Get("/json", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"message": "Hello, World!"}) })
	server.Get("/db", a.db)
	server.Get("/session", a.session)
	server.Get("/hash", a.hash)
	server.Get("/queries", a.queries)
	server.Get("/updates", a.updates)
	server.Get("/fortunes", a.fortunes)
	server.Get("/cached-queries", a.cached)
	// Fiber's own compress middleware at its defaults (LevelDefault: fasthttp's CompressHandlerBrotliLevel,
	// br or gzip or deflate as Accept-Encoding asks, from 200 bytes, with Vary: Accept-Encoding), as route
	// middleware: fiber runs a route's handlers in turn, each calling c.Next.
	server.Get("/json-comp", compress.New(), func(c *fiber.Ctx) error { return c.JSON(common.Items(c.Query("n"))) })
	// fasthttp has read the whole body, Content-Length or chunked, before the handler runs; c.Body is it.
	server.Post("/upload", func(c *fiber.Ctx) error { return c.SendString(common.UploadAnswerOf(c.Body())) })
	server.Get("/ws", websocket.New(func(conn *websocket.Conn) { common.Echo(conn) }))
	items := server.Group("/items")
	items.Get("", a.itemPage)
	items.Post("", a.createItem)
	items.Get("/:id", a.item)
	items.Put("/:id", a.updateItem)
	items.Delete("/:id", a.deleteItem)
	server.Static("/static", b.StaticDir)

	log.Printf("listening on %s with GOMAXPROCS=%d, JSON by %s", b.Addr, b.Workers, codec)
	if b.TLS() {
		log.Fatal(listenTLS(server, b))
	}
	log.Fatal(server.Listen(b.Addr))
}

// jsonCodec sets the codec behind c.JSON from FIBER_JSON, so that one binary serves fiber (unset: fiber's
// default encoding/json) and fiber-tuned ("go-json": JSONEncoder/JSONDecoder on goccy/go-json, the form of
// Fiber's "Make Fiber Faster" guide). Any other value stops the server rather than run it on a codec its
// manifest does not name.
func jsonCodec(config *fiber.Config) string {
	switch codec := os.Getenv("FIBER_JSON"); codec {
	case "":
		return "encoding/json"
	case "go-json":
		config.JSONEncoder = gojson.Marshal
		config.JSONDecoder = gojson.Unmarshal
		return "github.com/goccy/go-json"
	default:
		log.Fatalf("FIBER_JSON=%q: expected go-json, or unset for encoding/json", codec)
		return ""
	}
}

// listenTLS is fiber's documented custom-listener form (app.Listener over a crypto/tls listener) rather
// than app.ListenTLS, whose config offers no ALPN: fasthttp has no HTTP/2, so ALPN names http/1.1 alone.
func listenTLS(server *fiber.App, b *common.Backend) error {
	cert, err := tls.LoadX509KeyPair(b.TLSCert, b.TLSKey)
	if err != nil {
		return err
	}
	ln, err := net.Listen(fiber.NetworkTCP4, b.Addr) // what app.Listen uses by default
	if err != nil {
		return err
	}
	return server.Listener(tls.NewListener(ln, &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{"http/1.1"},
	}))
}
