//! webshootout workloads on tide (see docs/workloads.md).
//!
//! tide runs on async-std; the database driver every Rust stack shares (tokio-postgres through deadpool,
//! ../common) runs on tokio. async-std's tokio1 feature is the documented bridge: async-global-executor
//! then enters one tokio runtime in every executor thread, the one current when it first starts, which
//! main builds below with WORKERS threads for the driver's connection tasks.

use std::sync::Arc;

use futures_util::StreamExt;
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, Pool, SESSION_COOKIE};
use tide::http::cookies::{Cookie, SameSite};
use tide::http::mime;
use tide::{Body, Request, Response, StatusCode};
use tide_websockets::{Message as WsMessage, WebSocket};

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

type State = Arc<App>;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500, the reason kept for the log.
fn fault(error: impl std::fmt::Display) -> tide::Error {
    tide::Error::from_str(StatusCode::InternalServerError, error.to_string())
}

fn json(value: &impl Serialize) -> tide::Result {
    Ok(Response::builder(StatusCode::Ok).body(Body::from_json(value)?).build())
}

async fn plaintext(_: Request<State>) -> tide::Result {
    Ok(Response::builder(StatusCode::Ok).body("Hello, World!").content_type(mime::PLAIN).build())
}

async fn hello_json(_: Request<State>) -> tide::Result {
    json(&Message { message: "Hello, World!" })
}

async fn db(req: Request<State>) -> tide::Result {
    json(&workloads::random_world(&req.state().pool).await.map_err(fault)?)
}

async fn queries(req: Request<State>) -> tide::Result {
    let query: QueriesQuery = req.query()?;
    let n = techempower::count(query.queries.as_deref());
    json(&techempower::queries(&req.state().pool, n).await.map_err(fault)?)
}

async fn updates(req: Request<State>) -> tide::Result {
    let query: QueriesQuery = req.query()?;
    let n = techempower::count(query.queries.as_deref());
    json(&techempower::updates(&req.state().pool, n).await.map_err(fault)?)
}

async fn fortunes(req: Request<State>) -> tide::Result {
    let page = techempower::fortunes(&req.state().pool).await.map_err(fault)?.render().map_err(fault)?;
    Ok(Response::builder(StatusCode::Ok).body(page).content_type(mime::HTML).build())
}

async fn cached(req: Request<State>) -> tide::Result {
    let query: CountQuery = req.query()?;
    let n = techempower::count(query.count.as_deref());
    let app = req.state();
    json(&app.cache.sample(&app.pool, n).await.map_err(fault)?)
}

/// The uid through tide's cookies (its CookiesMiddleware, on by default, parses Cookie and writes the
/// response's cookies as Set-Cookie).
async fn session(req: Request<State>) -> tide::Result {
    let known = req.cookie(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&req.state().pool, known.as_deref()).await.map_err(fault)?;
    let mut response = Response::builder(StatusCode::Ok).body(format!("Count is {}", visit.count)).content_type(mime::PLAIN).build();
    if let Some(uid) = visit.fresh_uid {
        response.insert_cookie(Cookie::build(SESSION_COOKIE, uid).path("/").http_only(true).same_site(SameSite::Lax).finish());
    }
    Ok(response)
}

async fn hash(req: Request<State>) -> tide::Result {
    let query: HashQuery = req.query()?;
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok(Response::builder(StatusCode::BadRequest).body(reason).content_type(mime::PLAIN).build()),
    };
    let data = async_std::fs::read(&req.state().hash_file).await?;
    Ok(Response::builder(StatusCode::Ok).body(workloads::iterated_sha256_hex(&data, n)).content_type(mime::PLAIN).build())
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("tide-shootout: {error}");
        std::process::exit(2);
    });
    // async-std sizes its executor from ASYNC_STD_THREAD_COUNT when it first starts (async-std's rt module).
    std::env::set_var("ASYNC_STD_THREAD_COUNT", env.workers.to_string());
    let tokio = tokio::runtime::Builder::new_multi_thread().worker_threads(env.workers).enable_all().build().expect("tokio runtime");
    let _entered = tokio.enter();
    if let Err(error) = async_std::task::block_on(serve(env)) {
        eprintln!("tide-shootout: {error}");
        std::process::exit(1);
    }
}

async fn serve(env: Env) -> std::io::Result<()> {
    let state: State = Arc::new(App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    // tide::with_state without tide's logger feature: cookies middleware only, no request log.
    let mut app = tide::with_state(state);
    // async-h1 writes a current Date itself; a Server header is the application's, added by this middleware.
    app.with(tide::utils::After(|mut response: Response| async move {
        response.insert_header("Server", "tide");
        Ok(response)
    }));
    app.at("/plaintext").get(plaintext);
    app.at("/json").get(hello_json);
    app.at("/db").get(db);
    app.at("/queries").get(queries);
    app.at("/updates").get(updates);
    app.at("/fortunes").get(fortunes);
    app.at("/cached-queries").get(cached);
    app.at("/session").get(session);
    app.at("/hash").get(hash);
    // tide-websockets, the http-rs WebSocket endpoint for tide.
    app.at("/ws").get(WebSocket::new(|_request, mut stream| async move {
        while let Some(Ok(message)) = stream.next().await {
            match message {
                WsMessage::Text(text) => stream.send_string(text).await?,
                WsMessage::Binary(bytes) => stream.send_bytes(bytes).await?,
                WsMessage::Close(_) => break,
                // tungstenite queues the pong to a ping itself and sends it with the next write or read.
                WsMessage::Ping(_) | WsMessage::Pong(_) => {}
            }
        }
        Ok(())
    }));
    app.at("/static").serve_dir(&env.static_dir)?;
    eprintln!("tide-shootout listening on {} with {} async-std threads", env.address, env.workers);
    app.listen(env.address).await
}
