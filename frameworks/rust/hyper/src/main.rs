//! webshootout workloads on bare hyper 1 (see docs/workloads.md): no framework, hyper's server connection
//! API as hyper's guide (hyper.rs/guides/1/server/hello-world) and hyper-util's auto builder serve it,
//! requests routed by a match on method and path.

use std::convert::Infallible;
use std::io;
use std::path::{Component, Path};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::MapOk;
use futures_util::{SinkExt, StreamExt, TryStreamExt};
use http_body_util::{BodyExt, Either, Full, LengthLimitError, Limited, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::{self, Template, WorldCache};
use shootout_common::workloads::{self, BodyDigest, Pool};
use tower::Layer;
use tower_http::compression::CompressionLayer;
use tokio::fs::File;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Message, Role};
use tokio_util::io::ReaderStream;

struct App {
    pool: Pool,
    hash_file: String,
    static_dir: String,
    cache: WorldCache,
}

/// A file streamed from disk as hyper's send_file example does; every other answer is one buffer.
type FileBody = StreamBody<MapOk<ReaderStream<File>, fn(Bytes) -> Frame<Bytes>>>;
type Body = Either<Full<Bytes>, FileBody>;
type Error = Box<dyn std::error::Error + Send + Sync>;

const TEXT: &str = "text/plain; charset=utf-8";
const JSON: &str = "application/json";
const HTML: &str = "text/html; charset=utf-8";

#[derive(Serialize)]
struct Message_ {
    message: &'static str,
}

fn full(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(Either::Left(Full::new(body.into())));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn json<T: Serialize>(value: &T) -> Result<Response<Body>, Error> {
    Ok(full(StatusCode::OK, JSON, serde_json::to_vec(value)?))
}

/// The first value of a query-string parameter, percent-decoded.
fn param(request: &Request<Incoming>, name: &str) -> Option<String> {
    let query = request.uri().query()?;
    form_urlencoded::parse(query.as_bytes()).find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
}

async fn route(app: Arc<App>, request: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let answer = if request.method() == Method::POST && request.uri().path() == "/upload" {
        upload(request).await
    } else if request.method() != Method::GET {
        Ok(full(StatusCode::METHOD_NOT_ALLOWED, TEXT, "method not allowed"))
    } else {
        match request.uri().path() {
            "/plaintext" => Ok(full(StatusCode::OK, TEXT, Bytes::from_static(b"Hello, World!"))),
            "/json" => json(&Message_ { message: "Hello, World!" }),
            "/json-comp" => json_comp(&request),
            "/db" => db(&app).await,
            "/queries" => queries(&app, &request).await,
            "/updates" => updates(&app, &request).await,
            "/fortunes" => fortunes(&app).await,
            "/cached-queries" => cached(&app, &request).await,
            "/session" => session(&app, &request).await,
            "/hash" => hash(&app, &request).await,
            "/ws" => Ok(websocket(request)),
            path => match path.strip_prefix("/static/") {
                Some(file) => static_file(&app.static_dir, file).await,
                None => Ok(full(StatusCode::NOT_FOUND, TEXT, "not found")),
            },
        }
    };
    // Any failure is a server fault: answered 500 with the reason, so a broken run is visible.
    let mut response = answer.unwrap_or_else(|error| full(StatusCode::INTERNAL_SERVER_ERROR, TEXT, error.to_string()));
    // hyper writes a current Date itself (cached, refreshed each second); Server is the application's.
    response.headers_mut().insert(header::SERVER, HeaderValue::from_static("hyper"));
    Ok(response)
}

/// Serialized here, compressed by the CompressionLayer around the whole service (connection below).
fn json_comp(request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    match workloads::parse_items(param(request, "n").as_deref()) {
        Ok(n) => json(&workloads::items(n)),
        Err(reason) => Ok(full(StatusCode::BAD_REQUEST, TEXT, reason)),
    }
}

/// The body hashed frame by frame as hyper hands it over (chunked decoded by hyper), through http-body-util's
/// Limited, the body limit hyper's ecosystem offers (hyper has none of its own): past 2 MiB it stops reading and
/// the answer is 413.
async fn upload(request: Request<Incoming>) -> Result<Response<Body>, Error> {
    let mut body = Limited::new(request.into_body(), workloads::BODY_LIMIT);
    let mut digest = BodyDigest::default();
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(frame) => {
                if let Some(data) = frame.data_ref() {
                    digest.update(data);
                }
            }
            Err(error) if error.is::<LengthLimitError>() => {
                return Ok(full(StatusCode::PAYLOAD_TOO_LARGE, TEXT, "request body over 2 MiB"));
            }
            Err(error) => return Err(error),
        }
    }
    Ok(full(StatusCode::OK, TEXT, digest.answer()))
}

