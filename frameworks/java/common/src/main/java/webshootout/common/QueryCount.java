package webshootout.common;

/** A count in a query parameter (hash's n, json-comp's n) that must lie in 1..max: why it does not, in one line. */
public final class QueryCount {
    private QueryCount() {}

    /** Why {@code raw} is not an integer in 1..max, in one line; null when it is. */
    public static String reason(String raw, int max) {
        if (raw == null) {
            return "missing query parameter n";
        }
        int n;
        try {
            n = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return "n must be an integer, got '" + raw + "'";
        }
        return n < 1 || n > max ? "n must be between 1 and " + max + ", got " + n : null;
    }
}
