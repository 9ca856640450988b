/* The database workloads. A request's state outlives h2o's request when the client goes away while its
 * queries are in flight: the state is reference-counted, and a marker in the request's pool clears req. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl_gen.h>
#include "app.h"

#define MAX_QUERIES 500

enum { SINGLE, QUERIES, UPDATES_READ, UPDATES_WRITE };

typedef struct {
    h2o_req_t *req;
    app_thread_t *t;
    int refs, n, pending, failed, mode;
    h2o_linklist_t cache_link;
    world_row_t *rows;
    db_job_t *jobs;
} world_req_t;

static void unref(world_req_t *w)
{
    if (--w->refs == 0)
        free(w);
}

static void on_req_gone(void *p)
{
    world_req_t *w = *(world_req_t **)p;
    w->req = NULL;
    unref(w);
}

static world_req_t *world_req_new(h2o_req_t *req, int n)
{
    /* one allocation sized for this request's rows */
    world_req_t *w = malloc(sizeof(*w) + n * (sizeof(world_row_t) + sizeof(db_job_t)));
    w->jobs = (db_job_t *)(w + 1);
    w->rows = (world_row_t *)(w->jobs + n);
    w->req = req;
    w->t = app_thread(req);
    w->refs = 1;
    w->n = n;
    w->pending = w->failed = 0;
    w->cache_link = (h2o_linklist_t){NULL, NULL};
    *(world_req_t **)h2o_mem_alloc_shared(&req->pool, sizeof(w), on_req_gone) = w;
    return w;
}

/* TechEmpower's rule: missing, empty, not an integer or below 1 means 1; above 500 means 500. */
static int count_param(h2o_req_t *req, const char *name)
{
    long n;
    if (!app_query_int(req, name, &n) || n < 1)
        return 1;
    return n > MAX_QUERIES ? MAX_QUERIES : (int)n;
}

static void gen_row(yajl_gen g, const world_row_t *r)
{
    yajl_gen_map_open(g);
    yajl_gen_string(g, (const unsigned char *)"id", 2);
    yajl_gen_integer(g, r->id);
    yajl_gen_string(g, (const unsigned char *)"randomNumber", 12);
    yajl_gen_integer(g, r->random_number);
    yajl_gen_map_close(g);
}

static void send_rows(h2o_req_t *req, const world_row_t *rows, int n, int as_array)
{
    yajl_gen g = yajl_gen_alloc(NULL);
    const unsigned char *buf;
    size_t len;
    if (as_array)
        yajl_gen_array_open(g);
    for (int i = 0; i < n; ++i)
        gen_row(g, &rows[i]);
    if (as_array)
        yajl_gen_array_close(g);
    yajl_gen_get_buf(g, &buf, &len);
    app_send(req, 200, "application/json", (const char *)buf, len);
    yajl_gen_free(g);
}

static void send_error(h2o_req_t *req)
{
    app_send(req, 500, "text/plain; charset=utf-8", H2O_STRLIT("database error\n"));
}

static void on_world_row(db_job_t *job, PGresult *res);

static void submit(world_req_t *w, int i, const char *statement, int nparams)
{
    db_job_t *job = &w->jobs[i];
    job->statement = statement;
    job->nparams = nparams;
    job->index = i;
    job->data = w;
    job->link = (h2o_linklist_t){NULL, NULL};
    job->cb = on_world_row;
    snprintf(job->param_buf[0], sizeof(job->param_buf[0]), "%d", (int)w->rows[i].id);
    job->params[0] = job->param_buf[0];
    if (nparams > 1) {
        snprintf(job->param_buf[1], sizeof(job->param_buf[1]), "%d", (int)w->rows[i].random_number);
        job->params[1] = job->param_buf[1];
    }
    ++w->refs;
    ++w->pending;
    db_submit(w->t, job);
}

static void step_done(world_req_t *w);

/* Issues one statement per row; the extra pending count keeps a failure reported at submit from finishing early. */
static void submit_all(world_req_t *w, const char *statement, int nparams)
{
    ++w->pending;
    for (int i = 0; i < w->n; ++i)
        submit(w, i, statement, nparams);
    if (--w->pending == 0)
        step_done(w);
}

