//! A fair share of the decision slots: every call that needs a slot (NORMAL, HARD,
//! EXPERT) is attributed to a client, and a freed slot goes to the waiting client that
//! has had the least of them for its weight (docs/operations.md, "Fair share").
//!
//! - A client is named by its mutual-TLS certificate (subject CN, else the first DNS
//!   SAN) when the connection has one, else by the gRPC metadata key
//!   [`CLIENT_METADATA_KEY`] (untrusted: for accounting and fairness only), else it is
//!   [`ANONYMOUS`].
//! - Each active client (one that holds a slot or waits for one) has a FIFO queue of
//!   waiters and a count of the slots granted to it since it became active. When a
//!   slot frees, the waiting client with the lowest `granted / weight` gets it; ties go
//!   to the oldest waiter. A client that becomes active joins just below the least
//!   served active client, so that a newcomer is served next but cannot take the slots
//!   for the time it "missed".
//! - Slots are never idle while a call waits: a client alone uses every slot.
//! - Waiting counts against the call's budget; a waiter that gives up (its budget
//!   passed, or its call was dropped) leaves its queue, and a slot granted to it in the
//!   meantime is passed on: every slot is released exactly once.

use crate::service::metrics::{ClientLabels, ClientSeries};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The gRPC metadata key a client may name itself with (when its connection has no
/// client certificate). Untrusted: used for accounting and fairness only.
pub const CLIENT_METADATA_KEY: &str = "climbot-client";
/// The longest client name, in bytes.
pub const MAX_CLIENT_NAME: usize = 64;
/// The client of calls that name none.
pub const ANONYMOUS: &str = "anonymous";
/// The largest weight `--client-weights` takes.
pub const MAX_WEIGHT: u32 = 1000;
/// The longest retry pushback sent with a refusal, in milliseconds.
pub const MAX_PUSHBACK_MS: u64 = 60_000;

/// Why a client name is refused (as a metadata value or in `--client-weights`).
pub fn check_client_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("must not be empty".into());
    }
    if name.len() > MAX_CLIENT_NAME {
        return Err(format!(
            "must be at most {MAX_CLIENT_NAME} bytes, got {}",
            name.len()
        ));
    }
    if !name.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("must be printable ASCII without spaces".into());
    }
    Ok(())
}

/// A certificate's identity as a client name: characters outside printable ASCII
/// become `_`, and the name is cut at [`MAX_CLIENT_NAME`] bytes (`None`: empty).
pub fn client_name_from_certificate(identity: &str) -> Option<Arc<str>> {
    let name: String = identity
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .take(MAX_CLIENT_NAME)
        .collect();
    (!name.is_empty()).then(|| Arc::from(name))
}

/// The identity of a connection's mutual-TLS client certificate, set by the transport
/// in every request's extensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerIdentity(pub Arc<str>);

/// The weights of named clients (`--client-weights name=2,other=1`); a client not
/// named weighs 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientWeights(BTreeMap<Arc<str>, u32>);

impl ClientWeights {
    /// Parses `name=weight,name=weight` (empty: no weights). Names follow
    /// [`check_client_name`]; weights are in `1..=1000`; a name given twice is an
    /// error.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut weights = BTreeMap::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, weight) = item
                .split_once('=')
                .ok_or_else(|| format!("{item:?} is not name=weight"))?;
            let name = name.trim();
            check_client_name(name).map_err(|why| format!("client name {name:?} {why}"))?;
            let weight: u32 = weight
                .trim()
                .parse()
                .ok()
                .filter(|w| (1..=MAX_WEIGHT).contains(w))
                .ok_or_else(|| {
                    format!("the weight of {name:?} must be in 1..={MAX_WEIGHT}, got {weight:?}")
                })?;
            if weights.insert(Arc::from(name), weight).is_some() {
                return Err(format!("client {name:?} is given twice"));
            }
        }
        Ok(ClientWeights(weights))
    }

    /// The weight of `client`.
    pub fn weight(&self, client: &str) -> u32 {
        self.0.get(client).copied().unwrap_or(1)
    }

    /// The named clients, in name order.
    pub fn names(&self) -> impl Iterator<Item = &Arc<str>> {
        self.0.keys()
    }
}

