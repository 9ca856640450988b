//! webshootout workloads on xitca-web (see docs/workloads.md).

use std::sync::Arc;

use cookie::SameSite;
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, Item, ItemsQuery, Pool, SESSION_COOKIE, World};
use xitca_web::bytes::Bytes;
use xitca_web::error::Error;
use xitca_web::handler::cookie::{Cookie, CookieJar};
use xitca_web::handler::html::Html;
use xitca_web::handler::json::Json;
use xitca_web::handler::query::Query;
use xitca_web::handler::state::StateRef;
use xitca_web::handler::websocket::{Message as WsMessage, WebSocket};
use xitca_web::handler::body::Limit;
use xitca_web::handler::handler_service;
use xitca_web::http::header::{CONTENT_ENCODING, HeaderValue, SERVER, VARY};
use xitca_web::http::{StatusCode, WebResponse};
use xitca_web::middleware::compress::Compress;
use xitca_web::route::{get, post};
use xitca_web::service::Service;
use xitca_web::service::file::ServeDir;
use xitca_web::{App, WebContext};

struct State {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

type AppState = Arc<State>;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// The shared crate's errors are not Send + Sync; carried as their text, answered 500 by xitca-web.
fn fault(error: impl std::fmt::Display) -> Error {
    Error::from(Box::<dyn std::error::Error + Send + Sync>::from(error.to_string()))
}

async fn plaintext() -> &'static str {
    "Hello, World!"
}

async fn json() -> Json<Message> {
    Json(Message { message: "Hello, World!" })
}

/// Compressed by the App's Compress middleware (gzip as Accept-Encoding asks).
async fn json_comp(Query(query): Query<ItemsQuery>) -> Result<Json<Vec<Item>>, Error> {
    let n = workloads::parse_items(query.n.as_deref()).map_err(|_| Error::from(StatusCode::BAD_REQUEST))?;
    Ok(Json(workloads::items(n)))
}

/// The body read whole by xitca-web's Bytes extractor paired with its Limit marker, xitca-web's per-handler body
/// limit: past 2 MiB it stops reading and answers 400. xitca-http decodes a chunked body before it.
async fn upload((body, _): (Bytes, Limit<{ workloads::BODY_LIMIT }>)) -> String {
    workloads::upload_answer(&body)
}

async fn db(StateRef(app): StateRef<'_, State>) -> Result<Json<World>, Error> {
    Ok(Json(workloads::random_world(&app.pool).await.map_err(fault)?))
}

async fn queries(StateRef(app): StateRef<'_, State>, Query(query): Query<QueriesQuery>) -> Result<Json<Vec<World>>, Error> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::queries(&app.pool, n).await?))
}

async fn updates(StateRef(app): StateRef<'_, State>, Query(query): Query<QueriesQuery>) -> Result<Json<Vec<World>>, Error> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::updates(&app.pool, n).await?))
}

async fn fortunes(StateRef(app): StateRef<'_, State>) -> Result<Html<String>, Error> {
    Ok(Html(techempower::fortunes(&app.pool).await?.render().map_err(fault)?))
}

async fn cached(StateRef(app): StateRef<'_, State>, Query(query): Query<CountQuery>) -> Result<Json<Vec<World>>, Error> {
    let n = techempower::count(query.count.as_deref());
    Ok(Json(app.cache.sample(&app.pool, n).await?))
}

/// The visitor's uid from xitca-web's cookie jar (absent when the request has no Cookie header); a new
/// visitor's uid goes back in the jar, which the answer turns into Set-Cookie.
async fn session(StateRef(app): StateRef<'_, State>, jar: Option<CookieJar>) -> Result<(String, CookieJar), Error> {
    let mut jar = jar.unwrap_or_else(CookieJar::plain);
    let known = jar.get(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(fault)?;
    if let Some(uid) = visit.fresh_uid {
        jar.add(Cookie::build((SESSION_COOKIE, uid)).path("/").http_only(true).same_site(SameSite::Lax));
    }
    Ok((format!("Count is {}", visit.count), jar))
}

async fn hash(StateRef(app): StateRef<'_, State>, Query(query): Query<HashQuery>) -> Result<(String, StatusCode), Error> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok((reason.to_owned(), StatusCode::BAD_REQUEST)),
    };
    let data = tokio::fs::read(&app.hash_file).await?;
    Ok((workloads::iterated_sha256_hex(&data, n), StatusCode::OK))
}

