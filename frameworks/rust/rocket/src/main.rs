//! webshootout workloads on Rocket 0.5 (see docs/workloads.md).
//!
//! Address, port, workers and logging come from ROCKET_* variables the manifest sets, the way
//! Rocket's configuration guide does it, TLS from TLS_CERT/TLS_KEY; Rocket itself sets Server and Date.

#[macro_use]
extern crate rocket;

use rocket::http::{Cookie, CookieJar, SameSite, Status};
use rocket::serde::json::Json;
use rocket::{State, fs::FileServer};
use rocket_dyn_templates::{Template, context};
use serde::Serialize;
use shootout_common::env::Env;
use shootout_common::techempower::{self, WorldCache};
use shootout_common::workloads::{self, Pool, SESSION_COOKIE, World};

struct App {
    pool: Pool,
    hash_file: String,
    cache: WorldCache,
}

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// A failure answered with its status and one-line reason (500: a server fault, visible in a broken run).
type Answer<T> = Result<T, (Status, String)>;

fn fault(error: impl std::fmt::Display) -> (Status, String) {
    (Status::InternalServerError, error.to_string())
}

#[get("/plaintext")]
fn plaintext() -> &'static str {
    "Hello, World!"
}

#[get("/json")]
fn json() -> Json<Message> {
    Json(Message { message: "Hello, World!" })
}

#[get("/db")]
async fn db(app: &State<App>) -> Answer<Json<World>> {
    Ok(Json(workloads::random_world(&app.pool).await.map_err(fault)?))
}

#[get("/queries?<queries>")]
async fn queries(queries: Option<&str>, app: &State<App>) -> Answer<Json<Vec<World>>> {
    Ok(Json(techempower::queries(&app.pool, techempower::count(queries)).await.map_err(fault)?))
}

#[get("/updates?<queries>")]
async fn updates(queries: Option<&str>, app: &State<App>) -> Answer<Json<Vec<World>>> {
    Ok(Json(techempower::updates(&app.pool, techempower::count(queries)).await.map_err(fault)?))
}

#[get("/fortunes")]
async fn fortunes(app: &State<App>) -> Answer<Template> {
    let page = techempower::fortunes(&app.pool).await.map_err(fault)?;
    Ok(Template::render("fortunes", context! { fortunes: page.fortunes }))
}

#[get("/cached-queries?<count>")]
async fn cached(count: Option<&str>, app: &State<App>) -> Answer<Json<Vec<World>>> {
    Ok(Json(app.cache.sample(&app.pool, techempower::count(count)).await.map_err(fault)?))
}

#[get("/session")]
async fn session(cookies: &CookieJar<'_>, app: &State<App>) -> Answer<String> {
    let known = cookies.get(SESSION_COOKIE).map(|cookie| cookie.value().to_owned()).filter(|uid| !uid.is_empty());
    let visit = workloads::bump(&app.pool, known.as_deref()).await.map_err(fault)?;
    if let Some(uid) = visit.fresh_uid {
        cookies.add(Cookie::build((SESSION_COOKIE, uid)).path("/").http_only(true).same_site(SameSite::Lax));
    }
    Ok(format!("Count is {}", visit.count))
}

#[get("/hash?<n>")]
async fn hash(n: Option<&str>, app: &State<App>) -> Answer<String> {
    let n = workloads::parse_n(n).map_err(|reason| (Status::BadRequest, reason.to_owned()))?;
    let data = tokio::fs::read(&app.hash_file).await.map_err(fault)?;
    Ok(workloads::iterated_sha256_hex(&data, n))
}

#[get("/ws")]
fn websocket(ws: rocket_ws::WebSocket) -> rocket_ws::Channel<'static> {
    use rocket::futures::{SinkExt, StreamExt};
    ws.channel(move |mut stream| {
        Box::pin(async move {
            while let Some(Ok(message)) = stream.next().await {
                match message {
                    rocket_ws::Message::Text(_) | rocket_ws::Message::Binary(_) => stream.send(message).await?,
                    rocket_ws::Message::Close(_) => break,
                    // Pings are answered by tungstenite itself.
                    _ => {}
                }
            }
            Ok(())
        })
    })
}

#[launch]
fn rocket() -> _ {
    let env = Env::load().unwrap_or_else(|error| {
        eprintln!("rocket-shootout: {error}");
        std::process::exit(2);
    });
    let app = App { pool: workloads::pool(&env), hash_file: env.hash_file.clone(), cache: WorldCache::default() };
    // TLS_CERT/TLS_KEY become Rocket's tls.certs and tls.key, as ROCKET_TLS would set them.
    let mut config = rocket::Config::figment();
    if let Some(tls) = &env.tls {
        config = config.merge(("tls.certs", &tls.cert)).merge(("tls.key", &tls.key));
    }
    rocket::custom(config)
        .manage(app)
        .attach(Template::fairing())
        .mount("/", routes![plaintext, json, db, queries, updates, fortunes, cached, session, hash, websocket])
        .mount("/static", FileServer::from(env.static_dir))
}
