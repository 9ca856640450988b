package common

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SessionCookie names the cookie that carries the visitor's uid.
const SessionCookie = "uid"

// World is the db workload's answer, serialized by each framework's own JSON path.
type World struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

type sessionData struct {
	Count int `json:"count"`
}

// Visit is the outcome of one session request.
type Visit struct {
	Count    int
	FreshUID string // the uid to set as cookie; "" when the visitor was known
}

// Bump increments the visitor's counter in one transaction that locks the row, or creates a visitor
// when uid is empty or unknown.
func Bump(ctx context.Context, pool *pgxpool.Pool, uid string) (Visit, error) {
	var visit Visit
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var data string
		err := pgx.ErrNoRows
		if uid != "" {
			err = tx.QueryRow(ctx, "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE", uid).Scan(&data)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			visit = Visit{Count: 1, FreshUID: crand.Text()}
			_, err = tx.Exec(ctx, "INSERT INTO usersessions (uid, data) VALUES ($1, $2)",
				visit.FreshUID, encodeSession(visit.Count))
			return err
		}
		if err != nil {
			return err
		}
		var stored sessionData
		if err := json.Unmarshal([]byte(data), &stored); err != nil {
			return err
		}
		visit = Visit{Count: stored.Count + 1}
		_, err = tx.Exec(ctx, "UPDATE usersessions SET data = $1 WHERE uid = $2", encodeSession(visit.Count), uid)
		return err
	})
	return visit, err
}

func encodeSession(count int) string {
	// Marshalling a struct of one int cannot fail.
	body, _ := json.Marshal(sessionData{Count: count})
	return string(body)
}
