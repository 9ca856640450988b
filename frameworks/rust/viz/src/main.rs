//! webshootout workloads on viz (see docs/workloads.md).

mod listener;

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, ItemsQuery, Pool, SESSION_COOKIE};
use viz::handlers::serve::Dir;
use viz::header::{CONTENT_ENCODING, HeaderValue, SERVER, VARY};
use viz::middleware::{compression, cookie, limits};
use viz::types::{Cookie, Cookies, Limits, Message, Query, SameSite, State, WebSocket};
use viz::{
    Error, Handler, HandlerExt, IntoHandler, IntoResponse, Next, Request, RequestLimitsExt, Response, ResponseExt, Result,
    Router, StatusCode,
};

use crate::listener::{NoDelay, Tls};

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

type AppState = State<Arc<App>>;

#[derive(Serialize)]
struct Hello {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500 with the reason (viz's Error::Boxed), so a broken run is visible.
fn fault(error: impl std::fmt::Display) -> Error {
    Error::boxed(error.to_string())
}

async fn plaintext(_: Request) -> Result<&'static str> {
    Ok("Hello, World!")
}

async fn json(_: Request) -> Result<Response> {
    Ok(Response::json(Hello { message: "Hello, World!" })?)
}

/// Compressed by viz's compression middleware on the router (gzip, br or deflate as Accept-Encoding asks).
async fn json_comp(Query(query): Query<ItemsQuery>) -> Result<Response> {
    match workloads::parse_items(query.n.as_deref()) {
        Ok(n) => Ok(Response::json(workloads::items(n))?),
        Err(reason) => Ok((StatusCode::BAD_REQUEST, reason).into_response()),
    }
}

/// The body read whole by viz's RequestLimitsExt::bytes_with, under the "bytes" limit the limits middleware on the
/// router sets (413 past it), as viz's own text_with_limit reads; hyper decodes a chunked body before it.
async fn upload(mut req: Request) -> Result<String> {
    let limit = req.limits().get("bytes");
    let body = req.bytes_with(limit, Limits::NORMAL).await?;
    Ok(workloads::upload_answer(&body))
}

async fn db(State(app): AppState) -> Result<Response> {
    Ok(Response::json(workloads::random_world(&app.pool).await.map_err(fault)?)?)
}

async fn queries(State(app): AppState, Query(query): Query<QueriesQuery>) -> Result<Response> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Response::json(techempower::queries(&app.pool, n).await.map_err(fault)?)?)
}

async fn updates(State(app): AppState, Query(query): Query<QueriesQuery>) -> Result<Response> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Response::json(techempower::updates(&app.pool, n).await.map_err(fault)?)?)
}

async fn fortunes(State(app): AppState) -> Result<Response> {
    let page = techempower::fortunes(&app.pool).await.map_err(fault)?;
    Ok(Response::html(page.render().map_err(fault)?))
}

async fn cached(State(app): AppState, Query(query): Query<CountQuery>) -> Result<Response> {
    let n = techempower::count(query.count.as_deref());
    Ok(Response::json(app.cache.sample(&app.pool, n).await.map_err(fault)?)?)
}

/// The uid through viz's Cookies (the cookie middleware on this route parses Cookie and writes the jar's
/// new cookies as Set-Cookie).
async fn session(State(app): AppState, cookies: Cookies) -> Result<String> {
    let known = cookies.get(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(fault)?;
    if let Some(uid) = visit.fresh_uid {
        cookies.add(Cookie::build((SESSION_COOKIE, uid)).path("/").http_only(true).same_site(SameSite::Lax).build());
    }
    Ok(format!("Count is {}", visit.count))
}

async fn hash(State(app): AppState, Query(query): Query<HashQuery>) -> Result<Response> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok((StatusCode::BAD_REQUEST, reason).into_response()),
    };
    let data = tokio::fs::read(&app.hash_file).await?;
    Ok(workloads::iterated_sha256_hex(&data, n).into_response())
}