/// One active client in the [`Scheduler`].
#[derive(Debug)]
struct Client<T> {
    weight: u64,
    /// Slots it holds.
    in_use: u64,
    /// Slots granted since it became active (its virtual time, times its weight).
    granted: u64,
    /// Its waiters, oldest first: (waiter id, token).
    queue: VecDeque<(u64, T)>,
}

/// The scheduling state, without clocks or channels: each waiter carries a token `T`
/// handed back when it is granted a slot.
#[derive(Debug)]
pub(crate) struct Scheduler<T> {
    slots: usize,
    free: usize,
    /// The active clients: those that hold a slot or wait for one.
    clients: BTreeMap<Arc<str>, Client<T>>,
    next_waiter: u64,
}

/// What [`Scheduler::enqueue`] did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Admit {
    /// A slot was free: the caller holds it.
    Now,
    /// The caller waits, as this waiter.
    Queued(u64),
}

impl<T> Scheduler<T> {
    pub(crate) fn new(slots: usize) -> Self {
        Scheduler {
            slots,
            free: slots,
            clients: BTreeMap::new(),
            next_waiter: 0,
        }
    }

    /// The client's entry, made active if it was not: its count starts one grant
    /// below the least served active client, for its weight.
    fn activate(&mut self, client: &Arc<str>, weight: u32) -> &mut Client<T> {
        let weight = u64::from(weight.max(1));
        let start = if self.clients.contains_key(client) {
            0
        } else {
            self.clients
                .values()
                .map(|c| {
                    let scaled = u128::from(c.granted) * u128::from(weight) / u128::from(c.weight);
                    u64::try_from(scaled).unwrap_or(u64::MAX)
                })
                .min()
                .map_or(0, |least| least.saturating_sub(1))
        };
        self.clients
            .entry(client.clone())
            .or_insert_with(|| Client {
                weight,
                in_use: 0,
                granted: start,
                queue: VecDeque::new(),
            })
    }

    /// A call of `client` asks for a slot: it gets one now if one is free (then no
    /// one waits), else it waits in its client's queue.
    pub(crate) fn enqueue(&mut self, client: &Arc<str>, weight: u32, token: T) -> Admit {
        let id = self.next_waiter;
        let free = self.free;
        let entry = self.activate(client, weight);
        if free > 0 {
            entry.in_use += 1;
            entry.granted = entry.granted.saturating_add(1);
            self.free -= 1;
            return Admit::Now;
        }
        entry.queue.push_back((id, token));
        self.next_waiter += 1;
        Admit::Queued(id)
    }

    /// Removes a waiter that gives up; `false` if it is not waiting (it was granted a
    /// slot, which its caller must then release).
    pub(crate) fn cancel(&mut self, client: &str, waiter: u64) -> bool {
        let Some(entry) = self.clients.get_mut(client) else {
            return false;
        };
        let Some(at) = entry.queue.iter().position(|(id, _)| *id == waiter) else {
            return false;
        };
        entry.queue.remove(at);
        self.forget_if_idle(client);
        true
    }

    /// `client` releases one slot; returns the waiter it went to, if one waited.
    pub(crate) fn release(&mut self, client: &str) -> Option<(Arc<str>, u64, T)> {
        match self.clients.get_mut(client) {
            Some(entry) if entry.in_use > 0 => entry.in_use -= 1,
            // Not held: nothing to release (never happens; no panic either).
            _ => return None,
        }
        self.forget_if_idle(client);
        self.free += 1;
        self.grant_next()
    }

