package common

import (
	"strings"
	"testing"
)

func setAll(t *testing.T, values map[string]string) {
	for name, value := range values {
		t.Setenv(name, value)
	}
}

func validEnv() map[string]string {
	return map[string]string{"HOST": "127.0.0.1", "PORT": "8080", "WORKERS": "2", "DB_POOL_TOTAL": "3",
		"DATABASE_URL": "postgresql://u:p@127.0.0.1:5432/db", "HASH_FILE": "/tmp/h", "STATIC_DIR": "/tmp/s"}
}

func TestLoadEnvReadsEveryVariable(t *testing.T) {
	setAll(t, validEnv())
	env, err := loadEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := Env{Addr: "127.0.0.1:8080", Workers: 2, DBPool: 3, DatabaseURL: "postgresql://u:p@127.0.0.1:5432/db",
		HashFile: "/tmp/h", StaticDir: "/tmp/s"}
	if env != want {
		t.Errorf("got %+v, want %+v", env, want)
	}
}

func TestLoadEnvNamesEachBadVariable(t *testing.T) {
	values := validEnv()
	values["WORKERS"] = "zero"
	values["DB_POOL_TOTAL"] = "0"
	values["HASH_FILE"] = ""
	setAll(t, values)
	_, err := loadEnv()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`WORKERS="zero" is not a positive integer`, `DB_POOL_TOTAL="0" is not a positive integer`,
		"HASH_FILE is not set"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestOpenPoolTakesMinAndMaxFromDBPool(t *testing.T) {
	setAll(t, validEnv())
	env, err := loadEnv()
	if err != nil {
		t.Fatal(err)
	}
	// pgxpool connects lazily, so no server is needed to see the configuration.
	pool, err := openPool(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if cfg := pool.Config(); cfg.MaxConns != 3 || cfg.MinConns != 3 {
		t.Errorf("MaxConns %d, MinConns %d, want 3 and 3", cfg.MaxConns, cfg.MinConns)
	}
}

func TestLoadEnvTakesTLSPathsTogetherOnly(t *testing.T) {
	setAll(t, validEnv())
	t.Setenv("TLS_CERT", "/tmp/cert.pem")
	t.Setenv("TLS_KEY", "")
	if _, err := loadEnv(); err == nil || !strings.Contains(err.Error(), "TLS_CERT and TLS_KEY") {
		t.Errorf("one TLS path alone: error %v", err)
	}
	t.Setenv("TLS_KEY", "/tmp/key.pem")
	env, err := loadEnv()
	if err != nil || !env.TLS() || env.TLSKey != "/tmp/key.pem" {
		t.Errorf("both TLS paths: %+v, %v", env, err)
	}
}