/// viz's WebSocket extractor answers the upgrade; the echo runs on tokio-tungstenite's stream it hands over.
async fn websocket(ws: WebSocket) -> Result<Response> {
    Ok(ws.on_upgrade(|mut socket| async move {
        while let Some(Ok(message)) = socket.next().await {
            match message {
                Message::Text(_) | Message::Binary(_) => {
                    if socket.send(message).await.is_err() {
                        return;
                    }
                }
                Message::Close(_) => return,
                // tungstenite queues the pong to a ping itself and sends it with the next write or read.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }))
}

/// hyper, under viz, writes a current Date; a Server header is the application's, added by this router-level
/// middleware (viz's with_handler) to every routed answer, errors included.
async fn server_header<H>((request, handler): Next<Request, H>) -> Result<Response>
where
    H: Handler<Request, Output = Result<Response>>,
{
    let mut response = handler.call(request).await.unwrap_or_else(IntoResponse::into_response);
    response.headers_mut().insert(SERVER, HeaderValue::from_static("viz"));
    Ok(response)
}

/// viz's compression middleware sets Content-Encoding but no Vary, which caches need on an answer it compressed.
async fn vary_encoding<H>((request, handler): Next<Request, H>) -> Result<Response>
where
    H: Handler<Request, Output = Result<Response>>,
{
    let mut response = handler.call(request).await?;
    if response.headers().contains_key(CONTENT_ENCODING) {
        response.headers_mut().append(VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(response)
}

fn router(env: &Env) -> Router {
    let app = Arc::new(App { pool: workloads::pool(env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    Router::new()
        .get("/plaintext", plaintext)
        .get("/json", json)
        .get("/json-comp", json_comp.into_handler())
        .post("/upload", upload)
        .get("/db", db.into_handler())
        .get("/queries", queries.into_handler())
        .get("/updates", updates.into_handler())
        .get("/fortunes", fortunes.into_handler())
        .get("/cached-queries", cached.into_handler())
        .get("/session", session.into_handler().with(cookie::Config::default()))
        .get("/hash", hash.into_handler())
        .get("/ws", websocket.into_handler())
        // viz-handlers' Dir (serve feature) takes the path below /static/ from the route's one parameter.
        .get("/static/*", Dir::new(&env.static_dir))
        // `with` and `with_handler` wrap the routes added above them.
        .with(State::new(app))
        // viz's Limits (its limits middleware): "bytes", RequestLimitsExt's name for a raw body (8 KiB by default),
        // set to the contract's 2 MiB.
        .with(limits::Config::new().limits(Limits::default().set("bytes", workloads::BODY_LIMIT as u64)))
        // viz's response compression on every route: the coding from Accept-Encoding, async-compression's default
        // level; then Vary on what it compressed.
        .with(compression::Config)
        .with_handler(vary_encoding)
        .with_handler(server_header)
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("viz-shootout: {error}");
        std::process::exit(2);
    });
    runtime::block_on(env.workers, serve(env));
}

async fn serve(env: Env) {
    let app = router(&env);
    let tcp = tokio::net::TcpListener::bind(env.address).await.unwrap_or_else(|error| {
        eprintln!("viz-shootout: cannot listen on {}: {error}", env.address);
        std::process::exit(1);
    });
    let tcp = NoDelay(tcp);
    let mode = if env.tls.is_some() { " (TLS)" } else { "" };
    eprintln!("viz-shootout listening{mode} on {} with {} worker threads", env.address, env.workers);
    // viz::serve: hyper-util's auto builder, one task per connection, HTTP/1.1 and HTTP/2 (h2c by its preface
    // in cleartext, h2 by ALPN over TLS).
    let served = match &env.tls {
        Some(tls) => {
            let config = tls.rustls_config().unwrap_or_else(|error| {
                eprintln!("viz-shootout: {error}");
                std::process::exit(1);
            });
            viz::serve(Tls::new(tcp, config), app).await
        }
        None => viz::serve(tcp, app).await,
    };
    if let Err(error) = served {
        eprintln!("viz-shootout: {error}");
        std::process::exit(1);
    }
}
