//! poem's TcpAcceptor with TCP_NODELAY on every accepted socket. poem 3.1.12 leaves Nagle's algorithm on
//! and has no option for it; with it, an HTTP/2 answer whose DATA frame is written after its HEADERS (a
//! static file's body is read after the headers go) waits for the client's delayed ACK, ~40 ms.

use std::io::Result;

use poem::http::uri::Scheme;
use poem::listener::{Acceptor, TcpAcceptor};
use poem::web::{LocalAddr, RemoteAddr};
use tokio::net::TcpStream;

pub struct NoDelay(pub TcpAcceptor);

impl Acceptor for NoDelay {
    type Io = TcpStream;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.0.local_addr()
    }

    async fn accept(&mut self) -> Result<(TcpStream, LocalAddr, RemoteAddr, Scheme)> {
        let accepted = self.0.accept().await?;
        accepted.0.set_nodelay(true)?;
        Ok(accepted)
    }
}
