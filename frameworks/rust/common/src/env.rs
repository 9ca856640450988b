//! What the harness hands the server (docs/adding-a-framework.md), read once at start.

use std::net::{IpAddr, SocketAddr};

pub struct Env {
    pub address: SocketAddr,
    pub workers: usize,
    /// Database connections this process may open (the fairness rule, docs/fairness.md).
    pub db_pool: usize,
    pub database_url: String,
    pub hash_file: String,
    pub static_dir: String,
    /// TLS_CERT and TLS_KEY: serve TLS only on `address` when given, cleartext when not.
    pub tls: Option<Tls>,
}

/// PEM paths: the certificate chain (leaf then CA) and its PKCS#8 key.
pub struct Tls {
    pub cert: String,
    pub key: String,
}

fn var(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("environment variable {name} is not set"))
}

fn parsed<T: std::str::FromStr>(name: &str, what: &str) -> Result<T, String> {
    let raw = var(name)?;
    raw.parse().map_err(|_| format!("{name}={raw:?} is not {what}"))
}

fn positive(name: &str) -> Result<usize, String> {
    match parsed(name, "a positive integer")? {
        0 => Err(format!("{name}=0 is not a positive integer")),
        n => Ok(n),
    }
}

fn tls() -> Result<Option<Tls>, String> {
    let set = |name| std::env::var(name).ok().filter(|value: &String| !value.is_empty());
    match (set("TLS_CERT"), set("TLS_KEY")) {
        (Some(cert), Some(key)) => Ok(Some(Tls { cert, key })),
        (None, None) => Ok(None),
        _ => Err("TLS_CERT and TLS_KEY must be set together".to_string()),
    }
}

impl Env {
    pub fn load() -> Result<Env, String> {
        let host: IpAddr = parsed("HOST", "an IP address")?;
        let port: u16 = parsed("PORT", "a port number")?;
        Ok(Env {
            address: SocketAddr::new(host, port),
            workers: positive("WORKERS")?,
            db_pool: positive("DB_POOL_TOTAL")?,
            database_url: var("DATABASE_URL")?,
            hash_file: var("HASH_FILE")?,
            static_dir: var("STATIC_DIR")?,
            tls: tls()?,
        })
    }
}

#[cfg(feature = "tls")]
impl Tls {
    /// The rustls server config for these PEM files on the ring provider, ALPN left to the caller.
    pub fn rustls_config(&self) -> Result<rustls::ServerConfig, String> {
        use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
        let chain = CertificateDer::pem_file_iter(&self.cert)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|error| format!("TLS_CERT {}: {error}", self.cert))?;
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|error| format!("TLS_KEY {}: {error}", self.key))?;
        rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|error| error.to_string())?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|error| format!("TLS_CERT/TLS_KEY: {error}"))
    }
}
