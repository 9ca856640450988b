//! webshootout workloads on poem 3 (see docs/workloads.md).

mod nodelay;
mod tls;

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use poem::{
    Body, EndpointExt, IntoResponse, Request, Response, Route, Server, get, handler, post,
    endpoint::StaticFilesEndpoint,
    http::{HeaderValue, StatusCode, header},
    listener::{Listener, TcpListener},
    middleware::{Compression, SetHeader},
    web::{
        Data, Html, Json, Query,
        websocket::{Message, WebSocket},
    },
};
use serde::Serialize;
use nodelay::NoDelay;
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, ItemsQuery, Pool, World};

const TEXT: &str = "text/plain; charset=utf-8";

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

#[derive(Serialize)]
struct Message_ {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500 with the reason, so a broken run is visible.
fn fault(error: impl std::fmt::Display) -> poem::Error {
    poem::Error::from_string(error.to_string(), StatusCode::INTERNAL_SERVER_ERROR)
}

#[handler]
fn plaintext() -> &'static str {
    "Hello, World!"
}

#[handler]
fn json() -> Json<Message_> {
    Json(Message_ { message: "Hello, World!" })
}

/// Compressed by the Compression middleware on the routes (gzip or br as Accept-Encoding asks).
#[handler]
fn json_comp(Query(query): Query<ItemsQuery>) -> Response {
    match workloads::parse_items(query.n.as_deref()) {
        Ok(n) => Json(workloads::items(n)).into_response(),
        Err(reason) => reason.with_status(StatusCode::BAD_REQUEST).into_response(),
    }
}

/// The body read whole by poem's Body::into_bytes_limit, poem's documented limit (SizeLimit, its middleware,
/// refuses every chunked body with 411): over 2 MiB it stops reading and answers 413. hyper decodes chunked.
#[handler]
async fn upload(body: Body) -> poem::Result<String> {
    let body = body.into_bytes_limit(workloads::BODY_LIMIT).await?;
    Ok(workloads::upload_answer(&body))
}

#[handler]
async fn db(Data(app): Data<&Arc<App>>) -> poem::Result<Json<World>> {
    Ok(Json(workloads::random_world(&app.pool).await.map_err(fault)?))
}

#[handler]
async fn queries(Data(app): Data<&Arc<App>>, Query(query): Query<QueriesQuery>) -> poem::Result<Json<Vec<World>>> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::queries(&app.pool, n).await.map_err(fault)?))
}

#[handler]
async fn updates(Data(app): Data<&Arc<App>>, Query(query): Query<QueriesQuery>) -> poem::Result<Json<Vec<World>>> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::updates(&app.pool, n).await.map_err(fault)?))
}

#[handler]
async fn fortunes(Data(app): Data<&Arc<App>>) -> poem::Result<Html<String>> {
    let page = techempower::fortunes(&app.pool).await.map_err(fault)?;
    Ok(Html(page.render().map_err(fault)?))
}

#[handler]
async fn cached(Data(app): Data<&Arc<App>>, Query(query): Query<CountQuery>) -> poem::Result<Json<Vec<World>>> {
    let n = techempower::count(query.count.as_deref());
    Ok(Json(app.cache.sample(&app.pool, n).await.map_err(fault)?))
}

// poem's CookieJar needs its `cookie` feature (chrono, time, and a cookie crate of its own);
// one plain cookie is read from the header with the shared parser instead.
#[handler]
async fn session(request: &Request, Data(app): Data<&Arc<App>>) -> poem::Result<Response> {
    let known = request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(workloads::uid_from_cookie_header);
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(fault)?;
    let mut response = Response::builder().content_type(TEXT);
    if let Some(uid) = visit.fresh_uid {
        response = response.header(header::SET_COOKIE, workloads::set_cookie(&uid));
    }
    Ok(response.body(format!("Count is {}", visit.count)))
}

#[handler]
async fn hash(Data(app): Data<&Arc<App>>, Query(query): Query<HashQuery>) -> poem::Result<Response> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok(reason.with_status(StatusCode::BAD_REQUEST).into_response()),
    };
    let data = tokio::fs::read(&app.hash_file).await.map_err(fault)?;
    Ok(workloads::iterated_sha256_hex(&data, n).into_response())
}

#[handler]
fn websocket(upgrade: WebSocket) -> impl IntoResponse {
    upgrade.on_upgrade(|socket| async move {
        let (mut sink, mut stream) = socket.split();
        while let Some(Ok(message)) = stream.next().await {
            let reply = match message {
                Message::Text(_) | Message::Binary(_) => message,
                Message::Close(_) => return,
                // poem's websocket answers pings itself.
                _ => continue,
            };
            if sink.send(reply).await.is_err() {
                return;
            }
        }
    })
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("poem-shootout: {error}");
        std::process::exit(2);
    });
    runtime::block_on(env.workers, serve(env));
}

async fn serve(env: Env) {
    let app = Arc::new(App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    let routes = Route::new()
        .at("/plaintext", get(plaintext))
        .at("/json", get(json))
        .at("/json-comp", get(json_comp))
        .at("/upload", post(upload))
        .at("/db", get(db))
        .at("/queries", get(queries))
        .at("/updates", get(updates))
        .at("/fortunes", get(fortunes))
        .at("/cached-queries", get(cached))
        .at("/session", get(session))
        .at("/hash", get(hash))
        .at("/ws", get(websocket))
        .nest("/static", StaticFilesEndpoint::new(&env.static_dir))
        // poem's response compression on every route, as its docs apply it: the coding from Accept-Encoding,
        // async-compression's default level for gzip (Fastest for br, poem's choice).
        .with(Compression::new())
        // poem's Compression sets Content-Encoding but not Vary, which caches need on what it compressed.
        .after(|answer: poem::Result<Response>| async move {
            answer.map(|mut response| {
                if response.headers().contains_key(header::CONTENT_ENCODING) {
                    response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
                }
                response
            })
        })
        // hyper, under poem, sets a current Date itself; the Server header is left to the
        // application, and SetHeader is poem's middleware for a header on every response.
        .with(SetHeader::new().overriding(header::SERVER, "poem"))
        .data(app);
    let tcp = TcpListener::bind(env.address).into_acceptor().await.map(NoDelay).unwrap_or_else(|error| {
        eprintln!("poem-shootout: cannot listen on {}: {error}", env.address);
        std::process::exit(1);
    });
    let served = match &env.tls {
        Some(tls) => {
            let config = tls.rustls_config().unwrap_or_else(|error| {
                eprintln!("poem-shootout: {error}");
                std::process::exit(1);
            });
            eprintln!("poem-shootout listening (TLS) on {} with {} worker threads", env.address, env.workers);
            Server::new_with_acceptor(tls::RustlsAcceptor::new(tcp, config)).run(routes).await
        }
        None => {
            // poem serves with hyper-util's auto builder: HTTP/1.1, and h2c with prior knowledge.
            eprintln!("poem-shootout listening on {} with {} worker threads", env.address, env.workers);
            Server::new_with_acceptor(tcp).run(routes).await
        }
    };
    if let Err(error) = served {
        eprintln!("poem-shootout: cannot serve on {}: {error}", env.address);
        std::process::exit(1);
    }
}
