//! What the harness hands the server (docs/adding-a-framework.md), read once at start.

use std::net::{IpAddr, SocketAddr};

pub struct Env {
    pub address: SocketAddr,
    pub workers: usize,
    pub database_url: String,
    pub hash_file: String,
    pub static_dir: String,
}

fn var(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("environment variable {name} is not set"))
}

fn parsed<T: std::str::FromStr>(name: &str, what: &str) -> Result<T, String> {
    let raw = var(name)?;
    raw.parse().map_err(|_| format!("{name}={raw:?} is not {what}"))
}

impl Env {
    pub fn load() -> Result<Env, String> {
        let host: IpAddr = parsed("HOST", "an IP address")?;
        let port: u16 = parsed("PORT", "a port number")?;
        let workers: usize = parsed("WORKERS", "a positive integer")?;
        if workers == 0 {
            return Err("WORKERS=0: at least one worker is needed".into());
        }
        Ok(Env {
            address: SocketAddr::new(host, port),
            workers,
            database_url: var("DATABASE_URL")?,
            hash_file: var("HASH_FILE")?,
            static_dir: var("STATIC_DIR")?,
        })
    }
}
