package webshootout.common;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The Date header (IMF-fixdate) for servers that set none themselves, formatted at most once a second. */
public final class HttpDate {
    private record Stamp(long second, String text) {
    }

    private static volatile Stamp stamp = new Stamp(-1, "");

    private HttpDate() {
    }

    public static String now() {
        long second = System.currentTimeMillis() / 1000;
        Stamp current = stamp;
        if (current.second() != second) {
            current = new Stamp(second, DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC)));
            stamp = current;
        }
        return current.text();
    }
}
