//! The guard around every call of a service:
//!
//! - **Panics**: whatever happens inside the call's own task (tonic's and prost's
//!   decoding, the fast lane, validation, an inline decision), a panic there becomes an
//!   INTERNAL answer for that call alone, is logged at error level and counted under the
//!   outcome `panic`; the server keeps serving.
//! - **Deadlines**: a malformed `grpc-timeout` is refused at once (INVALID_ARGUMENT, not
//!   run without a deadline), and a call whose deadline passes at any stage, the
//!   request's body still arriving included, is answered DEADLINE_EXCEEDED; so is a
//!   call whose request has not arrived whole within the read timeout (a client that
//!   stalls mid-request, with or without a deadline).
//! - **The answer path**: the response's body (encoding the answer, compressing it,
//!   the trailers) is produced under the same deadline: when it passes before the
//!   body is done, the call ends DEADLINE_EXCEEDED in the trailers instead of with a
//!   late answer ([`AnswerByDeadline`]).
//! - **Calls the handler never saw** (the request could not be read, or its deadline
//!   passed first) are counted in the metrics here, with the code they got, and
//!   logged with the reason they were refused (cut to a bounded length); a
//!   compressed request over the size limit once decompressed is answered
//!   OUT_OF_RANGE like an uncompressed one.
//!
//! The guard and the handler's per-call record share a [`CallTicket`] (in the
//! request's extensions), so that a call the guard ends is counted once, by the
//! handler's record when the handler saw the call, by the guard otherwise.

use crate::service::budget::parse_grpc_timeout;
use crate::service::error::{ServiceError, code_name, logged_reason, panic_message};
use crate::service::metrics as m;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tonic::body::Body;
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::NamedService;
use tonic::{Code, Status};

/// The deadline header, named once: a lookup by `&str` parses the name on every call.
static GRPC_TIMEOUT: http::HeaderName = http::HeaderName::from_static("grpc-timeout");

/// How the guard ended a call, read by the handler's record when the call's future
/// is dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EndedByGuard {
    /// The call panicked; the message of the panic.
    Panicked(String),
    /// The call's deadline passed before its answer was ready.
    DeadlineExceeded,
    /// The request did not arrive whole within the read timeout.
    ReadTimeout(Duration),
}

/// One call's link between the guard and the handler's record.
#[derive(Debug)]
pub(crate) struct CallTicket {
    /// When the guard received the call: the start of its budget and of its latency.
    pub(crate) started: Instant,
    /// The client's `grpc-timeout`, read once by the guard (which refuses a malformed
    /// one), so that the handler does not look the header up and parse it again.
    pub(crate) timeout: Option<Duration>,
    /// Set by the handler when it starts recording the call.
    handler_saw: AtomicBool,
    /// Set by the guard before it drops a call's future.
    ended: Mutex<Option<EndedByGuard>>,
}

impl CallTicket {
    /// The ticket of a call received at `started` with the client's `timeout`.
    pub(crate) fn new(started: Instant, timeout: Option<Duration>) -> Self {
        CallTicket {
            started,
            timeout,
            handler_saw: AtomicBool::new(false),
            ended: Mutex::new(None),
        }
    }

    /// The handler records this call (its record counts it, the guard does not).
    pub(crate) fn handler_records(&self) {
        self.handler_saw.store(true, Ordering::Release);
    }

    /// How the guard ended the call, if it did.
    pub(crate) fn ended_by_guard(&self) -> Option<EndedByGuard> {
        self.ended.lock().map_or(None, |e| e.clone())
    }

    fn end(&self, how: EndedByGuard) {
        if let Ok(mut ended) = self.ended.lock() {
            *ended = Some(how);
        }
    }
}

/// A service behind the guard.
#[derive(Clone, Debug)]
pub struct Guarded<S> {
    inner: S,
    read_timeout: Duration,
}

impl<S> Guarded<S> {
    /// `inner`, guarded; a call's request must arrive whole within `read_timeout`.
    pub fn new(inner: S, read_timeout: Duration) -> Self {
        Guarded {
            inner,
            read_timeout,
        }
    }
}

