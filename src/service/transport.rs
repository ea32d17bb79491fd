//! The HTTP/2 transport: climbot's own accept loop over hyper, so that every
//! connection runs with bounded, chosen settings (docs/operations.md, "HTTP/2 settings"):
//!
//! - a client must send its HTTP/2 preface and first SETTINGS frame within
//!   [`Transport::handshake_timeout`], or the connection is dropped; with TLS on
//!   (`service::tls`), the TLS handshake comes first, within the same time from the
//!   connection's accept;
//! - HTTP/2 keepalive pings find dead peers, and peers that stall mid-frame;
//! - a connection with no call open for [`Transport::idle_timeout`] is closed gracefully
//!   (GOAWAY), as is one older than its maximum age (with jitter, for balancing);
//!   either way its calls get [`Transport::close_grace`] to finish;
//! - the stream limits bound what one connection may cost, and a client that resets
//!   many calls at once (its deadlines firing together) is not taken for an attack.
//!
//! A TLS handshake runs on the connection's own task: one that fails or stalls costs
//! that connection alone. The server's graceful shutdown stops accepting, sends GOAWAY
//! on every connection and waits for them; `service::server` bounds that wait.

use crate::bot::StableHasher;
use crate::service::fair::PeerIdentity;
use crate::service::tls::Tls;
use hyper::body::Incoming;
use hyper::server::conn::http2;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tonic::body::Body;
use tonic::codegen::{Service, http};
use tonic::service::Routes;

/// The HTTP/2 settings of every connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transport {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: calls open at once on one connection (clients
    /// queue the rest).
    pub max_concurrent_streams: u32,
    /// Streams the client may reset before the server has accepted them, at once,
    /// before the connection is closed as an attack (h2's default, 20, closed the
    /// connections of clients whose deadlines fire together).
    pub max_pending_accept_reset_streams: usize,
    /// Streams the server may reset because of the client's errors before closing the
    /// connection.
    pub max_local_error_reset_streams: usize,
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest request header block.
    pub max_header_list_size: u32,
    /// Flow-control window of one stream: request bytes a client may send ahead of the
    /// server's reading.
    pub stream_window: u32,
    /// Flow-control window of one connection.
    pub connection_window: u32,
    /// Time for a new connection to send its preface and first SETTINGS frame (with
    /// TLS, to complete the TLS handshake and then send them).
    pub handshake_timeout: Duration,
    /// A PING after this much silence from the client...
    pub keepalive_interval: Duration,
    /// ...must be answered within this, or the connection is closed.
    pub keepalive_timeout: Duration,
    /// A connection with no call open for this long is closed gracefully (GOAWAY).
    pub idle_timeout: Duration,
    /// Connections are closed gracefully after this age, each with its own jitter of
    /// up to +-10% so that reconnections spread out (`None`: never).
    pub max_connection_age: Option<Duration>,
    /// After an idle or age GOAWAY, how long the connection's calls may take to finish
    /// before it is closed.
    pub close_grace: Duration,
    /// A call's request must have arrived whole within this (or its deadline, if
    /// sooner), or the call is answered DEADLINE_EXCEEDED: a client that stalls in the
    /// middle of its request does not hold the call open.
    pub request_read_timeout: Duration,
}

impl Default for Transport {
    fn default() -> Self {
        Transport {
            max_concurrent_streams: 256,
            max_pending_accept_reset_streams: 1024,
            max_local_error_reset_streams: 1024,
            max_header_list_size: 16 * 1024,
            stream_window: 256 * 1024,
            connection_window: 1024 * 1024,
            handshake_timeout: Duration::from_secs(10),
            keepalive_interval: Duration::from_secs(60),
            keepalive_timeout: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(15 * 60),
            max_connection_age: None,
            close_grace: Duration::from_secs(10),
            request_read_timeout: Duration::from_secs(10),
        }
    }
}

