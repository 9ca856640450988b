//! TechEmpower's database test types (docs/workloads.md, last section): the count parameter, the
//! world reads and writes, the fortune list and its template, and the world-row cache.

pub use askama::Template;
use futures_util::future::try_join_all;
use serde::{Deserialize, Serialize};
use tokio::sync::OnceCell;

use crate::workloads::{Pool, World, SELECT_WORLD};

pub type Error = Box<dyn std::error::Error + Send + Sync>;

const WORLD_ROWS: i32 = 10_000;
const MAX_COUNT: usize = 500;

pub const UPDATE_WORLD: &str = "UPDATE world SET randomnumber = $1 WHERE id = $2";
pub const SELECT_FORTUNES: &str = "SELECT id, message FROM fortune";
pub const SELECT_ALL_WORLDS: &str = "SELECT id, randomnumber FROM world";

/// `?queries=N` (queries, updates).
#[derive(Deserialize)]
pub struct QueriesQuery {
    pub queries: Option<String>,
}

/// `?count=N` (cached).
#[derive(Deserialize)]
pub struct CountQuery {
    pub count: Option<String>,
}

/// N missing, empty, not an integer or below 1 means 1; above 500 means 500.
pub fn count(raw: Option<&str>) -> usize {
    let Some(raw) = raw.map(str::trim) else { return 1 };
    match raw.parse::<i64>() {
        Ok(n) if n > MAX_COUNT as i64 => MAX_COUNT,
        Ok(n) if n >= 1 => n as usize,
        // An integer too long for i64 is still above 500.
        Err(_) if !raw.is_empty() && raw.trim_start_matches('+').bytes().all(|b| b.is_ascii_digit()) => MAX_COUNT,
        _ => 1,
    }
}

pub fn random_id() -> i32 {
    rand::random_range(1..=WORLD_ROWS)
}

/// N rows, each read by a query of its own; tokio-postgres pipelines them on one connection.
pub async fn queries(pool: &Pool, n: usize) -> Result<Vec<World>, Error> {
    let client = pool.get().await?;
    let select = client.prepare_cached(SELECT_WORLD).await?;
    let reads = (0..n).map(|_| {
        let id = random_id();
        let (client, select) = (&client, &select);
        async move {
            let row = client.query_one(select, &[&id]).await?;
            Ok::<_, Error>(World { id: row.get(0), random_number: row.get(1) })
        }
    });
    try_join_all(reads).await
}

/// queries, then one UPDATE per row (pipelined, in order) with a new random number each.
pub async fn updates(pool: &Pool, n: usize) -> Result<Vec<World>, Error> {
    let mut worlds = queries(pool, n).await?;
    for world in &mut worlds {
        world.random_number = random_id();
    }
    let client = pool.get().await?;
    let update = client.prepare_cached(UPDATE_WORLD).await?;
    let writes = worlds.iter().map(|world| {
        let (client, update) = (&client, &update);
        async move { client.execute(update, &[&world.random_number, &world.id]).await }
    });
    try_join_all(writes).await?;
    Ok(worlds)
}

/// Serialize for the stacks whose own template engine takes a serde context (rocket_dyn_templates).
#[derive(Serialize)]
pub struct Fortune {
    pub id: i32,
    pub message: String,
}

#[derive(Template)]
#[template(path = "fortunes.html")]
pub struct FortunesPage {
    pub fortunes: Vec<Fortune>,
}

/// Every row of fortune (one query), the request-time fortune added, sorted by message.
pub async fn fortunes(pool: &Pool) -> Result<FortunesPage, Error> {
    let client = pool.get().await?;
    let select = client.prepare_cached(SELECT_FORTUNES).await?;
    let rows = client.query(&select, &[]).await?;
    let mut fortunes: Vec<Fortune> = rows.iter().map(|row| Fortune { id: row.get(0), message: row.get(1) }).collect();
    fortunes.push(Fortune { id: 0, message: "Additional fortune added at request time.".to_owned() });
    sort_fortunes(&mut fortunes);
    Ok(FortunesPage { fortunes })
}

/// By message, by code point: Rust's str ordering compares UTF-8 bytes, which orders as code points.
pub fn sort_fortunes(fortunes: &mut [Fortune]) {
    fortunes.sort_unstable_by(|a, b| a.message.cmp(&b.message));
}

/// The world table in memory, read once on first use (one SELECT of all rows), indexed by id - 1.
#[derive(Default)]
pub struct WorldCache {
    rows: OnceCell<Vec<World>>,
}

impl WorldCache {
    pub async fn rows(&self, pool: &Pool) -> Result<&[World], Error> {
        let rows = self
            .rows
            .get_or_try_init(|| async {
                let client = pool.get().await?;
                let mut rows: Vec<World> = client
                    .query(SELECT_ALL_WORLDS, &[])
                    .await?
                    .iter()
                    .map(|row| World { id: row.get(0), random_number: row.get(1) })
                    .collect();
                rows.sort_unstable_by_key(|world| world.id);
                Ok::<_, Error>(rows)
            })
            .await?;
        Ok(rows)
    }

    /// N random rows from the cache, cloned for the answer.
    pub async fn sample(&self, pool: &Pool, n: usize) -> Result<Vec<World>, Error> {
        let rows = self.rows(pool).await?;
        Ok((0..n).map(|_| pick(rows)).collect())
    }
}

/// The row of a random id; the lookup falls back to a search should the table have gaps.
fn pick(rows: &[World]) -> World {
    let id = random_id();
    match rows.get((id - 1) as usize).filter(|world| world.id == id) {
        Some(world) => world.clone(),
        None => rows.binary_search_by_key(&id, |world| world.id).map(|at| rows[at].clone()).unwrap_or_else(|at| rows[at.min(rows.len() - 1)].clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_clamps() {
        for (raw, n) in [(None, 1), (Some(""), 1), (Some("x"), 1), (Some("0"), 1), (Some("-3"), 1), (Some("7"), 7), (Some("500"), 500), (Some("501"), 500), (Some("99999999999999999999"), 500)] {
            assert_eq!(count(raw), n, "{raw:?}");
        }
    }

    #[test]
    fn fortunes_render_escaped_and_sorted() {
        let mut fortunes = vec![
            Fortune { id: 2, message: "b".into() },
            Fortune { id: 11, message: "<script>\"x\"</script>".into() },
            Fortune { id: 12, message: "フ".into() },
        ];
        sort_fortunes(&mut fortunes);
        let html = FortunesPage { fortunes }.render().unwrap();
        assert!(html.starts_with("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr><tr><td>11</td><td>&#60;script&#62;&#34;x&#34;&#60;/script&#62;</td></tr><tr><td>2</td>"), "{html}");
        assert!(html.ends_with("<tr><td>12</td><td>フ</td></tr></table></body></html>"), "{html}");
    }
}