impl<S: NamedService> NamedService for Guarded<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<http::Request<Body>> for Guarded<S>
where
    S: Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<Body>) -> Self::Future {
        let started = Instant::now();
        let rpc = m::Rpc::from_path(request.uri().path());
        let timeout = match request.headers().get(&GRPC_TIMEOUT) {
            None => None,
            Some(value) => match value.to_str().ok().and_then(parse_grpc_timeout) {
                Some(timeout) => Some(timeout),
                None => {
                    let error = ServiceError::invalid(
                        "grpc-timeout",
                        format!(
                            "malformed header {value:?} (expected 1 to 8 digits and a unit: H, M, S, m, u or n)"
                        ),
                    );
                    let response = refused(rpc, started, error);
                    return Box::pin(std::future::ready(Ok(response)));
                }
            },
        };
        // A deadline too far to represent is no deadline.
        let deadline = timeout
            .and_then(|t| started.checked_add(t))
            .map(tokio::time::Instant::from_std);
        let read_by = tokio::time::Instant::from_std(started + self.read_timeout);
        let read_timeout = self.read_timeout;
        let ticket = Arc::new(CallTicket::new(started, timeout));
        request.extensions_mut().insert(ticket.clone());
        let inner = &mut self.inner;
        let call = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.call(request)));
        Box::pin(async move {
            let call = match call {
                Ok(call) => call,
                Err(payload) => {
                    let message = panic_message(payload.as_ref());
                    return Ok(panicked(rpc, &ticket, started, message));
                }
            };
            // The call's future and its timers live in this future, pinned: no
            // allocation of their own per call (profile in docs/load-testing.md).
            let mut call = std::pin::pin!(Some(call));
            let mut expiry = std::pin::pin!(deadline.map(tokio::time::sleep_until));
            // Only until the handler has the request: the earlier deadline wins.
            let mut read_expiry = std::pin::pin!(
                (deadline.is_none_or(|d| read_by < d)).then(|| tokio::time::sleep_until(read_by))
            );
            let polled = std::future::poll_fn(|cx| {
                // The deadline first: nothing is answered after it. Read off the clock:
                // a timer is armed only for a call that has to wait (below), because a
                // timer's first poll registers it with the runtime's driver, and that
                // wakes the driver's thread (an eventfd write and a wake-up of another
                // worker, a second system call on every call that answers at once, as
                // EASY does: load test).
                let now = tokio::time::Instant::now();
                if deadline.is_some_and(|deadline| now >= deadline) {
                    return Poll::Ready(Err(EndedByGuard::DeadlineExceeded));
                }
                if read_expiry.is_some() && ticket.handler_saw.load(Ordering::Acquire) {
                    read_expiry.set(None);
                }
                if read_expiry.is_some() && now >= read_by {
                    return Poll::Ready(Err(EndedByGuard::ReadTimeout(read_timeout)));
                }
                let Some(future) = call.as_mut().as_pin_mut() else {
                    return Poll::Pending;
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| future.poll(cx))) {
                    Ok(Poll::Ready(Ok(response))) => return Poll::Ready(Ok(response)),
                    Ok(Poll::Ready(Err(never))) => match never {},
                    Ok(Poll::Pending) => {}
                    Err(payload) => {
                        return Poll::Ready(Err(EndedByGuard::Panicked(panic_message(
                            payload.as_ref(),
                        ))));
                    }
                }
                // The call waits: the timers wake this task when its time is up.
                if let Some(expiry) = expiry.as_mut().as_pin_mut()
                    && expiry.poll(cx).is_ready()
                {
                    return Poll::Ready(Err(EndedByGuard::DeadlineExceeded));
                }
                if let Some(read) = read_expiry.as_mut().as_pin_mut()
                    && read.poll(cx).is_ready()
                {
                    return Poll::Ready(Err(EndedByGuard::ReadTimeout(read_timeout)));
                }
                Poll::Pending
            })
            .await;
            match polled {
                Ok(response) => {
                    let response = unseen_by_handler(rpc, &ticket, started, response);
                    Ok(match deadline {
                        Some(deadline) => AnswerByDeadline::wrap(response, rpc, deadline),
                        None => response,
                    })
                }
                Err(ended) => {
                    // Tell the handler's record before dropping the call's future
                    // (which drops the record).
                    ticket.end(ended.clone());
                    call.set(None);
                    Ok(match ended {
                        EndedByGuard::Panicked(message) => panicked(rpc, &ticket, started, message),
                        EndedByGuard::DeadlineExceeded => expired(rpc, &ticket, started, None),
                        EndedByGuard::ReadTimeout(timeout) => {
                            expired(rpc, &ticket, started, Some(timeout))
                        }
                    })
                }
            }
        })
    }
}