impl Transport {
    fn builder(&self) -> http2::Builder<TokioExecutor> {
        let mut builder = http2::Builder::new(TokioExecutor::new());
        builder
            .timer(TokioTimer::new())
            .max_concurrent_streams(self.max_concurrent_streams)
            .max_pending_accept_reset_streams(self.max_pending_accept_reset_streams)
            .max_local_error_reset_streams(self.max_local_error_reset_streams)
            .max_header_list_size(self.max_header_list_size)
            .initial_stream_window_size(self.stream_window)
            .initial_connection_window_size(self.connection_window)
            .keep_alive_interval(self.keepalive_interval)
            .keep_alive_timeout(self.keepalive_timeout);
        builder
    }
}

/// Serves `routes` on `listener` until `shutdown` is cancelled, then stops accepting,
/// sends GOAWAY on every connection and returns when they have all closed. With `tls`,
/// every connection begins with a TLS handshake, with the configuration loaded last.
pub async fn serve(
    listener: TcpListener,
    routes: Routes,
    transport: Transport,
    tls: Option<Tls>,
    shutdown: CancellationToken,
) {
    let transport = Arc::new(transport);
    let mut connections = JoinSet::new();
    let mut accepted: u64 = 0;
    loop {
        let accept = tokio::select! {
            () = shutdown.cancelled() => break,
            accept = listener.accept() => accept,
        };
        while connections.try_join_next().is_some() {}
        match accept {
            Ok((stream, peer)) => {
                let _ = stream.set_nodelay(true);
                accepted += 1;
                let age = transport.max_connection_age.map(|age| {
                    jittered(
                        age,
                        StableHasher::new()
                            .bytes(peer.to_string().as_bytes())
                            .u64(accepted)
                            .finish(),
                    )
                });
                match &tls {
                    None => {
                        let (routes, transport, shutdown) =
                            (routes.clone(), transport.clone(), shutdown.clone());
                        connections.spawn(async move {
                            let opened = Instant::now();
                            connection(stream, opened, None, routes, transport, age, shutdown)
                                .await;
                        });
                    }
                    Some(tls) => {
                        connections.spawn(secured(
                            tls.acceptor(),
                            stream,
                            routes.clone(),
                            transport.clone(),
                            age,
                            shutdown.clone(),
                        ));
                    }
                }
            }
            Err(error) => {
                // Out of file descriptors, mostly: wait instead of spinning.
                tracing::warn!(%error, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}

/// `age` moved by up to +-10%, by `hash`.
fn jittered(age: Duration, hash: u64) -> Duration {
    // hash % 2001 is in 0..=2000: -10.00% .. +10.00% in steps of 0.01%.
    let permyriad = (hash % 2001) as f64 - 1000.0;
    age.mul_f64(1.0 + permyriad / 10_000.0)
}

/// Runs the TLS handshake of one connection, within the handshake timeout, then serves
/// it like a plaintext one. A handshake that fails or stalls drops this connection
/// alone; the server's shutdown drops one still in its handshake.
async fn secured(
    acceptor: TlsAcceptor,
    stream: TcpStream,
    routes: Routes,
    transport: Arc<Transport>,
    max_age: Option<Duration>,
    shutdown: CancellationToken,
) {
    let opened = Instant::now();
    let deadline = tokio::time::Instant::from_std(opened + transport.handshake_timeout);
    let stream = tokio::select! {
        accepted = tokio::time::timeout_at(deadline, acceptor.accept(stream)) => match accepted {
            Ok(Ok(stream)) => stream,
            Ok(Err(error)) => {
                tracing::debug!(%error, "connection dropped: TLS handshake failed");
                return;
            }
            Err(_elapsed) => {
                tracing::debug!("connection dropped: no TLS handshake in time");
                return;
            }
        },
        () = shutdown.cancelled() => return,
    };
    // With mutual TLS, the client certificate names the client of every call.
    let peer = stream
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|chain| chain.first())
        .and_then(|leaf| crate::service::tls::client_identity(leaf.as_ref()))
        .map(PeerIdentity);
    connection(stream, opened, peer, routes, transport, max_age, shutdown).await;
}

/// Serves one connection, opened at `opened`, until it closes, applying the handshake,
/// idle and age limits and the server's shutdown. `peer` (the client certificate's
/// identity) is set in every request's extensions.
async fn connection<S>(
    stream: S,
    opened: Instant,
    peer: Option<PeerIdentity>,
    routes: Routes,
    transport: Arc<Transport>,
    max_age: Option<Duration>,
    shutdown: CancellationToken,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let handshake = Arc::new(AtomicBool::new(false));
    let activity = Arc::new(Activity::new(opened));
    let io = TokioIo::new(Observed {
        io: stream,
        preface: Preface::new(handshake.clone()),
    });
    let service = TowerToHyperService::new(Tracked {
        inner: routes,
        activity: activity.clone(),
        peer,
    });
    let builder = transport.builder();
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    // Since when a GOAWAY was sent because of the connection's idleness or age: its
    // calls then get the close grace.
    let mut closing_since: Option<Instant> = None;
    let mut shutting_down = false;
    loop {
        let now = Instant::now();
        let mut wake = now + Duration::from_secs(3600);
        if !handshake.load(Ordering::Acquire) {
            wake = wake.min(opened + transport.handshake_timeout);
        }
        match closing_since {
            Some(since) => wake = wake.min(since + transport.close_grace),
            None if !shutting_down => {
                if let Some(idle_since) = activity.idle_since() {
                    wake = wake.min(idle_since + transport.idle_timeout);
                }
                if let Some(age) = max_age {
                    wake = wake.min(opened + age);
                }
            }
            None => {}
        }
        tokio::select! {
            result = &mut conn => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                return;
            }
            () = shutdown.cancelled(), if !shutting_down => {
                shutting_down = true;
                conn.as_mut().graceful_shutdown();
            }
            () = tokio::time::sleep_until(tokio::time::Instant::from_std(wake)) => {
                let now = Instant::now();
                if !handshake.load(Ordering::Acquire)
                    && now >= opened + transport.handshake_timeout
                {
                    tracing::debug!("connection dropped: no HTTP/2 preface and SETTINGS in time");
                    return;
                }
                if let Some(since) = closing_since {
                    if now >= since + transport.close_grace {
                        tracing::debug!("connection closed: calls still open after the grace");
                        return;
                    }
                    continue;
                }
                if shutting_down {
                    continue;
                }
                let idle = activity
                    .idle_since()
                    .is_some_and(|since| now >= since + transport.idle_timeout);
                let old = max_age.is_some_and(|age| now >= opened + age);
                if idle || old {
                    tracing::debug!(idle, old, "connection closing (GOAWAY)");
                    closing_since = Some(now);
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// One connection's open calls, and since when it has had none.
#[derive(Debug)]
struct Activity {
    open: AtomicUsize,
    idle_since: Mutex<Instant>,
}

impl Activity {
    fn new(now: Instant) -> Self {
        Activity {
            open: AtomicUsize::new(0),
            idle_since: Mutex::new(now),
        }
    }

    /// Since when no call has been open (`None` while one is).
    fn idle_since(&self) -> Option<Instant> {
        if self.open.load(Ordering::Acquire) > 0 {
            return None;
        }
        self.idle_since.lock().ok().map(|since| *since)
    }

    fn enter(self: &Arc<Self>) -> OpenCall {
        self.open.fetch_add(1, Ordering::AcqRel);
        OpenCall(self.clone())
    }
}

/// One open call; the connection is idle again when the last one ends.
struct OpenCall(Arc<Activity>);

impl Drop for OpenCall {
    fn drop(&mut self) {
        if let Ok(mut since) = self.0.idle_since.lock() {
            *since = Instant::now();
        }
        self.0.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The routes, counting the connection's open calls and naming their client.
#[derive(Clone)]
struct Tracked {
    inner: Routes,
    activity: Arc<Activity>,
    peer: Option<PeerIdentity>,
}

type ResponseFuture =
    Pin<Box<dyn Future<Output = Result<http::Response<Body>, std::convert::Infallible>> + Send>>;

impl Service<http::Request<Incoming>> for Tracked {
    type Response = http::Response<Body>;
    type Error = std::convert::Infallible;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Service::<http::Request<Incoming>>::poll_ready(&mut self.inner, cx)
    }

    fn call(&mut self, mut request: http::Request<Incoming>) -> Self::Future {
        if let Some(peer) = &self.peer {
            request.extensions_mut().insert(peer.clone());
        }
        let open = self.activity.enter();
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await;
            drop(open);
            response
        })
    }
}

/// Watches the first bytes a client sends: the 24-byte HTTP/2 preface, then the 9-byte
/// header of its first frame (SETTINGS) and that frame's payload.
#[derive(Debug)]
struct Preface {
    head: Vec<u8>,
    received: usize,
    needed: Option<usize>,
    done: Arc<AtomicBool>,
}

/// The preface and a frame header.
const PREFACE_AND_FRAME_HEADER: usize = 24 + 9;

impl Preface {
    fn new(done: Arc<AtomicBool>) -> Self {
        Preface {
            head: Vec::with_capacity(PREFACE_AND_FRAME_HEADER),
            received: 0,
            needed: None,
            done,
        }
    }

    fn observe(&mut self, bytes: &[u8]) {
        self.received += bytes.len();
        if self.head.len() < PREFACE_AND_FRAME_HEADER {
            let take = (PREFACE_AND_FRAME_HEADER - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
            if self.head.len() == PREFACE_AND_FRAME_HEADER {
                let length = u32::from_be_bytes([0, self.head[24], self.head[25], self.head[26]]);
                self.needed = Some(PREFACE_AND_FRAME_HEADER + length as usize);
            }
        }
        if self.needed.is_some_and(|needed| self.received >= needed) {
            self.done.store(true, Ordering::Release);
            self.head = Vec::new();
        }
    }
}

/// A connection's stream (its socket, or the TLS stream over it), watching its first
/// bytes until the handshake is complete.
struct Observed<S> {
    io: S,
    preface: Preface,
}

impl<S: AsyncRead + Unpin> AsyncRead for Observed<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.io).poll_read(cx, buf);
        if !this.preface.done.load(Ordering::Relaxed) {
            this.preface.observe(&buf.filled()[before..]);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Observed<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preface_is_complete_after_the_first_settings_frame() {
        let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
        // A SETTINGS frame with two settings (12 bytes of payload).
        bytes.extend_from_slice(&[0, 0, 12, 4, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&[0; 12]);
        for split in [1, 5, 24, 30, 33, 40, bytes.len()] {
            let done = Arc::new(AtomicBool::new(false));
            let mut preface = Preface::new(done.clone());
            for chunk in bytes[..bytes.len() - 1].chunks(split) {
                preface.observe(chunk);
            }
            assert!(
                !done.load(Ordering::Relaxed),
                "split {split}: one byte short"
            );
            preface.observe(&bytes[bytes.len() - 1..]);
            assert!(done.load(Ordering::Relaxed), "split {split}");
        }
    }

    #[test]
    fn jitter_stays_within_ten_percent() {
        let age = Duration::from_secs(300);
        let ages: Vec<Duration> = (0..1000u64)
            .map(|i| jittered(age, StableHasher::new().u64(i).finish()))
            .collect();
        assert!(
            ages.iter()
                .all(|a| *a >= age.mul_f64(0.9) && *a <= age.mul_f64(1.1))
        );
        let spread =
            ages.iter().max().unwrap().as_secs_f64() - ages.iter().min().unwrap().as_secs_f64();
        assert!(spread > 50.0, "{spread}");
    }
}
