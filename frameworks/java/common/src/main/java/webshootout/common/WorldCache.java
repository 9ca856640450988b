package webshootout.common;

import java.util.ArrayList;
import java.util.List;

/**
 * cached: every row of world, read once from the database (filled by the stack at start) and served from
 * memory. An array indexed by id: the rows are a fixed, dense set of 10,000 ids, so no eviction or
 * expiry applies, which is why no cache library is used here.
 */
public final class WorldCache {
    private final World[] byId = new World[TechEmpower.WORLD_ROWS + 1];

    public WorldCache(Iterable<World> rows) {
        for (World row : rows) {
            byId[row.id()] = row;
        }
        for (int id = 1; id <= TechEmpower.WORLD_ROWS; id++) {
            if (byId[id] == null) {
                throw new IllegalStateException("world has no row with id " + id);
            }
        }
    }

    /** count rows with random ids, from memory. */
    public List<World> random(int count) {
        List<World> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(byId[TechEmpower.randomId()]);
        }
        return rows;
    }
}
