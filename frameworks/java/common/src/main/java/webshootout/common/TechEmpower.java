package webshootout.common;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** The rules of TechEmpower's test types that do not depend on a framework (docs/workloads.md). */
public final class TechEmpower {
    public static final int WORLD_ROWS = 10_000;
    public static final int MAX_COUNT = 500;
    public static final String EXTRA_FORTUNE = "Additional fortune added at request time.";

    private TechEmpower() {
    }

    /** The count parameter (queries=, count=): missing, empty, not an integer or below 1 is 1; above 500 is 500. */
    public static int count(String raw) {
        if (raw == null || raw.isEmpty()) {
            return 1;
        }
        int n;
        try {
            n = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return 1;
        }
        return Math.max(1, Math.min(MAX_COUNT, n));
    }

    /** A world id drawn uniformly from 1..10000. */
    public static int randomId() {
        return ThreadLocalRandom.current().nextInt(1, WORLD_ROWS + 1);
    }

    /** count ids drawn uniformly from 1..10000 (they may repeat). */
    public static int[] randomIds(int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = randomId();
        }
        return ids;
    }

    /** The request's rows with new random numbers, sorted by id: concurrent updates then lock rows in one
     *  order and cannot deadlock each other. */
    public static List<World> renumbered(List<World> read) {
        List<World> rows = new ArrayList<>(read.size());
        for (World row : read) {
            rows.add(new World(row.id(), randomId()));
        }
        rows.sort(Comparator.comparingInt(World::id));
        return rows;
    }

    /** The rows read from table fortune plus the one added at request time, sorted by message (code units,
     *  which order the fortunes' texts as code points do: none holds a surrogate pair). */
    public static List<Fortune> withExtraSorted(List<Fortune> read) {
        List<Fortune> all = new ArrayList<>(read.size() + 1);
        all.addAll(read);
        all.add(new Fortune(0, EXTRA_FORTUNE));
        all.sort(Comparator.comparing(Fortune::message));
        return all;
    }
}
