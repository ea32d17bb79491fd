//! The gRPC server: BotService, health, reflection, the metrics endpoint and the
//! bounded graceful shutdown, over the HTTP/2 transport of `service::transport`
//! (plaintext, or TLS with `service::tls`: health and reflection share the port and its
//! security).

use crate::pb;
use crate::pb::bot_service_server::BotServiceServer;
use crate::service::config::Config;
use crate::service::fast_lane::BotServiceWithFastLane;
use crate::service::guard::Guarded;
use crate::service::handler::BotHandler;
use crate::service::metrics;
use crate::service::transport;
use std::future::Future;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::service::Routes;
use tonic_health::ServingStatus;

/// An error that stops the server.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// The BotService as registered with tonic (its name is `climbot.v1.BotService`).
pub type BotServer = BotServiceServer<BotHandler>;

/// Serves until `shutdown` resolves, then: health NOT_SERVING (for `""` and
/// `climbot.v1.BotService`), keep accepting calls for `config.drain_delay`, stop
/// accepting, let in-flight calls finish within `config.shutdown_grace`, return.
pub async fn run(
    config: Config,
    grpc: TcpListener,
    metrics_listener: Option<TcpListener>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    // A dial table that does not parse stops the server here, not the calls that
    // ask for a strength.
    super::dial::check_tables()?;
    let handle = metrics::install();
    let metrics_task = metrics_listener.map(|l| tokio::spawn(metrics::serve(l, handle)));
    let _abort_metrics = AbortOnDrop(metrics_task);

    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    health.set_not_serving::<BotServer>().await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;
    let bot = Guarded::new(
        BotServiceWithFastLane::new(BotHandler::new(&config), config.max_message_bytes),
        config.transport.request_read_timeout,
    );

    let routes = Routes::new(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(bot)
        .prepare();
    // Certificates are read again when they change, for as long as the server runs.
    let watch_task = config.tls.clone().map(|tls| {
        tls.record_expiry();
        tracing::info!(
            cert = %tls.files().cert.display(),
            not_after = %tls.not_after_text(),
            mutual = tls.is_mutual(),
            reload_interval_ms = tls.files().reload_interval.as_millis(),
            "TLS on the gRPC port"
        );
        tokio::spawn(tls.watch())
    });
    let _abort_watch = AbortOnDrop(watch_task);
    let stop = CancellationToken::new();
    let mut serving = tokio::spawn(transport::serve(
        grpc,
        routes,
        config.transport.clone(),
        config.tls.clone(),
        stop.clone(),
    ));

    // What the bots cache is built before the first call, not by it.
    match tokio::task::spawn_blocking(super::warm::warm).await {
        Ok(Ok((decisions, took))) => {
            tracing::info!(decisions, took_ms = took.as_millis(), "warmed the bots")
        }
        Ok(Err(error)) => tracing::warn!(%error, "warm-up incomplete; first calls may be slower"),
        Err(error) => tracing::warn!(%error, "warm-up failed; first calls may be slower"),
    }
    health.set_service_status("", ServingStatus::Serving).await;
    health.set_serving::<BotServer>().await;
    tracing::info!("serving");

    tokio::pin!(shutdown);
    tokio::select! {
        () = &mut shutdown => {}
        ended = &mut serving => {
            ended?;
            return Err("the gRPC server stopped unexpectedly".into());
        }
    }

    tracing::info!(
        drain_delay_ms = config.drain_delay.as_millis(),
        grace_ms = config.shutdown_grace.as_millis(),
        "shutdown requested: NOT_SERVING, draining"
    );
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    health.set_not_serving::<BotServer>().await;
    if !config.drain_delay.is_zero() {
        tokio::time::sleep(config.drain_delay).await;
    }
    stop.cancel();
    match tokio::time::timeout(config.shutdown_grace, &mut serving).await {
        Ok(ended) => {
            ended?;
            tracing::info!("in-flight calls finished; stopped");
        }
        Err(_elapsed) => {
            serving.abort();
            tracing::warn!("shutdown grace elapsed with calls still open; stopped");
        }
    }
    Ok(())
}

struct AbortOnDrop(Option<tokio::task::JoinHandle<()>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }
}