async fn db(app: &App) -> Result<Response<Body>, Error> {
    json(&workloads::random_world(&app.pool).await.map_err(|error| error.to_string())?)
}

async fn queries(app: &App, request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    let n = techempower::count(param(request, "queries").as_deref());
    json(&techempower::queries(&app.pool, n).await?)
}

async fn updates(app: &App, request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    let n = techempower::count(param(request, "queries").as_deref());
    json(&techempower::updates(&app.pool, n).await?)
}

async fn fortunes(app: &App) -> Result<Response<Body>, Error> {
    Ok(full(StatusCode::OK, HTML, techempower::fortunes(&app.pool).await?.render()?))
}

async fn cached(app: &App, request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    let n = techempower::count(param(request, "count").as_deref());
    json(&app.cache.sample(&app.pool, n).await?)
}

async fn session(app: &App, request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    // HTTP/2 may split cookies over several cookie fields.
    let known = request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(workloads::uid_from_cookie_header);
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(|error| error.to_string())?;
    let mut response = full(StatusCode::OK, TEXT, format!("Count is {}", visit.count));
    if let Some(uid) = visit.fresh_uid {
        response.headers_mut().insert(header::SET_COOKIE, HeaderValue::try_from(workloads::set_cookie(&uid))?);
    }
    Ok(response)
}

async fn hash(app: &App, request: &Request<Incoming>) -> Result<Response<Body>, Error> {
    let n = match workloads::parse_n(param(request, "n").as_deref()) {
        Ok(n) => n,
        Err(reason) => return Ok(full(StatusCode::BAD_REQUEST, TEXT, reason)),
    };
    let data = tokio::fs::read(&app.hash_file).await?;
    Ok(full(StatusCode::OK, TEXT, workloads::iterated_sha256_hex(&data, n)))
}

/// A file under STATIC_DIR, streamed as hyper's examples/send_file.rs does, with its length and type.
async fn static_file(root: &str, relative: &str) -> Result<Response<Body>, Error> {
    let relative = Path::new(relative);
    // Only plain names below the root: no "..", no absolute path.
    if !relative.components().all(|part| matches!(part, Component::Normal(_))) {
        return Ok(full(StatusCode::NOT_FOUND, TEXT, "not found"));
    }
    let path = Path::new(root).join(relative);
    let file = match File::open(&path).await {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(full(StatusCode::NOT_FOUND, TEXT, "not found")),
        Err(error) => return Err(error.into()),
    };
    let metadata = file.metadata().await?;
    if !metadata.is_file() {
        return Ok(full(StatusCode::NOT_FOUND, TEXT, "not found"));
    }
    let frames: FileBody = StreamBody::new(ReaderStream::new(file).map_ok(Frame::data as fn(Bytes) -> Frame<Bytes>));
    let mut response = Response::new(Either::Right(frames));
    let mime = mime_guess::from_path(&path).first_or_octet_stream();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::try_from(mime.as_ref())?);
    response.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(metadata.len()));
    Ok(response)
}

