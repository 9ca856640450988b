package common

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// StoredItem is a row of the crud workload's table `items` (json-comp's Item is another thing), answered by
// each stack's own JSON.
type StoredItem struct {
	ID       int32  `json:"id"`
	Name     string `json:"name"`
	Quantity int32  `json:"quantity"`
}

// ErrNoItem says that no row has the id asked for; each stack answers it 404.
var ErrNoItem = errors.New("no item has this id")

// The page parameters' defaults and bounds (docs/workloads.md, crud); each stack checks them in its
// framework's way.
const (
	DefaultPage     = 1
	DefaultPageSize = 10
	MaxPageSize     = 100
)

const itemColumns = "id, name, quantity"

// itemID reads the {id} of /items/{id} as the path sent it: the column is a 32-bit integer, so anything
// else names no row.
func itemID(raw string) (int32, error) {
	id, err := strconv.ParseInt(raw, 10, 32)
	if err != nil {
		return 0, ErrNoItem
	}
	return int32(id), nil
}

// scanItem maps pgx's "no row" to ErrNoItem, so that callers tell a 404 from a 500 without pgx.
func scanItem(row pgx.Row) (StoredItem, error) {
	var item StoredItem
	err := row.Scan(&item.ID, &item.Name, &item.Quantity)
	if errors.Is(err, pgx.ErrNoRows) {
		return item, ErrNoItem
	}
	return item, err
}

// GetItem reads the row of the path's raw {id}.
func GetItem(ctx context.Context, pool *pgxpool.Pool, rawID string) (StoredItem, error) {
	id, err := itemID(rawID)
	if err != nil {
		return StoredItem{}, err
	}
	return scanItem(pool.QueryRow(ctx, "SELECT "+itemColumns+" FROM items WHERE id = $1", id))
}

// ItemPage reads the page'th run of size rows in id order (page from 1, size within 1..MaxPageSize, as
// the caller has checked); past the end it is empty, never nil, so that it serializes as [].
func ItemPage(ctx context.Context, pool *pgxpool.Pool, page int64, size int) ([]StoredItem, error) {
	// A page so far out that its offset would overflow is past the end all the same: the largest offset
	// PostgreSQL takes says so without wrapping around to a negative one.
	offset := int64(math.MaxInt64)
	if page-1 <= math.MaxInt64/int64(size) {
		offset = (page - 1) * int64(size)
	}
	rows, err := pool.Query(ctx, "SELECT "+itemColumns+" FROM items ORDER BY id LIMIT $1 OFFSET $2", size, offset)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows(make([]StoredItem, 0, size), rows, pgx.RowToStructByPos[StoredItem])
}

// CreateItem inserts a row and answers it as stored, its id drawn by the table's identity column.
func CreateItem(ctx context.Context, pool *pgxpool.Pool, name string, quantity int32) (StoredItem, error) {
	return scanItem(pool.QueryRow(ctx,
		"INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING "+itemColumns, name, quantity))
}

// UpdateItem replaces the name and quantity of the path's raw {id} and answers the row as stored now.
func UpdateItem(ctx context.Context, pool *pgxpool.Pool, rawID, name string, quantity int32) (StoredItem, error) {
	id, err := itemID(rawID)
	if err != nil {
		return StoredItem{}, err
	}
	return scanItem(pool.QueryRow(ctx,
		"UPDATE items SET name = $1, quantity = $2 WHERE id = $3 RETURNING "+itemColumns, name, quantity, id))
}

// DeleteItem removes the row of the path's raw {id}.
func DeleteItem(ctx context.Context, pool *pgxpool.Pool, rawID string) error {
	id, err := itemID(rawID)
	if err != nil {
		return err
	}
	tag, err := pool.Exec(ctx, "DELETE FROM items WHERE id = $1", id)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNoItem
	}
	return err
}

// RefusedStatus is the answer to an item body its framework's binding or validation refused: 400 when the
// body is not JSON at all, 422 when it is JSON of the wrong shape (not an object, a member missing or of
// the wrong type). The bindings' errors do not say which with one type across their codecs (encoding/json,
// go-json, sonic), so the body itself is asked, on this error path only.
func RefusedStatus(body []byte) int {
	if json.Valid(body) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}
