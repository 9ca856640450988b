/* GNU libmicrohttpd: one daemon with its internal epoll thread pool of WORKERS threads sharing one listen
 * socket (MHD_USE_EPOLL_INTERNAL_THREAD with MHD_OPTION_THREAD_POOL_SIZE, the manual's scalable mode).
 * Handlers run on those threads and may block, so the database is a process-wide pool of DB_POOL_TOTAL
 * blocking libpq connections (src/db.c): libmicrohttpd exposes no event loop to drive libpq's sockets. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include <microhttpd.h>
#include <openssl/evp.h>
#include "db.h"
#include "ws.h"

#define SERVER "libmicrohttpd"
#define TEXT "text/plain; charset=utf-8"
#define JSON "application/json"

static const char *hash_file, *static_dir;

static enum MHD_Result send_response(struct MHD_Connection *conn, unsigned status, const char *type,
                                     struct MHD_Response *resp)
{
    MHD_add_response_header(resp, MHD_HTTP_HEADER_SERVER, SERVER);
    if (type != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    enum MHD_Result r = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    return r;
}

static enum MHD_Result send_copy(struct MHD_Connection *conn, unsigned status, const char *type, const char *body, size_t len)
{
    return send_response(conn, status, type, MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY));
}

/* takes ownership of a malloc'd body */
static enum MHD_Result send_owned(struct MHD_Connection *conn, unsigned status, const char *type, char *body, size_t len)
{
    return send_response(conn, status, type, MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE));
}

static enum MHD_Result send_json(struct MHD_Connection *conn, json_object *value)
{
    size_t len;
    const char *text = json_object_to_json_string_length(value, JSON_C_TO_STRING_PLAIN, &len);
    enum MHD_Result r = send_copy(conn, MHD_HTTP_OK, JSON, text, len);
    json_object_put(value);
    return r;
}

static enum MHD_Result db_error(struct MHD_Connection *conn)
{
    return send_copy(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, TEXT, "database error\n", 15);
}

static uint32_t random_id(void)
{
    /* xorshift per thread: no shared state on the hot path */
    static __thread uint64_t s;
    if (s == 0)
        while (getrandom(&s, sizeof(s), 0) != sizeof(s) || s == 0)
            ;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (uint32_t)(s % WORLD_ROWS) + 1;
}

static enum MHD_Result on_plaintext(struct MHD_Connection *conn)
{
    return send_response(conn, MHD_HTTP_OK, TEXT,
                         MHD_create_response_from_buffer(13, (void *)"Hello, World!", MHD_RESPMEM_PERSISTENT));
}

static enum MHD_Result on_json(struct MHD_Connection *conn)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "message", json_object_new_string("Hello, World!"));
    return send_json(conn, o);
}

static json_object *row_json(const world_row_t *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "id", json_object_new_int(r->id));
    json_object_object_add(o, "randomNumber", json_object_new_int(r->random_number));
    return o;
}

static json_object *rows_json(const world_row_t *rows, int n)
{
    json_object *a = json_object_new_array_ext(n);
    for (int i = 0; i < n; ++i)
        json_object_array_add(a, row_json(&rows[i]));
    return a;
}

/* mode: 0 db (one object), 1 queries, 2 updates */
static enum MHD_Result on_world(struct MHD_Connection *conn, int n, int mode)
{
    world_row_t rows[MAX_QUERIES];
    for (int i = 0; i < n; ++i)
        rows[i].id = random_id();
    PGconn *pg = db_acquire();
    int rc = db_world_read(pg, rows, n);
    if (rc == 0 && mode == 2) {
        for (int i = 0; i < n; ++i)
            rows[i].random_number = random_id();
        /* an id drawn twice is written twice, the last number standing: the answer says the same */
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                if (rows[j].id == rows[i].id)
                    rows[i].random_number = rows[j].random_number;
        rc = db_world_write(pg, rows, n);
    }
    db_release(pg);
    if (rc != 0)
        return db_error(conn);
    return send_json(conn, mode == 0 ? row_json(&rows[0]) : rows_json(rows, n));
}

static int count_arg(struct MHD_Connection *conn, const char *name)
{
    return db_count_param(MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name));
}

