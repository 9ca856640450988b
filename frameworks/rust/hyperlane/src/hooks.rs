//! The hooks: one type per route, plus the middleware that sends what a route left in the response.

use hyperlane::*;
use serde::Serialize;
use shootout_common::techempower::{self, Template};
use shootout_common::workloads;

use crate::app;

const TEXT: &str = "text/plain; charset=utf-8";
const JSON: &str = "application/json";
const HTML: &str = "text/html; charset=utf-8";

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

fn respond(ctx: &mut Context, status: usize, content_type: &str, body: impl AsRef<[u8]>) {
    ctx.get_mut_response().set_status_code(status).set_header(CONTENT_TYPE, content_type).set_body(body.as_ref());
}

/// Builds and writes the response, closing the connection if the write fails.
async fn send(stream: &mut Stream, ctx: &mut Context) -> Status {
    let data = ctx.get_mut_response().build();
    if stream.try_send(data).await.is_err() {
        stream.set_closed(true);
        return Status::Reject;
    }
    Status::Continue
}

/// What every response starts with: hyperlane sets neither `Server` nor `Date` itself, so both are
/// set here (the Date formatted per response), and, as hyperlane has no fallback route, a 404 that an
/// unmatched path keeps and SendResponse sends.
pub struct Defaults;

impl ServerHook for Defaults {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        respond(ctx, 404, TEXT, "no such path");
        ctx.get_mut_response()
            .set_header(SERVER, HYPERLANE)
            .set_header(DATE, httpdate::fmt_http_date(std::time::SystemTime::now()));
        Status::Continue
    }
}

pub struct SendResponse;

impl ServerHook for SendResponse {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, stream: &mut Stream, ctx: &mut Context) -> Status {
        // The WebSocket route already answered the upgrade and owned the connection.
        if ctx.get_request().is_ws_upgrade_type() {
            return Status::Continue;
        }
        send(stream, ctx).await
    }
}

/// A request that could not be read or parsed: its status and reason, when the peer is still there.
pub struct RequestFailed;

impl ServerHook for RequestFailed {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, stream: &mut Stream, ctx: &mut Context) -> Status {
        let error = ctx.try_get_request_error_data().unwrap_or_default();
        respond(ctx, error.get_http_status_code(), TEXT, error.to_string());
        ctx.get_mut_response().set_header(CONNECTION, CLOSE);
        send(stream, ctx).await
    }
}

pub struct Panicked;

impl ServerHook for Panicked {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, stream: &mut Stream, ctx: &mut Context) -> Status {
        let panic = ctx.try_get_task_panic_data().unwrap_or_default();
        respond(ctx, 500, TEXT, panic.to_string());
        send(stream, ctx).await
    }
}

pub struct Plaintext;

impl ServerHook for Plaintext {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        respond(ctx, 200, TEXT, "Hello, World!");
        Status::Continue
    }
}

pub struct Json;

impl ServerHook for Json {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        match serde_json::to_vec(&Message { message: "Hello, World!" }) {
            Ok(body) => respond(ctx, 200, JSON, body),
            Err(error) => respond(ctx, 500, TEXT, error.to_string()),
        }
        Status::Continue
    }
}

pub struct Db;

impl ServerHook for Db {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let row = workloads::random_world(&app().pool).await.map_err(|error| error.to_string());
        match row.and_then(|world| serde_json::to_vec(&world).map_err(|error| error.to_string())) {
            Ok(body) => respond(ctx, 200, JSON, body),
            Err(reason) => respond(ctx, 500, TEXT, reason),
        }
        Status::Continue
    }
}

/// A JSON answer, or the reason it failed as a 500.
fn respond_json<T: Serialize, E: std::fmt::Display>(ctx: &mut Context, result: Result<T, E>) {
    match result.map_err(|error| error.to_string()).and_then(|value| serde_json::to_vec(&value).map_err(|error| error.to_string())) {
        Ok(body) => respond(ctx, 200, JSON, body),
        Err(reason) => respond(ctx, 500, TEXT, reason),
    }
}

fn count_param(ctx: &Context, name: &str) -> usize {
    techempower::count(ctx.get_request().try_get_query_front(name).as_deref())
}

pub struct Queries;

impl ServerHook for Queries {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let n = count_param(ctx, "queries");
        respond_json(ctx, techempower::queries(&app().pool, n).await);
        Status::Continue
    }
}

pub struct Updates;

impl ServerHook for Updates {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let n = count_param(ctx, "queries");
        respond_json(ctx, techempower::updates(&app().pool, n).await);
        Status::Continue
    }
}

