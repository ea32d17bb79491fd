#!/usr/bin/env python3
"""Rolling-restart soak: two or three `climbot serve` on loopback ports, a mixed load
spread over them by the client's own rotation, and each server in turn stopped with
SIGTERM and started again on its port (the next one only once the restarted one
answers SERVING on grpc.health.v1).

The load (threads of one process, grpcio; each thread names itself with the
`climbot-client` metadata key):

- `mixed` workers: SelectPlay for every game (lexio, dalmuti, daifugo) at every level
  (EASY, NORMAL, HARD, EXPERT; budget 20 ms above EASY), lead and follow views,
  expecting OK; broken views and a malformed `climbot-client` value, expecting
  INVALID_ARGUMENT; EXPERT calls cancelled by the client after a few milliseconds,
  expecting CANCELLED (or OK when the answer came first); calls with a 1 ms deadline,
  expecting DEADLINE_EXCEEDED;
- a `flooder` keeping --flood EXPERT calls in flight (budget 50 ms), all named
  `flooder`.

Every call is one logical call of one or more attempts, each on the next server of the
rotation. An attempt that ends with a status docs/api.md ("Overload and retries") says
to retry on another replica is retried: UNAVAILABLE (a server draining, stopped or
restarting), and RESOURCE_EXHAUSTED carrying `grpc-retry-pushback-ms` (after that
wait). Every attempt's outcome is recorded.

Fails (exit 1) when a logical call ends with a status other than the one expected of
its kind (a lost call), when a refusal is not retryable (RESOURCE_EXHAUSTED without a
pushback), when any other status is seen, when a server does not exit 0 after SIGTERM,
or when a server's resident memory (VmRSS, sampled every second) is not flat within
10% between the end of its warm-up and its last sample, for every process lifetime at
least --warmup + --min-span seconds long.

    deploy/loadtest/rolling-restart.py --servers 3 --duration 360 \
        --out deploy/loadtest/rolling-restart-report.md
"""

import argparse
import collections
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grpckit as kit  # noqa: E402

EXPECTED = {
    "ok": {"OK"},
    "flood": {"OK"},
    "bad-view": {"INVALID_ARGUMENT"},
    "bad-client": {"INVALID_ARGUMENT"},
    "cancel": {"CANCELLED", "OK"},
    "tiny-deadline": {"DEADLINE_EXCEEDED"},
}
RETRYABLE = {"UNAVAILABLE", "RESOURCE_EXHAUSTED"}
GIVE_UP_S = 30.0  # a logical call still failing after this long is lost


class Record:
    """Thread-safe tallies of attempts and logical calls."""

    def __init__(self):
        self.lock = threading.Lock()
        self.attempts = collections.Counter()  # (kind, code) -> n
        self.calls = collections.Counter()  # (kind, final code) -> n
        self.retried_calls = collections.Counter()  # kind -> calls needing > 1 attempt
        self.lost = []  # (kind, detail)
        self.not_retryable = []  # refusals without a pushback
        self.pushbacks = []  # ms
        self.attempts_by_server = collections.Counter()  # (server, code) -> n
        self.latency_ok = collections.defaultdict(list)  # (kind, level) -> seconds
        self.log = []  # every attempt: (time, kind, server, code, seconds)

    def attempt(self, kind, code, server, seconds):
        with self.lock:
            self.log.append((time.time(), kind, server, code, seconds))
            self.attempts[(kind, code)] += 1
            self.attempts_by_server[(server, code)] += 1

    def call(self, kind, code, attempts, detail=""):
        with self.lock:
            self.calls[(kind, code)] += 1
            if attempts > 1:
                self.retried_calls[kind] += 1
            if code not in EXPECTED[kind]:
                self.lost.append((kind, f"{code} after {attempts} attempt(s) {detail}"))


class Rotation:
    """The client's own round robin over one channel per server."""

    def __init__(self, servers):
        self.servers = servers
        self.channels = [kit.channel(s.address) for s in servers]
        self.stubs = [kit.bot_pb2_grpc.BotServiceStub(c) for c in self.channels]
        self.lock = threading.Lock()
        self.i = 0

    def next(self):
        with self.lock:
            self.i = (self.i + 1) % len(self.stubs)
            return self.i, self.stubs[self.i]

    def close(self):
        for c in self.channels:
            c.close()


