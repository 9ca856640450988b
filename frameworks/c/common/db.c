#include "db.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const statements[][2] = {
    {"world_select", "SELECT id, randomnumber FROM world WHERE id = $1"},
    {"world_update", "UPDATE world SET randomnumber = $2 WHERE id = $1"},
    {"world_all", "SELECT id, randomnumber FROM world"},
    {"fortune_all", "SELECT id, message FROM fortune"},
    /* an unknown visitor's row starts at 1; a known one is read and written under its row lock */
    {"session_bump", "INSERT INTO usersessions AS s (uid, data) VALUES ($1, '{\"count\":1}') ON CONFLICT (uid) "
                     "DO UPDATE SET data = '{\"count\":' || ((s.data::json ->> 'count')::int + 1) || '}' RETURNING data"},
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    PGconn **idle;
    int nidle;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0};

static PGconn *connect_one(void)
{
    PGconn *c = PQconnectdb("");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "database connection: %s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(statements) / sizeof(statements[0]); ++i) {
        PGresult *r = PQprepare(c, statements[i][0], statements[i][1], 0, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fprintf(stderr, "prepare %s: %s", statements[i][0], PQresultErrorMessage(r));
        PQclear(r);
        if (!ok) {
            PQfinish(c);
            return NULL;
        }
    }
    if (!PQenterPipelineMode(c)) {
        fprintf(stderr, "pipeline mode: %s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    return c;
}

int db_pool_open(int size)
{
    pool.idle = calloc(size, sizeof(*pool.idle));
    for (int i = 0; i < size; ++i) {
        if ((pool.idle[i] = connect_one()) == NULL)
            return -1;
        pool.nidle++;
    }
    return 0;
}

PGconn *db_acquire(void)
{
    pthread_mutex_lock(&pool.lock);
    while (pool.nidle == 0)
        pthread_cond_wait(&pool.freed, &pool.lock);
    PGconn *c = pool.idle[--pool.nidle];
    pthread_mutex_unlock(&pool.lock);
    return c;
}

void db_release(PGconn *c)
{
    if (PQstatus(c) == CONNECTION_BAD) {
        /* a broken connection is replaced, so the pool keeps its size */
        PQfinish(c);
        c = connect_one();
        if (c == NULL)
            exit(1);
    }
    pthread_mutex_lock(&pool.lock);
    pool.idle[pool.nidle++] = c;
    pthread_cond_signal(&pool.freed);
    pthread_mutex_unlock(&pool.lock);
}

typedef void (*each_result)(void *ctx, int index, const PGresult *r);

/* Reads results up to the `syncs`-th pipeline sync, handing each statement's rows to `each` in order. */
static int drain(PGconn *c, int syncs, each_result each, void *ctx)
{
    int ok = 1, index = 0;
    while (syncs > 0) {
        PGresult *r = PQgetResult(c);
        if (r == NULL) {
            if (PQstatus(c) == CONNECTION_BAD)
                return -1;
            continue; /* the end of one statement's results */
        }
        switch (PQresultStatus(r)) {
        case PGRES_PIPELINE_SYNC:
            --syncs;
            break;
        case PGRES_TUPLES_OK:
        case PGRES_COMMAND_OK:
            if (each != NULL)
                each(ctx, index, r);
            ++index;
            break;
        case PGRES_PIPELINE_ABORTED:
            ok = 0;
            ++index;
            break;
        default:
            fprintf(stderr, "database: %s", PQresultErrorMessage(r));
            ok = 0;
            ++index;
        }
        PQclear(r);
    }
    return ok ? 0 : -1;
}

static int send_prepared(PGconn *c, const char *name, int nparams, const char *const *params)
{
    if (!PQsendQueryPrepared(c, name, nparams, params, NULL, NULL, 0)) {
        fprintf(stderr, "%s: %s", name, PQerrorMessage(c));
        return -1;
    }
    return 0;
}

static int sync_point(PGconn *c)
{
    if (!PQpipelineSync(c)) {
        fprintf(stderr, "pipeline sync: %s", PQerrorMessage(c));
        return -1;
    }
    return 0;
}

static void take_row(void *ctx, int index, const PGresult *r)
{
    world_row_t *rows = ctx;
    rows[index].random_number = PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 1)) : 0;
}

