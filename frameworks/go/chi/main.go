// webshootout workloads on go-chi/chi over net/http (see docs/workloads.md).
package main

import (
	"compress/flate"
	"log"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/websocket"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

var upgrader websocket.Upgrader

func echo(w http.ResponseWriter, r *http.Request) {
	// gorilla writes the 101 itself, from the headers given here only.
	if conn, err := upgrader.Upgrade(w, r, w.Header()); err == nil {
		common.Echo(conn)
	}
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	// chi routes plain http.HandlerFuncs, so the shared net/http handlers serve as they are; chi has no
	// session middleware, so session is the shared transaction on usersessions.
	h := stdhttp.New(b)
	r := chi.NewRouter()
	// No middleware.Logger: no access log.
	r.Get("/plaintext", h.Plaintext)
	r.Get("/async", h.Async)
	r.Get("/json", h.JSON)
	r.Get("/db", h.DB)
	r.Get("/session", h.Session)
	r.Get("/hash", h.Hash)
	r.Get("/queries", h.Queries)
	r.Get("/updates", h.Updates)
	r.Get("/fortunes", h.Fortunes)
	r.Get("/cached-queries", h.Cached)
	// chi's own middleware.Compress, as inline middleware on the route (chi's r.With): gzip or deflate
	// for its default content types (application/json among them), Vary: Accept-Encoding, no minimum
	// size. Compress has no default level, the caller must pass one: compress/flate's
	// DefaultCompression, the level the other stacks' middlewares default to.
	r.With(middleware.Compress(flate.DefaultCompression)).Get("/json-comp", h.JSONComp)
	// http.MaxBytesReader at 2 MiB inside the handler (../common/stdhttp/stdhttp.go): chi has no body
	// limit of its own.
	r.Post("/upload", h.Upload)
	r.Get("/ws", echo)
	items := h.Items(func(r *http.Request) string { return chi.URLParam(r, "id") })
	r.Route("/items", func(r chi.Router) {
		r.Get("/", items.List)
		r.Post("/", items.Create)
		r.Get("/{id}", items.Get)
		r.Put("/{id}", items.Update)
		r.Delete("/{id}", items.Delete)
	})
	// chi's file-serving idiom is http.FileServer mounted under a prefix: the directory answers with its
	// index.html.
	r.Handle("/static/*", http.StripPrefix("/static/", http.FileServer(http.Dir(b.StaticDir))))

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	log.Fatal(stdhttp.ListenAndServe(b, stdhttp.WithServer("chi", r)))
}
