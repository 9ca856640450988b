/* libpq's asynchronous API on the thread's h2o event loop: each connection runs one prepared statement at a
 * time, taking jobs from the thread's queue in order; its socket wakes the loop when results arrive. */
#include <stdio.h>
#include <stdlib.h>
#include "app.h"

typedef struct {
    db_pool_t *pool;
    PGconn *pg;
    h2o_socket_t *sock;
    db_job_t *current;
    PGresult *result;
    int awaiting_write;
} db_conn_t;

struct db_pool {
    h2o_linklist_t queue;
    db_conn_t *conns;
    int n;
};

static const char *statements[][2] = {
    {"world_select", "SELECT id, randomnumber FROM world WHERE id = $1"},
    {"world_update", "UPDATE world SET randomnumber = $2 WHERE id = $1"},
    {"world_all", "SELECT id, randomnumber FROM world"},
    {"fortune_select", "SELECT id, message FROM fortune"},
    /* reads and writes the visitor's row in one statement; an unknown visitor starts at 1 */
    {"session_upsert", "INSERT INTO usersessions (uid, data) VALUES ($1, '{\"count\":1}') ON CONFLICT (uid) DO UPDATE SET "
                       "data = '{\"count\":' || ((usersessions.data::json->>'count')::int + 1) || '}' RETURNING data"},
};

static void flush(db_conn_t *c);

static void on_writable(h2o_socket_t *sock, const char *err)
{
    db_conn_t *c = sock->data;
    c->awaiting_write = 0;
    if (err == NULL)
        flush(c);
}

/* nonblocking libpq: a short statement goes out at once, the rest when the socket takes more */
static void flush(db_conn_t *c)
{
    if (PQflush(c->pg) == 1 && !c->awaiting_write) {
        c->awaiting_write = 1;
        h2o_socket_notify_write(c->sock, on_writable);
    }
}

static void start(db_conn_t *c, db_job_t *job)
{
    c->current = job;
    c->result = NULL;
    if (!PQsendQueryPrepared(c->pg, job->statement, job->nparams, job->params, NULL, NULL, 0)) {
        fprintf(stderr, "PQsendQueryPrepared: %s", PQerrorMessage(c->pg));
        c->current = NULL;
        job->cb(job, NULL);
        return;
    }
    flush(c);
}

static void on_readable(h2o_socket_t *sock, const char *err)
{
    db_conn_t *c = sock->data;
    if (err != NULL || !PQconsumeInput(c->pg)) {
        fprintf(stderr, "database connection: %s", PQerrorMessage(c->pg));
        exit(1);
    }
    flush(c);
    while (c->current != NULL && !PQisBusy(c->pg)) {
        PGresult *res = PQgetResult(c->pg);
        if (res != NULL) {
            if (c->result == NULL)
                c->result = res;
            else
                PQclear(res);
            continue;
        }
        db_job_t *job = c->current;
        PGresult *done = c->result;
        ExecStatusType st = done != NULL ? PQresultStatus(done) : PGRES_FATAL_ERROR;
        c->current = NULL;
        c->result = NULL;
        if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
            fprintf(stderr, "%s: %s", job->statement, done != NULL ? PQresultErrorMessage(done) : "no result\n");
            job->cb(job, NULL);
        } else {
            job->cb(job, done);
        }
        PQclear(done);
        /* the callback may have handed this connection a job already */
        if (c->current == NULL && !h2o_linklist_is_empty(&c->pool->queue)) {
            db_job_t *next = H2O_STRUCT_FROM_MEMBER(db_job_t, link, c->pool->queue.next);
            h2o_linklist_unlink(&next->link);
            start(c, next);
        }
    }
}

static void dispatch(db_pool_t *pool)
{
    for (int i = 0; i < pool->n && !h2o_linklist_is_empty(&pool->queue); ++i) {
        if (pool->conns[i].current == NULL) {
            db_job_t *job = H2O_STRUCT_FROM_MEMBER(db_job_t, link, pool->queue.next);
            h2o_linklist_unlink(&job->link);
            start(&pool->conns[i], job);
        }
    }
}

void db_submit(app_thread_t *t, db_job_t *job)
{
    h2o_linklist_insert(&t->db->queue, &job->link);
    dispatch(t->db);
}

/* Connects (from the PG* environment) and prepares the statements before the loop starts serving. */
int db_pool_open(app_thread_t *t, int conns)
{
    db_pool_t *pool = calloc(1, sizeof(*pool));
    h2o_linklist_init_anchor(&pool->queue);
    pool->conns = calloc(conns, sizeof(*pool->conns));
    pool->n = conns;
    for (int i = 0; i < conns; ++i) {
        db_conn_t *c = &pool->conns[i];
        c->pool = pool;
        c->pg = PQconnectdb("");
        if (PQstatus(c->pg) != CONNECTION_OK) {
            fprintf(stderr, "database connection: %s", PQerrorMessage(c->pg));
            return -1;
        }
        for (size_t s = 0; s < sizeof(statements) / sizeof(statements[0]); ++s) {
            PGresult *res = PQprepare(c->pg, statements[s][0], statements[s][1], 0, NULL);
            if (PQresultStatus(res) != PGRES_COMMAND_OK) {
                fprintf(stderr, "prepare %s: %s", statements[s][0], PQresultErrorMessage(res));
                PQclear(res);
                return -1;
            }
            PQclear(res);
        }
        PQsetnonblocking(c->pg, 1);
        /* DONT_READ: the loop only reports readiness, libpq does the reading */
        c->sock = h2o_evloop_socket_create(t->ctx.loop, PQsocket(c->pg), H2O_SOCKET_FLAG_DONT_READ);
        c->sock->data = c;
        h2o_socket_read_start(c->sock, on_readable);
    }
    t->db = pool;
    return 0;
}