/* cached: the whole of world, read once on first use and only read after that */
static _Atomic(world_row_t *) cache;
static pthread_mutex_t cache_fill = PTHREAD_MUTEX_INITIALIZER;

static world_row_t *world_cache(void)
{
    world_row_t *table = atomic_load_explicit(&cache, memory_order_acquire);
    if (table != NULL)
        return table;
    pthread_mutex_lock(&cache_fill);
    if ((table = atomic_load(&cache)) == NULL) {
        world_row_t *fresh = calloc(WORLD_ROWS, sizeof(*fresh));
        PGconn *pg = db_acquire();
        int rc = db_world_all(pg, fresh);
        db_release(pg);
        if (rc == 0)
            atomic_store_explicit(&cache, table = fresh, memory_order_release);
        else
            free(fresh);
    }
    pthread_mutex_unlock(&cache_fill);
    return table;
}

static enum MHD_Result on_cached(struct MHD_Connection *conn)
{
    world_row_t rows[MAX_QUERIES], *table = world_cache();
    int n = count_arg(conn, "count");
    if (table == NULL)
        return db_error(conn);
    for (int i = 0; i < n; ++i)
        rows[i] = table[random_id() - 1];
    return send_json(conn, rows_json(rows, n));
}

typedef struct {
    char *data;
    size_t len, cap;
} buf_t;

static void put(buf_t *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

#define PUTS(b, lit) put(b, lit, sizeof(lit) - 1)

static void put_escaped(buf_t *b, const char *s)
{
    for (const char *run = s;; ++s) {
        const char *entity;
        switch (*s) {
        case '&': entity = "&amp;"; break;
        case '<': entity = "&lt;"; break;
        case '>': entity = "&gt;"; break;
        case '"': entity = "&quot;"; break;
        case '\'': entity = "&#39;"; break;
        case '\0': put(b, run, s - run); return;
        default: continue;
        }
        put(b, run, s - run);
        put(b, entity, strlen(entity));
        run = s + 1;
    }
}

static int by_message(const void *a, const void *b)
{
    return strcmp(((const fortune_row_t *)a)->message, ((const fortune_row_t *)b)->message);
}

/* libmicrohttpd has no template engine: the page is written here, every message HTML-escaped */
static enum MHD_Result on_fortunes(struct MHD_Connection *conn)
{
    fortune_row_t *rows;
    PGconn *pg = db_acquire();
    int n = db_fortunes(pg, &rows);
    db_release(pg);
    if (n < 0)
        return db_error(conn);
    rows[n++] = (fortune_row_t){0, strdup("Additional fortune added at request time.")};
    qsort(rows, n, sizeof(*rows), by_message);
    buf_t b = {malloc(4096), 0, 4096};
    PUTS(&b, "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
    for (int i = 0; i < n; ++i) {
        char id[16];
        PUTS(&b, "<tr><td>");
        put(&b, id, snprintf(id, sizeof(id), "%d", rows[i].id));
        PUTS(&b, "</td><td>");
        put_escaped(&b, rows[i].message);
        PUTS(&b, "</td></tr>");
    }
    PUTS(&b, "</table></body></html>");
    db_fortunes_free(rows, n);
    return send_owned(conn, MHD_HTTP_OK, "text/html; charset=utf-8", b.data, b.len);
}

static int is_uid(const char *s)
{
    if (s == NULL || strlen(s) != 32)
        return 0;
    for (; *s; ++s)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

static enum MHD_Result on_session(struct MHD_Connection *conn)
{
    static const char hex[] = "0123456789abcdef";
    const char *cookie = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "sid");
    char uid[33];
    if (is_uid(cookie)) {
        memcpy(uid, cookie, 33);
    } else {
        unsigned char r[16];
        if (getrandom(r, sizeof(r), 0) != sizeof(r))
            return db_error(conn);
        for (int i = 0; i < 16; ++i) {
            uid[2 * i] = hex[r[i] >> 4];
            uid[2 * i + 1] = hex[r[i] & 15];
        }
        uid[32] = '\0';
    }
    PGconn *pg = db_acquire();
    char *data = db_session_bump(pg, uid);
    db_release(pg);
    json_object *parsed = data != NULL ? json_tokener_parse(data) : NULL, *count;
    free(data);
    if (parsed == NULL || !json_object_object_get_ex(parsed, "count", &count)) {
        json_object_put(parsed);
        return db_error(conn);
    }
    char body[32], set_cookie[80];
    int len = snprintf(body, sizeof(body), "Count is %d", json_object_get_int(count));
    json_object_put(parsed);
    snprintf(set_cookie, sizeof(set_cookie), "sid=%s; Path=/; HttpOnly", uid);
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, set_cookie);
    return send_response(conn, MHD_HTTP_OK, TEXT, resp);
}

static enum MHD_Result on_hash(struct MHD_Connection *conn)
{
    static const char hex[] = "0123456789abcdef";
    static const char bad[] = "n must be an integer from 1 to 100000\n";
    const char *arg = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "n");
    char *end;
    long n = arg != NULL && *arg != '\0' ? strtol(arg, &end, 10) : 0;
    if (n < 1 || n > 100000 || *end != '\0')
        return send_copy(conn, MHD_HTTP_BAD_REQUEST, TEXT, bad, sizeof(bad) - 1);
    /* the file is read on every request, as the contract asks */
    int fd = open(hash_file, O_RDONLY | O_CLOEXEC);
    if (fd == -1)
        return send_copy(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, TEXT, "cannot open HASH_FILE\n", 22);
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
    return send_copy(conn, MHD_HTTP_OK, TEXT, out, sizeof(out));
}

