package stdhttp

import (
	"net/http"

	"webshootout/common"
)

// ListenAndServe serves h on b.Addr with net/http's own transports (Go 1.24+ Server.Protocols): when
// TLS_CERT/TLS_KEY are set, TLS only, with ALPN offering h2 and http/1.1; otherwise cleartext HTTP/1.1
// that also takes HTTP/2 with prior knowledge (h2c). Like http.ListenAndServe, the Server has no
// timeouts, so the cleartext HTTP/1.1 path is what it was before.
func ListenAndServe(b *common.Backend, h http.Handler) error {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	server := &http.Server{Addr: b.Addr, Handler: h, Protocols: &protocols}
	if b.TLS() {
		return server.ListenAndServeTLS(b.TLSCert, b.TLSKey)
	}
	return server.ListenAndServe()
}
