// webshootout workloads on julienschmidt/httprouter over net/http (see docs/workloads.md).
package main

import (
	"log"
	"net/http"

	"github.com/gorilla/websocket"
	"github.com/julienschmidt/httprouter"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

var upgrader websocket.Upgrader

func echo(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	// gorilla writes the 101 itself, from the headers given here only.
	if conn, err := upgrader.Upgrade(w, r, w.Header()); err == nil {
		common.Echo(conn)
	}
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	// The handlers take no route parameters: httprouter's HandlerFunc adapter routes to them as they are.
	h := stdhttp.New(b)
	router := httprouter.New()
	router.HandlerFunc(http.MethodGet, "/plaintext", h.Plaintext)
	router.HandlerFunc(http.MethodGet, "/async", h.Async)
	router.HandlerFunc(http.MethodGet, "/json", h.JSON)
	router.HandlerFunc(http.MethodGet, "/db", h.DB)
	router.HandlerFunc(http.MethodGet, "/session", h.Session)
	router.HandlerFunc(http.MethodGet, "/hash", h.Hash)
	router.HandlerFunc(http.MethodGet, "/queries", h.Queries)
	router.HandlerFunc(http.MethodGet, "/updates", h.Updates)
	router.HandlerFunc(http.MethodGet, "/fortunes", h.Fortunes)
	router.HandlerFunc(http.MethodGet, "/cached-queries", h.Cached)
	router.GET("/ws", echo)
	// httprouter puts a route's params in the request's context when it routes to a plain http.Handler.
	items := h.Items(func(r *http.Request) string { return httprouter.ParamsFromContext(r.Context()).ByName("id") })
	router.HandlerFunc(http.MethodGet, "/items/:id", items.Get)
	router.HandlerFunc(http.MethodGet, "/items", items.List)
	router.HandlerFunc(http.MethodPost, "/items", items.Create)
	router.HandlerFunc(http.MethodPut, "/items/:id", items.Update)
	router.HandlerFunc(http.MethodDelete, "/items/:id", items.Delete)
	// ServeFiles is http.FileServer underneath: the directory path answers with its index.html.
	router.ServeFiles("/static/*filepath", http.Dir(b.StaticDir))

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	log.Fatal(stdhttp.ListenAndServe(b, stdhttp.WithServer("httprouter", router)))
}
