module webshootout/go-nethttp

go 1.25.0

toolchain go1.26.8

require (
	github.com/coder/websocket v1.8.15
	github.com/klauspost/compress v1.20.4
	webshootout/common v0.0.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/pgx/v5 v5.12.0 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)

replace webshootout/common => ../common
