//! The framework-independent half of the workloads: PostgreSQL access, the hash, the session cookie, json-comp's
//! array and upload's digest.

use deadpool_postgres::{Manager, ManagerConfig, RecyclingMethod};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio_postgres::NoTls;

use crate::env::Env;

// Re-exported so the frameworks name the pool through this crate and cannot pull in a second
// deadpool-postgres version whose Pool type would not match.
pub use deadpool_postgres::Pool;

pub const SESSION_COOKIE: &str = "uid";
/// One row of world: the db workload's read, and each read of TechEmpower's queries and updates.
pub const SELECT_WORLD: &str = "SELECT id, randomnumber FROM world WHERE id = $1";
const MAX_N: u32 = 100_000;
/// json-comp asks for 1 to 1000 objects (docs/workloads.md).
const MAX_ITEMS: u32 = 1000;
/// The request-body limit every stack gives its framework's own setting: the contract accepts bodies up to
/// 1 MiB and refuses one over 16 MiB; 2 MiB is the usual line between the two.
pub const BODY_LIMIT: usize = 2 << 20;

#[derive(Serialize, Clone)]
pub struct World {
    pub id: i32,
    #[serde(rename = "randomNumber")]
    pub random_number: i32,
}

#[derive(Serialize, Deserialize)]
struct SessionData {
    count: i64,
}

#[derive(Deserialize)]
pub struct HashQuery {
    pub n: Option<String>,
}

/// json-comp's query: `?n=` objects, as hash's.
pub type ItemsQuery = HashQuery;

/// One object of json-comp's array.
#[derive(Serialize)]
pub struct Item {
    pub id: u32,
    pub message: &'static str,
}

/// The outcome of one session request: the new count, and the uid to set when the visitor is new.
pub struct Visit {
    pub count: i64,
    pub fresh_uid: Option<String>,
}

pub fn pool(env: &Env) -> Pool {
    let config: tokio_postgres::Config = env.database_url.parse().unwrap_or_else(|error| {
        eprintln!("DATABASE_URL is not a PostgreSQL URL: {error}");
        std::process::exit(2);
    });
    let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    // deadpool has no minimum: connections open on demand, up to DB_POOL_TOTAL (one process serves every core), and stay open.
    Pool::builder(manager).max_size(env.db_pool).build().expect("pool without timeouts")
}

pub async fn random_world(pool: &Pool) -> Result<World, Box<dyn std::error::Error>> {
    let client = pool.get().await?;
    let statement = client.prepare_cached(SELECT_WORLD).await?;
    let id: i32 = rand::random_range(1..=10_000);
    let row = client.query_one(&statement, &[&id]).await?;
    Ok(World { id: row.get(0), random_number: row.get(1) })
}

/// Reads and rewrites the visitor's counter in one transaction; an unknown or absent uid makes a new visitor.
pub async fn bump(pool: &Pool, uid: Option<&str>) -> Result<Visit, Box<dyn std::error::Error>> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let stored = match uid {
        Some(uid) => {
            let select = tx.prepare_cached("SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE").await?;
            tx.query_opt(&select, &[&uid]).await?.map(|row| row.get::<_, String>(0))
        }
        None => None,
    };
    let visit = match (uid, stored) {
        (Some(uid), Some(data)) => {
            let count = serde_json::from_str::<SessionData>(&data)?.count + 1;
            let update = tx.prepare_cached("UPDATE usersessions SET data = $1 WHERE uid = $2").await?;
            tx.execute(&update, &[&serde_json::to_string(&SessionData { count })?, &uid]).await?;
            Visit { count, fresh_uid: None }
        }
        _ => {
            let fresh = hex::encode(rand::random::<[u8; 16]>());
            let insert = tx.prepare_cached("INSERT INTO usersessions (uid, data) VALUES ($1, $2)").await?;
            tx.execute(&insert, &[&fresh, &serde_json::to_string(&SessionData { count: 1 })?]).await?;
            Visit { count: 1, fresh_uid: Some(fresh) }
        }
    };
    tx.commit().await?;
    Ok(visit)
}

/// The uid in a `Cookie:` header value such as `a=1; uid=abc`.
pub fn uid_from_cookie_header(header: &str) -> Option<String> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        (name == SESSION_COOKIE && !value.is_empty()).then(|| value.to_owned())
    })
}

pub fn set_cookie(uid: &str) -> String {
    format!("{SESSION_COOKIE}={uid}; Path=/; HttpOnly; SameSite=Lax")
}

/// n from the query, or the one-line reason it is refused.
pub fn parse_n(raw: Option<&str>) -> Result<u32, &'static str> {
    let raw = raw.ok_or("missing query parameter n")?;
    let n: i64 = raw.parse().map_err(|_| "n must be an integer")?;
    if !(1..=i64::from(MAX_N)).contains(&n) {
        return Err("n must be between 1 and 100000");
    }
    Ok(n as u32)
}

/// Lowercase hex of d_n: d_1 = SHA-256(data), d_(k+1) = SHA-256(d_k).
pub fn iterated_sha256_hex(data: &[u8], n: u32) -> String {
    let mut digest = Sha256::digest(data);
    for _ in 1..n {
        digest = Sha256::digest(digest);
    }
    hex::encode(digest)
}

/// json-comp's n from the query, or the one-line reason it is refused.
pub fn parse_items(raw: Option<&str>) -> Result<u32, &'static str> {
    let raw = raw.ok_or("missing query parameter n")?;
    let n: i64 = raw.parse().map_err(|_| "n must be an integer")?;
    if !(1..=i64::from(MAX_ITEMS)).contains(&n) {
        return Err("n must be between 1 and 1000");
    }
    Ok(n as u32)
}

/// json-comp's array, built per request for the framework's JSON path to serialize.
pub fn items(n: u32) -> Vec<Item> {
    (1..=n).map(|id| Item { id, message: "Hello, World!" }).collect()
}

/// upload's answer, `<bytes read> <lowercase hex SHA-256>`, fed as the body arrives (a stack that streams its
/// body) or once with the whole of it (a stack that buffers).
#[derive(Default)]
pub struct BodyDigest {
    hasher: Sha256,
    bytes: u64,
}

impl BodyDigest {
    pub fn update(&mut self, piece: &[u8]) {
        self.hasher.update(piece);
        self.bytes += piece.len() as u64;
    }

    pub fn answer(self) -> String {
        format!("{} {}", self.bytes, hex::encode(self.hasher.finalize()))
    }
}

/// upload's answer for a body read whole.
pub fn upload_answer(body: &[u8]) -> String {
    let mut digest = BodyDigest::default();
    digest.update(body);
    digest.answer()
}