/// The handshake by hand in hyper's upgrade idiom (examples/upgrades.rs): answer 101, then take the
/// connection hyper hands over once that answer is written, and frame it with tungstenite.
fn websocket(request: Request<Incoming>) -> Response<Body> {
    let headers = request.headers();
    let asks_websocket = headers
        .get(header::UPGRADE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.eq_ignore_ascii_case("websocket"));
    let version_13 = headers.get(header::SEC_WEBSOCKET_VERSION).is_some_and(|value| value == "13");
    let Some(key) = headers.get(header::SEC_WEBSOCKET_KEY).filter(|_| asks_websocket && version_13) else {
        return full(StatusCode::BAD_REQUEST, TEXT, "expected a WebSocket upgrade (version 13)");
    };
    let accept = derive_accept_key(key.as_bytes());
    tokio::spawn(async move {
        match hyper::upgrade::on(request).await {
            Ok(upgraded) => echo(WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, None).await).await,
            Err(error) => eprintln!("hyper-shootout: WebSocket upgrade failed: {error}"),
        }
    });
    let mut response = Response::new(Either::Left(Full::default()));
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, HeaderValue::try_from(accept).expect("base64 is a valid header value"));
    response
}

async fn echo<S: AsyncRead + AsyncWrite + Unpin>(mut socket: WebSocketStream<S>) {
    while let Some(Ok(message)) = socket.next().await {
        let reply = match message {
            Message::Text(_) | Message::Binary(_) => message,
            Message::Close(_) => return,
            // tungstenite queues the pong to a ping itself and sends it with the next write or read.
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
        };
        if socket.send(reply).await.is_err() {
            return;
        }
    }
}

/// One connection, HTTP/1.1 (with upgrades) or HTTP/2 as its first bytes say, each request its own service call.
async fn connection<I>(builder: Arc<auto::Builder<TokioExecutor>>, app: Arc<App>, io: I)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    // tower-http's CompressionLayer at its defaults (level, DefaultPredicate: bodies of 32 bytes and more, no
    // images, gRPC or event streams; Vary added) around the router, run by hyper through hyper-util's adapter.
    let service = CompressionLayer::new().layer(tower::service_fn(move |request| route(app.clone(), request)));
    let service = TowerToHyperService::new(service);
    // Errors here are the client's (a reset, a malformed request): nothing the server should report.
    let _ = builder.serve_connection_with_upgrades(TokioIo::new(io), service).await;
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("hyper-shootout: {error}");
        std::process::exit(2);
    });
    runtime::block_on(env.workers, serve(env));
}

async fn serve(env: Env) {
    let app = Arc::new(App {
        pool: workloads::pool(&env),
        hash_file: env.hash_file.clone(),
        static_dir: env.static_dir.clone(),
        cache: WorldCache::default(),
    });
    let tls = env.tls.as_ref().map(|tls| {
        let mut config = tls.rustls_config().unwrap_or_else(|error| {
            eprintln!("hyper-shootout: {error}");
            std::process::exit(1);
        });
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        tokio_rustls::TlsAcceptor::from(Arc::new(config))
    });
    // hyper-util's auto builder on tokio's executor: HTTP/2 streams become tasks of the runtime, so one
    // connection's requests run at once; hyper's defaults otherwise (keep-alive on, Date written).
    let builder = Arc::new(auto::Builder::new(TokioExecutor::new()));
    let listener = tokio::net::TcpListener::bind(env.address).await.unwrap_or_else(|error| {
        eprintln!("hyper-shootout: cannot listen on {}: {error}", env.address);
        std::process::exit(1);
    });
    let mode = if tls.is_some() { " (TLS)" } else { "" };
    eprintln!("hyper-shootout listening{mode} on {} with {} worker threads", env.address, env.workers);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of descriptors, say: report it and let the running connections drain a little.
                eprintln!("hyper-shootout: accept: {error}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        // Nagle's algorithm would hold an HTTP/2 DATA frame written after its HEADERS until the
        // client's delayed ACK (~40 ms); hyper leaves socket options to whoever accepts.
        let _ = stream.set_nodelay(true);
        let (builder, app, tls) = (builder.clone(), app.clone(), tls.clone());
        tokio::spawn(async move {
            match tls {
                // The handshake runs in the connection's task, so a slow client does not hold up accept.
                Some(acceptor) => match acceptor.accept(stream).await {
                    Ok(stream) => connection(builder, app, stream).await,
                    Err(_) => {}
                },
                None => connection(builder, app, stream).await,
            }
        });
    }
}
