//! The listeners viz::serve takes, through viz's public Listener trait: TCP with TCP_NODELAY set, and TLS on
//! the ring provider. viz 0.11.0's own TcpListener impl leaves Nagle's algorithm on (an HTTP/2 DATA frame
//! written after its HEADERS then waits for the client's delayed ACK, ~40 ms), and its rustls feature takes
//! tokio-rustls with rustls's default provider, aws-lc-rs (a C build of minutes), and handshakes inside
//! accept, one client at a time, in the accept loop.

use std::future::Future;
use std::io::{IoSlice, Result};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::server::TlsStream;
use tokio_rustls::{Accept, TlsAcceptor};

pub struct NoDelay(pub TcpListener);

impl viz::Listener for NoDelay {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&self) -> Result<(TcpStream, SocketAddr)> {
        let (stream, peer) = self.0.accept().await?;
        stream.set_nodelay(true)?;
        Ok((stream, peer))
    }

    fn local_addr(&self) -> Result<SocketAddr> {
        self.0.local_addr()
    }
}

pub struct Tls {
    tcp: NoDelay,
    acceptor: TlsAcceptor,
}

impl Tls {
    /// ALPN h2 and http/1.1: viz's hyper-util auto builder serves either.
    pub fn new(tcp: NoDelay, mut config: ServerConfig) -> Self {
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Tls { tcp, acceptor: TlsAcceptor::from(Arc::new(config)) }
    }
}

impl viz::Listener for Tls {
    type Io = Handshake;
    type Addr = SocketAddr;

    async fn accept(&self) -> Result<(Handshake, SocketAddr)> {
        let (stream, peer) = self.tcp.accept().await?;
        // The handshake is left to the connection's task (its first read or write), so the accept loop
        // goes straight back to accepting.
        Ok((Handshake::Pending(self.acceptor.accept(stream)), peer))
    }

    fn local_addr(&self) -> Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

/// A TLS connection whose handshake completes on first use.
pub enum Handshake {
    Pending(Accept<TcpStream>),
    Ready(Box<TlsStream<TcpStream>>),
    Failed,
}

impl Handshake {
    fn ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<Pin<&mut TlsStream<TcpStream>>>> {
        if let Handshake::Pending(accept) = self {
            match ready!(Pin::new(accept).poll(cx)) {
                Ok(stream) => *self = Handshake::Ready(Box::new(stream)),
                Err(error) => {
                    *self = Handshake::Failed;
                    return Poll::Ready(Err(error));
                }
            }
        }
        match self {
            Handshake::Ready(stream) => Poll::Ready(Ok(Pin::new(stream.as_mut()))),
            _ => Poll::Ready(Err(std::io::Error::other("the TLS handshake failed"))),
        }
    }
}

impl AsyncRead for Handshake {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().ready(cx))?.poll_read(cx, buf)
    }
}

impl AsyncWrite for Handshake {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<Result<usize>> {
        ready!(self.get_mut().ready(cx))?.poll_write(cx, buf)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[IoSlice<'_>]) -> Poll<Result<usize>> {
        ready!(self.get_mut().ready(cx))?.poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().ready(cx))?.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<()>> {
        ready!(self.get_mut().ready(cx))?.poll_shutdown(cx)
    }
}
