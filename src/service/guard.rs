//! The guard around every call of a service: whatever happens inside the call's own
//! task (tonic's and prost's decoding, the fast lane, validation, an inline decision,
//! the answer's encoding), a panic there becomes an INTERNAL answer for that call
//! alone, is logged at error level and counted under the outcome `panic`; the server
//! keeps serving.
//!
//! The guard and the handler's per-call record share a [`CallTicket`] (in the
//! request's extensions), so that a call the guard ends is counted once, by the
//! handler's record when the handler saw the call, by the guard otherwise.

use crate::service::error::{ServiceError, panic_message};
use crate::service::metrics as m;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;
use tonic::Status;
use tonic::body::Body;
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::NamedService;

/// How the guard ended a call, read by the handler's record when the call's future
/// is dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EndedByGuard {
    /// The call panicked; the message of the panic.
    Panicked(String),
}

/// One call's link between the guard and the handler's record.
#[derive(Debug, Default)]
pub(crate) struct CallTicket {
    /// Set by the handler when it starts recording the call.
    handler_saw: AtomicBool,
    /// Set by the guard before it drops a call's future.
    ended: Mutex<Option<EndedByGuard>>,
}

impl CallTicket {
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
}

impl<S> Guarded<S> {
    /// `inner`, guarded.
    pub fn new(inner: S) -> Self {
        Guarded { inner }
    }
}

impl<S: NamedService> NamedService for Guarded<S> {
    const NAME: &'static str = S::NAME;
}

type HttpFuture = Pin<Box<dyn Future<Output = Result<http::Response<Body>, Infallible>> + Send>>;

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
        let ticket = Arc::new(CallTicket::default());
        request.extensions_mut().insert(ticket.clone());
        let inner = &mut self.inner;
        let call = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Box::pin(inner.call(request)) as HttpFuture
        }));
        Box::pin(async move {
            let mut call = match call {
                Ok(call) => Some(call),
                Err(payload) => {
                    let message = panic_message(payload.as_ref());
                    return Ok(panicked(rpc, &ticket, started, message));
                }
            };
            let polled = std::future::poll_fn(|cx| {
                let Some(future) = call.as_mut() else {
                    return Poll::Ready(Err("polled after the end".to_string()));
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    future.as_mut().poll(cx)
                })) {
                    Ok(Poll::Ready(Ok(response))) => Poll::Ready(Ok(response)),
                    Ok(Poll::Ready(Err(never))) => match never {},
                    Ok(Poll::Pending) => Poll::Pending,
                    Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
                }
            })
            .await;
            match polled {
                Ok(response) => Ok(response),
                Err(message) => {
                    // Tell the handler's record before dropping the call's future
                    // (which drops the record).
                    ticket.end(EndedByGuard::Panicked(message.clone()));
                    drop(call.take());
                    Ok(panicked(rpc, &ticket, started, message))
                }
            }
        })
    }
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
            m::record_call(&m::CallOutcome {
                rpc,
                game: None,
                difficulty: None,
                code: tonic::Code::Internal,
                fallback: false,
                panicked: true,
                elapsed: started.elapsed(),
            });
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

    #[tokio::test]
    async fn panics_in_call_or_poll_become_internal() {
        for (in_call, path) in [(true, "/x"), (false, "/x"), (false, "/ok")] {
            let mut guarded = Guarded::new(Panicky { in_call });
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
