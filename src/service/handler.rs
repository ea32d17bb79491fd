//! The tonic handler: thin. Decode and validate (game adapters), plan the budget, take
//! a decision slot, run the policy off the runtime, encode. Metrics and the per-call
//! log line are written by [`CallRecord`] when the call ends, however it ends.

use crate::bot::{DecisionContext, Difficulty, Work};
use crate::game::GameKind;
use crate::pb;
use crate::pb::bot_service_server::BotService;
use crate::service::budget::{self, Limits, NoTime};
use crate::service::config::{Config, FaultHook, FaultPoint};
use crate::service::error::{ServiceError, catch_panic, logged_reason};
use crate::service::fair::{self, FairSlots, PeerIdentity};
use crate::service::game::{self, WireView};
use crate::service::guard::{CallTicket, EndedByGuard};
use crate::service::metrics as m;
use crate::service::pool::{DecisionPool, JobFailed};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tonic::codegen::http;
use tonic::metadata::MetadataMap;
use tonic::{Code, Request, Response, Status};
use tracing::{Instrument, Span, field};

/// A call's computation, from its request to its response.
type CallFuture<'a, O> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<O, ServiceError>> + Send + 'a>>;

/// An RPC's computation, given its handler, its call record, the client's timeout, the
/// client and the request.
type CallRun<I, O> = for<'a> fn(
    &'a BotHandler,
    &'a mut CallRecord,
    Option<Duration>,
    &'a Arc<str>,
    I,
) -> CallFuture<'a, O>;

/// The BotService implementation.
#[derive(Clone)]
pub struct BotHandler {
    default_difficulty: Difficulty,
    limits: Limits,
    slots: FairSlots,
    pool: Arc<DecisionPool>,
    fault_hook: Option<FaultHook>,
}

impl BotHandler {
    /// A handler for `config`, with `config.decision_slots` decision slots.
    pub fn new(config: &Config) -> Self {
        BotHandler {
            default_difficulty: config.default_difficulty,
            limits: Limits {
                max_budget: config.max_budget,
                margin: config.deadline_margin,
            },
            slots: FairSlots::new(
                config.decision_slots,
                config.client_weights.clone(),
                config.client_label_limit,
            ),
            pool: Arc::new(DecisionPool::new(config.decision_slots)),
            fault_hook: config.fault_hook,
        }
    }

    /// Calls the test hook, if any (see `Config::fault_hook`).
    fn fault(&self, point: FaultPoint, seed: Option<u64>) {
        if let Some(hook) = self.fault_hook {
            hook(point, seed);
        }
    }

