package webshootout.common;

import java.util.ArrayList;
import java.util.List;

/** json-comp apart from HTTP, JSON and compression: the n check and the array's objects, built per request. */
public final class JsonComp {
    public static final int MAX_N = 1000;
    public static final String MESSAGE = "Hello, World!";

    private JsonComp() {
    }

    /** One object of the array, {"id": i, "message": "Hello, World!"}. */
    public record Item(int id, String message) {
    }

    /** Why n is not acceptable, in one line; null when it is (1 to 1000, as the contract asks). */
    public static String reason(String raw) {
        return QueryCount.reason(raw, MAX_N);
    }

    /** The n objects, ids 1..n, for a framework's JSON path to serialize. */
    public static List<Item> items(int n) {
        List<Item> items = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            items.add(new Item(i, MESSAGE));
        }
        return items;
    }
}
