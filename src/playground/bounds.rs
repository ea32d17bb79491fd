//! The playground's connection bounds: at most so many connections at once (the next
//! waits in the listen backlog until one closes), a connection closed after a while
//! with no byte either way, and a request answered 408 if it takes too long once its
//! headers are in (a body trickling in, a handler that hangs). Headers that trickle in
//! are hyper's to bound (`Config::header_read_timeout`): the connection is closed.

use super::error::ApiError;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// A listener that holds at most `permits` connections open at once.
pub struct BoundedListener {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
}

impl BoundedListener {
    /// Bounds `inner` to `max_connections` open connections (at least 1), each closed
    /// after `idle` with no byte read or written.
    pub fn new(inner: TcpListener, max_connections: usize, idle: Duration) -> Self {
        BoundedListener {
            inner,
            permits: Arc::new(Semaphore::new(max_connections.max(1))),
            idle,
        }
    }
}

impl axum::serve::Listener for BoundedListener {
    type Io = BoundedConnection;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        // Wait for a free slot before accepting: the kernel's backlog holds the rest.
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let (stream, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        let connection = BoundedConnection {
            stream,
            _permit: permit,
            idle: self.idle,
            deadline: Box::pin(tokio::time::sleep(self.idle)),
        };
        (connection, addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// One accepted connection: it frees its slot when dropped and fails with `TimedOut`
/// once idle for too long.
pub struct BoundedConnection {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl BoundedConnection {
    /// Passes on `poll`'s answer, pushing the deadline back on progress and failing
    /// once the deadline has passed while waiting.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(result) => {
                let idle = self.idle;
                self.deadline.as_mut().reset(Instant::now() + idle);
                Poll::Ready(result)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the connection was idle too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncRead for BoundedConnection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        this.watch(cx, poll)
    }
}

impl AsyncWrite for BoundedConnection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Answers 408 when the request (its body included) takes longer than `limit`.
pub async fn request_timeout(limit: Duration, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::timed_out(format!(
            "the request took longer than {} s",
            limit.as_secs_f64()
        ))
        .into_response(),
    }
}
