package stdhttp

import (
	"net/http"
	"time"

	"webshootout/common"
)

// ReadHeaderTimeout bounds the time a client may take to send a request's head, as production Go servers
// set it (net/http has none by default, so a head trickled a byte a second held its connection forever:
// conform's slowloris). It starts at the request's first byte: an idle kept-alive connection is not cut.
const ReadHeaderTimeout = 10 * time.Second

// ListenAndServe serves h on b.Addr with net/http's own transports (Go 1.24+ Server.Protocols): when
// TLS_CERT/TLS_KEY are set, TLS only, with ALPN offering h2 and http/1.1; otherwise cleartext HTTP/1.1
// that also takes HTTP/2 with prior knowledge (h2c). Its one timeout is ReadHeaderTimeout; no read,
// write or idle timeout cuts a request or a kept connection.
func ListenAndServe(b *common.Backend, h http.Handler) error {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	server := &http.Server{Addr: b.Addr, Handler: h, Protocols: &protocols, ReadHeaderTimeout: ReadHeaderTimeout}
	if b.TLS() {
		return server.ListenAndServeTLS(b.TLSCert, b.TLSKey)
	}
	return server.ListenAndServe()
}