    /// Serves one SelectPlay call, whichever way its request was read (the generated
    /// server's prost decoding or the fast lane of `service::fast_lane`).
    pub fn serve_select_play(
        &self,
        request: Request<SelectPlayInput>,
    ) -> impl Future<Output = Result<Response<pb::SelectPlayResponse>, Status>> + Send + '_ {
        self.serve(
            m::Rpc::SelectPlay,
            request,
            |h, call, timeout, client, input| Box::pin(h.select_play(call, timeout, client, input)),
        )
    }

    /// Serves one AnalyzePlay call.
    pub fn serve_analyze_play(
        &self,
        request: Request<pb::AnalyzePlayRequest>,
    ) -> impl Future<Output = Result<Response<pb::AnalyzePlayResponse>, Status>> + Send + '_ {
        self.serve(
            m::Rpc::AnalyzePlay,
            request,
            |h, call, timeout, client, input| {
                Box::pin(h.analyze_play(call, timeout, client, input))
            },
        )
    }

    /// Serves one call of an RPC that may take a decision slot: attributes it to its
    /// client, runs `run` in the call's span with the client's timeout, and records the
    /// call however it ends.
    ///
    /// What the call needs from the request's metadata is read before the future is
    /// made, so that the future holds the request's message alone: a call's future is
    /// boxed, and one of a kilobyte or more is a large request to the allocator, which
    /// makes glibc consolidate its free small blocks first (load test profile).
    fn serve<I: Send + 'static, O: 'static>(
        &self,
        rpc: m::Rpc,
        request: Request<I>,
        run: CallRun<I, O>,
    ) -> impl Future<Output = Result<Response<O>, Status>> + Send + '_ {
        let ticket = request.extensions().get::<Arc<CallTicket>>().cloned();
        // Behind the guard, the timeout it read; called directly, the header's.
        let timeout = match &ticket {
            Some(ticket) => ticket.timeout,
            None => budget::client_timeout(request.metadata()),
        };
        let client = client_of(
            request.extensions().get::<PeerIdentity>(),
            request.metadata(),
        );
        let mut call = CallRecord::new(rpc, ticket);
        let input = request.into_inner();
        async move {
            let span = call.span.clone();
            let result = match client {
                Ok(client) => {
                    call.client = Some(client.clone());
                    run(self, &mut call, timeout, &client, input)
                        .instrument(span)
                        .await
                }
                Err(error) => Err(error),
            };
            call.finish(&result);
            result.map(Response::new).map_err(Status::from)
        }
    }

    async fn select_play(
        &self,
        call: &mut CallRecord,
        timeout: Option<Duration>,
        client: &Arc<str>,
        input: SelectPlayInput,
    ) -> Result<pb::SelectPlayResponse, ServiceError> {
        let (request, view) = input.into_parts();
        // A level asked for is known before the view; the dial's setting for a strength,
        // and so the level served, depends on the view's game.
        let asked = match game::strength_from_wire(request.strength, request.difficulty)? {
            Some(strength) => Asked::Strength(strength),
            None => {
                let difficulty =
                    game::difficulty_from_wire(request.difficulty, self.default_difficulty)?;
                call.difficulty = Some(difficulty);
                Asked::Level(difficulty)
            }
        };
        call.seed = request.seed;
        // Decoding, validation and EASY run on the request's task.
        let view = self.decode_view(call, view, request.seed)?;
        let level = match asked {
            Asked::Level(difficulty) => game::Level::Served(difficulty),
            Asked::Strength(strength) => game::Level::Dial(view.dial(strength)?),
        };
        let difficulty = level.difficulty();
        call.difficulty = Some(difficulty);
        if !view.supports(difficulty) {
            return Err(ServiceError::Unimplemented {
                game: view.game(),
                difficulty,
            });
        }
        check_at_least_one("budget_ms", request.budget_ms)?;
        check_at_least_one("max_iterations", request.max_iterations)?;
        let seed = request
            .seed
            .unwrap_or_else(|| game::derive_level_seed(view.game(), view.fingerprint(), level));
        call.seed = Some(seed);
        call.span.record("seed", seed);
        let plan = self.plan(call, timeout, request.budget_ms)?;
        let explain = request.explain;
        if difficulty == Difficulty::Easy {
            // EASY is a rule that answers in microseconds: computed on the request's own
            // task, without a decision slot or a hop to the blocking pool, which would
            // cost more than the decision (load test). Nor is it counted in the
            // decisions in flight, which are those holding a decision slot.
            let never = || false;
            let mut ctx = DecisionContext::new(seed, &never);
            let t0 = Instant::now();
            let answer = catch_panic("deciding", || {
                self.fault(FaultPoint::Decide, Some(seed));
                view.decide(level, explain, &mut ctx)
            })?;
            return self.respond(call, level, seed, answer, &ctx.work(), t0.elapsed());
        }
        let max_iterations = request.max_iterations.map(u64::from);
        let (answer, work, compute) = self
            .compute(client, plan, seed, max_iterations, "deciding", move |ctx| {
                view.decide(level, explain, ctx)
            })
            .await?;
        self.respond(call, level, seed, answer, &work, compute)
    }

    /// Decodes and validates a request's view on the request's task, recording its game
    /// in `call` (known even when the view is invalid): a panic there (a server bug)
    /// becomes INTERNAL for this call, and the server keeps serving.
    fn decode_view(
        &self,
        call: &mut CallRecord,
        view: WireView,
        seed: Option<u64>,
    ) -> Result<Box<dyn game::GameAdapter>, ServiceError> {
        call.game = game::game_of(&view);
        let view = catch_panic("validating the view", || {
            self.fault(FaultPoint::Validate, seed);
            game::decode(view)
        })??;
        call.game = Some(view.game());
        Ok(view)
    }

    /// The budget of a call received at `call.started`: DEADLINE_EXCEEDED when its
    /// deadline leaves no time.
    fn plan(
        &self,
        call: &CallRecord,
        timeout: Option<Duration>,
        budget_ms: Option<u32>,
    ) -> Result<budget::Plan, ServiceError> {
        budget::plan(call.started, timeout, budget_ms, self.limits).map_err(
            |NoTime::DeadlineTooShort| {
                ServiceError::DeadlineExceeded("the call's deadline leaves no time to decide")
            },
        )
    }

    /// Runs `job` (a search: a decision or an analysis) under `plan`: it takes one of
    /// the decision slots, shared fairly between clients (waiting counts against the
    /// budget), and runs on a decision thread with a context seeded by `seed` that
    /// stops at the plan's end, at `max_iterations`, or when the call is dropped. The
    /// job's result, the work it did and its compute time; DEADLINE_EXCEEDED when it
    /// ends after the client's deadline. `during` names the job in a panic's report.
    async fn compute<T: Send + 'static>(
        &self,
        client: &Arc<str>,
        plan: budget::Plan,
        seed: u64,
        max_iterations: Option<u64>,
        during: &'static str,
        job: impl FnOnce(&mut DecisionContext<'_>) -> T + Send + 'static,
    ) -> Result<(T, Work, Duration), ServiceError> {
        // Waiting for a slot counts against the budget; the slots are shared fairly
        // between clients (`service::fair`).
        let decide_by = tokio::time::Instant::from_std(plan.decide_by);
        let permit = self
            .slots
            .acquire(client, decide_by)
            .await
            .map_err(|refused| ServiceError::ResourceExhausted {
                waited_ms: plan.budget.as_millis(),
                pushback_ms: refused.pushback_ms,
            })?;

        let cancel = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let stop_at = plan.decide_by;
        let fault_hook = self.fault_hook;
        // On a decision thread, below the runtime's priority (`service::pool`).
        let task = self.pool.run(move || {
            // The slot is held until the computation really ends, even if the call
            // was dropped meanwhile: no orphan work outside the slots.
            let _permit = permit;
            let _in_flight = m::InFlight::enter();
            let stop = move || cancel.load(Ordering::Relaxed) || Instant::now() >= stop_at;
            let t0 = Instant::now();
            let spent = move || crate::bot::budget_share(t0, stop_at);
            let mut ctx = DecisionContext::new(seed, &stop)
                .with_budget_spent(&spent)
                .with_max_iterations(max_iterations);
            if let Some(hook) = fault_hook {
                hook(FaultPoint::Decide, Some(seed));
            }
            let answer = job(&mut ctx);
            let work = ctx.work();
            (answer, work, t0.elapsed())
        });
        // Past the decision's stop time, a search that has not returned (a long
        // uninterruptible step) is abandoned halfway through the margin, so that the
        // DEADLINE_EXCEEDED still reaches the client before its own timer fires.
        let give_up_at = plan
            .answer_by
            .map(|answer_by| plan.decide_by + (answer_by - plan.decide_by) / 2);
        let joined = match give_up_at {
            Some(give_up_at) => {
                let give_up_at = tokio::time::Instant::from_std(give_up_at);
                match tokio::time::timeout_at(give_up_at, task).await {
                    Ok(joined) => joined,
                    Err(_elapsed) => {
                        return Err(ServiceError::DeadlineExceeded(
                            "the decision did not finish before the call's deadline",
                        ));
                    }
                }
            }
            None => task.await,
        };
        let (answer, work, compute) = joined.map_err(|e| match e {
            JobFailed::Panicked(message) => ServiceError::Panicked { during, message },
            JobFailed::Dropped => ServiceError::Internal("the decision was dropped".into()),
        })?;
        if plan.answer_by.is_some_and(|t| Instant::now() >= t) {
            return Err(ServiceError::DeadlineExceeded(
                "the decision finished after the call's deadline",
            ));
        }
        Ok((answer, work, compute))
    }

    async fn analyze_play(
        &self,
        call: &mut CallRecord,
        timeout: Option<Duration>,
        client: &Arc<str>,
        request: pb::AnalyzePlayRequest,
    ) -> Result<pb::AnalyzePlayResponse, ServiceError> {
        call.seed = request.seed;
        let view = self.decode_view(call, WireView::Proto(request.view), request.seed)?;
        if let Some(decision) = &request.decision {
            catch_panic("validating the decision", || view.check_decision(decision))??;
        }
        check_at_least_one("budget_ms", request.budget_ms)?;
        check_at_least_one("max_iterations", request.max_iterations)?;
        check_at_least_one("top", request.top)?;
        let seed = request
            .seed
            .unwrap_or_else(|| game::derive_analysis_seed(view.game(), view.fingerprint()));
        call.seed = Some(seed);
        call.span.record("seed", seed);
        let plan = self.plan(call, timeout, request.budget_ms)?;
        let max_iterations = request.max_iterations.map(u64::from);
        let top = request.top.map(|n| n as usize);
        let reviewed = request.decision;
        let (analysis, _work, compute) = self
            .compute(
                client,
                plan,
                seed,
                max_iterations,
                "analyzing",
                move |ctx| view.analyze(reviewed.as_ref(), top, ctx),
            )
            .await?;
        let mut response = analysis?;
        response.seed = seed;
        response.compute_micros = u64::try_from(compute.as_micros()).unwrap_or(u64::MAX);
        Ok(response)
    }

    /// The response for a computed answer (`None`: the game has no such policy).
    fn respond(
        &self,
        call: &mut CallRecord,
        level: game::Level,
        seed: u64,
        answer: Option<game::Answer>,
        work: &Work,
        compute: Duration,
    ) -> Result<pb::SelectPlayResponse, ServiceError> {
        let difficulty = level.difficulty();
        let answer = answer.ok_or_else(|| {
            ServiceError::Internal(format!(
                "no {} policy at {}",
                call.game_name(),
                difficulty.name()
            ))
        })?;
        call.fallback = work.fallback;
        Ok(pb::SelectPlayResponse {
            decision: Some(answer.decision),
            seed,
            fallback: work.fallback,
            search_iterations: work.iterations,
            difficulty: game::difficulty_to_wire(difficulty) as i32,
            compute_micros: u64::try_from(compute.as_micros()).unwrap_or(u64::MAX),
            explanation: answer.explanation,
            strength: match level {
                game::Level::Served(_) => None,
                game::Level::Dial(choice) => Some(choice.rating),
            },
        })
    }

    fn list_legal_plays(
        &self,
        call: &mut CallRecord,
        request: pb::ListLegalPlaysRequest,
    ) -> Result<pb::ListLegalPlaysResponse, ServiceError> {
        let view = self.decode_view(call, WireView::Proto(request.view), None)?;
        catch_panic("listing the legal plays", || view.legal_plays())
    }
}

