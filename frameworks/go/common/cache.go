package common

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// WorldCache is the cached workload's in-process copy of world, filled once at start: after that it
// answers without a query. Read-only once built, so requests share it without a lock.
type WorldCache struct {
	byID map[int32]World
}

// NewWorldCache holds the given rows.
func NewWorldCache(rows []World) *WorldCache {
	byID := make(map[int32]World, len(rows))
	for _, row := range rows {
		byID[row.ID] = row
	}
	return &WorldCache{byID: byID}
}

// LoadWorldCache reads every row of world.
func LoadWorldCache(ctx context.Context, pool *pgxpool.Pool) (*WorldCache, error) {
	result, err := pool.Query(ctx, "SELECT id, randomnumber FROM world")
	if err != nil {
		return nil, fmt.Errorf("filling the world cache: %w", err)
	}
	rows, err := pgx.CollectRows(result, pgx.RowToStructByPos[World])
	if err != nil {
		return nil, fmt.Errorf("filling the world cache: %w", err)
	}
	return NewWorldCache(rows), nil
}

// Random answers n rows of ids drawn uniformly from 1..10000.
func (c *WorldCache) Random(n int) []World {
	rows := make([]World, n)
	for i := range rows {
		rows[i] = c.byID[RandomID()]
	}
	return rows
}
