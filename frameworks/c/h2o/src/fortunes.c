/* fortunes (a C template with HTML escaping) and session (the visitor's counter row). */
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"

typedef struct {
    h2o_req_t *req;
    int refs;
    db_job_t job;
    char uid[33];
} pending_t;

static void unref(pending_t *p)
{
    if (--p->refs == 0)
        free(p);
}

static void on_req_gone(void *slot)
{
    pending_t *p = *(pending_t **)slot;
    p->req = NULL;
    unref(p);
}

/* Ties the state to the request: freed after both the query and the request are done with it. */
static pending_t *pending_new(h2o_req_t *req, const char *statement, db_callback cb)
{
    pending_t *p = calloc(1, sizeof(*p));
    p->req = req;
    p->refs = 2;
    p->job.statement = statement;
    p->job.cb = cb;
    p->job.data = p;
    *(pending_t **)h2o_mem_alloc_shared(&req->pool, sizeof(p), on_req_gone) = p;
    return p;
}

typedef struct {
    int id;
    const char *message;
} fortune_t;

static int by_message(const void *a, const void *b)
{
    return strcmp(((const fortune_t *)a)->message, ((const fortune_t *)b)->message);
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

static void put_escaped(buf_t *b, const char *s)
{
    for (; *s != '\0'; ++s) {
        switch (*s) {
        case '&': put(b, H2O_STRLIT("&amp;")); break;
        case '<': put(b, H2O_STRLIT("&lt;")); break;
        case '>': put(b, H2O_STRLIT("&gt;")); break;
        case '"': put(b, H2O_STRLIT("&quot;")); break;
        case '\'': put(b, H2O_STRLIT("&#39;")); break;
        default: put(b, s, 1);
        }
    }
}

static void render_fortunes(buf_t *b, const fortune_t *f, int n)
{
    char id[16];
    put(b, H2O_STRLIT("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>"));
    for (int i = 0; i < n; ++i) {
        put(b, H2O_STRLIT("<tr><td>"));
        put(b, id, snprintf(id, sizeof(id), "%d", f[i].id));
        put(b, H2O_STRLIT("</td><td>"));
        put_escaped(b, f[i].message);
        put(b, H2O_STRLIT("</td></tr>"));
    }
    put(b, H2O_STRLIT("</table></body></html>"));
}

static void on_fortune_rows(db_job_t *job, PGresult *res)
{
    pending_t *p = job->data;
    if (p->req != NULL) {
        if (res == NULL) {
            app_send(p->req, 500, "text/plain; charset=utf-8", H2O_STRLIT("database error\n"));
        } else {
            int n = PQntuples(res);
            fortune_t *f = malloc((n + 1) * sizeof(*f));
            for (int i = 0; i < n; ++i)
                f[i] = (fortune_t){atoi(PQgetvalue(res, i, 0)), PQgetvalue(res, i, 1)};
            f[n] = (fortune_t){0, "Additional fortune added at request time."};
            qsort(f, n + 1, sizeof(*f), by_message);
            buf_t b = {NULL, 0, 0};
            render_fortunes(&b, f, n + 1);
            app_send(p->req, 200, "text/html; charset=utf-8", b.data, b.len);
            free(b.data);
            free(f);
        }
    }
    unref(p);
}

int on_fortunes(h2o_handler_t *self, h2o_req_t *req)
{
    pending_t *p = pending_new(req, "fortune_select", on_fortune_rows);
    db_submit(app_thread(req), &p->job);
    return 0;
}

#define SESSION_COOKIE "sid="

static void on_session_row(db_job_t *job, PGresult *res)
{
    pending_t *p = job->data;
    if (p->req != NULL) {
        const char *data = res != NULL && PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : NULL;
        const char *colon = data != NULL ? strchr(data, ':') : NULL;
        if (colon == NULL) {
            app_send(p->req, 500, "text/plain; charset=utf-8", H2O_STRLIT("database error\n"));
        } else {
            char body[32], cookie[80];
            int len = snprintf(body, sizeof(body), "Count is %d", atoi(colon + 1));
            int clen = snprintf(cookie, sizeof(cookie), SESSION_COOKIE "%s; Path=/; HttpOnly", p->uid);
            h2o_add_header(&p->req->pool, &p->req->res.headers, H2O_TOKEN_SET_COOKIE, NULL,
                           h2o_strdup(&p->req->pool, cookie, clen).base, clen);
            app_send(p->req, 200, "text/plain; charset=utf-8", body, len);
        }
    }
    unref(p);
}

static int is_hex32(const char *s)
{
    for (int i = 0; i < 32; ++i)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

/* The visitor's id from the cookie when it is one of ours (32 hex digits), else a new random one. */
static void visitor_id(h2o_req_t *req, char *uid)
{
    static const char hex[] = "0123456789abcdef";
    for (ssize_t i = -1; (i = h2o_find_header(&req->headers, H2O_TOKEN_COOKIE, i)) != -1;) {
        h2o_iovec_t v = req->headers.entries[i].value;
        for (size_t k = 0; k + 4 + 32 <= v.len; ++k) {
            if ((k == 0 || v.base[k - 1] == ' ' || v.base[k - 1] == ';') && memcmp(v.base + k, SESSION_COOKIE, 4) == 0 &&
                is_hex32(v.base + k + 4) && (k + 36 == v.len || v.base[k + 36] == ';')) {
                memcpy(uid, v.base + k + 4, 32);
                uid[32] = '\0';
                return;
            }
        }
    }
    unsigned char r[16];
    RAND_bytes(r, sizeof(r));
    for (int i = 0; i < 16; ++i) {
        uid[2 * i] = hex[r[i] >> 4];
        uid[2 * i + 1] = hex[r[i] & 15];
    }
    uid[32] = '\0';
}

int on_session(h2o_handler_t *self, h2o_req_t *req)
{
    pending_t *p = pending_new(req, "session_upsert", on_session_row);
    visitor_id(req, p->uid);
    p->job.nparams = 1;
    p->job.params[0] = p->uid;
    db_submit(app_thread(req), &p->job);
    return 0;
}