    /// Grants a free slot to the waiting client with the lowest `granted / weight`
    /// (ties: the oldest waiter), if any client waits.
    fn grant_next(&mut self) -> Option<(Arc<str>, u64, T)> {
        if self.free == 0 {
            return None;
        }
        let mut best: Option<(&Arc<str>, &Client<T>)> = None;
        for (name, c) in self.clients.iter().filter(|(_, c)| !c.queue.is_empty()) {
            let better = match best {
                None => true,
                Some((_, b)) => {
                    let mine = u128::from(c.granted) * u128::from(b.weight);
                    let theirs = u128::from(b.granted) * u128::from(c.weight);
                    mine < theirs
                        || (mine == theirs
                            && c.queue.front().map(|w| w.0) < b.queue.front().map(|w| w.0))
                }
            };
            if better {
                best = Some((name, c));
            }
        }
        let name = best?.0.clone();
        let entry = self.clients.get_mut(&name)?;
        let (id, token) = entry.queue.pop_front()?;
        entry.in_use += 1;
        entry.granted = entry.granted.saturating_add(1);
        self.free -= 1;
        Some((name, id, token))
    }

    fn forget_if_idle(&mut self, client: &str) {
        if self
            .clients
            .get(client)
            .is_some_and(|c| c.in_use == 0 && c.queue.is_empty())
        {
            self.clients.remove(client);
        }
    }

    /// The waiters of `client` and the total weight of the active clients.
    fn share_of(&self, client: &str, weight: u32) -> (u64, u64, u64) {
        let queued = self.clients.get(client).map_or(0, |c| c.queue.len() as u64);
        let own = u64::from(weight.max(1));
        let total = self
            .clients
            .iter()
            .filter(|(name, _)| name.as_ref() != client)
            .map(|(_, c)| c.weight)
            .sum::<u64>()
            + own;
        (queued, own, total)
    }

    #[cfg(test)]
    fn check_invariants(&self) {
        let in_use: u64 = self.clients.values().map(|c| c.in_use).sum();
        assert_eq!(
            self.free as u64 + in_use,
            self.slots as u64,
            "slots conserved"
        );
        let waiting = self.clients.values().any(|c| !c.queue.is_empty());
        assert!(
            !(waiting && self.free > 0),
            "a slot is free while a call waits"
        );
        assert!(
            self.clients
                .values()
                .all(|c| c.in_use > 0 || !c.queue.is_empty()),
            "only active clients are kept"
        );
    }
}

/// A call refused for lack of a slot within its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    /// When the client should retry (`grpc-retry-pushback-ms`), in milliseconds.
    pub pushback_ms: u64,
}

/// The decision slots, shared fairly between clients.
#[derive(Clone)]
pub struct FairSlots {
    shared: Arc<Shared>,
}

struct Shared {
    scheduler: Mutex<Scheduler<oneshot::Sender<()>>>,
    weights: ClientWeights,
    labels: ClientLabels,
    /// A moving average of how long a slot is held, in microseconds (0: none yet).
    hold_us: AtomicU64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Scheduler<oneshot::Sender<()>>> {
        // The state is consistent between statements: a panic elsewhere while the
        // lock was held leaves nothing half done.
        self.scheduler.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn release(&self, client: &str) {
        let granted = self.lock().release(client);
        if let Some((_, _, wake)) = granted {
            // A waiter whose call was dropped meanwhile releases the slot itself.
            let _ = wake.send(());
        }
    }

    fn record_hold(&self, held: Duration) {
        let sample = u64::try_from(held.as_micros()).unwrap_or(u64::MAX).max(1);
        let old = self.hold_us.load(Ordering::Relaxed);
        let new = if old == 0 {
            sample
        } else {
            old - old / 8 + sample / 8
        };
        self.hold_us.store(new, Ordering::Relaxed);
    }
}

impl FairSlots {
    /// `slots` slots; `weights` weigh the named clients; per-client metrics label at
    /// most `label_limit` names (the rest are `other`).
    pub fn new(slots: usize, weights: ClientWeights, label_limit: usize) -> Self {
        let labels = ClientLabels::new(label_limit, weights.names());
        FairSlots {
            shared: Arc::new(Shared {
                scheduler: Mutex::new(Scheduler::new(slots)),
                weights,
                labels,
                hold_us: AtomicU64::new(0),
            }),
        }
    }

