#ifndef WEBSHOOTOUT_EVHTTP_APP_H
#define WEBSHOOTOUT_EVHTTP_APP_H

#include <event2/event.h>
#include <event2/http.h>
#include <libpq-fe.h>
#include <stdint.h>

#define WORLD_ROWS 10000
#define MAX_QUERIES 500

typedef struct {
    int id;
    int random_number;
} world_row_t;

/* db.c: libpq's asynchronous API in pipeline mode on the thread's event base. A job is one request's batch
 * of statements on one connection; jobs queue behind each other in the connection's pipeline and their
 * results come back in order. */
typedef struct db_conn db_conn_t;
typedef struct db_job db_job_t;
struct db_job {
    db_job_t *next;
    int syncs;   /* pipeline syncs still to come back */
    int index;   /* the next statement's result */
    int failed;
    void (*on_result)(db_job_t *job, int index, const PGresult *r);
    void (*on_done)(db_job_t *job); /* job->failed says whether every statement succeeded */
    void *data;
};

typedef struct {
    db_conn_t *conns;
    int n, next;
} db_pool_t;

int db_pool_open(db_pool_t *pool, struct event_base *base, int size);
/* The connection to give the next job (round robin over the thread's connections). */
db_conn_t *db_pick(db_pool_t *pool);
/* Queue statements, then the syncs that close them, then db_submit the job that reads their results. */
void db_send(db_conn_t *c, const char *statement, int nparams, const char *const *params);
void db_sync(db_conn_t *c);
void db_submit(db_conn_t *c, db_job_t *job);
/* One blocking connection's read of the whole table, before the threads serve. */
int db_load_world(world_row_t *table);

/* One serving thread. */
typedef struct {
    struct event_base *base;
    struct evhttp *http;
    db_pool_t db;
    uint64_t rng;
} app_thread_t;

extern const world_row_t *world_cache;

uint32_t app_random_id(app_thread_t *t);
void app_reply(struct evhttp_request *req, int status, const char *type, const char *body, size_t len);
int app_count_param(struct evhttp_request *req, const char *name);
void app_register_db(struct evhttp *http, app_thread_t *t);

#endif
