//! webshootout workloads on actix-web 4 (see docs/workloads.md).

use std::io::ErrorKind;
use std::time::Duration;

use actix_web::{
    App, HttpRequest, HttpResponse, HttpServer, Responder, delete, error, get, post, put,
    cookie::{Cookie, SameSite},
    http::{StatusCode, header},
    middleware::{Compress, DefaultHeaders},
    web,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
use serde::Serialize;
use shootout_common::crud::{self, NewItem, PageQuery, Refusal};
use shootout_common::env::{Env, Tls};
use shootout_common::techempower::{self, CountQuery, QueriesQuery, Template, WorldCache};
use shootout_common::workloads::{self, HashQuery, ItemsQuery, Pool, SESSION_COOKIE, World};

const TEXT: &str = "text/plain; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";

struct AppData {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// Any failure below is a server fault: answered 500 with the reason, so a broken run is visible.
fn fault<E: std::fmt::Debug + std::fmt::Display + 'static>(error: E) -> actix_web::Error {
    error::ErrorInternalServerError(error)
}

#[get("/plaintext")]
async fn plaintext() -> &'static str {
    "Hello, World!"
}

#[get("/json")]
async fn json() -> web::Json<Message> {
    web::Json(Message { message: "Hello, World!" })
}

/// actix-rt's timer (tokio's, on this worker's runtime): the worker serves other requests while this one waits.
#[get("/async")]
async fn wait() -> &'static str {
    actix_web::rt::time::sleep(Duration::from_millis(15)).await;
    "Hello, World!"
}

/// Compressed by the app-wide Compress middleware (gzip or br as Accept-Encoding asks, with Vary).
#[get("/json-comp")]
async fn json_comp(query: web::Query<ItemsQuery>) -> HttpResponse {
    match workloads::parse_items(query.n.as_deref()) {
        Ok(n) => HttpResponse::Ok().json(workloads::items(n)),
        Err(reason) => HttpResponse::build(StatusCode::BAD_REQUEST).content_type(TEXT).body(reason),
    }
}

/// The body through actix-web's Bytes extractor, whose limit is the PayloadConfig in main (a larger body is
/// answered 413); chunked bodies are decoded by actix-http before it.
#[post("/upload")]
async fn upload(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type(TEXT).body(workloads::upload_answer(&body))
}

#[get("/db")]
async fn db(data: web::Data<AppData>) -> Result<web::Json<workloads::World>, actix_web::Error> {
    Ok(web::Json(workloads::random_world(&data.pool).await.map_err(fault)?))
}

#[get("/queries")]
async fn queries(data: web::Data<AppData>, query: web::Query<QueriesQuery>) -> Result<web::Json<Vec<World>>, actix_web::Error> {
    let n = techempower::count(query.queries.as_deref());
    Ok(web::Json(techempower::queries(&data.pool, n).await.map_err(fault)?))
}

#[get("/updates")]
async fn updates(data: web::Data<AppData>, query: web::Query<QueriesQuery>) -> Result<web::Json<Vec<World>>, actix_web::Error> {
    let n = techempower::count(query.queries.as_deref());
    Ok(web::Json(techempower::updates(&data.pool, n).await.map_err(fault)?))
}

#[get("/fortunes")]
async fn fortunes(data: web::Data<AppData>) -> Result<HttpResponse, actix_web::Error> {
    let page = techempower::fortunes(&data.pool).await.map_err(fault)?;
    Ok(HttpResponse::Ok().content_type(HTML).body(page.render().map_err(fault)?))
}

#[get("/cached-queries")]
async fn cached(data: web::Data<AppData>, query: web::Query<CountQuery>) -> Result<web::Json<Vec<World>>, actix_web::Error> {
    let n = techempower::count(query.count.as_deref());
    Ok(web::Json(data.cache.sample(&data.pool, n).await.map_err(fault)?))
}

#[get("/session")]
async fn session(req: HttpRequest, data: web::Data<AppData>) -> Result<HttpResponse, actix_web::Error> {
    let known = req.cookie(SESSION_COOKIE).map(|cookie| cookie.value().to_owned());
    let visit = workloads::bump(&data.pool, known.as_deref().filter(|uid| !uid.is_empty())).await.map_err(fault)?;
    let mut response = HttpResponse::Ok();
    if let Some(uid) = visit.fresh_uid {
        response.cookie(Cookie::build(SESSION_COOKIE, uid).path("/").http_only(true).same_site(SameSite::Lax).finish());
    }
    Ok(response.content_type(TEXT).body(format!("Count is {}", visit.count)))
}

#[get("/hash")]
async fn hash(data: web::Data<AppData>, query: web::Query<HashQuery>) -> Result<HttpResponse, actix_web::Error> {
    let n = match workloads::parse_n(query.n.as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok(HttpResponse::build(StatusCode::BAD_REQUEST).content_type(TEXT).body(reason)),
    };
    let bytes = tokio::fs::read(&data.hash_file).await.map_err(fault)?;
    Ok(HttpResponse::Ok().content_type(TEXT).body(workloads::iterated_sha256_hex(&bytes, n)))
}

#[get("/items/{id}")]
async fn read_item(data: web::Data<AppData>, id: web::Path<i32>) -> Result<HttpResponse, actix_web::Error> {
    Ok(match crud::read(&data.pool, *id).await.map_err(fault)? {
        Some(item) => HttpResponse::Ok().json(item),
        None => HttpResponse::NotFound().finish(),
    })
}

