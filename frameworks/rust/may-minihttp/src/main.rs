//! webshootout workloads on may_minihttp (see docs/workloads.md): TechEmpower's leading Rust entry,
//! a coroutine per connection on may's WORKERS scheduler threads, one `call` per request.
//!
//! The database workloads are left out: their driver in this form, may_postgres, is not on crates.io
//! (see framework.toml).

use std::io::{self, Read};
use std::sync::Arc;

use may_minihttp::{HttpService, HttpServiceFactory, Request, Response};
use serde::Serialize;
use shootout_common::workloads;

const TEXT: &str = "Content-Type: text/plain; charset=utf-8";
const JSON: &str = "Content-Type: application/json";

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

struct Files {
    hash_file: String,
    static_dir: String,
}

/// One per connection (may_minihttp's factory idiom); it holds what every request reads.
struct Service {
    files: Arc<Files>,
}

/// The value of `name` in a query string such as `a=1&n=5` (raw: the numbers it carries need no decoding).
fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (key == name).then_some(value)
    })
}

impl Service {
    fn hash(&self, query: &str, res: &mut Response) -> io::Result<()> {
        let n = match workloads::parse_n(query_param(query, "n")) {
            Ok(n) => n,
            Err(reason) => {
                res.status_code(400, "Bad Request").header(TEXT).body(reason);
                return Ok(());
            }
        };
        // A blocking read in the coroutine, as may's own file I/O is: may has no asynchronous file API.
        let data = std::fs::read(&self.files.hash_file)?;
        res.header(TEXT).body_vec(workloads::iterated_sha256_hex(&data, n).into_bytes());
        Ok(())
    }

    /// may_minihttp has no static-file handler: `/static/<name>` reads the file from STATIC_DIR.
    fn static_file(&self, name: &str, res: &mut Response) -> io::Result<()> {
        let path = std::path::Path::new(&self.files.static_dir).join(name);
        let found = (!name.is_empty() && !name.contains('/') && !name.starts_with('.')).then(|| std::fs::File::open(&path));
        match found {
            Some(Ok(mut file)) => {
                let mut data = Vec::new();
                file.read_to_end(&mut data)?;
                let content_type = match path.extension().and_then(|ext| ext.to_str()) {
                    Some("html") => "Content-Type: text/html; charset=utf-8",
                    Some("css") => "Content-Type: text/css",
                    Some("js") => "Content-Type: text/javascript",
                    _ => "Content-Type: application/octet-stream",
                };
                res.header(content_type).body_vec(data);
            }
            Some(Err(error)) if error.kind() != io::ErrorKind::NotFound => return Err(error),
            _ => not_found(res),
        }
        Ok(())
    }
}

fn not_found(res: &mut Response) {
    res.status_code(404, "Not Found").header(TEXT).body("no such path");
}

impl HttpService for Service {
    // may_minihttp writes `Server: M` and a Date it refreshes itself on every response.
    fn call(&mut self, req: Request, res: &mut Response) -> io::Result<()> {
        let (path, query) = req.path().split_once('?').unwrap_or((req.path(), ""));
        match path {
            "/plaintext" => {
                res.header(TEXT).body("Hello, World!");
            }
            "/json" => {
                let body = serde_json::to_vec(&Message { message: "Hello, World!" })?;
                res.header(JSON).body_vec(body);
            }
            "/hash" => self.hash(query, res)?,
            _ => match path.strip_prefix("/static/") {
                Some(name) => self.static_file(name, res)?,
                None => not_found(res),
            },
        }
        Ok(())
    }
}

struct Factory {
    files: Arc<Files>,
}

impl HttpServiceFactory for Factory {
    type Service = Service;

    fn new_service(&self, _id: usize) -> Service {
        Service { files: self.files.clone() }
    }
}

fn main() {
    // Not shootout_common's Env: without database workloads the harness passes no DATABASE_URL.
    let var = |name: &str| {
        std::env::var(name).unwrap_or_else(|_| {
            eprintln!("may-minihttp-shootout: environment variable {name} is not set");
            std::process::exit(2);
        })
    };
    let address = format!("{}:{}", var("HOST"), var("PORT"));
    let workers: usize = var("WORKERS").parse().ok().filter(|&n| n > 0).unwrap_or_else(|| {
        eprintln!("may-minihttp-shootout: WORKERS is not a positive integer");
        std::process::exit(2);
    });
    may::config().set_workers(workers);
    let files = Arc::new(Files { hash_file: var("HASH_FILE"), static_dir: var("STATIC_DIR") });
    let server = Factory { files }.start(&address).unwrap_or_else(|error| {
        eprintln!("may-minihttp-shootout: cannot listen on {address}: {error}");
        std::process::exit(1);
    });
    eprintln!("may-minihttp-shootout listening on {address} with {workers} may workers");
    server.join().expect("server coroutine");
}