/// xitca-web's WebSocket handler as its websocket example configures it: a callback per message; pings
/// are answered and close frames returned by xitca-web itself.
async fn websocket(mut ws: WebSocket) -> WebSocket {
    ws.on_msg(|tx, message| {
        Box::pin(async move {
            let _ = match message {
                WsMessage::Text(text) => tx.text(text.into_inner()).await,
                WsMessage::Binary(bytes) => tx.binary(bytes).await,
                WsMessage::Continuation(_) => Ok(()),
            };
        })
    });
    ws
}

/// xitca-http writes a current Date (its DateTimeService, refreshed each 500 ms); a Server header is the
/// application's, added by this middleware (xitca-web's enclosed_fn) to every answer of the routes.
async fn server_header<S, ResB, E>(service: &S, ctx: WebContext<'_, AppState>) -> Result<WebResponse<ResB>, E>
where
    S: for<'r> Service<WebContext<'r, AppState>, Response = WebResponse<ResB>, Error = E>,
{
    let mut response = service.call(ctx).await?;
    response.headers_mut().insert(SERVER, HeaderValue::from_static("xitca-web"));
    Ok(response)
}

/// xitca-web's Compress sets Content-Encoding but no Vary, which caches need on an answer it compressed.
async fn vary_encoding<S, ResB, E>(service: &S, ctx: WebContext<'_, AppState>) -> Result<WebResponse<ResB>, E>
where
    S: for<'r> Service<WebContext<'r, AppState>, Response = WebResponse<ResB>, Error = E>,
{
    let mut response = service.call(ctx).await?;
    if response.headers().contains_key(CONTENT_ENCODING) {
        response.headers_mut().append(VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(response)
}

fn main() -> std::io::Result<()> {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("xitca-web-shootout: {error}");
        std::process::exit(2);
    });
    let state: AppState = Arc::new(State { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    let server = App::new()
        .with_state(state)
        .at("/plaintext", get(handler_service(plaintext)))
        .at("/json", get(handler_service(json)))
        .at("/json-comp", get(handler_service(json_comp)))
        .at("/upload", post(handler_service(upload)))
        .at("/db", get(handler_service(db)))
        .at("/queries", get(handler_service(queries)))
        .at("/updates", get(handler_service(updates)))
        .at("/fortunes", get(handler_service(fortunes)))
        .at("/cached-queries", get(handler_service(cached)))
        .at("/session", get(handler_service(session)))
        .at("/hash", get(handler_service(hash)))
        .at("/ws", get(handler_service(websocket)))
        // xitca-web's ServeDir maps the request path onto the directory, so it is mounted at the root as in
        // xitca-web's file example: a path that no route above matches is looked up under STATIC_DIR.
        .at("/", ServeDir::new(env.static_dir.clone()))
        // xitca-web's response compression on the whole App, as its docs enclose it: the coding from
        // Accept-Encoding, flate2's fast level (http-encoding's), bodies of known size from 64 bytes.
        .enclosed(Compress)
        .enclosed_fn(vary_encoding)
        .enclosed_fn(server_header)
        .serve()
        // WORKERS worker threads, each a single-threaded tokio runtime accepting on the shared listener.
        .worker_threads(env.workers);
    let server = match &env.tls {
        // bind_rustls adds ALPN h2 and http/1.1 (http1 and http2 features) to the config.
        Some(tls) => {
            let config = tls.rustls_config().unwrap_or_else(|error| {
                eprintln!("xitca-web-shootout: {error}");
                std::process::exit(1);
            });
            server.bind_rustls(env.address, config)?
        }
        // h2c_prior_knowledge: the cleartext listener peeks for HTTP/2's preface and serves either protocol.
        None => server.h2c_prior_knowledge().bind(env.address)?,
    };
    let mode = if env.tls.is_some() { " (TLS)" } else { "" };
    eprintln!("xitca-web-shootout listening{mode} on {} with {} workers", env.address, env.workers);
    server.run().wait()
}