/// A response body that ends DEADLINE_EXCEEDED instead of finishing after the call's
/// deadline. tonic encodes (and compresses) the answer when the body is first polled,
/// after the handler has returned, and hyper polls it once the headers are sent: a
/// runtime slow to get there, or an answer slow to encode, would otherwise send the
/// answer late. What is handed to the connection before the deadline is written by it
/// as flow control allows (an answer is a few hundred bytes, well within the stream's
/// initial window).
pub(crate) struct AnswerByDeadline {
    inner: Body,
    deadline: tokio::time::Instant,
    rpc: Option<m::Rpc>,
    done: bool,
}

impl AnswerByDeadline {
    /// `response` with its body under `deadline`; a trailers-only answer (an error,
    /// whose status is in the headers) is sent as it is.
    fn wrap(
        response: http::Response<Body>,
        rpc: Option<m::Rpc>,
        deadline: tokio::time::Instant,
    ) -> http::Response<Body> {
        if response.headers().contains_key("grpc-status") {
            return response;
        }
        response.map(|inner| {
            Body::new(AnswerByDeadline {
                inner,
                deadline,
                rpc,
                done: false,
            })
        })
    }
}

impl http_body::Body for AnswerByDeadline {
    type Data = tonic::codegen::Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        if tokio::time::Instant::now() >= this.deadline {
            this.done = true;
            m::record_withheld_answer(this.rpc);
            tracing::warn!(
                rpc = this.rpc.map_or("other", m::Rpc::name),
                "answer withheld: the deadline passed before it was sent"
            );
            let status = Status::from(ServiceError::DeadlineExceeded(
                "the deadline passed before the answer was sent",
            ));
            let mut trailers = http::HeaderMap::new();
            return Poll::Ready(Some(match status.add_header(&mut trailers) {
                Ok(()) => Ok(http_body::Frame::trailers(trailers)),
                Err(status) => Err(status),
            }));
        }
        let frame = std::task::ready!(Pin::new(&mut this.inner).poll_frame(cx));
        match &frame {
            None => this.done = true,
            Some(Ok(frame)) if frame.is_trailers() => this.done = true,
            Some(Err(_)) => this.done = true,
            Some(Ok(_)) => {}
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.done || http_body::Body::is_end_stream(&self.inner)
    }
}

/// Counts a call the handler never saw (the request could not be read: over the size
/// limit, undecodable, compressed with an unknown or broken encoding) with the code of
/// its answer, and logs it with its reason; a compressed request over the size limit once decompressed gets the
/// code of an uncompressed one that is too large (OUT_OF_RANGE).
fn unseen_by_handler(
    rpc: Option<m::Rpc>,
    ticket: &CallTicket,
    started: Instant,
    response: http::Response<Body>,
) -> http::Response<Body> {
    if ticket.handler_saw.load(Ordering::Acquire) {
        return response;
    }
    let Some(status) = Status::from_header_map(response.headers()) else {
        return response;
    };
    let (status, response) = if status.code() == Code::ResourceExhausted
        && status.message().contains("exceeded while decompressing")
    {
        let status = Status::out_of_range(format!(
            "the request is larger than the server's limit once decompressed ({})",
            status.message()
        ));
        let response = status.clone().into_http();
        (status, response)
    } else {
        (status, response)
    };
    if let Some(rpc) = rpc {
        record(rpc, status.code(), false, started);
    }
    tracing::info!(
        rpc = rpc.map_or("other", m::Rpc::name),
        outcome = code_name(status.code()),
        elapsed_us = elapsed_us(started),
        reason = logged_reason(status.message()).as_ref(),
        "call refused: the request could not be read"
    );
    response
}