int db_world_read(PGconn *c, world_row_t *rows, int n)
{
    char ids[MAX_QUERIES][12];
    for (int i = 0; i < n; ++i) {
        const char *p = ids[i];
        snprintf(ids[i], sizeof(ids[i]), "%d", rows[i].id);
        if (send_prepared(c, "world_select", 1, &p) != 0)
            return -1;
    }
    /* reads need no transaction of their own: one sync ends them all */
    if (sync_point(c) != 0)
        return -1;
    return drain(c, 1, take_row, rows);
}

int db_world_write(PGconn *c, const world_row_t *rows, int n)
{
    char buf[MAX_QUERIES][2][12];
    for (int i = 0; i < n; ++i) {
        const char *p[2] = {buf[i][0], buf[i][1]};
        snprintf(buf[i][0], sizeof(buf[i][0]), "%d", rows[i].id);
        snprintf(buf[i][1], sizeof(buf[i][1]), "%d", rows[i].random_number);
        if (send_prepared(c, "world_update", 2, p) != 0 || sync_point(c) != 0)
            return -1;
    }
    return drain(c, n, NULL, NULL);
}

static void take_table(void *ctx, int index, const PGresult *r)
{
    world_row_t *table = ctx;
    for (int i = 0; i < PQntuples(r); ++i) {
        int id = atoi(PQgetvalue(r, i, 0));
        if (id >= 1 && id <= WORLD_ROWS)
            table[id - 1] = (world_row_t){id, atoi(PQgetvalue(r, i, 1))};
    }
}

int db_world_all(PGconn *c, world_row_t *table)
{
    if (send_prepared(c, "world_all", 0, NULL) != 0 || sync_point(c) != 0)
        return -1;
    return drain(c, 1, take_table, table);
}

typedef struct {
    fortune_row_t *rows;
    int n;
} fortunes_ctx;

static void take_fortunes(void *ctx, int index, const PGresult *r)
{
    fortunes_ctx *f = ctx;
    f->n = PQntuples(r);
    f->rows = malloc((f->n + 1) * sizeof(*f->rows)); /* room for the one added at request time */
    for (int i = 0; i < f->n; ++i)
        f->rows[i] = (fortune_row_t){atoi(PQgetvalue(r, i, 0)), strdup(PQgetvalue(r, i, 1))};
}

int db_fortunes(PGconn *c, fortune_row_t **rows)
{
    fortunes_ctx f = {NULL, -1};
    if (send_prepared(c, "fortune_all", 0, NULL) != 0 || sync_point(c) != 0 || drain(c, 1, take_fortunes, &f) != 0 ||
        f.rows == NULL) {
        if (f.rows != NULL)
            db_fortunes_free(f.rows, f.n);
        return -1;
    }
    *rows = f.rows;
    return f.n;
}

void db_fortunes_free(fortune_row_t *rows, int n)
{
    for (int i = 0; i < n; ++i)
        free(rows[i].message);
    free(rows);
}

static void take_data(void *ctx, int index, const PGresult *r)
{
    if (PQntuples(r) == 1)
        *(char **)ctx = strdup(PQgetvalue(r, 0, 0));
}

char *db_session_bump(PGconn *c, const char *uid)
{
    char *data = NULL;
    if (send_prepared(c, "session_bump", 1, &uid) != 0 || sync_point(c) != 0 || drain(c, 1, take_data, &data) != 0) {
        free(data);
        return NULL;
    }
    return data;
}

int db_count_param(const char *value)
{
    char *end;
    long n;
    if (value == NULL || *value == '\0')
        return 1;
    n = strtol(value, &end, 10);
    if (*end != '\0' || n < 1)
        return 1;
    return n > MAX_QUERIES ? MAX_QUERIES : (int)n;
}

int db_world_rows(PGconn *c, world_row_t *rows, int n, int update, int (*draw)(void))
{
    for (int i = 0; i < n; i++)
        rows[i].id = draw();
    if (db_world_read(c, rows, n) != 0)
        return -1;
    if (!update)
        return 0;
    for (int i = 0; i < n; i++)
        rows[i].random_number = draw();
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (rows[j].id == rows[i].id)
                rows[i].random_number = rows[j].random_number;
    return db_world_write(c, rows, n);
}