def one_call(rot, rec, kind, req, metadata, timeout, stop, cancel_after=None,
             label=None):
    """A logical call: attempts on successive servers until a final status."""
    t0 = time.monotonic()
    attempts = 0
    while True:
        attempts += 1
        server, stub = rot.next()
        start = time.monotonic()
        code, err = "OK", None
        if cancel_after is None:
            try:
                stub.SelectPlay(req, timeout=timeout, metadata=metadata)
            except kit.grpc.RpcError as e:
                code, err = kit.code_name(e.code()), e
        else:
            fut = stub.SelectPlay.future(req, timeout=timeout, metadata=metadata)
            time.sleep(cancel_after)
            if fut.cancel():
                code = "CANCELLED"
            else:
                e = fut.exception()
                if e is not None:
                    code, err = kit.code_name(e.code()), e
        elapsed = time.monotonic() - start
        rec.attempt(kind, code, server, elapsed)
        if code == "OK" and label:
            with rec.lock:
                rec.latency_ok[label].append(elapsed)
        if code not in RETRYABLE or code in EXPECTED[kind]:
            rec.call(kind, code, attempts)
            return code
        wait = 0.01 * min(attempts, 20)
        if code == "RESOURCE_EXHAUSTED":
            pushback = kit.pushback_ms(err)
            if pushback is None:
                with rec.lock:
                    rec.not_retryable.append((kind, str(err.details())))
                rec.call(kind, "RESOURCE_EXHAUSTED (no pushback)", attempts)
                return code
            with rec.lock:
                rec.pushbacks.append(pushback)
            wait = pushback / 1000
        if time.monotonic() - t0 + wait > GIVE_UP_S:
            rec.call(kind, f"{code} (gave up)", attempts,
                     f"in {time.monotonic() - t0:.1f} s")
            return code
        if stop.is_set() and time.monotonic() - t0 > 5:
            # Past the end of the run: still retried for 5 s, then given up (lost).
            rec.call(kind, f"{code} (run over)", attempts)
            return code
        time.sleep(min(wait, 2.0))


def mixed_worker(rot, rec, reqs, seed, name, stop, pace):
    rng = random.Random(seed)
    keys = sorted(reqs)
    md = ((kit.CLIENT_KEY, name),)
    while not stop.is_set():
        roll = rng.random()
        game, level, view = keys[rng.randrange(len(keys))]
        req = kit.bot_pb2.SelectPlayRequest()
        req.CopyFrom(reqs[(game, level, view)])
        req.seed = rng.getrandbits(63)
        if level != "EASY":
            req.budget_ms = 20
        if roll < 0.70:
            one_call(rot, rec, "ok", req, md, 2.0, stop, label=(game, level))
        elif roll < 0.78:
            one_call(rot, rec, "bad-view", kit.broken(req), md, 2.0, stop)
        elif roll < 0.82:
            one_call(rot, rec, "bad-client", req, ((kit.CLIENT_KEY, "not a name"),), 2.0,
                     stop)
        elif roll < 0.91:
            req.difficulty = kit.bot_pb2.DIFFICULTY_EXPERT
            req.budget_ms = 200
            one_call(rot, rec, "cancel", req, md, 2.0, stop,
                     cancel_after=rng.uniform(0.002, 0.02))
        else:
            req.difficulty = kit.bot_pb2.DIFFICULTY_EXPERT
            one_call(rot, rec, "tiny-deadline", req, md, 0.001, stop)
        time.sleep(pace)


def flood_worker(rot, rec, reqs, seed, stop):
    rng = random.Random(seed)
    md = ((kit.CLIENT_KEY, "flooder"),)
    while not stop.is_set():
        req = kit.bot_pb2.SelectPlayRequest()
        req.CopyFrom(reqs[(kit.GAMES[rng.randrange(3)], "EXPERT",
                           ("lead", "follow")[rng.randrange(2)])])
        req.seed = rng.getrandbits(63)
        req.budget_ms = 50
        one_call(rot, rec, "flood", req, md, 2.0, stop)