#[get("/items")]
async fn list_items(data: web::Data<AppData>, query: web::Query<PageQuery>) -> Result<HttpResponse, actix_web::Error> {
    let page = match crud::page(query.page.as_deref(), query.size.as_deref()) {
        Ok(page) => page,
        Err(error) => return Ok(HttpResponse::BadRequest().json(Refusal { error })),
    };
    Ok(HttpResponse::Ok().json(crud::list(&data.pool, page).await.map_err(fault)?))
}

/// The body arrives checked by web::Json under the JsonConfig in main (400 or 422 before this runs).
#[post("/items")]
async fn create_item(data: web::Data<AppData>, body: web::Json<NewItem>) -> Result<HttpResponse, actix_web::Error> {
    let item = crud::create(&data.pool, &body).await.map_err(fault)?;
    Ok(HttpResponse::Created().insert_header((header::LOCATION, format!("/items/{}", item.id))).json(item))
}

#[put("/items/{id}")]
async fn update_item(data: web::Data<AppData>, id: web::Path<i32>, body: web::Json<NewItem>) -> Result<HttpResponse, actix_web::Error> {
    Ok(match crud::update(&data.pool, *id, &body).await.map_err(fault)? {
        Some(item) => HttpResponse::Ok().json(item),
        None => HttpResponse::NotFound().finish(),
    })
}

#[delete("/items/{id}")]
async fn delete_item(data: web::Data<AppData>, id: web::Path<i32>) -> Result<HttpResponse, actix_web::Error> {
    Ok(match crud::delete(&data.pool, *id).await.map_err(fault)? {
        true => HttpResponse::NoContent().finish(),
        false => HttpResponse::NotFound().finish(),
    })
}

/// web::Json answers every body it cannot deserialize 400; the contract tells a body of the wrong shape (valid
/// JSON, serde's data error) from one that is not JSON, and actix-web's JsonConfig error handler is where an
/// application sets the status of that refusal.
fn json_refusal(error: error::JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    match &error {
        error::JsonPayloadError::Deserialize(cause) if crud::wrong_shape(cause) => error::ErrorUnprocessableEntity(error),
        _ => error.into(),
    }
}

#[get("/ws")]
async fn websocket(req: HttpRequest, body: web::Payload) -> Result<impl Responder, actix_web::Error> {
    let (response, mut ws, mut messages) = actix_ws::handle(&req, body)?;
    actix_web::rt::spawn(async move {
        while let Some(Ok(message)) = messages.recv().await {
            let sent = match message {
                actix_ws::Message::Text(text) => ws.text(text).await,
                actix_ws::Message::Binary(bytes) => ws.binary(bytes).await,
                actix_ws::Message::Ping(bytes) => ws.pong(&bytes).await,
                actix_ws::Message::Close(reason) => {
                    let _ = ws.close(reason).await;
                    return;
                }
                _ => Ok(()),
            };
            if sent.is_err() {
                return;
            }
        }
    });
    Ok(response)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("actix-shootout: {error}");
        std::process::exit(2);
    });
    let data = web::Data::new(AppData { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    let static_dir = env.static_dir.clone();
    eprintln!("actix-shootout listening on {} with {} workers", env.address, env.workers);
    let server = HttpServer::new(move || {
        // actix-http sets a current Date itself (refreshed by its date service); the Server header
        // it leaves to the application, and DefaultHeaders is actix-web's way to put one on every response.
        App::new()
            .wrap(DefaultHeaders::new().add((header::SERVER, "Actix")))
            // actix-web's response compression, as its docs apply it: on the whole App, the encoding chosen from
            // Accept-Encoding, Vary added, flate2's fast level for gzip (actix-http's default), no minimum size.
            .wrap(Compress::default())
            .app_data(data.clone())
            // The Bytes extractor's limit (default 256 KiB), per actix-web's docs on PayloadConfig: 2 MiB.
            .app_data(web::PayloadConfig::new(workloads::BODY_LIMIT))
            .app_data(web::JsonConfig::default().error_handler(json_refusal))
            .service(plaintext)
            .service(json)
            .service(wait)
            .service(json_comp)
            .service(upload)
            .service(db)
            .service(queries)
            .service(updates)
            .service(fortunes)
            .service(cached)
            .service(session)
            .service(hash)
            .service(websocket)
            .service(read_item)
            .service(list_items)
            .service(create_item)
            .service(update_item)
            .service(delete_item)
            .service(actix_files::Files::new("/static", &static_dir))
    })
    .workers(env.workers)
    // actix keeps the OS default (Nagle on); with it an HTTP/2 answer whose DATA is written after its HEADERS
    // (actix-files streams the file) waits for the client's delayed ACK, ~40 ms per answer.
    .tcp_nodelay(true);
    // actix-http adds "h2" and "http/1.1" to the rustls config's ALPN itself (http2 feature), and on a
    // cleartext listener bind_auto_h2c takes HTTP/2 with prior knowledge beside HTTP/1.x.
    let server = match &env.tls {
        Some(tls) => server.bind_rustls_0_23(env.address, tls_config(tls)?)?,
        None => server.bind_auto_h2c(env.address)?,
    };
    server.run().await
}

/// The rustls server config from the PEM files, as actix-web's rustls example builds it, on ring.
fn tls_config(tls: &Tls) -> std::io::Result<rustls::ServerConfig> {
    let invalid = |error: &dyn std::fmt::Display| std::io::Error::new(ErrorKind::InvalidData, error.to_string());
    let chain = CertificateDer::pem_file_iter(&tls.cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|error| invalid(&format!("TLS_CERT {}: {error}", tls.cert)))?;
    let key =
        PrivateKeyDer::from_pem_file(&tls.key).map_err(|error| invalid(&format!("TLS_KEY {}: {error}", tls.key)))?;
    rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|error| invalid(&error))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|error| invalid(&error))
}