/// Microseconds since `started`, for a log line.
fn elapsed_us(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Counts one call the handler did not record.
fn record(rpc: m::Rpc, code: Code, panicked: bool, started: Instant) {
    m::record_call(&m::CallOutcome {
        rpc,
        game: None,
        difficulty: None,
        code,
        fallback: false,
        panicked,
        elapsed: started.elapsed(),
    });
}

/// The answer to a call refused before it started, counted and logged.
fn refused(rpc: Option<m::Rpc>, started: Instant, error: ServiceError) -> http::Response<Body> {
    if let Some(rpc) = rpc {
        record(rpc, error.code(), false, started);
    }
    tracing::info!(
        rpc = rpc.map_or("other", m::Rpc::name),
        outcome = code_name(error.code()),
        reason = logged_reason(&error.to_string()).as_ref(),
        "call refused"
    );
    Status::from(error).into_http()
}

/// The DEADLINE_EXCEEDED answer to a call whose deadline (or the request's read
/// timeout) passed, counted and logged here unless the handler's record does it.
fn expired(
    rpc: Option<m::Rpc>,
    ticket: &CallTicket,
    started: Instant,
    read_timeout: Option<Duration>,
) -> http::Response<Body> {
    let why = if ticket.handler_saw.load(Ordering::Acquire) {
        "the deadline passed before the answer was ready"
    } else {
        if let Some(rpc) = rpc {
            record(rpc, Code::DeadlineExceeded, false, started);
        }
        let why = match read_timeout {
            None => "the deadline passed while the request was still arriving",
            Some(_) => "the request did not arrive whole within the server's read timeout",
        };
        tracing::warn!(
            rpc = rpc.map_or("other", m::Rpc::name),
            outcome = "deadline_exceeded",
            elapsed_us = elapsed_us(started),
            reason = why,
            "call failed"
        );
        why
    };
    Status::from(ServiceError::DeadlineExceeded(why)).into_http()
}

/// The INTERNAL answer to a call that panicked, counted and logged here unless the
/// handler's record already did.
fn panicked(
    rpc: Option<m::Rpc>,
    ticket: &CallTicket,
    started: Instant,
    message: String,
) -> http::Response<Body> {
    if !ticket.handler_saw.load(Ordering::Acquire) {
        if let Some(rpc) = rpc {
            record(rpc, Code::Internal, true, started);
        }
        tracing::error!(
            rpc = rpc.map_or("other", m::Rpc::name),
            panic = message.as_str(),
            "call panicked before the handler read it: a server bug"
        );
    }
    Status::from(ServiceError::Panicked {
        during: "serving the call",
        message,
    })
    .into_http()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    #[derive(Clone)]
    struct Panicky {
        in_call: bool,
    }

    impl Service<http::Request<Body>> for Panicky {
        type Response = http::Response<Body>;
        type Error = Infallible;
        type Future = BoxFuture<Self::Response, Self::Error>;

        fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: http::Request<Body>) -> Self::Future {
            assert!(!self.in_call, "panics in call");
            let ticket = request.extensions().get::<Arc<CallTicket>>().cloned();
            Box::pin(async move {
                tokio::task::yield_now().await;
                assert!(ticket.is_some(), "the ticket travels with the request");
                if request.uri().path() == "/ok" {
                    return Ok(http::Response::new(Body::empty()));
                }
                panic!("panics in poll");
            })
        }
    }

    fn grpc_status(response: &http::Response<Body>) -> Option<&str> {
        response
            .headers()
            .get("grpc-status")
            .and_then(|v| v.to_str().ok())
    }

    /// A response body as tonic's for one answer: one message, then OK trailers.
    struct OneAnswer {
        message: Option<tonic::codegen::Bytes>,
        trailers_sent: bool,
    }

    impl http_body::Body for OneAnswer {
        type Data = tonic::codegen::Bytes;
        type Error = Status;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
        ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Status>>> {
            if let Some(message) = self.message.take() {
                return Poll::Ready(Some(Ok(http_body::Frame::data(message))));
            }
            if self.trailers_sent {
                return Poll::Ready(None);
            }
            self.trailers_sent = true;
            let mut trailers = http::HeaderMap::new();
            trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
            Poll::Ready(Some(Ok(http_body::Frame::trailers(trailers))))
        }
    }

    /// The frames of a body: the data's length and the trailers' grpc-status.
    async fn frames(mut body: Body) -> (usize, Vec<String>) {
        let (mut data, mut statuses) = (0, Vec::new());
        while let Some(frame) =
            std::future::poll_fn(|cx| http_body::Body::poll_frame(Pin::new(&mut body), cx)).await
        {
            match frame.unwrap().into_data() {
                Ok(bytes) => data += bytes.len(),
                Err(frame) => {
                    let trailers = frame.into_trailers().unwrap();
                    statuses.push(trailers["grpc-status"].to_str().unwrap().to_string());
                }
            }
        }
        (data, statuses)
    }

    fn answer() -> http::Response<Body> {
        http::Response::new(Body::new(OneAnswer {
            message: Some(tonic::codegen::Bytes::from_static(b"answer")),
            trailers_sent: false,
        }))
    }

    #[tokio::test]
    async fn an_answer_ready_after_the_deadline_is_withheld() {
        let now = tokio::time::Instant::now();
        let on_time = AnswerByDeadline::wrap(answer(), None, now + Duration::from_secs(60));
        assert_eq!(frames(on_time.into_body()).await, (6, vec!["0".into()]));
        let late = AnswerByDeadline::wrap(answer(), None, now);
        assert_eq!(frames(late.into_body()).await, (0, vec!["4".into()]));
        // An error answer (its status in the headers) goes as it is.
        let refused = Status::resource_exhausted("busy").into_http();
        let refused = AnswerByDeadline::wrap(refused, None, now);
        assert_eq!(grpc_status(&refused), Some("8"));
    }

    /// Answers at once, or never; counts the polls of its calls.
    #[derive(Clone)]
    struct Answering {
        at_once: bool,
        polls: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Service<http::Request<Body>> for Answering {
        type Response = http::Response<Body>;
        type Error = Infallible;
        type Future = BoxFuture<Self::Response, Self::Error>;

        fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _request: http::Request<Body>) -> Self::Future {
            let (at_once, polls) = (self.at_once, self.polls.clone());
            Box::pin(std::future::poll_fn(move |_cx| {
                polls.fetch_add(1, Ordering::Relaxed);
                if at_once {
                    Poll::Ready(Ok(answer()))
                } else {
                    Poll::Pending
                }
            }))
        }
    }

    fn with_timeout(timeout: &str) -> http::Request<Body> {
        http::Request::builder()
            .uri("/x")
            .header("grpc-timeout", timeout)
            .body(Body::empty())
            .unwrap()
    }

    fn answering(at_once: bool) -> (Guarded<Answering>, Arc<std::sync::atomic::AtomicUsize>) {
        let polls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let service = Answering {
            at_once,
            polls: polls.clone(),
        };
        (Guarded::new(service, Duration::from_secs(10)), polls)
    }

    // The guard reads its deadlines off the real clock, from which the paused clock of
    // these tests only moves forward: one runtime (one test) per case.

    #[tokio::test(start_paused = true)]
    async fn a_call_first_polled_after_its_deadline_is_refused_unpolled() {
        let (mut guarded, polls) = answering(true);
        let response = guarded.call(with_timeout("50m")).await.unwrap();
        assert_eq!(frames(response.into_body()).await, (6, vec!["0".into()]));
        assert_eq!(polls.load(Ordering::Relaxed), 1);
        let late = guarded.call(with_timeout("50m"));
        tokio::time::advance(Duration::from_millis(60)).await;
        assert_eq!(grpc_status(&late.await.unwrap()), Some("4"));
        assert_eq!(
            polls.load(Ordering::Relaxed),
            1,
            "the late call was not polled"
        );
    }

    // The paused clock jumps to the next timer only if one is armed: without the
    // timers of a waiting call, these two tests would hang.

    #[tokio::test(start_paused = true)]
    async fn a_waiting_call_is_ended_by_its_deadline() {
        let (mut guarded, _) = answering(false);
        let started = tokio::time::Instant::now();
        let response = guarded.call(with_timeout("50m")).await.unwrap();
        assert_eq!(grpc_status(&response), Some("4"));
        assert!(started.elapsed() >= Duration::from_millis(50));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_call_without_a_deadline_is_ended_by_the_read_timeout() {
        let (mut guarded, _) = answering(false);
        let request = http::Request::builder()
            .uri("/x")
            .body(Body::empty())
            .unwrap();
        let started = tokio::time::Instant::now();
        assert_eq!(
            grpc_status(&guarded.call(request).await.unwrap()),
            Some("4")
        );
        assert!(started.elapsed() >= Duration::from_secs(10));
    }

    #[tokio::test]
    async fn panics_in_call_or_poll_become_internal() {
        for (in_call, path) in [(true, "/x"), (false, "/x"), (false, "/ok")] {
            let mut guarded = Guarded::new(Panicky { in_call }, Duration::from_secs(10));
            let request = http::Request::builder()
                .uri(path)
                .body(Body::empty())
                .unwrap();
            let response = guarded.call(request).await.unwrap();
            if path == "/ok" {
                assert_eq!(grpc_status(&response), None);
            } else {
                assert_eq!(grpc_status(&response), Some("13"), "INTERNAL");
                let message = Status::from_header_map(response.headers()).unwrap();
                assert!(
                    message.message().contains("panics in"),
                    "{}",
                    message.message()
                );
            }
        }
    }
}