def rss_verdicts(servers, warmup, min_span):
    rows, ok = [], True
    for s in servers:
        for n, life in enumerate(s.lifetimes):
            samples = life["samples"]
            span = samples[-1][0] if samples else 0.0
            row = {"server": s.name, "life": n, "pid": life["pid"], "span": span,
                   "samples": len(samples)}
            after = [(t, rss) for t, rss in samples if t >= warmup]
            if span < warmup + min_span or len(after) < 2:
                row["verdict"] = f"not checked: {span:.0f} s < {warmup + min_span:.0f} s"
            else:
                base, last = after[0][1], after[-1][1]
                peak = max(rss for _, rss in after)
                growth = (last - base) / base * 100
                row.update(base=base, last=last, peak=peak, growth=growth,
                           first=samples[0][1], base_t=after[0][0])
                flat = abs(growth) <= 10.0
                ok &= flat
                row["verdict"] = "flat" if flat else "NOT FLAT"
            rows.append(row)
    return rows, ok


def duration(text):
    units = {"s": 1, "m": 60, "h": 3600}
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--payloads", default="deploy/loadtest/payloads")
    p.add_argument("--servers", type=int, default=3, choices=(2, 3))
    p.add_argument("--duration", type=duration, default=360,
                   help="load time: seconds, or with a unit (20s, 6m)")
    p.add_argument("--mixed", type=int, default=4, help="mixed-load threads")
    p.add_argument("--pace", type=float, default=0.01,
                   help="pause of a mixed thread between calls, s")
    p.add_argument("--flood", type=int, default=6, help="EXPERT calls the flooder keeps in flight")
    p.add_argument("--decision-slots", type=int, default=2)
    p.add_argument("--drain-delay", default="500ms")
    p.add_argument("--warmup", type=float, default=30,
                   help="s of a process's life before its RSS baseline")
    p.add_argument("--min-span", type=float, default=45,
                   help="s after warm-up a process must live for its RSS to be checked")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="write the markdown report here")
    p.add_argument("--calls-log", help="write every attempt here (CSV; default: in the "
                   "run's temporary directory)")
    p.add_argument("--command", help="the command line to quote in the report")
    args = p.parse_args()
    if not 5 <= args.duration <= 3600:
        kit.die("--duration must be 5..3600 s")

    started_at = kit.now_utc()
    host = kit.machine()
    tmp = kit.workdir("rolling-restart-")
    kit.load_stubs(tmp)
    reqs = kit.requests(args.payloads)
    serve_args = ["--decision-slots", str(args.decision_slots), "--drain-delay",
                  args.drain_delay, "--shutdown-grace", "10s"]
    servers = [kit.Server(args.binary, f"s{i}", kit.free_port(), tmp, serve_args)
               for i in range(args.servers)]
    rec = Record()
    stop, sampler_stop = threading.Event(), threading.Event()
    restarts, failures = [], []
    threads = []
    rot = None
    try:
        for s in servers:
            s.start()

        def sampler():
            while not sampler_stop.is_set():
                for s in servers:
                    s.sample()
                sampler_stop.wait(1.0)

        st = threading.Thread(target=sampler, daemon=True)
        st.start()
        rot = Rotation(servers)
        t0 = time.monotonic()
        for i in range(args.mixed):
            threads.append(threading.Thread(
                target=mixed_worker, daemon=True,
                args=(rot, rec, reqs, args.seed * 1000 + i, f"mixed-{i}", stop, args.pace)))
        for i in range(args.flood):
            threads.append(threading.Thread(
                target=flood_worker, daemon=True,
                args=(rot, rec, reqs, args.seed * 1000 + 100 + i, stop)))
        for t in threads:
            t.start()
        # Restart i at (i + 1) / (n + 1) of the run; each after the previous is SERVING.
        for i, s in enumerate(servers):
            at = t0 + args.duration * (i + 1) / (len(servers) + 1)
            time.sleep(max(0.0, at - time.monotonic()))
            sig = time.monotonic()
            code = s.stop()
            down = time.monotonic()
            life = s.start()
            restarts.append({"server": s.name, "at": sig - t0, "stopped": down - sig,
                             "serving": life["serving"] - sig, "code": code})
            if code != 0:
                failures.append(f"{s.name}: exit {code} after SIGTERM")
        time.sleep(max(0.0, t0 + args.duration - time.monotonic()))
        stop.set()
        for t in threads:
            t.join(timeout=60)
            if t.is_alive():
                failures.append("a load thread did not finish within 60 s")
        elapsed = time.monotonic() - t0
    finally:
        stop.set()
        sampler_stop.set()
        if rot is not None:
            rot.close()
        final_codes = [(s.name, s.stop()) for s in servers]
    for name, code in final_codes:
        if code != 0:
            failures.append(f"{name}: exit {code} after the final SIGTERM")

    calls_log = args.calls_log or os.path.join(tmp, "attempts.csv")
    with open(calls_log, "w") as f:
        f.write("unix_time,kind,server,status,seconds\n")
        for when, kind, server, code, secs in rec.log:
            f.write(f"{when:.3f},{kind},{servers[server].name},{code},{secs:.6f}\n")
    print(f"every attempt: {calls_log}; the servers' logs: {tmp}", file=sys.stderr)
    rss_rows, rss_ok = rss_verdicts(servers, args.warmup, args.min_span)
    unexpected = sorted({code for (_, code) in rec.attempts
                         if code not in RETRYABLE and not any(
                             code in e for e in EXPECTED.values())})
    n_calls = sum(rec.calls.values())
    n_attempts = sum(rec.attempts.values())
    checked = [r for r in rss_rows if "growth" in r]
    verdicts = [
        (f"no call lost ({len(rec.lost)} of {n_calls} ended otherwise than expected)",
         not rec.lost),
        (f"every refusal retryable ({len(rec.not_retryable)} RESOURCE_EXHAUSTED without "
         f"{kit.PUSHBACK_KEY})", not rec.not_retryable),
        (f"no other status ({', '.join(unexpected) or 'none'})", not unexpected),
        ("every server exited 0 after SIGTERM", not failures),
        (f"resident memory flat within 10% ({len(checked)} lifetimes checked)",
         rss_ok and bool(checked) if args.duration >= 120 else rss_ok),
    ]
    kinds = ["ok", "flood", "bad-view", "bad-client", "cancel", "tiny-deadline"]
    codes = sorted({c for (_, c) in rec.calls} | {c for (_, c) in rec.attempts})
    lines = [
        "# climbot rolling-restart soak",
        "",
        f"- Date: {started_at}",
        f"- Machine: {host}",
    ]
    if args.command:
        lines.append(f"- Command: `{args.command}`")
    lines += [
        f"- Servers: {args.servers} x `{args.binary} serve {' '.join(serve_args)}` on "
        "127.0.0.1 (free ports, kept across restarts), JSON logs to files",
        f"- Load for {elapsed:.0f} s: {args.mixed} mixed threads (pause {args.pace * 1000:.0f} ms "
        f"between calls) and a flooder keeping {args.flood} EXPERT calls (budget 50 ms) in "
        "flight; the client's own round robin over one channel per server, no built-in "
        "retries; UNAVAILABLE retried on the next server at once (then 10 ms x attempts), "
        f"RESOURCE_EXHAUSTED after its `{kit.PUSHBACK_KEY}`; a call still failing after "
        f"{GIVE_UP_S:.0f} s is lost",
        f"- Restarts: server i gets SIGTERM at (i + 1) / {args.servers + 1} of the run, "
        "waits for its exit, starts again on its port; the next restart waits until it is "
        "SERVING (grpc.health.v1 Check)",
        f"- {n_calls} logical calls, {n_attempts} attempts (every attempt in a CSV file, "
        "`--calls-log` or `attempts.csv` in the run's work directory with the servers' logs; "
        "both paths are printed on standard error, not kept here: they are the machine's)",
        "",
        "## Logical calls by kind and final status",
        "",
        "Expected: ok, flood -> OK; bad-view, bad-client -> INVALID_ARGUMENT; cancel -> "
        "CANCELLED (or OK when the answer came first); tiny-deadline (1 ms) -> "
        "DEADLINE_EXCEEDED.",
        "",
        "| Kind | " + " | ".join(codes) + " | Retried calls | Lost |",
        "|---|" + "---|" * (len(codes) + 2),
    ]
    lost_by_kind = collections.Counter(k for k, _ in rec.lost)
    for k in kinds:
        lines.append(f"| {k} | " + " | ".join(str(rec.calls.get((k, c), 0)) for c in codes)
                     + f" | {rec.retried_calls.get(k, 0)} | {lost_by_kind.get(k, 0)} |")
    lines += ["", "## Attempts by kind and status", "",
              "| Kind | " + " | ".join(codes) + " |", "|---|" + "---|" * len(codes)]
    for k in kinds:
        lines.append(f"| {k} | " + " | ".join(str(rec.attempts.get((k, c), 0))
                                              for c in codes) + " |")
    if rec.pushbacks:
        pb = sorted(rec.pushbacks)
        lines += ["", f"Pushbacks of the {len(pb)} RESOURCE_EXHAUSTED refusals (ms): "
                  f"min {pb[0]}, p50 {kit.percentile(pb, 50)}, p99 "
                  f"{kit.percentile(pb, 99)}, max {pb[-1]}."]
    lines += ["", "## Latency of successful attempts (ok kind)", "",
              "| Game | Level | Calls | p50 (ms) | p99 (ms) [95% CI] |", "|---|---|---|---|---|"]
    for game in kit.GAMES:
        for level in kit.LEVELS:
            lat = sorted(rec.latency_ok.get((game, level), []))
            if lat:
                lo, hi = kit.percentile_ci95(lat, 99)
                lines.append(f"| {game} | {level} | {len(lat)} | "
                             f"{kit.percentile(lat, 50) * 1000:.2f} | "
                             f"{kit.percentile(lat, 99) * 1000:.2f} "
                             f"[{lo * 1000:.2f}, {hi * 1000:.2f}] |")
    lines += ["", "## Restarts", "",
              "| Server | SIGTERM at (s) | Exit after (s) | Exit code | SERVING again after SIGTERM (s) |",
              "|---|---|---|---|---|"]
    for r in restarts:
        lines.append(f"| {r['server']} | {r['at']:.1f} | {r['stopped']:.2f} | {r['code']} | "
                     f"{r['serving']:.2f} |")
    lines += ["", "Attempts per server (every lifetime):", "", "| Server | " +
              " | ".join(codes) + " |", "|---|" + "---|" * len(codes)]
    for s in servers:
        lines.append(f"| {s.name} | " + " | ".join(
            str(rec.attempts_by_server.get((i, c), 0)) for i in [servers.index(s)]
            for c in codes) + " |")
    lines += ["", "## Resident memory per process lifetime", "",
              f"VmRSS every second; baseline = first sample at least {args.warmup:.0f} s "
              f"after the start, checked when the process lived {args.warmup + args.min_span:.0f} s "
              "or more.", "",
              "| Server | Lifetime | Lived (s) | Samples | RSS at start (KiB) | Baseline (KiB) | "
              "Peak (KiB) | Last (KiB) | Growth | Verdict |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rss_rows:
        if "growth" in r:
            lines.append(f"| {r['server']} | {r['life']} | {r['span']:.0f} | {r['samples']} | "
                         f"{r['first']} | {r['base']} | {r['peak']} | {r['last']} | "
                         f"{r['growth']:+.1f}% | {r['verdict']} |")
        else:
            lines.append(f"| {r['server']} | {r['life']} | {r['span']:.0f} | {r['samples']} | "
                         f"| | | | | {r['verdict']} |")
    lines += ["", "## Verdict", ""]
    lines += [f"- [{'x' if ok else ' '}] {what}" for what, ok in verdicts]
    problems = failures + [f"lost: {k}: {d}" for k, d in rec.lost[:50]] + \
        [f"not retryable: {k}: {d}" for k, d in rec.not_retryable[:20]]
    if problems:
        lines += ["", "## Failures", "", "```", *problems, "```"]
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)
    sys.exit(0 if all(ok for _, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
