//! webshootout workloads on hyperlane 22 (see docs/workloads.md).
//!
//! hyperlane's model: every route is a hook type built per request; a route fills the response and a
//! response middleware sends it explicitly. Hooks are built from a bare factory, so the shared state
//! (pool, file paths) lives in a process-wide OnceLock.

mod hooks;

use std::sync::OnceLock;

use hyperlane::{Server, ServerConfig, TlsConfig};
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::WorldCache;
use shootout_common::workloads::{self, Pool};

struct App {
    pool: Pool,
    hash_file: String,
    static_dir: String,
    cache: WorldCache,
}

static APP: OnceLock<App> = OnceLock::new();

fn app() -> &'static App {
    APP.get().expect("APP is set before the server starts")
}

/// TCP_NODELAY from HYPERLANE_NODELAY: "true" or "false" sets it on every accepted socket;
/// "os-default" (or unset) leaves the kernel's default, which is Nagle's algorithm on.
fn nodelay() -> Result<Option<bool>, String> {
    match std::env::var("HYPERLANE_NODELAY").as_deref() {
        Err(_) | Ok("os-default") => Ok(None),
        Ok("true") => Ok(Some(true)),
        Ok("false") => Ok(Some(false)),
        Ok(raw) => Err(format!("HYPERLANE_NODELAY={raw:?} is not true, false or os-default")),
    }
}

fn main() {
    let (env, nodelay) = match Env::load().and_then(|env| Ok((env, nodelay()?))) {
        Ok(loaded) => loaded,
        Err(error) => {
            eprintln!("hyperlane-shootout: {error}");
            std::process::exit(2);
        }
    };
    runtime::block_on(env.workers, serve(env, nodelay));
}

async fn serve(env: Env, nodelay: Option<bool>) {
    let app = App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), static_dir: env.static_dir.clone(), cache: WorldCache::default() };
    if APP.set(app).is_err() {
        unreachable!("serve runs once");
    }
    let mut config = ServerConfig::default();
    config.set_address(env.address.to_string()).set_nodelay(nodelay);
    // hyperlane's own rustls (ring) termination. A listener speaks one protocol (ServerProtocol, HTTP/1
    // by default) and offers only its ALPN id: an HTTP/2 one would refuse http/1.1 clients, so HTTP/1.1.
    config.set_tls(env.tls.as_ref().map(|tls| TlsConfig::new(tls.cert.clone(), tls.key.clone())));
    let mut server = Server::default();
    server
        .server_config(config)
        .request_error::<hooks::RequestFailed>()
        .task_panic::<hooks::Panicked>()
        .request_middleware::<hooks::Defaults>()
        .response_middleware::<hooks::SendResponse>()
        .route::<hooks::Plaintext>("/plaintext")
        .route::<hooks::Json>("/json")
        .route::<hooks::Db>("/db")
        .route::<hooks::Queries>("/queries")
        .route::<hooks::Updates>("/updates")
        .route::<hooks::Fortunes>("/fortunes")
        .route::<hooks::Cached>("/cached-queries")
        .route::<hooks::Session>("/session")
        .route::<hooks::Hash>("/hash")
        .route::<hooks::StaticFile>("/static/{file}")
        .route::<hooks::WebSocketEcho>("/ws");
    let control = server.run().await.unwrap_or_else(|error| {
        eprintln!("hyperlane-shootout: cannot serve on {}: {error:?}", env.address);
        std::process::exit(1);
    });
    eprintln!("hyperlane-shootout listening on {} with {} worker threads, TCP_NODELAY {nodelay:?}", env.address, env.workers);
    control.wait().await;
}
