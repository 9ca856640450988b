package webshootout.javalin;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.UnprocessableContentResponse;
import io.javalin.validation.ValidationError;
import java.util.List;
import java.util.Map;
import webshootout.common.Item;
import webshootout.common.JdbcItems;

/**
 * crud: Javalin's per-method routes on /items and /items/{id}, its validators for the path id, page and size (a
 * conversion or check failure is Javalin's ValidationException, 400) and for the body (bodyValidator, through
 * Javalin's Jackson mapper), the rows by JDBC's own API (common JdbcItems).
 */
final class ItemHandlers {
    /** A POST or PUT body; wrapper types, so a missing member is null and fails its check. */
    record ItemBody(String name, Integer quantity) {
    }

    private final JdbcItems items;

    ItemHandlers(JdbcItems items) {
        this.items = items;
    }

    /**
     * Jackson binds leniently by default (the string "3" or 1.5 to an Integer, a number to a String); the contract
     * refuses those, so the app's mapper fails such coercions instead. Only crud binds JSON bodies.
     */
    static void strict(ObjectMapper mapper) {
        mapper.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    }

    void one(Context ctx) throws Exception {
        ctx.json(found(items.find(id(ctx))));
    }

    /** Javalin runs a validator's checks on an absent parameter too (as null), which then takes its default. */
    void page(Context ctx) throws Exception {
        int page = ctx.queryParamAsClass("page", Integer.class)
                .check(p -> p == null || p >= Item.FIRST_PAGE, "page must be 1 or more")
                .getOrDefault(Item.FIRST_PAGE);
        int size = ctx.queryParamAsClass("size", Integer.class)
                .check(s -> s == null || s >= 1 && s <= Item.MAX_SIZE, "size must be between 1 and " + Item.MAX_SIZE)
                .getOrDefault(Item.DEFAULT_SIZE);
        ctx.json(items.page(page, size));
    }

    void create(Context ctx) throws Exception {
        ItemBody body = body(ctx);
        Item item = items.create(body.name(), body.quantity());
        ctx.status(HttpStatus.CREATED).header("Location", "/items/" + item.id()).json(item);
    }

    void update(Context ctx) throws Exception {
        int id = id(ctx);
        ItemBody body = body(ctx);
        ctx.json(found(items.update(id, body.name(), body.quantity())));
    }

    void delete(Context ctx) throws Exception {
        if (!items.delete(id(ctx))) {
            throw new NotFoundResponse();
        }
        ctx.status(HttpStatus.NO_CONTENT);
    }

    private static int id(Context ctx) {
        return ctx.pathParamAsClass("id", Integer.class).get();
    }

    private static Item found(Item item) {
        if (item == null) {
            throw new NotFoundResponse();
        }
        return item;
    }

    /** The body, or 400 when it is not JSON and 422 when it is JSON of another shape (the contract's split). */
    private static ItemBody body(Context ctx) {
        // Jackson reports an empty body as a mismatch (as if JSON), though it is no JSON at all.
        if (ctx.body().isBlank()) {
            throw new BadRequestResponse("body is not JSON: it is empty");
        }
        return ctx.bodyValidator(ItemBody.class)
                .check(body -> body != null && body.name() != null, "name must be a string")
                .check(body -> body != null && body.quantity() != null, "quantity must be a 32-bit integer")
                .getOrThrow(ItemHandlers::refusal);
    }

    private static RuntimeException refusal(Map<String, ? extends List<? extends ValidationError<?>>> errors) {
        for (List<? extends ValidationError<?>> list : errors.values()) {
            for (ValidationError<?> error : list) {
                for (Throwable cause = error.exception(); cause != null; cause = cause.getCause()) {
                    if (cause instanceof JsonParseException) {
                        return new BadRequestResponse("body is not JSON: " + cause.getMessage());
                    }
                }
            }
        }
        return new UnprocessableContentResponse(errors.toString());
    }
}
