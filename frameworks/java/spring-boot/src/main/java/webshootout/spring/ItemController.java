package webshootout.spring;

import com.fasterxml.jackson.core.JsonParseException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import webshootout.common.Item;

/**
 * crud: table items through JdbcTemplate, the body bound by Jackson and checked by Bean Validation (@Valid), page
 * and size by method validation on the request parameters (Spring MVC answers 400 to both a bad number and a broken
 * constraint there). The contract wants 422 for a JSON body of the wrong shape, which Spring answers 400: the two
 * handlers at the bottom map it, leaving a body that is not JSON at Spring's 400.
 */
@RestController
@RequestMapping(value = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
class ItemController {
    private static final RowMapper<Item> ROW = (row, n) -> new Item(row.getInt(1), row.getString(2), row.getInt(3));

    /**
     * A POST or PUT body. The wrapper types let a missing member reach @NotNull; Jackson refuses a quantity given as
     * a string or with a fraction, and a name given as a number (Application.strictJson).
     */
    record ItemBody(@NotNull String name, @NotNull Integer quantity) {
    }

    private final JdbcTemplate jdbc;

    ItemController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping("/{id}")
    ResponseEntity<Item> one(@PathVariable int id) {
        return ResponseEntity.of(jdbc.query("SELECT id, name, quantity FROM items WHERE id = ?", ROW, id)
                .stream().findFirst());
    }

    @GetMapping
    List<Item> page(@RequestParam(defaultValue = "" + Item.FIRST_PAGE) @Min(Item.FIRST_PAGE) int page,
                    @RequestParam(defaultValue = "" + Item.DEFAULT_SIZE) @Min(1) @Max(Item.MAX_SIZE) int size) {
        return jdbc.query("SELECT id, name, quantity FROM items ORDER BY id LIMIT ? OFFSET ?", ROW,
                size, (page - 1L) * size);
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Item> create(@Valid @RequestBody ItemBody body) {
        Item item = jdbc.queryForObject(
                "INSERT INTO items (name, quantity) VALUES (?, ?) RETURNING id, name, quantity",
                ROW, body.name(), body.quantity());
        URI location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").buildAndExpand(item.id()).toUri();
        return ResponseEntity.created(location).body(item);
    }

    @PutMapping(value = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Item> update(@PathVariable int id, @Valid @RequestBody ItemBody body) {
        return ResponseEntity.of(jdbc.query(
                "UPDATE items SET name = ?, quantity = ? WHERE id = ? RETURNING id, name, quantity",
                ROW, body.name(), body.quantity(), id).stream().findFirst());
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable int id) {
        boolean deleted = jdbc.update("DELETE FROM items WHERE id = ?", id) > 0;
        return deleted ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }

    /** A broken @Valid constraint on the body: valid JSON of the wrong shape, 422. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> invalid(MethodArgumentNotValidException e) {
        ProblemDetail problem = e.getBody();
        problem.setStatus(HttpStatus.UNPROCESSABLE_ENTITY);
        return ResponseEntity.unprocessableEntity().body(problem);
    }

    /**
     * Jackson could not bind the body: a syntax error (or no body at all) stays Spring's 400, anything Jackson read
     * as JSON but could not bind (an array, a string for a number) is 422. Rethrown, Spring handles it as before.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e) throws HttpMessageNotReadableException {
        if (e.getCause() == null || e.getCause() instanceof JsonParseException) {
            throw e;
        }
        return ResponseEntity.unprocessableEntity()
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_ENTITY, e.getMostSpecificCause().getMessage()));
    }
}