#[tonic::async_trait]
impl BotService for BotHandler {
    async fn select_play(
        &self,
        request: Request<pb::SelectPlayRequest>,
    ) -> Result<Response<pb::SelectPlayResponse>, Status> {
        self.serve_select_play(request.map(|r| SelectPlayInput::Wire(Box::new(r))))
            .await
    }

    async fn analyze_play(
        &self,
        request: Request<pb::AnalyzePlayRequest>,
    ) -> Result<Response<pb::AnalyzePlayResponse>, Status> {
        self.serve_analyze_play(request).await
    }

    async fn list_legal_plays(
        &self,
        request: Request<pb::ListLegalPlaysRequest>,
    ) -> Result<Response<pb::ListLegalPlaysResponse>, Status> {
        let ticket = request.extensions().get::<Arc<CallTicket>>().cloned();
        let mut call = CallRecord::new(m::Rpc::ListLegalPlays, ticket);
        let result = call
            .span
            .clone()
            .in_scope(|| self.list_legal_plays(&mut call, request.into_inner()));
        call.finish(&result);
        result.map(Response::new).map_err(Status::from)
    }
}

/// What a SelectPlay request asks for: a level, or a strength on the dial.
enum Asked {
    /// A level (the server's default for `DIFFICULTY_UNSPECIFIED`).
    Level(Difficulty),
    /// A checked strength (finite, at least 0).
    Strength(f64),
}

