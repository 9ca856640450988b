// webshootout workloads on the standard library's net/http (see docs/workloads.md).
package main

import (
	"log"
	"net/http"

	"github.com/coder/websocket"
	"github.com/klauspost/compress/gzhttp"

	"webshootout/common"
	"webshootout/common/stdhttp"
)

func echo(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	ctx := r.Context()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			return
		}
	}
}

func main() {
	b := common.Start()
	defer b.Pool.Close()

	h := stdhttp.New(b)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /plaintext", h.Plaintext)
	mux.HandleFunc("GET /async", h.Async)
	mux.HandleFunc("GET /json", h.JSON)
	mux.HandleFunc("GET /db", h.DB)
	mux.HandleFunc("GET /session", h.Session)
	mux.HandleFunc("GET /hash", h.Hash)
	mux.HandleFunc("GET /queries", h.Queries)
	mux.HandleFunc("GET /updates", h.Updates)
	mux.HandleFunc("GET /fortunes", h.Fortunes)
	mux.HandleFunc("GET /cached-queries", h.Cached)
	// net/http has no compression middleware of its own; gzhttp (klauspost/compress) is the handler wrapper
	// Go's ecosystem uses for it, applied as its README does, around the handler, at its defaults: gzip at
	// the default level from 1 KiB, zstd when asked for, Vary: Accept-Encoding on every answer.
	mux.Handle("GET /json-comp", gzhttp.GzipHandler(http.HandlerFunc(h.JSONComp)))
	mux.HandleFunc("POST /upload", h.Upload)
	// FileServer answers the directory with its index.html (and redirects the explicit
	// /index.html path to it), so the workload's path is the directory.
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServer(http.Dir(b.StaticDir))))
	mux.HandleFunc("GET /ws", echo)
	// ServeMux's method and wildcard patterns (Go 1.22+) route crud by verb; {id} reaches the handler as
	// PathValue.
	items := h.Items(func(r *http.Request) string { return r.PathValue("id") })
	mux.HandleFunc("GET /items/{id}", items.Get)
	mux.HandleFunc("GET /items", items.List)
	mux.HandleFunc("POST /items", items.Create)
	mux.HandleFunc("PUT /items/{id}", items.Update)
	mux.HandleFunc("DELETE /items/{id}", items.Delete)

	log.Printf("listening on %s with GOMAXPROCS=%d", b.Addr, b.Workers)
	log.Fatal(stdhttp.ListenAndServe(b, stdhttp.WithServer("Go net/http", mux)))
}
