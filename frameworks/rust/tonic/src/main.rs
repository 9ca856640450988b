//! proto/bench.proto's webshootout.Bench on tonic (docs/workloads.md, grpc-unary and grpc-stream): tonic's own
//! transport::Server, as its docs start one, on a tokio multi-thread runtime of WORKERS worker threads; TLS
//! only (ALPN h2, which tonic's ServerTlsConfig sets) when TLS_CERT and TLS_KEY are set, else HTTP/2 with
//! prior knowledge, tonic's cleartext default.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;

use tokio_stream::Stream;
use tonic::transport::{Identity, Server, ServerTlsConfig};
use tonic::{Request, Response, Status};

mod pb {
    tonic::include_proto!("webshootout");
}

use pb::bench_server::{Bench, BenchServer};
use pb::{CountReply, CountRequest, SumReply, SumRequest};

/// The contract's largest n for Count.
const MAX_COUNT: i32 = 1000;

struct Service;

#[tonic::async_trait]
impl Bench for Service {
    async fn sum(&self, request: Request<SumRequest>) -> Result<Response<SumReply>, Status> {
        let SumRequest { a, b } = request.into_inner();
        if a < 0 || b < 0 {
            return Err(Status::invalid_argument("a and b must not be negative"));
        }
        // Widened first: two int32s can overflow an int32, never an int64.
        Ok(Response::new(SumReply { sum: i64::from(a) + i64::from(b) }))
    }

    type CountStream = Pin<Box<dyn Stream<Item = Result<CountReply, Status>> + Send>>;

    async fn count(&self, request: Request<CountRequest>) -> Result<Response<Self::CountStream>, Status> {
        let CountRequest { start, n } = request.into_inner();
        if !(1..=MAX_COUNT).contains(&n) || start < 0 {
            return Err(Status::invalid_argument("n must be in 1..1000 and start not negative"));
        }
        let start = i64::from(start);
        // Each message is made as tonic polls the stream for the next one, as its streaming example does.
        let replies = (0..i64::from(n)).map(move |i| Ok(CountReply { value: start + i }));
        Ok(Response::new(Box::pin(tokio_stream::iter(replies))))
    }
}

fn required(name: &str) -> String {
    match std::env::var(name) {
        Ok(value) if !value.is_empty() => value,
        _ => fail(format!("environment variable {name} is not set")),
    }
}

fn fail(message: String) -> ! {
    eprintln!("tonic-shootout: {message}");
    std::process::exit(1)
}

fn main() {
    let workers: usize = required("WORKERS")
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .unwrap_or_else(|| fail("WORKERS is not a positive integer".into()));
    let host: IpAddr = required("HOST").parse().unwrap_or_else(|e| fail(format!("HOST: {e}")));
    let port: u16 = required("PORT").parse().unwrap_or_else(|e| fail(format!("PORT: {e}")));
    let tls = match (std::env::var("TLS_CERT"), std::env::var("TLS_KEY")) {
        (Ok(cert), Ok(key)) if !cert.is_empty() && !key.is_empty() => Some((cert, key)),
        (Err(_), Err(_)) => None,
        _ => fail("TLS_CERT and TLS_KEY must be set together".into()),
    };

    let mut builder = Server::builder();
    if let Some((cert, key)) = tls {
        let read = |path: &str| std::fs::read(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
        let identity = Identity::from_pem(read(&cert), read(&key));
        builder = builder
            .tls_config(ServerTlsConfig::new().identity(identity))
            .unwrap_or_else(|e| fail(format!("TLS: {e}")));
    }

    // One process: its runtime's worker threads are the server's worker count (docs/fairness.md).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(format!("tokio runtime: {e}")));
    let served = runtime.block_on(
        builder.add_service(BenchServer::new(Service)).serve(SocketAddr::new(host, port)),
    );
    if let Err(error) = served {
        fail(format!("server: {error}"));
    }
}