/// INVALID_ARGUMENT naming `field` when it is set to 0.
fn check_at_least_one(field: &str, value: Option<u32>) -> Result<(), ServiceError> {
    if value == Some(0) {
        return Err(ServiceError::invalid(field, "must be at least 1 when set"));
    }
    Ok(())
}

/// The client a call is attributed to: its connection's client certificate, else the
/// [`fair::CLIENT_METADATA_KEY`] metadata value (INVALID_ARGUMENT naming the key when
/// it is not a valid name), else [`fair::ANONYMOUS`].
fn client_of(
    peer: Option<&PeerIdentity>,
    metadata: &MetadataMap,
) -> Result<Arc<str>, ServiceError> {
    static ANONYMOUS: std::sync::LazyLock<Arc<str>> =
        std::sync::LazyLock::new(|| Arc::from(fair::ANONYMOUS));
    if let Some(PeerIdentity(identity)) = peer {
        return Ok(identity.clone());
    }
    // Looked up by a name made once: a lookup by `&str` parses the name on every call.
    static CLIENT_KEY: http::HeaderName = http::HeaderName::from_static(fair::CLIENT_METADATA_KEY);
    let Some(value) = metadata.as_ref().get(&CLIENT_KEY) else {
        return Ok(ANONYMOUS.clone());
    };
    let name = value.to_str().map_err(|_| {
        ServiceError::invalid(
            fair::CLIENT_METADATA_KEY,
            "must be printable ASCII without spaces",
        )
    })?;
    fair::check_client_name(name)
        .map_err(|reason| ServiceError::invalid(fair::CLIENT_METADATA_KEY, reason))?;
    Ok(Arc::from(name))
}

