//! webshootout workloads on salvo 1 (see docs/workloads.md).

use std::sync::Arc;

use salvo::affix_state;
use salvo::compression::Compression;
use salvo::conn::rustls::{Keycert, RustlsConfig};
use salvo::http::cookie::{Cookie, SameSite};
use salvo::http::header::{HeaderValue, LOCATION, SERVER};
use salvo::http::ParseError;
use salvo::http::request::SecureMaxSize;
use salvo::prelude::*;
use salvo::serve_static::StaticDir;
use salvo::websocket::WebSocketUpgrade;
use serde::Serialize;
use shootout_common::crud::{self, NewItem, Refusal};
use shootout_common::env::Env;
use shootout_common::runtime;
use shootout_common::techempower::{self, Template, WorldCache};
use shootout_common::workloads::{self, Pool, SESSION_COOKIE};

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// The shared state affix_state put in the depot.
fn app(depot: &Depot) -> &Arc<App> {
    depot.get_typed::<Arc<App>>().expect("affix_state injects the app")
}

/// Any failure below is a server fault: answered 500 with the reason, so a broken run is visible.
fn fault(error: impl std::fmt::Display) -> StatusError {
    StatusError::internal_server_error().brief(error.to_string())
}

/// hyper, under salvo, sets a current Date; a Server header is the application's, set by this hoop
/// on every response, as salvo's FlowCtrl documentation shows.
#[handler]
async fn server_header(res: &mut Response) {
    res.headers_mut().insert(SERVER, HeaderValue::from_static("salvo"));
}

#[handler]
async fn plaintext(res: &mut Response) {
    res.render(Text::Plain("Hello, World!"));
}

#[handler]
async fn json(res: &mut Response) {
    res.render(Json(Message { message: "Hello, World!" }));
}

/// Compressed by the Compression hoop on the router (gzip or br as Accept-Encoding asks).
#[handler]
async fn json_comp(req: &mut Request, res: &mut Response) {
    match workloads::parse_items(req.query::<String>("n").as_deref()) {
        Ok(n) => res.render(Json(workloads::items(n))),
        Err(reason) => {
            res.status_code(StatusCode::BAD_REQUEST).render(Text::Plain(reason));
        }
    }
}

/// The body read whole by Request::payload, under the route's SecureMaxSize (a larger body is answered 413);
/// hyper decodes a chunked body before it.
#[handler]
async fn upload(req: &mut Request, res: &mut Response) -> Result<(), ParseError> {
    let body = req.payload().await?;
    res.render(Text::Plain(workloads::upload_answer(body)));
    Ok(())
}

#[handler]
async fn db(depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    res.render(Json(workloads::random_world(&app(depot).pool).await.map_err(fault)?));
    Ok(())
}

#[handler]
async fn queries(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let n = techempower::count(req.query::<String>("queries").as_deref());
    res.render(Json(techempower::queries(&app(depot).pool, n).await.map_err(fault)?));
    Ok(())
}

#[handler]
async fn updates(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let n = techempower::count(req.query::<String>("queries").as_deref());
    res.render(Json(techempower::updates(&app(depot).pool, n).await.map_err(fault)?));
    Ok(())
}

#[handler]
async fn fortunes(depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let page = techempower::fortunes(&app(depot).pool).await.map_err(fault)?;
    res.render(Text::Html(page.render().map_err(fault)?));
    Ok(())
}

#[handler]
async fn cached(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let n = techempower::count(req.query::<String>("count").as_deref());
    let app = app(depot);
    res.render(Json(app.cache.sample(&app.pool, n).await.map_err(fault)?));
    Ok(())
}

#[handler]
async fn session(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let known = req.cookie(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&app(depot).pool, known.as_deref()).await.map_err(fault)?;
    if let Some(uid) = visit.fresh_uid {
        res.add_cookie(Cookie::build((SESSION_COOKIE, uid)).path("/").http_only(true).same_site(SameSite::Lax).build());
    }
    res.render(Text::Plain(format!("Count is {}", visit.count)));
    Ok(())
}

#[handler]
async fn hash(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let n = match workloads::parse_n(req.query::<String>("n").as_deref()) {
        Ok(n) => n,
        Err(reason) => {
            res.status_code(StatusCode::BAD_REQUEST).render(Text::Plain(reason));
            return Ok(());
        }
    };
    let data = tokio::fs::read(&app(depot).hash_file).await.map_err(fault)?;
    res.render(Text::Plain(workloads::iterated_sha256_hex(&data, n)));
    Ok(())
}

/// The item body through Request::parse_json, which refuses any body 400; the contract's 422 is for valid JSON
/// of the wrong shape (serde's data errors), so the refusal's status is set here.
async fn new_item(req: &mut Request) -> Result<NewItem, StatusError> {
    req.parse_json::<NewItem>().await.map_err(|error| {
        let status = match &error {
            ParseError::SerdeJson(cause) if crud::wrong_shape(cause) => StatusError::unprocessable_entity(),
            _ => StatusError::bad_request(),
        };
        status.cause(error)
    })
}

/// The path's id; one that is not an i32 names no item.
fn item_id(req: &Request) -> Result<i32, StatusError> {
    req.param::<i32>("id").ok_or_else(StatusError::not_found)
}