    /// Waits for a slot for `client` until `deadline`. The permit releases the slot
    /// when dropped; a refusal says when to retry.
    pub async fn acquire(
        &self,
        client: &Arc<str>,
        deadline: tokio::time::Instant,
    ) -> Result<SlotPermit, Refused> {
        let series = self.shared.labels.series(client);
        series.calls.increment(1);
        let weight = self.shared.weights.weight(client);
        let (tx, rx) = oneshot::channel();
        let admitted = self.shared.lock().enqueue(client, weight, tx);
        let permit = || SlotPermit {
            shared: self.shared.clone(),
            client: client.clone(),
            series: series.clone(),
            since: Instant::now(),
        };
        let id = match admitted {
            Admit::Now => return Ok(permit()),
            Admit::Queued(id) => id,
        };
        let mut waiting = Waiting {
            shared: &self.shared,
            client,
            id,
            granted: false,
        };
        if let Ok(Ok(())) = tokio::time::timeout_at(deadline, rx).await {
            waiting.granted = true;
            return Ok(permit());
        }
        // Gives up: leaves the queue, or passes on a slot granted just now.
        drop(waiting);
        series.refusals.increment(1);
        Err(Refused {
            pushback_ms: self.pushback_ms(client, weight),
        })
    }

    /// The expected wait for a slot of `client`: the slot time, times the slot turns
    /// its waiters and one more call need at its share of the slots (its weight over
    /// the active clients' total), clamped to `1..=MAX_PUSHBACK_MS`.
    fn pushback_ms(&self, client: &str, weight: u32) -> u64 {
        let (queued, own, total, slots) = {
            let scheduler = self.shared.lock();
            let (queued, own, total) = scheduler.share_of(client, weight);
            (queued, own, total, scheduler.slots.max(1) as u64)
        };
        let hold_us = self.shared.hold_us.load(Ordering::Relaxed).max(1_000);
        // Turns: (queued + 1) calls at own/total of the slots.
        let turns = (queued + 1)
            .saturating_mul(total)
            .div_ceil(own.saturating_mul(slots));
        (turns.saturating_mul(hold_us) / 1_000).clamp(1, MAX_PUSHBACK_MS)
    }
}

/// A waiter's place in its queue; leaves it when dropped before being granted, or
/// releases the slot granted to it if the grant came after it gave up.
struct Waiting<'a> {
    shared: &'a Shared,
    client: &'a Arc<str>,
    id: u64,
    granted: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.granted {
            return;
        }
        let removed = self.shared.lock().cancel(self.client, self.id);
        if !removed {
            self.shared.release(self.client);
        }
    }
}

/// A held decision slot, released exactly once, when dropped; the time it was held is
/// counted for its client.
pub struct SlotPermit {
    shared: Arc<Shared>,
    client: Arc<str>,
    series: Arc<ClientSeries>,
    since: Instant,
}

