package common

import (
	"context"
	"embed"
	"html/template"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Fortune is a row of the fortune table.
type Fortune struct {
	ID      int32
	Message string
}

// FortunesHTML is the fortunes page as an html/template (gin's and echo's rendering is html/template,
// and so is fiber's html engine). Kept in one file so every stack renders the same markup.
//
//go:embed fortunes.html
var FortunesHTML string

// Templates holds fortunes.html, for engines that load templates from a file system (fiber's).
//
//go:embed fortunes.html
var Templates embed.FS

// FortunesTemplate is FortunesHTML parsed once, for stacks that execute html/template themselves.
var FortunesTemplate = template.Must(template.New("fortunes").Parse(FortunesHTML))

const extraFortune = "Additional fortune added at request time."

// Fortunes reads every fortune in one query, adds the one of request time and sorts them by message.
func Fortunes(ctx context.Context, pool *pgxpool.Pool) ([]Fortune, error) {
	result, err := pool.Query(ctx, "SELECT id, message FROM fortune")
	if err != nil {
		return nil, err
	}
	rows, err := pgx.CollectRows(result, pgx.RowToStructByPos[Fortune])
	if err != nil {
		return nil, err
	}
	return SortFortunes(append(rows, Fortune{ID: 0, Message: extraFortune})), nil
}

// SortFortunes sorts by message, byte-wise: UTF-8's byte order is its code points' order.
func SortFortunes(rows []Fortune) []Fortune {
	slices.SortFunc(rows, func(a, b Fortune) int { return strings.Compare(a.Message, b.Message) })
	return rows
}
