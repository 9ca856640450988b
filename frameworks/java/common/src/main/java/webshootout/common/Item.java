package webshootout.common;

/**
 * A row of table items, as crud answers it, and the contract's page rules (page from 1, size 1..100, 1 and 10
 * when absent), which each stack enforces in its own framework's validation idiom.
 */
public record Item(int id, String name, int quantity) {
    public static final int FIRST_PAGE = 1;
    public static final int DEFAULT_SIZE = 10;
    public static final int MAX_SIZE = 100;

    /**
     * A page query parameter's value as an int: {@code absent} when the request has none, null when it is not an
     * int (for stacks whose framework has no parameter conversion of its own).
     */
    public static Integer parameter(String value, int absent) {
        if (value == null) {
            return absent;
        }
        try {
            return Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
