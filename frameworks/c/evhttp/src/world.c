/* The database workloads, each a job of pipelined statements on one of the thread's connections. evhttp
 * keeps a request alive until it is answered even when its client has gone (evhttp_send_reply then frees
 * it), so the job can always answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <event2/buffer.h>
#include <json-c/json.h>
#include "app.h"

enum { SINGLE, QUERIES, UPDATES };

typedef struct {
    db_job_t job;
    struct evhttp_request *req;
    app_thread_t *t;
    int n, mode, writing;
    world_row_t rows[];
} world_req_t;

static void reply_json(struct evhttp_request *req, json_object *value)
{
    size_t len;
    const char *text = json_object_to_json_string_length(value, JSON_C_TO_STRING_PLAIN, &len);
    app_reply(req, 200, "application/json", text, len);
    json_object_put(value);
}

static void reply_db_error(struct evhttp_request *req)
{
    app_reply(req, 500, "text/plain; charset=utf-8", "database error\n", 15);
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

static void on_world_row(db_job_t *job, int index, const PGresult *r)
{
    world_req_t *w = job->data;
    if (!w->writing && index < w->n && PQntuples(r) == 1)
        w->rows[index].random_number = atoi(PQgetvalue(r, 0, 1));
}

static void on_world_done(db_job_t *job)
{
    world_req_t *w = job->data;
    if (!job->failed && w->mode == UPDATES && !w->writing) {
        /* every row read: now one autocommitted UPDATE per row (a sync after each) */
        char buf[2][12];
        db_conn_t *c = db_pick(&w->t->db);
        for (int i = 0; i < w->n; ++i)
            w->rows[i].random_number = app_random_id(w->t);
        /* an id drawn twice is written twice, the last number standing: the answer says the same */
        for (int i = 0; i < w->n; ++i)
            for (int j = i + 1; j < w->n; ++j)
                if (w->rows[j].id == w->rows[i].id)
                    w->rows[i].random_number = w->rows[j].random_number;
        for (int i = 0; i < w->n; ++i) {
            const char *p[2] = {buf[0], buf[1]};
            snprintf(buf[0], sizeof(buf[0]), "%d", w->rows[i].id);
            snprintf(buf[1], sizeof(buf[1]), "%d", w->rows[i].random_number);
            db_send(c, "world_update", 2, p);
            db_sync(c);
        }
        w->writing = 1;
        w->job.syncs = w->n;
        db_submit(c, &w->job);
        return;
    }
    if (job->failed)
        reply_db_error(w->req);
    else
        reply_json(w->req, w->mode == SINGLE ? row_json(&w->rows[0]) : rows_json(w->rows, w->n));
    free(w);
}

static void start_world(struct evhttp_request *req, void *arg, int n, int mode)
{
    app_thread_t *t = arg;
    world_req_t *w = calloc(1, sizeof(*w) + n * sizeof(world_row_t));
    db_conn_t *c = db_pick(&t->db);
    char id[12];
    const char *p = id;
    w->req = req;
    w->t = t;
    w->n = n;
    w->mode = mode;
    for (int i = 0; i < n; ++i) {
        w->rows[i].id = app_random_id(t);
        snprintf(id, sizeof(id), "%d", w->rows[i].id);
        db_send(c, "world_select", 1, &p);
    }
    /* reads need no transaction of their own: one sync closes them all */
    db_sync(c);
    w->job = (db_job_t){.syncs = 1, .on_result = on_world_row, .on_done = on_world_done, .data = w};
    db_submit(c, &w->job);
}

static void on_db(struct evhttp_request *req, void *arg) { start_world(req, arg, 1, SINGLE); }
static void on_queries(struct evhttp_request *req, void *arg) { start_world(req, arg, app_count_param(req, "queries"), QUERIES); }
static void on_updates(struct evhttp_request *req, void *arg) { start_world(req, arg, app_count_param(req, "queries"), UPDATES); }

/* cached: the table read once at start (db_load_world), only read afterwards */
static void on_cached(struct evhttp_request *req, void *arg)
{
    app_thread_t *t = arg;
    world_row_t rows[MAX_QUERIES];
    int n = app_count_param(req, "count");
    for (int i = 0; i < n; ++i)
        rows[i] = world_cache[app_random_id(t) - 1];
    reply_json(req, rows_json(rows, n));
}

typedef struct {
    int id;
    char *message;
} fortune_t;

typedef struct {
    db_job_t job;
    struct evhttp_request *req;
    fortune_t *rows;
    int n;
    char uid[33];
    char *data;
} single_req_t;

static void on_fortune_rows(db_job_t *job, int index, const PGresult *r)
{
    single_req_t *s = job->data;
    s->n = PQntuples(r);
    s->rows = malloc((s->n + 1) * sizeof(*s->rows)); /* room for the one added at request time */
    for (int i = 0; i < s->n; ++i)
        s->rows[i] = (fortune_t){atoi(PQgetvalue(r, i, 0)), strdup(PQgetvalue(r, i, 1))};
}

static int by_message(const void *a, const void *b)
{
    return strcmp(((const fortune_t *)a)->message, ((const fortune_t *)b)->message);
}

