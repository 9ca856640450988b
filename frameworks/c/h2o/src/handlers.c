/* The workloads without a database, and the helpers every handler shares. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <yajl_gen.h>
#include <h2o/websocket.h>
#include "app.h"

static const char *hash_file;

void app_send(h2o_req_t *req, int status, const char *content_type, const char *body, size_t len)
{
    req->res.status = status;
    req->res.reason = status == 200 ? "OK" : status == 400 ? "Bad Request" : "Internal Server Error";
    h2o_add_header(&req->pool, &req->res.headers, H2O_TOKEN_CONTENT_TYPE, NULL, content_type, strlen(content_type));
    h2o_send_inline(req, body, len);
}

/* 1 with *out set when the query string has name=<integer>, 0 when the parameter is missing or not an integer. */
int app_query_int(h2o_req_t *req, const char *name, long *out)
{
    size_t name_len = strlen(name);
    if (req->query_at == SIZE_MAX)
        return 0;
    const char *p = req->path.base + req->query_at + 1, *end = req->path.base + req->path.len;
    while (p < end) {
        const char *amp = memchr(p, '&', end - p);
        const char *stop = amp != NULL ? amp : end;
        if ((size_t)(stop - p) > name_len && memcmp(p, name, name_len) == 0 && p[name_len] == '=') {
            char buf[24];
            size_t len = stop - (p + name_len + 1);
            if (len == 0 || len >= sizeof(buf))
                return 0;
            memcpy(buf, p + name_len + 1, len);
            buf[len] = '\0';
            char *e;
            long v = strtol(buf, &e, 10);
            if (*e != '\0')
                return 0;
            *out = v;
            return 1;
        }
        p = stop + 1;
    }
    return 0;
}

uint32_t app_random_id(app_thread_t *t)
{
    /* xorshift64*: per thread, so no lock on the hot path */
    t->rng ^= t->rng >> 12;
    t->rng ^= t->rng << 25;
    t->rng ^= t->rng >> 27;
    return (uint32_t)((t->rng * 2685821657736338717ULL) >> 32) % WORLD_ROWS + 1;
}

static int on_plaintext(h2o_handler_t *self, h2o_req_t *req)
{
    app_send(req, 200, "text/plain; charset=utf-8", H2O_STRLIT("Hello, World!"));
    return 0;
}

static int on_json(h2o_handler_t *self, h2o_req_t *req)
{
    yajl_gen g = yajl_gen_alloc(NULL);
    const unsigned char *buf;
    size_t len;
    yajl_gen_map_open(g);
    yajl_gen_string(g, (const unsigned char *)"message", 7);
    yajl_gen_string(g, (const unsigned char *)"Hello, World!", 13);
    yajl_gen_map_close(g);
    yajl_gen_get_buf(g, &buf, &len);
    app_send(req, 200, "application/json", (const char *)buf, len);
    yajl_gen_free(g);
    return 0;
}

static int on_hash(h2o_handler_t *self, h2o_req_t *req)
{
    static const char hex[] = "0123456789abcdef";
    long n;
    unsigned char d[EVP_MAX_MD_SIZE], buf[16384];
    char out[64];
    unsigned int dlen;
    ssize_t r;
    int fd;

    if (!app_query_int(req, "n", &n) || n < 1 || n > 100000) {
        app_send(req, 400, "text/plain; charset=utf-8", H2O_STRLIT("n must be an integer from 1 to 100000\n"));
        return 0;
    }
    /* the contract wants the file read from disk on every request; the read and the chain run on this thread's
     * loop, as a libh2o handler does its work (libh2o 2.2 has no worker pool to hand it to) */
    if ((fd = open(hash_file, O_RDONLY | O_CLOEXEC)) == -1) {
        app_send(req, 500, "text/plain; charset=utf-8", H2O_STRLIT("cannot open HASH_FILE\n"));
        return 0;
    }
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    while ((r = read(fd, buf, sizeof(buf))) > 0)
        EVP_DigestUpdate(md, buf, r);
    close(fd);
    EVP_DigestFinal_ex(md, d, &dlen);
    for (long i = 1; i < n; ++i) {
        EVP_DigestInit_ex(md, EVP_sha256(), NULL);
        EVP_DigestUpdate(md, d, 32);
        EVP_DigestFinal_ex(md, d, &dlen);
    }
    EVP_MD_CTX_free(md);
    for (int i = 0; i < 32; ++i) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    app_send(req, 200, "text/plain; charset=utf-8", out, sizeof(out));
    return 0;
}

static void on_ws_message(h2o_websocket_conn_t *conn, const struct wslay_event_on_msg_recv_arg *arg)
{
    if (arg == NULL) {
        h2o_websocket_close(conn);
        return;
    }
    if (wslay_is_ctrl_frame(arg->opcode))
        return;
    struct wslay_event_msg msg = {arg->opcode, arg->msg, arg->msg_length};
    wslay_event_queue_msg(conn->ws_ctx, &msg); /* h2o sends the queue once this callback returns */
}

static int on_ws(h2o_handler_t *self, h2o_req_t *req)
{
    const char *client_key;
    if (h2o_is_websocket_handshake(req, &client_key) != 0 || client_key == NULL)
        return -1;
    h2o_upgrade_to_websocket(req, client_key, NULL, on_ws_message);
    return 0;
}

static void add(h2o_hostconf_t *host, const char *path, int (*on_req)(h2o_handler_t *, h2o_req_t *))
{
    h2o_pathconf_t *pathconf = h2o_config_register_path(host, path, 0);
    h2o_handler_t *handler = h2o_create_handler(pathconf, sizeof(*handler));
    handler->on_req = on_req;
}

void app_register_handlers(h2o_hostconf_t *host, const char *static_dir)
{
    hash_file = getenv("HASH_FILE");
    add(host, "/plaintext", on_plaintext);
    add(host, "/json", on_json);
    add(host, "/hash", on_hash);
    add(host, "/ws", on_ws);
    add(host, "/db", on_db);
    add(host, "/queries", on_queries);
    add(host, "/updates", on_updates);
    add(host, "/cached-queries", on_cached);
    add(host, "/fortunes", on_fortunes);
    add(host, "/session", on_session);
    /* h2o's file handler: sendfile, its own MIME map (text/html), ETag and Last-Modified */
    h2o_file_register(h2o_config_register_path(host, "/static", 0), static_dir, NULL, NULL, 0);
}
