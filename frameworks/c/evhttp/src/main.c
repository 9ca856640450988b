/* libevent's evhttp: WORKERS threads, each with its own event_base and evhttp (neither is shared between
 * threads, as libevent's documentation asks of an event_base), accepting from its own SO_REUSEPORT socket on
 * HOST:PORT through evhttp_accept_socket_with_handle. libpq runs asynchronously on the same base (db.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/keyvalq_struct.h>
#include <json-c/json.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include "app.h"

/* evhttp_bind_socket's own backlog: it passes -1 to evconnlistener_new, which listens with 128 */
#define BACKLOG 128

const world_row_t *world_cache;
static const char *hash_file, *static_dir;
static SSL_CTX *ssl_ctx;

static const char *env(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : fallback;
}

uint32_t app_random_id(app_thread_t *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 7;
    t->rng ^= t->rng << 17;
    return (uint32_t)(t->rng % WORLD_ROWS) + 1;
}

/* evhttp adds Date (HTTP/1.1) and Content-Length itself; Server and the type are ours */
void app_reply(struct evhttp_request *req, int status, const char *type, const char *body, size_t len)
{
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    struct evbuffer *out = evbuffer_new();
    evhttp_add_header(headers, "Server", "evhttp");
    evhttp_add_header(headers, "Content-Type", type);
    evbuffer_add(out, body, len);
    evhttp_send_reply(req, status, status == 200 ? "OK" : status == 400 ? "Bad Request" : status == 404 ? "Not Found" : "Internal Server Error", out);
    evbuffer_free(out);
}

/* The query parameter's value (decoded), or NULL; *owner is to be cleared with evhttp_clear_headers. */
static const char *query_param(struct evhttp_request *req, const char *name, struct evkeyvalq *owner)
{
    const char *query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
    TAILQ_INIT(owner);
    if (query == NULL || evhttp_parse_query_str(query, owner) != 0)
        return NULL;
    return evhttp_find_header(owner, name);
}

/* TechEmpower's count: missing, empty, not an integer or below 1 is 1; above 500 is 500. */
int app_count_param(struct evhttp_request *req, const char *name)
{
    struct evkeyvalq params;
    const char *v = query_param(req, name, &params);
    char *end;
    long n = v != NULL && *v != '\0' ? strtol(v, &end, 10) : 1;
    if (v != NULL && *v != '\0' && *end != '\0')
        n = 1;
    evhttp_clear_headers(&params);
    return n < 1 ? 1 : n > MAX_QUERIES ? MAX_QUERIES : (int)n;
}

static void on_plaintext(struct evhttp_request *req, void *arg)
{
    app_reply(req, 200, "text/plain; charset=utf-8", "Hello, World!", 13);
}

static void on_json(struct evhttp_request *req, void *arg)
{
    json_object *o = json_object_new_object();
    size_t len;
    json_object_object_add(o, "message", json_object_new_string("Hello, World!"));
    const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
    app_reply(req, 200, "application/json", text, len);
    json_object_put(o);
}

static void on_hash(struct evhttp_request *req, void *arg)
{
    static const char hex[] = "0123456789abcdef";
    static const char bad[] = "n must be an integer from 1 to 100000\n";
    struct evkeyvalq params;
    const char *v = query_param(req, "n", &params);
    char *end = NULL;
    long n = v != NULL && *v != '\0' ? strtol(v, &end, 10) : 0;
    int valid = n >= 1 && n <= 100000 && *end == '\0';
    evhttp_clear_headers(&params);
    if (!valid) {
        app_reply(req, 400, "text/plain; charset=utf-8", bad, sizeof(bad) - 1);
        return;
    }
    /* read from disk on every request, on the loop as evhttp's handlers do their work (it has no worker pool) */
    int fd = open(hash_file, O_RDONLY | O_CLOEXEC);
    if (fd == -1) {
        app_reply(req, 500, "text/plain; charset=utf-8", "cannot open HASH_FILE\n", 22);
        return;
    }
    unsigned char d[EVP_MAX_MD_SIZE], chunk[16384];
    unsigned len;
    ssize_t r;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    while ((r = read(fd, chunk, sizeof(chunk))) > 0)
        EVP_DigestUpdate(md, chunk, r);
    close(fd);
    EVP_DigestFinal_ex(md, d, &len);
    for (long i = 1; i < n; ++i) {
        EVP_DigestInit_ex(md, EVP_sha256(), NULL);
        EVP_DigestUpdate(md, d, 32);
        EVP_DigestFinal_ex(md, d, &len);
    }
    EVP_MD_CTX_free(md);
    char out[64];
    for (int i = 0; i < 32; ++i) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    app_reply(req, 200, "text/plain; charset=utf-8", out, sizeof(out));
}

