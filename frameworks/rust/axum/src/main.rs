//! webshootout workloads on axum (see docs/workloads.md).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::{
    Json, Router,
    body::Bytes,
    extract::{
        DefaultBodyLimit, Path, Query, State,
        ws::{Message, WebSocket, WebSocketUpgrade},
    },
    http::{HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
    routing::{get, post},
};
use axum::serve::ListenerExt;
use axum_server::accept::NoDelayAcceptor;
use axum_server::tls_rustls::{RustlsAcceptor, RustlsConfig};
use serde::Serialize;
use shootout_common::crud::{self, NewItem, PageQuery, Refusal};
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, ItemsQuery, Pool, World};
use tower_http::{compression::CompressionLayer, services::ServeDir, set_header::SetResponseHeaderLayer};

#[derive(Clone)]
struct App {
    pool: Pool,
    hash_file: String,
    cache: Arc<WorldCache>,
}

#[derive(Serialize)]
struct Message_ {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500 with the reason, so a broken run is visible.
struct Fault(String);

impl IntoResponse for Fault {
    fn into_response(self) -> Response {
        (StatusCode::INTERNAL_SERVER_ERROR, self.0).into_response()
    }
}

impl<E: std::fmt::Display> From<E> for Fault {
    fn from(error: E) -> Self {
        Fault(error.to_string())
    }
}

async fn plaintext() -> &'static str {
    "Hello, World!"
}

async fn json() -> Json<Message_> {
    Json(Message_ { message: "Hello, World!" })
}

/// tokio's timer: the worker thread runs other tasks while this one waits.
async fn wait() -> &'static str {
    tokio::time::sleep(Duration::from_millis(15)).await;
    "Hello, World!"
}

/// Compressed by the router's CompressionLayer (gzip or br as Accept-Encoding asks, with Vary).
async fn json_comp(Query(query): Query<ItemsQuery>) -> Response {
    match workloads::parse_items(query.n.as_deref()) {
        Ok(n) => Json(workloads::items(n)).into_response(),
        Err(reason) => (StatusCode::BAD_REQUEST, reason).into_response(),
    }
}

/// The body through axum's Bytes extractor, bounded by the DefaultBodyLimit layer (a larger body is answered
/// 413); hyper decodes a chunked body before it.
async fn upload(body: Bytes) -> String {
    workloads::upload_answer(&body)
}

async fn db(State(app): State<App>) -> Result<Json<workloads::World>, Fault> {
    Ok(Json(workloads::random_world(&app.pool).await?))
}

async fn queries(State(app): State<App>, Query(query): Query<QueriesQuery>) -> Result<Json<Vec<World>>, Fault> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::queries(&app.pool, n).await?))
}

async fn updates(State(app): State<App>, Query(query): Query<QueriesQuery>) -> Result<Json<Vec<World>>, Fault> {
    let n = techempower::count(query.queries.as_deref());
    Ok(Json(techempower::updates(&app.pool, n).await?))
}

async fn fortunes(State(app): State<App>) -> Result<Html<String>, Fault> {
    Ok(Html(techempower::fortunes(&app.pool).await?.render()?))
}

async fn cached(State(app): State<App>, Query(query): Query<CountQuery>) -> Result<Json<Vec<World>>, Fault> {
    let n = techempower::count(query.count.as_deref());
    Ok(Json(app.cache.sample(&app.pool, n).await?))
}

async fn session(State(app): State<App>, headers: axum::http::HeaderMap) -> Result<Response, Fault> {
    let known = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(workloads::uid_from_cookie_header);
    let visit = workloads::bump(&app.pool, known.as_deref()).await?;
    let body = format!("Count is {}", visit.count);
    Ok(match visit.fresh_uid {
        Some(uid) => ([(header::SET_COOKIE, workloads::set_cookie(&uid))], body).into_response(),
        None => body.into_response(),
    })
}

async fn hash(State(app): State<App>, Query(query): Query<HashQuery>) -> Result<Response, Fault> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok((StatusCode::BAD_REQUEST, reason).into_response()),
    };
    let data = tokio::fs::read(&app.hash_file).await?;
    Ok(workloads::iterated_sha256_hex(&data, n).into_response())
}