/* Files under STATIC_DIR by libmicrohttpd's file response (sendfile on a plain socket). */
static enum MHD_Result on_static(struct MHD_Connection *conn, const char *name)
{
    char path[4096];
    struct stat st;
    if (*name == '\0' || strstr(name, "..") != NULL || snprintf(path, sizeof(path), "%s/%s", static_dir, name) >= (int)sizeof(path))
        return send_copy(conn, MHD_HTTP_NOT_FOUND, TEXT, "not found\n", 10);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd == -1 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd != -1)
            close(fd);
        return send_copy(conn, MHD_HTTP_NOT_FOUND, TEXT, "not found\n", 10);
    }
    const char *dot = strrchr(name, '.'), *type = "application/octet-stream";
    if (dot != NULL && (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0))
        type = "text/html";
    else if (dot != NULL && strcmp(dot, ".css") == 0)
        type = "text/css";
    else if (dot != NULL && strcmp(dot, ".js") == 0)
        type = "text/javascript";
    return send_response(conn, MHD_HTTP_OK, type, MHD_create_response_from_fd(st.st_size, fd));
}

static void on_upgraded(void *cls, struct MHD_Connection *conn, void *req_cls, const char *extra_in, size_t extra_in_size,
                        MHD_socket sock, struct MHD_UpgradeResponseHandle *urh)
{
    ws_start(urh, sock, extra_in, extra_in_size);
}

