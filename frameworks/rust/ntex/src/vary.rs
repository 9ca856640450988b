//! ntex's Compress middleware sets Content-Encoding but no Vary, which caches need on an answer it compressed
//! (json-comp's contract); this middleware, registered after Compress so that it wraps it, adds
//! `Vary: accept-encoding` to those answers only, in the shape of ntex's own DefaultHeaders.

use ntex::http::header::{CONTENT_ENCODING, HeaderValue, VARY};
use ntex::service::{Middleware, Service, ServiceCtx, cfg::SharedCfg};
use ntex::web::{WebRequest, WebResponse};

pub struct VaryEncoding;

impl<S> Middleware<S, SharedCfg> for VaryEncoding {
    type Service = VaryEncodingMiddleware<S>;

    fn create(&self, service: S, _: SharedCfg) -> Self::Service {
        VaryEncodingMiddleware { service }
    }
}

pub struct VaryEncodingMiddleware<S> {
    service: S,
}

impl<S, E> Service<WebRequest<E>> for VaryEncodingMiddleware<S>
where
    S: Service<WebRequest<E>, Response = WebResponse>,
{
    type Response = WebResponse;
    type Error = S::Error;

    ntex::forward_poll!(service);
    ntex::forward_ready!(service);
    ntex::forward_shutdown!(service);

    async fn call(&self, req: WebRequest<E>, ctx: ServiceCtx<'_, Self>) -> Result<WebResponse, S::Error> {
        let mut res = ctx.call(&self.service, req).await?;
        if res.headers().contains_key(&CONTENT_ENCODING) {
            res.headers_mut().append(VARY, HeaderValue::from_static("accept-encoding"));
        }
        Ok(res)
    }
}
