package common

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const (
	worldRows = 10000
	maxCount  = 500
)

const selectWorld = "SELECT id, randomnumber FROM world WHERE id = $1"

// Count reads TechEmpower's count parameter (queries=, count=): missing, empty, not an integer or below
// 1 means 1, above 500 means 500.
func Count(raw string) int {
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxCount)
}

// RandomID draws a world id uniformly from 1..10000.
func RandomID() int32 {
	return rand.Int32N(worldRows) + 1
}

// RandomWorld reads one row of a uniformly drawn id.
func RandomWorld(ctx context.Context, pool *pgxpool.Pool) (World, error) {
	var row World
	err := pool.QueryRow(ctx, selectWorld, RandomID()).Scan(&row.ID, &row.RandomNumber)
	return row, err
}

// RandomWorlds reads n rows of drawn ids, one SELECT each, pipelined on one connection in one round trip
// (pgx's batch): n queries, as the queries workload requires, without n round trips.
func RandomWorlds(ctx context.Context, pool *pgxpool.Pool, n int) ([]World, error) {
	batch := &pgx.Batch{}
	for range n {
		batch.Queue(selectWorld, RandomID())
	}
	results := pool.SendBatch(ctx, batch)
	defer results.Close()
	rows := make([]World, n)
	for i := range rows {
		if err := results.QueryRow().Scan(&rows[i].ID, &rows[i].RandomNumber); err != nil {
			return nil, err
		}
	}
	return rows, results.Close()
}

// UpdateWorlds reads n random rows like RandomWorlds, gives each a new random number and writes them
// back, one UPDATE per row, all pipelined in one batch (one implicit transaction); the answer is the rows
// with their new numbers.
func UpdateWorlds(ctx context.Context, pool *pgxpool.Pool, n int) ([]World, error) {
	rows, err := RandomWorlds(ctx, pool, n)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].RandomNumber = RandomID()
	}
	batch := &pgx.Batch{}
	for _, row := range lockOrder(rows) {
		batch.Queue("UPDATE world SET randomnumber = $1 WHERE id = $2", row.RandomNumber, row.ID)
	}
	if err := pool.SendBatch(ctx, batch).Close(); err != nil {
		return nil, err
	}
	return rows, nil
}

// lockOrder is the order the updates are sent in: by id, so that two requests' transactions lock shared
// rows in the same order and cannot deadlock. The answer keeps the order the rows were drawn in.
func lockOrder(rows []World) []World {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b World) int { return int(a.ID) - int(b.ID) })
	return sorted
}
