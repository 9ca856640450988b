package webshootout.common;

/** A row of table world, as the db, queries, updates and cached workloads answer it. */
public record World(int id, int randomNumber) {
}
