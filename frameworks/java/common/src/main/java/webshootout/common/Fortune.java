package webshootout.common;

/** A row of table fortune. */
public record Fortune(int id, String message) {
}