/// A SelectPlay request as the server read it.
#[derive(Debug)]
pub enum SelectPlayInput {
    /// Decoded by prost (boxed: the message is the largest of the three, and a call's
    /// future holds this).
    Wire(Box<pb::SelectPlayRequest>),
    /// A Lexio request read by the fast lane.
    Lexio {
        /// The fields other than the view.
        header: RequestHeader,
        /// The view, not yet validated.
        view: crate::lexio::ViewInput,
    },
    /// A Daifugo request read by the fast lane.
    Daifugo {
        /// The fields other than the view.
        header: RequestHeader,
        /// The view, not yet validated (boxed: the larger of the two).
        view: Box<crate::daifugo::view::DaifugoViewInput>,
    },
}

/// SelectPlay's fields other than the view, as on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RequestHeader {
    /// `difficulty` (an open enum: any value).
    pub difficulty: i32,
    /// `seed`.
    pub seed: Option<u64>,
    /// `budget_ms`.
    pub budget_ms: Option<u32>,
    /// `explain`.
    pub explain: bool,
    /// `max_iterations`.
    pub max_iterations: Option<u32>,
    /// `strength`.
    pub strength: Option<f64>,
}

impl SelectPlayInput {
    /// The request's fields other than the view, and the view.
    pub fn into_parts(self) -> (RequestHeader, WireView) {
        match self {
            SelectPlayInput::Wire(r) => {
                let r = *r;
                (
                    RequestHeader {
                        difficulty: r.difficulty,
                        seed: r.seed,
                        budget_ms: r.budget_ms,
                        explain: r.explain,
                        max_iterations: r.max_iterations,
                        strength: r.strength,
                    },
                    WireView::Proto(r.view),
                )
            }
            SelectPlayInput::Lexio { header, view } => (header, WireView::Lexio(view)),
            SelectPlayInput::Daifugo { header, view } => (header, WireView::Daifugo(view)),
        }
    }
}

/// Sets the cancel flag when the call's future is dropped (client cancel, deadline,
/// shutdown) or completes.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One call's span, metrics and log line, written on drop so that a dropped call
/// (cancelled by the client or the transport) is counted too, and so is a call whose
/// task unwinds from a panic the handler did not catch itself.
struct CallRecord {
    rpc: m::Rpc,
    started: Instant,
    span: Span,
    game: Option<GameKind>,
    difficulty: Option<Difficulty>,
    seed: Option<u64>,
    fallback: bool,
    /// `None` until the call finishes: a call dropped before is "cancelled" (or
    /// "panic" when dropped by unwinding).
    result: Option<Result<(), Code>>,
    /// The message of the panic that ended the call, if one did.
    panic: Option<String>,
    /// Why the call was refused or failed, cut for the log line.
    reason: Option<String>,
    /// The call's link with the guard (absent when the handler is called directly).
    ticket: Option<Arc<CallTicket>>,
    /// The client the call is attributed to (SelectPlay, AnalyzePlay), once known.
    client: Option<Arc<str>>,
}