static void add_escaped(struct evbuffer *out, const char *s)
{
    for (const char *run = s;; ++s) {
        const char *entity;
        switch (*s) {
        case '&': entity = "&amp;"; break;
        case '<': entity = "&lt;"; break;
        case '>': entity = "&gt;"; break;
        case '"': entity = "&quot;"; break;
        case '\'': entity = "&#39;"; break;
        case '\0': evbuffer_add(out, run, s - run); return;
        default: continue;
        }
        evbuffer_add(out, run, s - run);
        evbuffer_add(out, entity, strlen(entity));
        run = s + 1;
    }
}

/* evhttp has no template engine: the page is written into the reply's evbuffer, every message escaped */
static void on_fortunes_done(db_job_t *job)
{
    single_req_t *s = job->data;
    if (job->failed || s->rows == NULL) {
        reply_db_error(s->req);
    } else {
        s->rows[s->n++] = (fortune_t){0, strdup("Additional fortune added at request time.")};
        qsort(s->rows, s->n, sizeof(*s->rows), by_message);
        struct evbuffer *out = evbuffer_new();
        evbuffer_add_printf(out, "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>"
                                 "<tr><th>id</th><th>message</th></tr>");
        for (int i = 0; i < s->n; ++i) {
            evbuffer_add_printf(out, "<tr><td>%d</td><td>", s->rows[i].id);
            add_escaped(out, s->rows[i].message);
            evbuffer_add(out, "</td></tr>", 10);
        }
        evbuffer_add_printf(out, "</table></body></html>");
        evhttp_add_header(evhttp_request_get_output_headers(s->req), "Content-Type", "text/html; charset=utf-8");
        evhttp_add_header(evhttp_request_get_output_headers(s->req), "Server", "evhttp");
        evhttp_send_reply(s->req, 200, "OK", out);
        evbuffer_free(out);
    }
    for (int i = 0; i < s->n; ++i)
        free(s->rows[i].message);
    free(s->rows);
    free(s);
}

static void on_fortunes(struct evhttp_request *req, void *arg)
{
    app_thread_t *t = arg;
    single_req_t *s = calloc(1, sizeof(*s));
    db_conn_t *c = db_pick(&t->db);
    s->req = req;
    s->job = (db_job_t){.syncs = 1, .on_result = on_fortune_rows, .on_done = on_fortunes_done, .data = s};
    db_send(c, "fortune_all", 0, NULL);
    db_sync(c);
    db_submit(c, &s->job);
}

static void on_session_row(db_job_t *job, int index, const PGresult *r)
{
    single_req_t *s = job->data;
    if (PQntuples(r) == 1)
        s->data = strdup(PQgetvalue(r, 0, 0));
}

static void on_session_done(db_job_t *job)
{
    single_req_t *s = job->data;
    json_object *parsed = !job->failed && s->data != NULL ? json_tokener_parse(s->data) : NULL, *count;
    if (parsed == NULL || !json_object_object_get_ex(parsed, "count", &count)) {
        reply_db_error(s->req);
    } else {
        char body[32], cookie[80];
        int len = snprintf(body, sizeof(body), "Count is %d", json_object_get_int(count));
        snprintf(cookie, sizeof(cookie), "sid=%s; Path=/; HttpOnly", s->uid);
        evhttp_add_header(evhttp_request_get_output_headers(s->req), "Set-Cookie", cookie);
        app_reply(s->req, 200, "text/plain; charset=utf-8", body, len);
    }
    json_object_put(parsed);
    free(s->data);
    free(s);
}

static int is_uid(const char *s, size_t len)
{
    if (len != 32)
        return 0;
    for (size_t i = 0; i < len; ++i)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

/* The visitor's id from its sid cookie when it is one of ours (32 hex digits), else a new random one. */
static void visitor_id(struct evhttp_request *req, char *uid)
{
    static const char hex[] = "0123456789abcdef";
    const char *cookie = evhttp_find_header(evhttp_request_get_input_headers(req), "Cookie");
    for (const char *p = cookie; p != NULL && (p = strstr(p, "sid=")) != NULL; p += 4) {
        if (p != cookie && p[-1] != ' ' && p[-1] != ';')
            continue;
        if (is_uid(p + 4, strcspn(p + 4, "; "))) {
            memcpy(uid, p + 4, 32);
            uid[32] = '\0';
            return;
        }
    }
    unsigned char r[16];
    while (getrandom(r, sizeof(r), 0) != sizeof(r))
        ;
    for (int i = 0; i < 16; ++i) {
        uid[2 * i] = hex[r[i] >> 4];
        uid[2 * i + 1] = hex[r[i] & 15];
    }
    uid[32] = '\0';
}

static void on_session(struct evhttp_request *req, void *arg)
{
    app_thread_t *t = arg;
    single_req_t *s = calloc(1, sizeof(*s));
    db_conn_t *c = db_pick(&t->db);
    const char *p = s->uid;
    s->req = req;
    visitor_id(req, s->uid);
    s->job = (db_job_t){.syncs = 1, .on_result = on_session_row, .on_done = on_session_done, .data = s};
    db_send(c, "session_bump", 1, &p);
    db_sync(c);
    db_submit(c, &s->job);
}

void app_register_db(struct evhttp *http, app_thread_t *t)
{
    evhttp_set_cb(http, "/db", on_db, t);
    evhttp_set_cb(http, "/queries", on_queries, t);
    evhttp_set_cb(http, "/updates", on_updates, t);
    evhttp_set_cb(http, "/cached-queries", on_cached, t);
    evhttp_set_cb(http, "/fortunes", on_fortunes, t);
    evhttp_set_cb(http, "/session", on_session, t);
}
