package webshootout.common;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** The Date header (IMF-fixdate) for servers that set none themselves, formatted at most once a second. */
public final class HttpDate {
    private record Stamp(long second, String text) {
    }

    // IMF-fixdate has a two-digit day; RFC_1123_DATE_TIME would print "Tue, 1 Dec 2026" on the 1st to the 9th.
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private static volatile Stamp stamp = new Stamp(-1, "");

    private HttpDate() {
    }

    public static String now() {
        long second = System.currentTimeMillis() / 1000;
        Stamp current = stamp;
        if (current.second() != second) {
            current = new Stamp(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC)));
            stamp = current;
        }
        return current.text();
    }
}