impl Drop for SlotPermit {
    fn drop(&mut self) {
        let held = self.since.elapsed();
        self.series.slot_seconds.record(held.as_secs_f64());
        self.shared.record_hold(held);
        self.shared.release(&self.client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn name(i: usize) -> Arc<str> {
        Arc::from(format!("c{i}"))
    }

    #[test]
    fn names_are_checked() {
        assert!(check_client_name("backend-7.eu").is_ok());
        assert!(check_client_name("").is_err());
        assert!(check_client_name("a b").is_err());
        assert!(check_client_name("caf\u{e9}").is_err());
        assert!(check_client_name(&"x".repeat(MAX_CLIENT_NAME)).is_ok());
        assert!(check_client_name(&"x".repeat(MAX_CLIENT_NAME + 1)).is_err());
        assert_eq!(
            client_name_from_certificate("bot one\u{e9}").as_deref(),
            Some("bot_one_")
        );
        assert_eq!(client_name_from_certificate(""), None);
    }

    #[test]
    fn weights_parse() {
        let w = ClientWeights::parse("a=2, b=1,").unwrap();
        assert_eq!((w.weight("a"), w.weight("b"), w.weight("c")), (2, 1, 1));
        assert_eq!(ClientWeights::parse("").unwrap(), ClientWeights::default());
        for bad in ["a", "a=0", "a=1001", "a=x", "=1", "a=1,a=2", "a b=1"] {
            assert!(ClientWeights::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_lone_client_uses_every_slot() {
        let mut s = Scheduler::new(3);
        let a = name(0);
        for _ in 0..3 {
            assert_eq!(s.enqueue(&a, 1, ()), Admit::Now);
        }
        assert_eq!(s.enqueue(&a, 1, ()), Admit::Queued(0));
        s.check_invariants();
        assert_eq!(s.release(&a).map(|g| g.1), Some(0));
        s.check_invariants();
    }

    #[test]
    fn a_newcomer_is_served_before_a_flooder() {
        let mut s = Scheduler::new(1);
        let (flood, quiet) = (name(0), name(1));
        assert_eq!(s.enqueue(&flood, 1, ()), Admit::Now);
        for _ in 0..10 {
            s.enqueue(&flood, 1, ());
        }
        // The flooder is served a few times, then the quiet client asks once.
        for _ in 0..3 {
            assert_eq!(s.release(&flood).unwrap().0, flood);
        }
        s.enqueue(&quiet, 1, ());
        assert_eq!(s.release(&flood).unwrap().0, quiet);
        s.check_invariants();
    }

    #[test]
    fn weights_shift_the_share() {
        let mut s = Scheduler::new(1);
        let (heavy, light) = (name(0), name(1));
        assert_eq!(s.enqueue(&heavy, 3, ()), Admit::Now);
        for _ in 0..40 {
            s.enqueue(&heavy, 3, ());
            s.enqueue(&light, 1, ());
        }
        let mut holder = heavy.clone();
        let mut heavy_grants = 0;
        for _ in 0..40 {
            let (who, _, ()) = s.release(&holder).unwrap();
            heavy_grants += usize::from(who == heavy);
            holder = who;
        }
        assert!((29..=31).contains(&heavy_grants), "{heavy_grants}");
    }

    /// The free slots and active clients of `slots`.
    fn state(slots: &FairSlots) -> (usize, usize) {
        let s = slots.shared.lock();
        s.check_invariants();
        (s.free, s.clients.len())
    }

    #[tokio::test]
    async fn waiters_that_give_up_leak_no_slot() {
        let slots = FairSlots::new(1, ClientWeights::default(), 4);
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("a"), Arc::from("b"));
        let far = tokio::time::Instant::now() + Duration::from_secs(5);
        let held = slots.acquire(&a, far).await.ok().unwrap();

        // A waiter whose deadline passes is refused, with a pushback.
        let soon = tokio::time::Instant::now() + Duration::from_millis(20);
        let Err(refused) = slots.acquire(&b, soon).await else {
            panic!("the slot is held")
        };
        assert!((1..=MAX_PUSHBACK_MS).contains(&refused.pushback_ms));
        assert_eq!(state(&slots), (0, 1));

        // A waiter dropped while it waits leaves its queue.
        let waiter = {
            let (slots, b) = (slots.clone(), b.clone());
            tokio::spawn(async move { slots.acquire(&b, far).await.map(drop) })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(state(&slots), (0, 2));
        waiter.abort();
        let _ = waiter.await;
        assert_eq!(state(&slots), (0, 1));

        // A waiter granted the slot just as it is dropped passes the slot on.
        let mut granted_late = Box::pin(slots.acquire(&b, far));
        assert!(
            tokio::time::timeout(Duration::from_millis(5), &mut granted_late)
                .await
                .is_err()
        );
        drop(held);
        assert_eq!(state(&slots), (0, 1), "granted to b");
        drop(granted_late);
        assert_eq!(state(&slots), (1, 0), "released exactly once");

        let again = slots.acquire(&a, far).await.ok().unwrap();
        assert_eq!(state(&slots), (0, 1));
        drop(again);
        assert_eq!(state(&slots), (1, 0));
    }

    #[derive(Clone, Debug)]
    enum Op {
        Ask(usize),
        Release(usize),
        Cancel(usize, usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..4usize).prop_map(Op::Ask),
            (0..4usize).prop_map(Op::Release),
            (0..4usize, 0..8usize).prop_map(|(c, k)| Op::Cancel(c, k)),
        ]
    }

    proptest! {
        /// Slots are conserved, never idle while a call waits, and every grant goes
        /// to a waiter that was waiting, of the client with the lowest count for its
        /// weight.
        #[test]
        fn grants_are_fair_and_conserve_slots(
            slots in 1..4usize,
            weights in proptest::collection::vec(1..4u32, 4),
            ops in proptest::collection::vec(op(), 1..200),
        ) {
            let mut s: Scheduler<()> = Scheduler::new(slots);
            let mut held = [0u64; 4];
            let mut waiting: Vec<Vec<u64>> = vec![Vec::new(); 4];
            let names: Vec<Arc<str>> = (0..4).map(name).collect();
            for op in ops {
                match op {
                    Op::Ask(c) => match s.enqueue(&names[c], weights[c], ()) {
                        Admit::Now => held[c] += 1,
                        Admit::Queued(id) => waiting[c].push(id),
                    },
                    Op::Release(c) if held[c] > 0 => {
                        // The lowest granted/weight among the waiting clients.
                        let lowest = s.clients.iter()
                            .filter(|(_, e)| !e.queue.is_empty())
                            .map(|(_, e)| (e.granted as f64) / (e.weight as f64))
                            .fold(f64::INFINITY, f64::min);
                        held[c] -= 1;
                        if let Some((who, id, ())) = s.release(&names[c]) {
                            let k = names.iter().position(|n| *n == who).unwrap();
                            prop_assert_eq!(waiting[k].first().copied(), Some(id), "FIFO per client");
                            waiting[k].remove(0);
                            held[k] += 1;
                            let e = &s.clients[&who];
                            prop_assert!(((e.granted - 1) as f64) / (e.weight as f64) <= lowest + 1e-9);
                        }
                    }
                    Op::Release(_) => {}
                    Op::Cancel(c, k) if k < waiting[c].len() => {
                        let id = waiting[c].remove(k);
                        prop_assert!(s.cancel(&names[c], id));
                    }
                    Op::Cancel(..) => {}
                }
                s.check_invariants();
                let total_held: u64 = held.iter().sum();
                prop_assert_eq!(total_held + s.free as u64, slots as u64);
            }
        }

        /// Under a steady backlog from every client, each is served within a bounded
        /// number of grants: no client starves.
        #[test]
        fn no_client_starves(
            slots in 1..3usize,
            weights in proptest::collection::vec(1..5u32, 3),
            head_start in 0..50usize,
        ) {
            let mut s: Scheduler<()> = Scheduler::new(slots);
            let names: Vec<Arc<str>> = (0..3).map(name).collect();
            let mut holders = VecDeque::new();
            // Client 0 floods alone for a while, then every client has a backlog.
            for _ in 0..slots + head_start {
                if s.enqueue(&names[0], weights[0], ()) == Admit::Now {
                    holders.push_back(0);
                }
            }
            for c in 1..3 {
                for _ in 0..100 {
                    s.enqueue(&names[c], weights[c], ());
                }
            }
            let mut last_served = [0usize; 3];
            for turn in 1..=120usize {
                let Some(c) = holders.pop_front() else { break };
                if let Some((who, _, ())) = s.release(&names[c]) {
                    let k = names.iter().position(|n| *n == who).unwrap();
                    last_served[k] = turn;
                    holders.push_back(k);
                }
                s.enqueue(&names[0], weights[0], ());
                for (k, &last) in last_served.iter().enumerate().skip(1) {
                    prop_assert!(turn - last <= 13, "client {k} waited {} grants", turn - last);
                }
            }
        }
    }
}
