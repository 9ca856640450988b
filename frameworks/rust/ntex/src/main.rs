//! webshootout workloads on ntex 3 (see docs/workloads.md): WORKERS workers, each a single-threaded
//! tokio runtime (ntex's `tokio` feature), like actix.
// Three nested middlewares (DefaultHeaders, Vary, Compress) make the server future's type deeper than rustc's
// default query depth of 128; rustc's own advice is to raise the limit.
#![recursion_limit = "256"]

mod vary;

use std::sync::Arc;

use ntex::http::header::{self, HeaderValue};
use ntex::http::{HttpMessage, StatusCode};
use ntex::service::{fn_factory_with_config, fn_service};
use ntex::web::{self, HttpRequest, HttpResponse, types, ws};
use ntex::time::Seconds;
use ntex::util::{ByteString, Bytes};
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, ItemsQuery, Pool, SESSION_COOKIE, World};

const TEXT: &str = "text/plain; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

type AppState = types::State<Arc<App>>;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500 with the reason, so a broken run is visible.
#[derive(Debug)]
struct Fault(String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl web::WebResponseError for Fault {}

fn fault(error: impl std::fmt::Display) -> Fault {
    Fault(error.to_string())
}

#[web::get("/plaintext")]
async fn plaintext() -> HttpResponse {
    HttpResponse::Ok().content_type(TEXT).body("Hello, World!")
}

#[web::get("/json")]
async fn json() -> types::Json<Message> {
    types::Json(Message { message: "Hello, World!" })
}

/// Compressed by the App's Compress middleware (gzip or deflate as Accept-Encoding asks).
#[web::get("/json-comp")]
async fn json_comp(query: types::Query<ItemsQuery>) -> HttpResponse {
    match workloads::parse_items(query.n.as_deref()) {
        Ok(n) => HttpResponse::Ok().json(&workloads::items(n)),
        Err(reason) => HttpResponse::build(StatusCode::BAD_REQUEST).content_type(TEXT).body(reason),
    }
}

/// The body through ntex's Bytes extractor, whose limit is the PayloadConfig in the App's state (a larger body
/// is answered 413); ntex's h1 codec decodes a chunked body before it.
#[web::post("/upload")]
async fn upload(body: Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type(TEXT).body(workloads::upload_answer(&body))
}

#[web::get("/db")]
async fn db(app: AppState) -> Result<types::Json<World>, Fault> {
    Ok(types::Json(workloads::random_world(&app.pool).await.map_err(fault)?))
}

#[web::get("/queries")]
async fn queries(app: AppState, query: types::Query<QueriesQuery>) -> Result<types::Json<Vec<World>>, Fault> {
    let n = techempower::count(query.queries.as_deref());
    Ok(types::Json(techempower::queries(&app.pool, n).await.map_err(fault)?))
}

#[web::get("/updates")]
async fn updates(app: AppState, query: types::Query<QueriesQuery>) -> Result<types::Json<Vec<World>>, Fault> {
    let n = techempower::count(query.queries.as_deref());
    Ok(types::Json(techempower::updates(&app.pool, n).await.map_err(fault)?))
}

#[web::get("/fortunes")]
async fn fortunes(app: AppState) -> Result<HttpResponse, Fault> {
    let page = techempower::fortunes(&app.pool).await.map_err(fault)?;
    Ok(HttpResponse::Ok().content_type(HTML).body(page.render().map_err(fault)?))
}

#[web::get("/cached-queries")]
async fn cached(app: AppState, query: types::Query<CountQuery>) -> Result<types::Json<Vec<World>>, Fault> {
    let n = techempower::count(query.count.as_deref());
    Ok(types::Json(app.cache.sample(&app.pool, n).await.map_err(fault)?))
}

#[web::get("/session")]
async fn session(req: HttpRequest, app: AppState) -> Result<HttpResponse, Fault> {
    let known = req.cookie(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(fault)?;
    let mut response = HttpResponse::Ok();
    if let Some(uid) = visit.fresh_uid {
        response.header(header::SET_COOKIE, workloads::set_cookie(&uid));
    }
    Ok(response.content_type(TEXT).body(format!("Count is {}", visit.count)))
}

#[web::get("/hash")]
async fn hash(app: AppState, query: types::Query<HashQuery>) -> Result<HttpResponse, Fault> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok(HttpResponse::build(StatusCode::BAD_REQUEST).content_type(TEXT).body(reason)),
    };
    let data = tokio::fs::read(&app.hash_file).await.map_err(fault)?;
    Ok(HttpResponse::Ok().content_type(TEXT).body(workloads::iterated_sha256_hex(&data, n)))
}

/// One frame in, its answer out: text and binary echoed, pings answered, a close returned.
async fn echo(frame: ws::Frame) -> Result<Option<ws::Message>, std::io::Error> {
    Ok(match frame {
        ws::Frame::Text(text) => match ByteString::try_from(text) {
            Ok(text) => Some(ws::Message::Text(text)),
            Err(_) => Some(ws::Message::Close(Some(ws::CloseCode::Invalid.into()))),
        },
        ws::Frame::Binary(data) => Some(ws::Message::Binary(data)),
        ws::Frame::Ping(data) => Some(ws::Message::Pong(data)),
        ws::Frame::Close(reason) => Some(ws::Message::Close(reason)),
        _ => None,
    })
}

#[web::get("/ws")]
async fn websocket(req: HttpRequest) -> Result<HttpResponse, web::Error> {
    ws::start::<_, _, &str, web::Error>(req, None, fn_factory_with_config(|_| async { Ok::<_, web::Error>(fn_service(echo)) }))
        .await
}

#[ntex::main]
async fn main() -> std::io::Result<()> {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("ntex-shootout: {error}");
        std::process::exit(2);
    });
    let app = Arc::new(App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    let static_dir = env.static_dir.clone();
    eprintln!("ntex-shootout listening on {} with {} workers", env.address, env.workers);
    let server = web::HttpServer::new(async move || {
        // ntex sets a current Date itself; the Server header is the application's, and
        // DefaultHeaders is ntex's middleware for a header on every response.
        web::App::new()
            .state(app.clone())
            // The Bytes extractor's limit (ntex's default 256 KiB), set as ntex's docs show: 2 MiB.
            .state(types::PayloadConfig::new(workloads::BODY_LIMIT))
            // ntex's response compression on the whole App, as its docs apply it: the coding from Accept-Encoding,
            // flate2's fast level (ntex's), no minimum size; then Vary on what it compressed (src/vary.rs).
            .middleware(web::middleware::Compress::default())
            .middleware(vary::VaryEncoding)
            .middleware(web::middleware::DefaultHeaders::new().header(header::SERVER, HeaderValue::from_static("ntex")))
            .service((plaintext, json, json_comp, upload, db, queries, updates, fortunes, cached, session, hash, websocket))
            .service(ntex_files::Files::new("/static", &static_dir))
    })
    .workers(env.workers)
    // ntex waits up to 30 s by default for connections still open at a stop signal (a client's idle kept-alive
    // or HTTP/2 connection holds it that long); the harness kills a server 10 s after SIGTERM (docs/method.md).
    .shutdown_timeout(Seconds(5));
    // bind_rustls sets the config's ALPN to h2 and http/1.1 and serves whichever the client picks.
    let server = match &env.tls {
        Some(tls) => {
            let config = tls.rustls_config().map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error))?;
            server.bind_rustls(env.address, &config)?
        }
        None => server.bind(env.address)?,
    };
    server.run().await
}