/* Files under /static/ as libevent's own http-server sample serves them: evbuffer_add_file (sendfile). */
static void on_other(struct evhttp_request *req, void *arg)
{
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    char file[4096];
    struct stat st;
    int fd = -1;
    if (path == NULL || strncmp(path, "/static/", 8) != 0 || strstr(path, "..") != NULL ||
        snprintf(file, sizeof(file), "%s/%s", static_dir, path + 8) >= (int)sizeof(file) ||
        (fd = open(file, O_RDONLY | O_CLOEXEC)) == -1 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd != -1)
            close(fd);
        app_reply(req, 404, "text/plain; charset=utf-8", "not found\n", 10);
        return;
    }
    const char *dot = strrchr(file, '.');
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    struct evbuffer *out = evbuffer_new();
    evhttp_add_header(headers, "Server", "evhttp");
    evhttp_add_header(headers, "Content-Type", dot != NULL && strcmp(dot, ".html") == 0 ? "text/html" : "application/octet-stream");
    evbuffer_add_file(out, fd, 0, st.st_size); /* takes the descriptor */
    evhttp_send_reply(req, 200, "OK", out);
    evbuffer_free(out);
}

static struct bufferevent *tls_bufferevent(struct event_base *base, void *arg)
{
    return bufferevent_openssl_socket_new(base, -1, SSL_new(ssl_ctx), BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
}

static int open_listener(const struct sockaddr_in *addr)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), on = 1;
    if (fd == -1 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0 ||
        bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) != 0 || listen(fd, BACKLOG) != 0) {
        fprintf(stderr, "listen: %s\n", strerror(errno));
        return -1;
    }
    return fd;
}

static struct sockaddr_in listen_addr;
static int pool_per_thread;

static void *serve(void *arg)
{
    app_thread_t *t = arg;
    int fd = open_listener(&listen_addr);
    t->base = event_base_new();
    t->http = evhttp_new(t->base);
    if (fd == -1 || t->base == NULL || t->http == NULL || db_pool_open(&t->db, t->base, pool_per_thread) != 0 ||
        evhttp_accept_socket_with_handle(t->http, fd) == NULL)
        exit(1);
    if (ssl_ctx != NULL)
        evhttp_set_bevcb(t->http, tls_bufferevent, NULL);
    evhttp_set_cb(t->http, "/plaintext", on_plaintext, t);
    evhttp_set_cb(t->http, "/json", on_json, t);
    evhttp_set_cb(t->http, "/hash", on_hash, t);
    app_register_db(t->http, t);
    evhttp_set_gencb(t->http, on_other, t);
    event_base_dispatch(t->base);
    return NULL;
}

static int select_http11(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                         unsigned inlen, void *arg)
{
    static const unsigned char http11[] = "\x08http/1.1";
    unsigned char *selected;
    if (SSL_select_next_proto(&selected, outlen, http11, sizeof(http11) - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static SSL_CTX *setup_tls(const char *cert, const char *key)
{
    SSL_CTX *c = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
    if (SSL_CTX_use_certificate_chain_file(c, cert) != 1 || SSL_CTX_use_PrivateKey_file(c, key, SSL_FILETYPE_PEM) != 1) {
        fprintf(stderr, "cannot load TLS_CERT %s / TLS_KEY %s\n", cert, key);
        exit(1);
    }
    /* evhttp speaks HTTP/1.x only */
    SSL_CTX_set_alpn_select_cb(c, select_http11, NULL);
    return c;
}

int main(void)
{
    int workers = atoi(env("WORKERS", "1")), pool = atoi(env("DB_POOL_TOTAL", "1"));
    const char *cert = env("TLS_CERT", NULL), *key = env("TLS_KEY", NULL);
    static world_row_t table[WORLD_ROWS];

    if (workers < 1)
        workers = 1;
    /* DB_POOL_TOTAL for the one process, split over the threads, each needing at least one */
    pool_per_thread = pool / workers > 0 ? pool / workers : 1;
    listen_addr = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(env("PORT", "8080")))};
    if (inet_pton(AF_INET, env("HOST", "127.0.0.1"), &listen_addr.sin_addr) != 1) {
        fprintf(stderr, "HOST must be an IPv4 address\n");
        return 1;
    }
    hash_file = env("HASH_FILE", "hash.bin");
    static_dir = env("STATIC_DIR", ".");
    signal(SIGPIPE, SIG_IGN);
    if (cert != NULL || key != NULL) {
        if (cert == NULL || key == NULL) {
            fprintf(stderr, "TLS_CERT and TLS_KEY must be set together\n");
            return 1;
        }
        ssl_ctx = setup_tls(cert, key);
    }
    /* cached: world read once with a short-lived connection of its own, before the pools open */
    if (db_load_world(table) != 0)
        return 1;
    world_cache = table;

    app_thread_t *threads = calloc(workers, sizeof(*threads));
    pthread_t *tids = calloc(workers, sizeof(*tids));
    for (int i = 0; i < workers; ++i) {
        while (getrandom(&threads[i].rng, sizeof(threads[i].rng), 0) != sizeof(threads[i].rng) || threads[i].rng == 0)
            ;
        if (pthread_create(&tids[i], NULL, serve, &threads[i]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int i = 0; i < workers; ++i)
        pthread_join(tids[i], NULL);
    return 0;
}