#[handler]
async fn read_item(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let item = crud::read(&app(depot).pool, item_id(req)?).await.map_err(fault)?;
    res.render(Json(item.ok_or_else(StatusError::not_found)?));
    Ok(())
}

#[handler]
async fn list_items(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let page = match crud::page(req.query::<String>("page").as_deref(), req.query::<String>("size").as_deref()) {
        Ok(page) => page,
        Err(error) => {
            res.status_code(StatusCode::BAD_REQUEST).render(Json(Refusal { error }));
            return Ok(());
        }
    };
    res.render(Json(crud::list(&app(depot).pool, page).await.map_err(fault)?));
    Ok(())
}

#[handler]
async fn create_item(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let new = new_item(req).await?;
    let item = crud::create(&app(depot).pool, &new).await.map_err(fault)?;
    res.add_header(LOCATION, format!("/items/{}", item.id), true).map_err(fault)?;
    res.status_code(StatusCode::CREATED).render(Json(item));
    Ok(())
}

#[handler]
async fn update_item(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    let id = item_id(req)?;
    let new = new_item(req).await?;
    let item = crud::update(&app(depot).pool, id, &new).await.map_err(fault)?;
    res.render(Json(item.ok_or_else(StatusError::not_found)?));
    Ok(())
}

#[handler]
async fn delete_item(req: &mut Request, depot: &mut Depot, res: &mut Response) -> Result<(), StatusError> {
    if !crud::delete(&app(depot).pool, item_id(req)?).await.map_err(fault)? {
        return Err(StatusError::not_found());
    }
    res.status_code(StatusCode::NO_CONTENT);
    Ok(())
}

#[handler]
async fn websocket(req: &mut Request, res: &mut Response) -> Result<(), StatusError> {
    WebSocketUpgrade::new()
        .upgrade(req, res, |mut socket| async move {
            while let Some(Ok(message)) = socket.recv().await {
                if message.is_close() {
                    return;
                }
                // Pings are answered by the websocket layer; text and binary are echoed.
                if (message.is_text() || message.is_binary()) && socket.send(message).await.is_err() {
                    return;
                }
            }
        })
        .await
}

fn main() {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("salvo-shootout: {error}");
        std::process::exit(2);
    });
    runtime::block_on(env.workers, serve(env));
}

async fn serve(env: Env) {
    let app = Arc::new(App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() });
    let router = Router::new()
        .hoop(affix_state::inject(app))
        // salvo's response compression for every route, as its docs hoop it: the encoding from Accept-Encoding,
        // salvo-compression's default levels, its minimum length and content types.
        .hoop(Compression::new())
        .push(Router::with_path("plaintext").get(plaintext))
        .push(Router::with_path("json").get(json))
        .push(Router::with_path("json-comp").get(json_comp))
        // Request::payload reads at most the request's secure max size, 64 KiB unless set; salvo's docs set it
        // per route with the SecureMaxSize hoop: the contract's 2 MiB here.
        .push(Router::with_path("upload").hoop(SecureMaxSize::new(workloads::BODY_LIMIT)).post(upload))
        .push(Router::with_path("db").get(db))
        .push(Router::with_path("queries").get(queries))
        .push(Router::with_path("updates").get(updates))
        .push(Router::with_path("fortunes").get(fortunes))
        .push(Router::with_path("cached-queries").get(cached))
        .push(Router::with_path("session").get(session))
        .push(Router::with_path("hash").get(hash))
        .push(Router::with_path("ws").get(websocket))
        .push(
            Router::with_path("items")
                .get(list_items)
                .post(create_item)
                .push(Router::with_path("{id}").get(read_item).put(update_item).delete(delete_item)),
        )
        .push(Router::with_path("static/{**}").get(StaticDir::new([env.static_dir.clone()])));
    let service = Service::new(router).hoop(server_header);
    let address = env.address;
    let cannot_listen = |error: salvo::Error| -> ! {
        eprintln!("salvo-shootout: cannot listen on {address}: {error}");
        std::process::exit(1)
    };
    let Some(tls) = &env.tls else {
        let acceptor = TcpListener::new(env.address).try_bind().await.unwrap_or_else(|error| cannot_listen(error));
        eprintln!("salvo-shootout listening on {} with {} worker threads", env.address, env.workers);
        Server::new(acceptor).serve(service).await;
        return;
    };
    // salvo's rustls listener (ring provider): ALPN h2 and http/1.1, serving whichever is chosen.
    let keycert = Keycert::new().cert_from_path(&tls.cert).and_then(|keycert| keycert.key_from_path(&tls.key));
    let keycert = keycert.unwrap_or_else(|error| {
        eprintln!("salvo-shootout: cannot read TLS_CERT/TLS_KEY: {error}");
        std::process::exit(1);
    });
    let listener = TcpListener::new(env.address).rustls(RustlsConfig::new(keycert));
    let acceptor = listener.try_bind().await.unwrap_or_else(|error| cannot_listen(error));
    eprintln!("salvo-shootout listening (TLS) on {} with {} worker threads", env.address, env.workers);
    Server::new(acceptor).serve(service).await;
}