static void start_updates(world_req_t *w)
{
    for (int i = 0; i < w->n; ++i)
        w->rows[i].random_number = app_random_id(w->t);
    /* a repeated id gets one number, so the table ends up holding what the answer says */
    for (int i = 0; i < w->n; ++i)
        for (int j = i + 1; j < w->n; ++j)
            if (w->rows[j].id == w->rows[i].id)
                w->rows[i].random_number = w->rows[j].random_number;
    w->mode = UPDATES_WRITE;
    submit_all(w, "world_update", 2);
}

static void step_done(world_req_t *w)
{
    if (w->req == NULL)
        return;
    if (w->failed)
        send_error(w->req);
    else if (w->mode == UPDATES_READ)
        start_updates(w);
    else
        send_rows(w->req, w->rows, w->n, w->mode != SINGLE);
}

static void on_world_row(db_job_t *job, PGresult *res)
{
    world_req_t *w = job->data;
    if (res == NULL)
        w->failed = 1;
    else if (w->mode != UPDATES_WRITE) {
        if (PQntuples(res) == 1)
            w->rows[job->index].random_number = atoi(PQgetvalue(res, 0, 1));
        else
            w->failed = 1;
    }
    if (--w->pending == 0)
        step_done(w);
    unref(w);
}

static int start_world(h2o_req_t *req, int n, int mode)
{
    world_req_t *w = world_req_new(req, n);
    w->mode = mode;
    for (int i = 0; i < n; ++i)
        w->rows[i].id = app_random_id(w->t);
    submit_all(w, "world_select", 1);
    return 0;
}

int on_db(h2o_handler_t *self, h2o_req_t *req) { return start_world(req, 1, SINGLE); }
int on_queries(h2o_handler_t *self, h2o_req_t *req) { return start_world(req, count_param(req, "queries"), QUERIES); }
int on_updates(h2o_handler_t *self, h2o_req_t *req) { return start_world(req, count_param(req, "queries"), UPDATES_READ); }

/* cached: each thread keeps its own copy of world (no lock on the loop), read once on first use */
static void send_cached(world_req_t *w)
{
    for (int i = 0; i < w->n; ++i)
        w->rows[i] = w->t->cache[app_random_id(w->t) - 1];
    send_rows(w->req, w->rows, w->n, 1);
}

static void on_cache_filled(db_job_t *job, PGresult *res)
{
    app_thread_t *t = job->data;
    t->cache_filling = 0;
    if (res != NULL && PQntuples(res) >= WORLD_ROWS) {
        world_row_t *cache = calloc(WORLD_ROWS, sizeof(*cache));
        for (int i = 0; i < PQntuples(res); ++i) {
            int id = atoi(PQgetvalue(res, i, 0));
            if (id >= 1 && id <= WORLD_ROWS)
                cache[id - 1] = (world_row_t){id, atoi(PQgetvalue(res, i, 1))};
        }
        t->cache = cache;
    }
    while (!h2o_linklist_is_empty(&t->cache_waiters)) {
        world_req_t *w = H2O_STRUCT_FROM_MEMBER(world_req_t, cache_link, t->cache_waiters.next);
        h2o_linklist_unlink(&w->cache_link);
        if (w->req != NULL) {
            if (t->cache != NULL)
                send_cached(w);
            else
                send_error(w->req);
        }
        unref(w);
    }
    free(job);
}

int on_cached(h2o_handler_t *self, h2o_req_t *req)
{
    world_req_t *w = world_req_new(req, count_param(req, "count"));
    app_thread_t *t = w->t;
    if (t->cache != NULL) {
        send_cached(w);
        return 0;
    }
    ++w->refs;
    h2o_linklist_insert(&t->cache_waiters, &w->cache_link);
    if (!t->cache_filling) {
        db_job_t *job = calloc(1, sizeof(*job));
        job->statement = "world_all";
        job->cb = on_cache_filled;
        job->data = t;
        t->cache_filling = 1;
        db_submit(t, job);
    }
    return 0;
}
