//! h2-crate-client ADDRESS PATH CONNECTIONS STREAMS SECONDS EXPECTED_BODY [CA_PEM]
//!
//! Keeps STREAMS requests in flight on each of CONNECTIONS HTTP/2 connections to ADDRESS (host:port) for
//! SECONDS, on one thread (as shootout-load -t 1), over TLS with ALPN h2 when CA_PEM is given, else h2c with
//! prior knowledge. Like shootout-load it reads every body, counts only 200s whose body is EXPECTED_BODY, and
//! records each request's latency in a histogram; it prints {"requests": n, "errors": n, "p99_us": n}.

use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use hdrhistogram::Histogram;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

type Failure = Box<dyn std::error::Error>;

#[derive(Default)]
struct Tally {
    requests: u64,
    errors: u64,
}

struct Args {
    address: String,
    path: String,
    connections: usize,
    streams: usize,
    seconds: f64,
    expected: Bytes,
    ca: Option<String>,
}

fn args() -> Result<Args, Failure> {
    let given: Vec<String> = std::env::args().skip(1).collect();
    if given.len() < 6 || given.len() > 7 {
        return Err("usage: h2-crate-client ADDRESS PATH CONNECTIONS STREAMS SECONDS EXPECTED_BODY [CA_PEM]".into());
    }
    Ok(Args {
        address: given[0].clone(),
        path: given[1].clone(),
        connections: given[2].parse()?,
        streams: given[3].parse()?,
        seconds: given[4].parse()?,
        expected: Bytes::from(given[5].clone()),
        ca: given.get(6).cloned(),
    })
}

fn tls_connector(ca: &str) -> Result<tokio_rustls::TlsConnector, Failure> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(ca)? {
        roots.add(cert?)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

async fn open(args: &Args, tls: Option<&tokio_rustls::TlsConnector>) -> Result<h2::client::SendRequest<Bytes>, Failure> {
    let tcp = TcpStream::connect(&args.address).await?;
    tcp.set_nodelay(true)?;
    match tls {
        Some(connector) => {
            let host = args.address.rsplit_once(':').map_or(args.address.as_str(), |(h, _)| h);
            let name = ServerName::try_from(host.to_string())?;
            let stream = connector.connect(name, tcp).await?;
            if stream.get_ref().1.alpn_protocol() != Some(b"h2") {
                return Err("the server did not select h2 by ALPN".into());
            }
            handshake(stream).await
        }
        None => handshake(tcp).await,
    }
}

async fn handshake<T>(io: T) -> Result<h2::client::SendRequest<Bytes>, Failure>
where
    T: AsyncRead + AsyncWrite + Unpin + 'static,
{
    let (sender, connection) = h2::client::handshake(io).await?;
    tokio::task::spawn_local(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

/// One stream slot: a request at a time, until the deadline.
async fn stream_loop(
    mut sender: h2::client::SendRequest<Bytes>,
    uri: http::Uri,
    expected: Bytes,
    deadline: Instant,
    tally: Rc<std::cell::RefCell<Tally>>,
    latency: Rc<std::cell::RefCell<Histogram<u64>>>,
) {
    while Instant::now() < deadline {
        let started = Instant::now();
        let ok = one_request(&mut sender, &uri, &expected).await.unwrap_or(false);
        let mut counts = tally.borrow_mut();
        if ok {
            counts.requests += 1;
            let _ = latency.borrow_mut().record(started.elapsed().as_micros() as u64);
        } else {
            counts.errors += 1;
        }
    }
}

async fn one_request(sender: &mut h2::client::SendRequest<Bytes>, uri: &http::Uri, expected: &Bytes) -> Result<bool, Failure> {
    let ready = sender.clone().ready().await?;
    *sender = ready;
    let request = http::Request::get(uri.clone()).body(())?;
    let (response, _) = sender.send_request(request, true)?;
    let response = response.await?;
    let status = response.status();
    let mut body = response.into_body();
    let mut read = Vec::with_capacity(expected.len());
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
        read.extend_from_slice(&chunk);
    }
    Ok(status == http::StatusCode::OK && read == expected.as_ref())
}

async fn run(args: Args) -> Result<(), Failure> {
    let tls = args.ca.as_deref().map(tls_connector).transpose()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let uri: http::Uri = format!("{scheme}://{}{}", args.address, args.path).parse()?;
    let mut senders = Vec::with_capacity(args.connections);
    for _ in 0..args.connections {
        senders.push(open(&args, tls.as_ref()).await?);
    }
    let tally = Rc::new(std::cell::RefCell::new(Tally::default()));
    let latency = Rc::new(std::cell::RefCell::new(Histogram::<u64>::new(3)?));
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let mut slots = Vec::new();
    for sender in &senders {
        for _ in 0..args.streams {
            slots.push(tokio::task::spawn_local(stream_loop(
                sender.clone(), uri.clone(), args.expected.clone(), deadline, tally.clone(), latency.clone())));
        }
    }
    for slot in slots {
        slot.await?;
    }
    let counts = tally.borrow();
    println!("{{\"requests\": {}, \"errors\": {}, \"p99_us\": {}}}", counts.requests, counts.errors,
             latency.borrow().value_at_quantile(0.99));
    Ok(())
}

fn main() {
    let outcome = args().and_then(|args| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        tokio::task::LocalSet::new().block_on(&runtime, run(args))
    });
    if let Err(error) = outcome {
        eprintln!("h2-crate-client: {error}");
        std::process::exit(1);
    }
}
