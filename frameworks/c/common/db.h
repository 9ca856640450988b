/* A process-wide pool of blocking libpq connections for servers whose handlers run on their own threads
 * and may block (the library gives no event loop to drive libpq's asynchronous API). Each connection stays
 * in libpq's pipeline mode, so a request's N statements go out in one write and come back in one round trip,
 * while PostgreSQL still executes N statements. */
#ifndef WEBSHOOTOUT_DB_H
#define WEBSHOOTOUT_DB_H

#include <libpq-fe.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WORLD_ROWS 10000
#define MAX_QUERIES 500

typedef struct {
    int id;
    int random_number;
} world_row_t;

typedef struct {
    int id;
    char *message; /* owned: freed by db_fortunes_free */
} fortune_row_t;

/* Opens `size` connections from the PG* environment and prepares the statements; 0 on success. */
int db_pool_open(int size);
/* Blocks until a connection is free. */
PGconn *db_acquire(void);
void db_release(PGconn *c);

/* Each fills or writes rows[0..n-1] (ids already set) with one statement per row; 0 on success. */
int db_world_read(PGconn *c, world_row_t *rows, int n);
/* One autocommitted UPDATE per row (each followed by its own pipeline sync, so concurrent requests never
 * hold one another's row locks). */
int db_world_write(PGconn *c, const world_row_t *rows, int n);
/* A request's n rows: ids drawn by `draw`, read one statement each, and with `update` given new numbers by
 * `draw` and written back (an id drawn twice answers the number the table keeps: the last one written). */
int db_world_rows(PGconn *c, world_row_t *rows, int n, int update, int (*draw)(void));
/* The whole world table into table[id - 1]; 0 on success. */
int db_world_all(PGconn *c, world_row_t *table);
/* Every fortune row; the count, or -1. */
int db_fortunes(PGconn *c, fortune_row_t **rows);
void db_fortunes_free(fortune_row_t *rows, int n);
/* Inserts or bumps the visitor's counter row in one statement; the row's data text (malloc'd) or NULL. */
char *db_session_bump(PGconn *c, const char *uid);

/* TechEmpower's count parameter: missing, empty, not an integer or below 1 is 1; above 500 is 500. */
int db_count_param(const char *value);

#ifdef __cplusplus
}
#endif
#endif
