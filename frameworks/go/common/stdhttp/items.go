package stdhttp

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"

	"webshootout/common"
)

// maxItemBody bounds what an item body may take to read: an item is a few dozen bytes.
const maxItemBody = 64 << 10

// Items serves crud's five routes. The stack's router matches the method and the path; ID reads the
// path's {id} the way that router hands it over (ServeMux's PathValue, chi.URLParam, mux.Vars, httprouter's
// params in the context).
type Items struct {
	Pool *pgxpool.Pool
	ID   func(*http.Request) string
}

// Items serves crud from this pool, reading {id} with id.
func (h *Handlers) Items(id func(*http.Request) string) *Items {
	return &Items{Pool: h.Pool, ID: id}
}

// itemBody is what POST and PUT take: pointers, so that a missing member (or null) is told from "" and 0.
type itemBody struct {
	Name     *string `json:"name"`
	Quantity *int32  `json:"quantity"`
}

// fields decodes and checks an item body with encoding/json, or answers the refusal itself: 400 for a
// body that is not JSON (a *json.SyntaxError), 422 for JSON of another shape (an *json.UnmarshalTypeError
// for a non-object, a non-string name or a quantity that is not a 32-bit integer; a missing member).
func fields(w http.ResponseWriter, r *http.Request) (itemBody, bool) {
	var in itemBody
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxItemBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		text(w, http.StatusRequestEntityTooLarge, err.Error())
		return in, false
	}
	if err != nil {
		text(w, http.StatusBadRequest, err.Error())
		return in, false
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			text(w, http.StatusBadRequest, err.Error())
		} else {
			text(w, http.StatusUnprocessableEntity, err.Error())
		}
		return in, false
	}
	if in.Name == nil || in.Quantity == nil {
		text(w, http.StatusUnprocessableEntity, "an item needs a string name and an integer quantity")
		return in, false
	}
	return in, true
}

// fail answers a database error: 404 when no row has the id, else 500.
func fail(w http.ResponseWriter, err error) {
	if errors.Is(err, common.ErrNoItem) {
		text(w, http.StatusNotFound, err.Error())
		return
	}
	text(w, http.StatusInternalServerError, err.Error())
}

// pageArg reads page or size: absent means def; otherwise an integer within lo..hi, else ok is false.
func pageArg(q map[string][]string, name string, def, lo, hi int64) (int64, bool) {
	values, present := q[name]
	if !present {
		return def, true
	}
	n, err := strconv.ParseInt(values[0], 10, 64)
	return n, err == nil && lo <= n && n <= hi
}

func (it *Items) Get(w http.ResponseWriter, r *http.Request) {
	item, err := common.GetItem(r.Context(), it.Pool, it.ID(r))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, item)
}

func (it *Items) List(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, pageOK := pageArg(q, "page", common.DefaultPage, 1, math.MaxInt64)
	size, sizeOK := pageArg(q, "size", common.DefaultPageSize, 1, common.MaxPageSize)
	if !pageOK || !sizeOK {
		text(w, http.StatusBadRequest, "page must be an integer from 1, size one from 1 to 100")
		return
	}
	items, err := common.ItemPage(r.Context(), it.Pool, page, int(size))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, items)
}

func (it *Items) Create(w http.ResponseWriter, r *http.Request) {
	in, ok := fields(w, r)
	if !ok {
		return
	}
	item, err := common.CreateItem(r.Context(), it.Pool, *in.Name, *in.Quantity)
	if err != nil {
		fail(w, err)
		return
	}
	// The collection's path is the one this POST was routed on.
	w.Header().Set("Location", r.URL.Path+"/"+strconv.Itoa(int(item.ID)))
	answerJSON(w, http.StatusCreated, item)
}

func (it *Items) Update(w http.ResponseWriter, r *http.Request) {
	in, ok := fields(w, r)
	if !ok {
		return
	}
	item, err := common.UpdateItem(r.Context(), it.Pool, it.ID(r), *in.Name, *in.Quantity)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, item)
}

func (it *Items) Delete(w http.ResponseWriter, r *http.Request) {
	if err := common.DeleteItem(r.Context(), it.Pool, it.ID(r)); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
