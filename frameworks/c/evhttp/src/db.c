#include <stdio.h>
#include <stdlib.h>
#include "app.h"

struct db_conn {
    PGconn *pg;
    struct event *readable, *writable;
    db_job_t *head, *tail;
};

static const char *const statements[][2] = {
    {"world_select", "SELECT id, randomnumber FROM world WHERE id = $1"},
    {"world_update", "UPDATE world SET randomnumber = $2 WHERE id = $1"},
    {"fortune_all", "SELECT id, message FROM fortune"},
    /* an unknown visitor's row starts at 1; a known one is read and written under its row lock */
    {"session_bump", "INSERT INTO usersessions AS s (uid, data) VALUES ($1, '{\"count\":1}') ON CONFLICT (uid) "
                     "DO UPDATE SET data = '{\"count\":' || ((s.data::json ->> 'count')::int + 1) || '}' RETURNING data"},
};

/* nonblocking libpq: what the socket does not take now goes out when it is writable again */
static void flush(db_conn_t *c)
{
    if (PQflush(c->pg) == 1)
        event_add(c->writable, NULL);
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
    flush(arg);
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
    db_conn_t *c = arg;
    if (!PQconsumeInput(c->pg)) {
        /* the pool has no way to finish the jobs in flight without their connection */
        fprintf(stderr, "database connection: %s", PQerrorMessage(c->pg));
        exit(1);
    }
    while (c->head != NULL && !PQisBusy(c->pg)) {
        PGresult *r = PQgetResult(c->pg);
        db_job_t *job = c->head;
        if (r == NULL)
            continue; /* the end of one statement's results */
        switch (PQresultStatus(r)) {
        case PGRES_PIPELINE_SYNC:
            if (--job->syncs == 0) {
                if ((c->head = job->next) == NULL)
                    c->tail = NULL;
                job->on_done(job);
            }
            break;
        case PGRES_TUPLES_OK:
        case PGRES_COMMAND_OK:
            if (job->on_result != NULL)
                job->on_result(job, job->index, r);
            job->index++;
            break;
        case PGRES_PIPELINE_ABORTED:
            job->failed = 1;
            job->index++;
            break;
        default:
            fprintf(stderr, "database: %s", PQresultErrorMessage(r));
            job->failed = 1;
            job->index++;
        }
        PQclear(r);
    }
}

db_conn_t *db_pick(db_pool_t *pool)
{
    db_conn_t *c = &pool->conns[pool->next];
    pool->next = (pool->next + 1) % pool->n;
    return c;
}

void db_send(db_conn_t *c, const char *statement, int nparams, const char *const *params)
{
    /* fails only when the connection is gone, and the jobs queued on it with it */
    if (!PQsendQueryPrepared(c->pg, statement, nparams, params, NULL, NULL, 0)) {
        fprintf(stderr, "%s: %s", statement, PQerrorMessage(c->pg));
        exit(1);
    }
}

void db_sync(db_conn_t *c)
{
    if (!PQpipelineSync(c->pg)) {
        fprintf(stderr, "pipeline sync: %s", PQerrorMessage(c->pg));
        exit(1);
    }
}

void db_submit(db_conn_t *c, db_job_t *job)
{
    job->next = NULL;
    job->index = 0;
    if (c->tail != NULL)
        c->tail->next = job;
    else
        c->head = job;
    c->tail = job;
    flush(c);
}

static PGconn *connect_prepared(void)
{
    PGconn *pg = PQconnectdb("");
    if (PQstatus(pg) != CONNECTION_OK) {
        fprintf(stderr, "database connection: %s", PQerrorMessage(pg));
        return NULL;
    }
    for (size_t s = 0; s < sizeof(statements) / sizeof(statements[0]); ++s) {
        PGresult *r = PQprepare(pg, statements[s][0], statements[s][1], 0, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fprintf(stderr, "prepare %s: %s", statements[s][0], PQresultErrorMessage(r));
        PQclear(r);
        if (!ok)
            return NULL;
    }
    return pg;
}

/* Connects (PG* environment) and prepares synchronously, before the thread's loop serves anything. */
int db_pool_open(db_pool_t *pool, struct event_base *base, int size)
{
    pool->conns = calloc(size, sizeof(*pool->conns));
    pool->n = size;
    pool->next = 0;
    for (int i = 0; i < size; ++i) {
        db_conn_t *c = &pool->conns[i];
        if ((c->pg = connect_prepared()) == NULL || PQsetnonblocking(c->pg, 1) != 0 || !PQenterPipelineMode(c->pg))
            return -1;
        c->readable = event_new(base, PQsocket(c->pg), EV_READ | EV_PERSIST, on_readable, c);
        c->writable = event_new(base, PQsocket(c->pg), EV_WRITE, on_writable, c);
        event_add(c->readable, NULL);
    }
    return 0;
}

int db_load_world(world_row_t *table)
{
    PGconn *pg = PQconnectdb("");
    PGresult *r = PQstatus(pg) == CONNECTION_OK ? PQexec(pg, "SELECT id, randomnumber FROM world") : NULL;
    int ok = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        fprintf(stderr, "loading world: %s", PQerrorMessage(pg));
    for (int i = 0; ok && i < PQntuples(r); ++i) {
        int id = atoi(PQgetvalue(r, i, 0));
        if (id >= 1 && id <= WORLD_ROWS)
            table[id - 1] = (world_row_t){id, atoi(PQgetvalue(r, i, 1))};
    }
    PQclear(r);
    PQfinish(pg);
    return ok ? 0 : -1;
}