static int has_token(const char *header, const char *token)
{
    size_t n = strlen(token);
    for (const char *p = header; p != NULL && *p; ++p)
        if (strncasecmp(p, token, n) == 0 && (p == header || p[-1] == ' ' || p[-1] == ',') &&
            (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
            return 1;
    return 0;
}

/* The handshake of RFC 6455 on libmicrohttpd's upgrade response; the frames are src/ws.c's. */
static enum MHD_Result on_ws(struct MHD_Connection *conn)
{
    const char *key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_SEC_WEBSOCKET_KEY);
    const char *upgrade = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_UPGRADE);
    const char *connection = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONNECTION);
    if (key == NULL || upgrade == NULL || strcasecmp(upgrade, "websocket") != 0 || !has_token(connection, "upgrade"))
        return send_copy(conn, MHD_HTTP_BAD_REQUEST, TEXT, "a WebSocket handshake is expected\n", 34);
    char concat[128];
    unsigned char digest[EVP_MAX_MD_SIZE], accept[64];
    unsigned dlen;
    int clen = snprintf(concat, sizeof(concat), "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    if (clen >= (int)sizeof(concat))
        return send_copy(conn, MHD_HTTP_BAD_REQUEST, TEXT, "bad Sec-WebSocket-Key\n", 22);
    EVP_Digest(concat, clen, digest, &dlen, EVP_sha1(), NULL);
    EVP_EncodeBlock(accept, digest, dlen);
    struct MHD_Response *resp = MHD_create_response_for_upgrade(on_upgraded, NULL);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_UPGRADE, "websocket");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_SEC_WEBSOCKET_ACCEPT, (const char *)accept);
    return send_response(conn, MHD_HTTP_SWITCHING_PROTOCOLS, NULL, resp);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
    static int seen;
    /* libmicrohttpd's idiom: the first call only announces the request, the answer comes on the second */
    if (*req_cls != &seen) {
        *req_cls = &seen;
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0)
        return send_copy(conn, MHD_HTTP_METHOD_NOT_ALLOWED, TEXT, "GET only\n", 9);
    if (strcmp(url, "/plaintext") == 0)
        return on_plaintext(conn);
    if (strcmp(url, "/json") == 0)
        return on_json(conn);
    if (strcmp(url, "/db") == 0)
        return on_world(conn, 1, 0);
    if (strcmp(url, "/queries") == 0)
        return on_world(conn, count_arg(conn, "queries"), 1);
    if (strcmp(url, "/updates") == 0)
        return on_world(conn, count_arg(conn, "queries"), 2);
    if (strcmp(url, "/cached-queries") == 0)
        return on_cached(conn);
    if (strcmp(url, "/fortunes") == 0)
        return on_fortunes(conn);
    if (strcmp(url, "/session") == 0)
        return on_session(conn);
    if (strcmp(url, "/hash") == 0)
        return on_hash(conn);
    if (strcmp(url, "/ws") == 0)
        return on_ws(conn);
    if (strncmp(url, "/static/", 8) == 0)
        return on_static(conn, url + 8);
    return send_copy(conn, MHD_HTTP_NOT_FOUND, TEXT, "not found\n", 10);
}

static const char *env(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : fallback;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc(n + 1);
    s[fread(s, 1, n, f)] = '\0';
    fclose(f);
    return s;
}

int main(void)
{
    unsigned workers = (unsigned)atoi(env("WORKERS", "1"));
    int pool = atoi(env("DB_POOL_TOTAL", "0"));
    const char *cert = env("TLS_CERT", NULL), *key = env("TLS_KEY", NULL);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(env("PORT", "8080")))};

    if (workers < 1)
        workers = 1;
    if (inet_pton(AF_INET, env("HOST", "127.0.0.1"), &addr.sin_addr) != 1) {
        fprintf(stderr, "HOST must be an IPv4 address\n");
        return 1;
    }
    hash_file = env("HASH_FILE", "hash.bin");
    static_dir = env("STATIC_DIR", ".");
    signal(SIGPIPE, SIG_IGN);
    /* one process: DB_POOL_TOTAL connections shared by the WORKERS threads */
    if (db_pool_open(pool > 0 ? pool : 1) != 0)
        return 1;

    /* SIGTERM waits for sigwait below: blocked before the daemon's threads start, so they inherit the mask */
    sigset_t set;
    int sig;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);

    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_UPGRADE | MHD_USE_ERROR_LOG;
    char *cert_pem = NULL, *key_pem = NULL;
    if (cert != NULL || key != NULL) {
        if (cert == NULL || key == NULL || (cert_pem = slurp(cert)) == NULL || (key_pem = slurp(key)) == NULL) {
            fprintf(stderr, "TLS_CERT and TLS_KEY must both name readable PEM files\n");
            return 1;
        }
        flags |= MHD_USE_TLS;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_THREAD_POOL_SIZE, workers,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        cert_pem != NULL ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert_pem,
        MHD_OPTION_HTTPS_MEM_KEY, key_pem,
        MHD_OPTION_END);
    if (d == NULL) {
        fprintf(stderr, "MHD_start_daemon failed on %s:%s\n", env("HOST", "127.0.0.1"), env("PORT", "8080"));
        return 1;
    }
    /* the daemon's threads serve; this one waits for the harness's SIGTERM, then exits without draining
     * (upgraded WebSocket connections would keep MHD_stop_daemon waiting) */
    sigwait(&set, &sig);
    return 0;
}
