// Package common is the framework-independent code every Go implementation shares (see README.md).
package common

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"runtime"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Env is what the harness hands the server (docs/adding-a-framework.md).
type Env struct {
	Addr        string // HOST:PORT to listen on
	Workers     int    // GOMAXPROCS
	DBPool      int    // database connections this process may open
	DatabaseURL string
	HashFile    HashFile
	StaticDir   string
	TLSCert     string // PEM paths; both set: serve TLS on Addr (and only TLS), both unset: cleartext
	TLSKey      string
}

// TLS says whether the harness asked for TLS on Addr.
func (e Env) TLS() bool { return e.TLSCert != "" }

func variable(name string) (string, error) {
	value, ok := os.LookupEnv(name)
	if !ok || value == "" {
		return "", fmt.Errorf("environment variable %s is not set", name)
	}
	return value, nil
}

func positive(name string) (int, error) {
	raw, err := variable(name)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("environment variable %s=%q is not a positive integer", name, raw)
	}
	return n, nil
}

// loadEnv reads the environment; the error names every variable that is missing or malformed.
func loadEnv() (Env, error) {
	var errs []error
	str := func(name string) string {
		value, err := variable(name)
		errs = append(errs, err)
		return value
	}
	num := func(name string) int {
		n, err := positive(name)
		errs = append(errs, err)
		return n
	}
	env := Env{
		Addr:        net.JoinHostPort(str("HOST"), str("PORT")),
		Workers:     num("WORKERS"),
		DBPool:      num("DB_POOL_TOTAL"),
		DatabaseURL: str("DATABASE_URL"),
		HashFile:    HashFile(str("HASH_FILE")),
		StaticDir:   str("STATIC_DIR"),
		TLSCert:     os.Getenv("TLS_CERT"),
		TLSKey:      os.Getenv("TLS_KEY"),
	}
	if (env.TLSCert == "") != (env.TLSKey == "") {
		errs = append(errs, errors.New("TLS_CERT and TLS_KEY must be set together"))
	}
	return env, errors.Join(errs...)
}

// openPool sizes the pool from DB_POOL_TOTAL, min and max alike: one process serves on every core, so it
// holds the whole pool that multi-process stacks split into DB_POOL per process (docs/fairness.md).
func openPool(ctx context.Context, env Env) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(env.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.MaxConns = int32(env.DBPool)
	cfg.MinConns = int32(env.DBPool)
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Backend is what the workload handlers of every Go stack hold, whatever their router.
type Backend struct {
	Env
	Pool  *pgxpool.Pool
	Cache *WorldCache
}

// Start reads the environment, runs WORKERS Go threads, opens the pool and fills the world cache, or
// exits naming what is wrong: a server cannot do anything useful without them.
func Start() *Backend {
	env, err := loadEnv()
	if err != nil {
		log.Fatal(err)
	}
	runtime.GOMAXPROCS(env.Workers)
	ctx := context.Background()
	pool, err := openPool(ctx, env)
	if err != nil {
		log.Fatal(err)
	}
	cache, err := LoadWorldCache(ctx, pool)
	if err != nil {
		log.Fatal(err)
	}
	return &Backend{Env: env, Pool: pool, Cache: cache}
}