async fn read_item(State(app): State<App>, Path(id): Path<i32>) -> Result<Response, Fault> {
    Ok(match crud::read(&app.pool, id).await? {
        Some(item) => Json(item).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

async fn list_items(State(app): State<App>, Query(query): Query<PageQuery>) -> Result<Response, Fault> {
    let page = match crud::page(query.page.as_deref(), query.size.as_deref()) {
        Ok(page) => page,
        Err(error) => return Ok((StatusCode::BAD_REQUEST, Json(Refusal { error })).into_response()),
    };
    Ok(Json(crud::list(&app.pool, page).await?).into_response())
}

/// axum's Json extractor already answers as the contract asks: 400 for a body that is not JSON (its
/// JsonSyntaxError), 422 for JSON of the wrong shape (JsonDataError), before the handler runs.
async fn create_item(State(app): State<App>, Json(new): Json<NewItem>) -> Result<Response, Fault> {
    let item = crud::create(&app.pool, &new).await?;
    let location = format!("/items/{}", item.id);
    Ok((StatusCode::CREATED, [(header::LOCATION, location)], Json(item)).into_response())
}

async fn update_item(State(app): State<App>, Path(id): Path<i32>, Json(new): Json<NewItem>) -> Result<Response, Fault> {
    Ok(match crud::update(&app.pool, id, &new).await? {
        Some(item) => Json(item).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    })
}

async fn delete_item(State(app): State<App>, Path(id): Path<i32>) -> Result<StatusCode, Fault> {
    Ok(match crud::delete(&app.pool, id).await? {
        true => StatusCode::NO_CONTENT,
        false => StatusCode::NOT_FOUND,
    })
}

async fn websocket(upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(echo)
}

async fn echo(mut socket: WebSocket) {
    while let Some(Ok(message)) = socket.recv().await {
        let reply = match message {
            Message::Text(_) | Message::Binary(_) => message,
            Message::Close(_) => return,
            // axum answers pings itself; pongs need no answer.
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if socket.send(reply).await.is_err() {
            return;
        }
    }
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("axum-shootout: {error}");
        std::process::exit(2);
    });
    runtime::block_on(env.workers, serve(env));
}

async fn serve(env: Env) {
    let app = App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: Arc::default() };
    let router = Router::new()
        .route("/plaintext", get(plaintext))
        .route("/json", get(json))
        .route("/async", get(wait))
        .route("/json-comp", get(json_comp))
        .route("/upload", post(upload))
        .route("/db", get(db))
        .route("/queries", get(queries))
        .route("/updates", get(updates))
        .route("/fortunes", get(fortunes))
        .route("/cached-queries", get(cached))
        .route("/session", get(session))
        .route("/hash", get(hash))
        .route("/ws", get(websocket))
        .route("/items", get(list_items).post(create_item))
        .route("/items/{id}", get(read_item).put(update_item).delete(delete_item))
        .nest_service("/static", ServeDir::new(&env.static_dir))
        // Bytes' limit, set as axum's docs say (DefaultBodyLimit::max), to the contract's 2 MiB.
        .layer(DefaultBodyLimit::max(workloads::BODY_LIMIT))
        // tower-http's response compression on the whole router, as axum's examples apply it: its default level
        // and DefaultPredicate (bodies of 32 bytes and more, no images, gRPC or event streams), Vary added.
        .layer(CompressionLayer::new())
        // hyper sets a current Date itself (cached, refreshed each second); a Server header is left to the
        // application, and tower-http's layer is the way axum's ecosystem adds one to every response.
        .layer(SetResponseHeaderLayer::overriding(header::SERVER, HeaderValue::from_static("axum")))
        .with_state(app);
    let address: SocketAddr = env.address;
    if let Some(tls) = &env.tls {
        // axum's documented TLS path (its tls-rustls example): axum-server over rustls, whose config
        // offers h2 and http/1.1 by ALPN; hyper-util's auto builder serves either.
        let config = RustlsConfig::from_pem_file(&tls.cert, &tls.key).await.unwrap_or_else(|error| {
            eprintln!("axum-shootout: cannot load TLS_CERT/TLS_KEY: {error}");
            std::process::exit(1);
        });
        eprintln!("axum-shootout listening (TLS) on {address} with {} worker threads", env.workers);
        // TCP_NODELAY, as on the cleartext listener below: axum-server's own acceptor for it, inside rustls's.
        let acceptor = RustlsAcceptor::new(config).acceptor(NoDelayAcceptor::new());
        axum_server::bind(address).acceptor(acceptor).serve(router.into_make_service()).await.expect("server");
        return;
    }
    let listener = tokio::net::TcpListener::bind(address).await.unwrap_or_else(|error| {
        eprintln!("axum-shootout: cannot listen on {address}: {error}");
        std::process::exit(1);
    });
    eprintln!("axum-shootout listening on {address} with {} worker threads", env.workers);
    // axum::serve leaves Nagle's algorithm on; with it, an HTTP/2 answer whose DATA frame is written after its
    // HEADERS (a file's body is read after the headers go) waits for the client's delayed ACK, ~40 ms.
    // TCP_NODELAY on every accepted socket, the way axum's ListenerExt documents.
    let listener = listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            eprintln!("axum-shootout: cannot set TCP_NODELAY: {error}");
        }
    });
    axum::serve(listener, router).await.expect("server");
}
