#ifndef APP_H
#define APP_H

#include <h2o.h>
#include <libpq-fe.h>
#include <stdint.h>

#define WORLD_ROWS 10000

typedef struct db_pool db_pool_t;

typedef struct {
    int32_t id;
    int32_t random_number;
} world_row_t;

/* One per thread: h2o's context must stay first, handlers get back here from req->conn->ctx. */
typedef struct {
    h2o_context_t ctx;
    h2o_accept_ctx_t accept_ctx;
    pthread_t tid;
    int db_conns;
    db_pool_t *db;
    uint64_t rng;
    world_row_t *cache;     /* this thread's copy of world, filled on first use */
    h2o_linklist_t cache_waiters;
    int cache_filling;
} app_thread_t;

static inline app_thread_t *app_thread(h2o_req_t *req) { return (app_thread_t *)req->conn->ctx; }

/* handlers.c */
void app_register_handlers(h2o_hostconf_t *host, const char *static_dir);
void app_send(h2o_req_t *req, int status, const char *content_type, const char *body, size_t len);
int app_query_int(h2o_req_t *req, const char *name, long *out);
uint32_t app_random_id(app_thread_t *t);

/* db.c: a per-thread pool of libpq connections driven by the thread's h2o event loop. */
typedef struct db_job db_job_t;
typedef void (*db_callback)(db_job_t *job, PGresult *res); /* res is NULL when the query failed */
struct db_job {
    h2o_linklist_t link;
    const char *statement;
    int nparams;
    const char *params[2];
    char param_buf[2][40];
    db_callback cb;
    void *data;
    int index;
};
int db_pool_open(app_thread_t *t, int conns);
void db_submit(app_thread_t *t, db_job_t *job);

/* database handlers (world.c) */
int on_db(h2o_handler_t *self, h2o_req_t *req);
int on_queries(h2o_handler_t *self, h2o_req_t *req);
int on_updates(h2o_handler_t *self, h2o_req_t *req);
int on_cached(h2o_handler_t *self, h2o_req_t *req);
int on_fortunes(h2o_handler_t *self, h2o_req_t *req);
int on_session(h2o_handler_t *self, h2o_req_t *req);

#endif