pub struct Fortunes;

impl ServerHook for Fortunes {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let page = techempower::fortunes(&app().pool).await.map_err(|error| error.to_string());
        match page.and_then(|page| page.render().map_err(|error| error.to_string())) {
            Ok(html) => respond(ctx, 200, HTML, html),
            Err(reason) => respond(ctx, 500, TEXT, reason),
        }
        Status::Continue
    }
}

pub struct Cached;

impl ServerHook for Cached {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let n = count_param(ctx, "count");
        respond_json(ctx, app().cache.sample(&app().pool, n).await);
        Status::Continue
    }
}

pub struct Session;

impl ServerHook for Session {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let known = ctx.get_request().try_get_cookie(workloads::SESSION_COOKIE).filter(|uid| !uid.is_empty());
        let visit = match workloads::bump(&app().pool, known.as_deref()).await {
            Ok(visit) => visit,
            Err(error) => {
                respond(ctx, 500, TEXT, error.to_string());
                return Status::Continue;
            }
        };
        respond(ctx, 200, TEXT, format!("Count is {}", visit.count));
        if let Some(uid) = visit.fresh_uid {
            let cookie = CookieBuilder::new(workloads::SESSION_COOKIE, uid)
                .set_path("/")
                .http_only()
                .set_same_site("Lax")
                .build();
            ctx.get_mut_response().set_header(SET_COOKIE, cookie);
        }
        Status::Continue
    }
}

pub struct Hash;

impl ServerHook for Hash {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let raw = ctx.get_request().try_get_query_front("n");
        let n = match workloads::parse_n(raw.as_deref()) {
            Ok(n) => n,
            Err(reason) => {
                respond(ctx, 400, TEXT, reason);
                return Status::Continue;
            }
        };
        match tokio::fs::read(&app().hash_file).await {
            Ok(data) => respond(ctx, 200, TEXT, workloads::iterated_sha256_hex(&data, n)),
            Err(error) => respond(ctx, 500, TEXT, format!("reading {}: {error}", app().hash_file)),
        }
        Status::Continue
    }
}

/// hyperlane ships no static-file handler: this route reads the file and types it with hyperlane's
/// own extension table (FileExtension), the way its quick-start serves static resources.
pub struct StaticFile;

impl ServerHook for StaticFile {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, _: &mut Stream, ctx: &mut Context) -> Status {
        let name = ctx.try_get_route_param("file").unwrap_or_default();
        // One path segment by construction; refuse the parent directory and hidden files too.
        if name.is_empty() || name.starts_with('.') {
            respond(ctx, 404, TEXT, "no such file");
            return Status::Continue;
        }
        let path = std::path::Path::new(&app().static_dir).join(&name);
        match tokio::fs::read(&path).await {
            Ok(data) => {
                let content_type = FileExtension::parse(FileExtension::get_extension_name(&name)).get_content_type();
                respond(ctx, 200, content_type, data);
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => respond(ctx, 404, TEXT, "no such file"),
            Err(error) => respond(ctx, 500, TEXT, format!("reading {}: {error}", path.display())),
        }
        Status::Continue
    }
}

/// Answers the upgrade itself, then echoes every message until the peer leaves.
pub struct WebSocketEcho;

impl ServerHook for WebSocketEcho {
    async fn new(_: &mut Stream, _: &mut Context) -> Self {
        Self
    }

    async fn handle(self, stream: &mut Stream, ctx: &mut Context) -> Status {
        let key = ctx.get_request().try_get_header_back(SEC_WEBSOCKET_KEY);
        let Some(key) = key.filter(|_| ctx.get_request().is_ws_upgrade_type()) else {
            respond(ctx, 400, TEXT, "expected a WebSocket upgrade");
            return Status::Continue;
        };
        ctx.get_mut_response()
            .set_status_code(101)
            .set_header(UPGRADE, WEBSOCKET)
            .set_header(CONNECTION, UPGRADE)
            .set_header(SEC_WEBSOCKET_ACCEPT, WebSocketFrame::generate_accept_key(&key))
            .set_body(Vec::new());
        if send(stream, ctx).await.is_reject() {
            return Status::Reject;
        }
        // Text arrives as UTF-8 and create_frame_list sends valid UTF-8 back as text frames.
        while let Ok(message) = stream.try_get_websocket_request().await {
            if stream.try_send_list(&WebSocketFrame::create_frame_list(&message)).await.is_err() {
                stream.set_closed(true);
                return Status::Reject;
            }
        }
        stream.set_closed(true);
        Status::Reject
    }
}
