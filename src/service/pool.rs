//! The threads NORMAL, HARD and EXPERT decisions run on: one per decision slot, at a
//! lower CPU priority (nice [`DECISION_NICE`]) than the async runtime's threads.
//!
//! A search uses its core for its whole budget. On the runtime's default blocking pool
//! it ran at the same priority as the runtime's workers, so while searches filled the
//! slots, the kernel shared the cores evenly and every EASY answer, legal-play list,
//! health check and response write waited for a time slice (EASY p99 rose from under
//! 1 ms to 8-20 ms on 2 cores). At nice 10 a search gets about a tenth of a core's time
//! when a worker wants it and the whole core otherwise: the searches keep the machine
//! busy, the runtime keeps its latency.

use crate::service::error::panic_message;
use std::panic::AssertUnwindSafe;
use tokio::sync::oneshot;

/// The niceness of decision threads (the runtime's stay at the process's, 0 by default).
pub const DECISION_NICE: i32 = 10;

/// A fixed pool of decision threads.
pub struct DecisionPool {
    pool: rayon::ThreadPool,
}

impl std::fmt::Debug for DecisionPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecisionPool")
            .field("threads", &self.pool.current_num_threads())
            .finish()
    }
}

/// Why a job gave no result.
#[derive(Debug)]
pub enum JobFailed {
    /// It panicked, with this message.
    Panicked(String),
    /// The pool dropped it (the pool is shutting down).
    Dropped,
}

impl DecisionPool {
    /// A pool of `threads` decision threads.
    pub fn new(threads: usize) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("climbot-decide-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .expect("decision threads start");
        DecisionPool { pool }
    }

    /// Runs `job` on a decision thread; its result (or its panic) arrives through the
    /// returned receiver. Callers bound the jobs in flight (the decision slots), so a
    /// job starts at once.
    pub fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> impl Future<Output = Result<T, JobFailed>> + Send + 'static {
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            // A panic must not escape: rayon would abort the process.
            let result = std::panic::catch_unwind(AssertUnwindSafe(job))
                .map_err(|payload| JobFailed::Panicked(panic_message(payload.as_ref())));
            let _ = tx.send(result);
        });
        async move { rx.await.unwrap_or(Err(JobFailed::Dropped)) }
    }
}

/// Lowers the calling thread's CPU priority to [`DECISION_NICE`] (Linux: the nice value
/// is per thread). Without permission or elsewhere, the thread keeps its priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        let current = rustix::process::getpriority_process(Some(tid)).unwrap_or(0);
        if current < DECISION_NICE
            && let Err(error) = rustix::process::setpriority_process(Some(tid), DECISION_NICE)
        {
            tracing::debug!(%error, "decision thread keeps its priority");
        }
    }
}

/// The calling thread's nice value (Linux), for tests.
#[cfg(all(test, target_os = "linux"))]
fn current_nice() -> i32 {
    rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_lower_priority_threads_and_panics_come_back() {
        let pool = DecisionPool::new(2);
        let name = pool
            .run(|| std::thread::current().name().map(str::to_string))
            .await
            .unwrap();
        assert!(name.unwrap().starts_with("climbot-decide-"));
        #[cfg(target_os = "linux")]
        {
            let nice = pool.run(current_nice).await.unwrap();
            assert_eq!(nice, DECISION_NICE.max(current_nice()));
        }
        match pool.run(|| -> u32 { panic!("job panics") }).await {
            Err(JobFailed::Panicked(message)) => assert_eq!(message, "job panics"),
            other => panic!("{other:?}"),
        }
        // The pool still runs jobs after a panic.
        assert_eq!(pool.run(|| 7).await.unwrap(), 7);
    }
}
