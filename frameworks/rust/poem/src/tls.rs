//! TLS for poem on the ring provider. poem 3.1.12's own RustlsListener always builds its config on
//! aws-lc-rs (src/listener/rustls.rs imports it unconditionally, a C build of minutes), so this is the
//! same thing through poem's public Acceptor trait: tokio-rustls over poem's TcpAcceptor (TCP_NODELAY set), with ALPN h2
//! and http/1.1 as RustlsConfig sets it; poem's hyper-util auto builder then serves either protocol.

use std::future::Future;
use std::io::{Error, Result};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use poem::http::uri::Scheme;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::{Accept, server::TlsStream};

use crate::nodelay::NoDelay;

pub struct RustlsAcceptor {
    tcp: NoDelay,
    tls: tokio_rustls::TlsAcceptor,
}

impl RustlsAcceptor {
    pub fn new(tcp: NoDelay, mut config: tokio_rustls::rustls::ServerConfig) -> Self {
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        RustlsAcceptor { tcp, tls: tokio_rustls::TlsAcceptor::from(Arc::new(config)) }
    }
}

impl Acceptor for RustlsAcceptor {
    type Io = Handshake;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.tcp.local_addr()
    }

    async fn accept(&mut self) -> Result<(Handshake, LocalAddr, RemoteAddr, Scheme)> {
        let (stream, local, remote, _) = self.tcp.accept().await?;
        // The handshake runs in the connection's own task, on its first read or write, so one slow
        // client does not hold up the accept loop (poem's HandshakeStream does the same).
        Ok((Handshake::Pending(self.tls.accept(stream)), local, remote, Scheme::HTTPS))
    }
}

pub enum Handshake {
    Pending(Accept<TcpStream>),
    Done(TlsStream<TcpStream>),
    Failed,
}

impl Handshake {
    fn stream(&mut self, cx: &mut Context<'_>) -> Poll<Result<Pin<&mut TlsStream<TcpStream>>>> {
        if let Handshake::Pending(accept) = self {
            *self = match ready!(Pin::new(accept).poll(cx)) {
                Ok(stream) => Handshake::Done(stream),
                Err(error) => {
                    *self = Handshake::Failed;
                    return Poll::Ready(Err(error));
                }
            };
        }
        match self {
            Handshake::Done(stream) => Poll::Ready(Ok(Pin::new(stream))),
            _ => Poll::Ready(Err(Error::other("TLS handshake failed"))),
        }
    }
}

impl AsyncRead for Handshake {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().stream(cx))?.poll_read(cx, buf)
    }
}

impl AsyncWrite for Handshake {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<Result<usize>> {
        ready!(self.get_mut().stream(cx))?.poll_write(cx, buf)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<Result<usize>> {
        ready!(self.get_mut().stream(cx))?.poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().stream(cx))?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().stream(cx))?.poll_shutdown(cx)
    }
}
