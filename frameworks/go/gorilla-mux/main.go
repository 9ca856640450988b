// webshootout workloads on gorilla/mux over net/http, WebSocket by gorilla/websocket (see
// docs/workloads.md).
package main

import (
	"log"
	"net/http"

	"github.com/gorilla/handlers"
	"github.com/gorilla/mux"
	"github.com/gorilla/websocket"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

var upgrader websocket.Upgrader

func echo(w http.ResponseWriter, r *http.Request) {
	// The upgrader writes the 101 itself, with only the headers given here.
	if conn, err := upgrader.Upgrade(w, r, w.Header()); err == nil {
		common.Echo(conn)
	}
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	// mux routes plain http.HandlerFuncs, so the shared net/http handlers serve as they are. Session is the
	// shared transaction on usersessions: gorilla/sessions, the toolkit's session package, stores in
	// cookies or files only, not in PostgreSQL.
	h := stdhttp.New(b)
	r := mux.NewRouter()
	// No handlers.LoggingHandler: no access log.
	r.HandleFunc("/plaintext", h.Plaintext).Methods(http.MethodGet)
	r.HandleFunc("/async", h.Async).Methods(http.MethodGet)
	r.HandleFunc("/json", h.JSON).Methods(http.MethodGet)
	r.HandleFunc("/db", h.DB).Methods(http.MethodGet)
	r.HandleFunc("/session", h.Session).Methods(http.MethodGet)
	r.HandleFunc("/hash", h.Hash).Methods(http.MethodGet)
	r.HandleFunc("/queries", h.Queries).Methods(http.MethodGet)
	r.HandleFunc("/updates", h.Updates).Methods(http.MethodGet)
	r.HandleFunc("/fortunes", h.Fortunes).Methods(http.MethodGet)
	r.HandleFunc("/cached-queries", h.Cached).Methods(http.MethodGet)
	// The toolkit's own compression, handlers.CompressHandler, wrapped around this route's handler as the
	// handlers README wraps one route (LoggingHandler on /admin): gzip or deflate at gzip's default level
	// for any content type and size, Vary: Accept-Encoding on every answer.
	r.Handle("/json-comp", handlers.CompressHandler(http.HandlerFunc(h.JSONComp))).Methods(http.MethodGet)
	// http.MaxBytesReader at 2 MiB inside the handler (../common/stdhttp/stdhttp.go): mux has no body limit
	// of its own.
	r.HandleFunc("/upload", h.Upload).Methods(http.MethodPost)
	r.HandleFunc("/ws", echo).Methods(http.MethodGet)
	items := h.Items(func(r *http.Request) string { return mux.Vars(r)["id"] })
	r.HandleFunc("/items/{id}", items.Get).Methods(http.MethodGet)
	r.HandleFunc("/items", items.List).Methods(http.MethodGet)
	r.HandleFunc("/items", items.Create).Methods(http.MethodPost)
	r.HandleFunc("/items/{id}", items.Update).Methods(http.MethodPut)
	r.HandleFunc("/items/{id}", items.Delete).Methods(http.MethodDelete)
	// mux's README serves static files with a PathPrefix route to http.FileServer: the directory answers
	// with its index.html.
	r.PathPrefix("/static/").Handler(http.StripPrefix("/static/", http.FileServer(http.Dir(b.StaticDir)))).
		Methods(http.MethodGet)

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	// The router is the http.Server's Handler, as mux's README runs it; WithServer also names the server on
	// the router's 404 and 405 answers.
	log.Fatal(stdhttp.ListenAndServe(b, stdhttp.WithServer("gorilla/mux", r)))
}