impl CallRecord {
    /// The record of a call of `rpc`, started when the guard received it (now, when
    /// the handler is called directly).
    fn new(rpc: m::Rpc, ticket: Option<Arc<CallTicket>>) -> Self {
        let started = match &ticket {
            Some(ticket) => {
                ticket.handler_records();
                ticket.started
            }
            None => Instant::now(),
        };
        let span = tracing::debug_span!(
            "call",
            rpc = rpc.name(),
            game = field::Empty,
            difficulty = field::Empty,
            seed = field::Empty,
            outcome = field::Empty,
            elapsed_us = field::Empty,
        );
        CallRecord {
            rpc,
            started,
            span,
            game: None,
            difficulty: None,
            seed: None,
            fallback: false,
            result: None,
            panic: None,
            reason: None,
            ticket,
            client: None,
        }
    }

    fn game_name(&self) -> &'static str {
        self.game.map_or("unknown", GameKind::name)
    }

    fn finish<T>(&mut self, result: &Result<T, ServiceError>) {
        match result {
            Ok(_) => {}
            Err(ServiceError::Panicked { message, .. }) => self.panic = Some(message.clone()),
            Err(error) => self.reason = Some(logged_reason(&error.to_string()).into_owned()),
        }
        self.result = Some(result.as_ref().map(|_| ()).map_err(ServiceError::code));
    }
}

impl Drop for CallRecord {
    fn drop(&mut self) {
        if self.result.is_none()
            && let Some(ended) = self.ticket.as_ref().and_then(|t| t.ended_by_guard())
        {
            // The guard ended the call (it answers it); the handler's record counts it.
            match ended {
                EndedByGuard::Panicked(message) => {
                    self.result = Some(Err(Code::Internal));
                    self.panic = Some(message);
                }
                EndedByGuard::DeadlineExceeded => {
                    self.result = Some(Err(Code::DeadlineExceeded));
                    self.reason = Some("the deadline passed before the answer was ready".into());
                }
                EndedByGuard::ReadTimeout(timeout) => {
                    self.result = Some(Err(Code::DeadlineExceeded));
                    self.reason = Some(format!(
                        "the request did not arrive whole within the {} ms read timeout",
                        timeout.as_millis()
                    ));
                }
            }
        }
        if self.result.is_none() {
            self.reason = Some(
                "the call was dropped: the client cancelled it or the connection closed".into(),
            );
        }
        let outcome = m::CallOutcome {
            rpc: self.rpc,
            game: self.game,
            difficulty: self.difficulty,
            code: match self.result {
                None => Code::Cancelled,
                Some(Ok(())) => Code::Ok,
                Some(Err(code)) => code,
            },
            fallback: self.fallback,
            panicked: self.panic.is_some(),
            elapsed: self.started.elapsed(),
        };
        m::record_call(&outcome);
        let (game, difficulty) = (outcome.game_label(), outcome.difficulty_label());
        let code = outcome.code;
        let rpc = self.rpc.name();
        let seed = self.seed;
        let elapsed_us = u64::try_from(outcome.elapsed.as_micros()).unwrap_or(u64::MAX);
        let outcome = outcome.outcome_label();
        self.span.record("game", game);
        self.span.record("difficulty", difficulty);
        self.span.record("outcome", outcome);
        self.span.record("elapsed_us", elapsed_us);
        // Successful calls are counted in the metrics and logged at debug only: a
        // per-call info line costs more than an EASY decision (load test).
        // Client errors are worth a line; server-side failures a warning.
        let panic = self.panic.as_deref();
        let reason = self.reason.as_deref();
        let client = self.client.as_deref();
        self.span.in_scope(|| match code {
            _ if panic.is_some() => tracing::error!(
                rpc,
                game,
                difficulty,
                seed,
                client,
                outcome,
                elapsed_us,
                panic,
                "call panicked: a server bug; replay it with this seed and view"
            ),
            Code::Ok => tracing::debug!(outcome, elapsed_us, "call done"),
            Code::InvalidArgument | Code::Unimplemented | Code::Cancelled => {
                tracing::info!(
                    rpc,
                    game,
                    difficulty,
                    seed,
                    client,
                    outcome,
                    elapsed_us,
                    reason,
                    "call refused"
                );
            }
            _ => tracing::warn!(
                rpc,
                game,
                difficulty,
                seed,
                client,
                outcome,
                elapsed_us,
                reason,
                "call failed"
            ),
        });
    }
}
