#!/usr/bin/env python3
"""Load tests of a real climbot release server with h2load (Debian nghttp2-client).

h2load only sees HTTP statuses: a gRPC error is a 200 with a grpc-status trailer, so it
counts as "succeeded". Every run is therefore checked on the server's side too:

- SelectPlay: the server's own `climbot_requests_total{rpc="select_play",...}` from
  `/metrics`, read before and after each run: the OK count must grow by exactly the
  requests sent and no other code may grow;
- Health/Check (not counted in /metrics): every reply must carry the 7-byte SERVING
  body (an error reply is trailers-only, with no body), so the DATA bytes h2load
  received must be exactly 7 x requests.

Subcommands:
  bench  concurrency 1, 16, 64; health and SelectPlay alternated in the same run, more
         pairs at 16 and 64 until the ratio's 95% interval is within +-0.05; the other
         games' EASY beside Lexio EASY; writes a markdown report (throughput, server
         CPU per call, p50/p99, errors, ratio to health with its interval, targets).
  ab     two builds served at once, alternated ABBA at one concurrency: each build's
         SelectPlay/health ratio, B over A throughput and server CPU per call.
  soak   a fixed request rate for a duration; samples the server's VmRSS from
         /proc/<pid>/status; writes a markdown report (errors, RSS growth).
  tls    SelectPlay (Lexio EASY) over TLS against plaintext in the same run: two servers
         (one with --tls-cert/--tls-key, certificates made now by
         examples/tls-certs.sh in a temporary directory), runs alternated; writes a
         markdown report (per-run TLS/plaintext throughput ratios, mean and 95% CI).

Everything is bounded: h2load runs with a request count (-n) and a subprocess timeout,
the server listens on 127.0.0.1 only and is stopped at the end whatever happens.
"""

import argparse
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grpckit import machine, mean_ci95  # noqa: E402  (the load tests' statistics)

HEALTH_PATH = "/grpc.health.v1.Health/Check"
SELECT_PATH = "/climbot.v1.BotService/SelectPlay"
HEALTH_REPLY_BYTES = 7  # prefix (5) + HealthCheckResponse{status: SERVING} (08 01)
GRPC_HEADERS = [
    "content-type: application/grpc",
    "te: trailers",
    "grpc-timeout: 1000m",
]


def die(message):
    print(f"h2bench: {message}", file=sys.stderr)
    sys.exit(1)


class Server:
    """A `climbot serve` child on ephemeral loopback ports, JSON logs to a file."""

    def __init__(self, binary, log_path, extra_args=(), scheme="http"):
        self.scheme = scheme
        self.log_path = log_path
        self.log = open(log_path, "w")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLIMBOT_")}
        self.proc = subprocess.Popen(
            [binary, "serve", "--grpc-addr", "127.0.0.1:0", "--metrics-addr",
             "127.0.0.1:0", "--log-format", "json", *extra_args],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.grpc = self.metrics = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                die(f"server exited with {self.proc.returncode}; see {log_path}")
            serving = False
            with open(log_path) as f:
                for line in f:
                    try:
                        fields = json.loads(line).get("fields", {})
                    except ValueError:
                        continue
                    if fields.get("message") == "climbot starting":
                        self.grpc = fields["grpc_addr"]
                        self.metrics = fields["metrics_addr"]
                        self.config = fields
                    if fields.get("message") == "serving":
                        serving = True
            if self.grpc and serving:
                return
            time.sleep(0.05)
        self.stop()
        die("server did not start within 30 s")

    def url(self, path):
        return f"{self.scheme}://{self.grpc}{path}"

    def scrape(self):
        """`climbot_requests_total` samples as {(rpc, game, difficulty, code): count}."""
        with urllib.request.urlopen(f"http://{self.metrics}/metrics", timeout=5) as r:
            text = r.read().decode()
        counts = {}
        for m in re.finditer(r'^climbot_requests_total\{([^}]*)\} (\S+)$', text, re.M):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            key = (labels.get("rpc"), labels.get("game"), labels.get("difficulty"),
                   labels.get("code"))
            counts[key] = float(m.group(2))
        return counts

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def cpu_seconds(self):
        """The server's CPU time so far (user + system, all threads)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


def h2load(url, body, total, clients, streams, log_file=None, rps=None, timeout=300):
    """Runs h2load once; returns its parsed summary."""
    cmd = ["h2load", "-n", str(total), "-c", str(clients), "-m", str(streams), "-t", "1",
           "-d", body]
    for h in GRPC_HEADERS:
        cmd += ["-H", h]
    if log_file:
        cmd += ["--log-file", log_file]
    if rps:
        cmd += ["--rps", str(rps)]
    cmd.append(url)
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        die(f"h2load did not finish within {timeout} s: {' '.join(cmd)}")
    text = out.stdout + out.stderr
    if out.returncode != 0:
        die(f"h2load failed ({out.returncode}):\n{text}")
    r = {}
    m = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", text)
    r["seconds"] = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
    r["rps"] = float(m.group(3))
    m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, "
                  r"(\d+) failed, (\d+) errored, (\d+) timeout", text)
    (r["total"], _, r["done"], r["succeeded"], r["failed"], r["errored"],
     r["timeout"]) = map(int, m.groups())
    m = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text)
    r["2xx"] = int(m.group(1))
    m = re.search(r"traffic: .*\((\d+)\) data", text)
    r["data_bytes"] = int(m.group(1))
    r["raw"] = text
    return r


def latencies_us(log_file):
    with open(log_file) as f:
        return [int(line.split("\t")[2]) for line in f if line.strip()]


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def select_counts(counts, difficulty):
    ok = sum(v for (rpc, _, d, code), v in counts.items()
             if rpc == "select_play" and d == difficulty and code == "ok")
    other = sum(v for (rpc, _, _, code), v in counts.items()
                if rpc == "select_play" and code != "ok")
    return ok, other


class Target:
    def __init__(self, name, path, body, difficulty=None):
        self.name, self.path, self.body, self.difficulty = name, path, body, difficulty


def checked_run(server, target, total, clients, streams, log_file=None, rps=None,
                timeout=300):
    """One h2load run plus the server-side check; returns (summary, errors)."""
    before = server.scrape() if target.difficulty else None
    cpu0 = server.cpu_seconds()
    r = h2load(server.url(target.path), target.body, total, clients, streams, log_file,
               rps, timeout)
    r["server_cpu_us"] = (server.cpu_seconds() - cpu0) * 1e6 / max(1, r["total"])
    errors = (r["total"] - r["2xx"]) + r["failed"] + r["errored"] + r["timeout"]
    if target.difficulty:
        ok0, other0 = select_counts(before, target.difficulty)
        ok1, other1 = select_counts(server.scrape(), target.difficulty)
        r["server_ok"] = int(ok1 - ok0)
        r["server_errors"] = int(other1 - other0)
        errors += r["server_errors"] + abs(r["total"] - r["server_ok"])
    else:
        replies = r["data_bytes"] // HEALTH_REPLY_BYTES
        r["server_ok"] = replies if r["data_bytes"] % HEALTH_REPLY_BYTES == 0 else -1
        r["server_errors"] = r["total"] - replies
        errors += abs(r["total"] * HEALTH_REPLY_BYTES - r["data_bytes"]) // HEALTH_REPLY_BYTES
    r["errors"] = errors
    return r, errors


def h2load_version():
    out = subprocess.run(["h2load", "--version"], capture_output=True, text=True)
    return out.stdout.strip().splitlines()[0] if out.stdout else "h2load"


def ci_within(pooled, targets, half_width):
    """Whether the paired SelectPlay/health ratio's 95% interval is within
    +-half_width of its mean (at least 3 pairs)."""
    health, select = (pooled[t.name]["runs"] for t in targets)
    paired = [s / h for s, h in zip(select, health)]
    if len(paired) < 3:
        return False
    mean, low, high = mean_ci95(paired)
    return (high - low) / 2 < half_width


def shape(concurrency):
    """(connections, streams per connection) for a concurrency: at most 4 connections."""
    conns = min(4, concurrency)
    return conns, concurrency // conns


def bench(args):
    payloads = args.payloads
    targets = [
        Target("Health/Check", HEALTH_PATH, os.path.join(payloads, "health.h2load.bin")),
        Target("SelectPlay lexio EASY (follow)", SELECT_PATH,
               os.path.join(payloads, "lexio_easy_follow.h2load.bin"), "easy"),
    ]
    expert = Target("SelectPlay lexio EXPERT 20 ms (follow)", SELECT_PATH,
                    os.path.join(payloads, "lexio_expert_follow.h2load.bin"), "expert")
    # The other games' EASY at concurrency 16, once each: not a target, for reference.
    others = [Target(f"SelectPlay {game} EASY (follow)", SELECT_PATH,
                     os.path.join(payloads, f"{game}_easy_follow.h2load.bin"), "easy")
              for game in ("dalmuti", "daifugo")]
    started = datetime.datetime.now(datetime.timezone.utc)
    host = machine()
    tmp = tempfile.mkdtemp(prefix="h2bench-")
    server = Server(args.binary, os.path.join(tmp, "server.log"), args.serve_arg)
    rows, failures = [], []
    try:
        for t in targets:  # warm-up: connections, allocator, caches
            checked_run(server, t, args.warmup, 4, 4)
        for c in args.concurrency:
            conns, streams = shape(c)
            n = args.requests if c > 1 else max(1, args.requests // 4)
            pooled = {t.name: {"lat": [], "n": 0, "secs": 0.0, "errors": 0,
                               "runs": [], "cpu": []} for t in targets}
            rep = 0
            # At least --reps pairs; at the gated concurrencies, more until the
            # interval of the paired ratio is narrower than +-ci_target.
            while rep < args.reps or (
                    c in args.gate and rep < args.max_reps
                    and not ci_within(pooled, targets, args.ci_target)):
                # Alternate, and swap the order every other pair: both targets see
                # the same machine load, neither is always first.
                for t in (targets if rep % 2 == 0 else targets[::-1]):
                    log = os.path.join(tmp, f"lat-{c}-{rep}-{len(t.name)}.tsv")
                    r, errors = checked_run(server, t, n, conns, streams, log)
                    p = pooled[t.name]
                    p["lat"] += latencies_us(log)
                    os.remove(log)
                    p["n"] += r["total"]
                    p["secs"] += r["seconds"]
                    p["errors"] += errors
                    p["runs"].append(r["rps"])
                    p["cpu"].append(r["server_cpu_us"])
                    if errors:
                        failures.append(f"{t.name} c={c} rep {rep}: {errors} errors\n"
                                        f"{r['raw']}")
                rep += 1
            for t in targets:
                p = pooled[t.name]
                lat = sorted(p["lat"])
                rows.append({"target": t.name, "c": c, "conns": conns,
                             "streams": streams, "n": p["n"],
                             "rps": p["n"] / p["secs"], "runs": p["runs"],
                             "cpu": p["cpu"],
                             "p50": percentile(lat, 50) / 1000,
                             "p99": percentile(lat, 99) / 1000,
                             "errors": p["errors"]})
        # The other games' EASY at concurrency 16, each run beside a Lexio EASY run.
        games = {t.name: [] for t in [targets[1], *others]}
        if args.other_games:
            for t in others:
                checked_run(server, t, args.warmup, 4, 4)
            for rep in range(args.other_games):
                order = [targets[1], *others]
                order = order[rep % len(order):] + order[:rep % len(order)]
                for t in order:
                    r, errors = checked_run(server, t, args.requests, 4, 4)
                    games[t.name].append(r["rps"])
                    if errors:
                        failures.append(f"{t.name} rep {rep}: {errors} errors\n"
                                        f"{r['raw']}")
        # One-shot row: EXPERT on 2 connections.
        one_shots = [(expert, args.expert, 2, 1, 0)] if args.expert else []
        for i, (t, n, conns, streams, warmup) in enumerate(one_shots):
            if warmup:
                checked_run(server, t, warmup, conns, streams)
            log = os.path.join(tmp, f"lat-one-shot-{i}.tsv")
            r, errors = checked_run(server, t, n, conns, streams, log)
            lat = sorted(latencies_us(log))
            rows.append({"target": t.name, "c": conns * streams, "conns": conns,
                         "streams": streams, "n": r["total"], "rps": r["rps"],
                         "runs": [r["rps"]], "cpu": [r["server_cpu_us"]],
                         "p50": percentile(lat, 50) / 1000,
                         "p99": percentile(lat, 99) / 1000, "errors": errors})
            if errors:
                failures.append(f"{t.name}: {errors} errors\n{r['raw']}")
    finally:
        code = server.stop()
    if code != 0:
        failures.append(f"server exited with {code}")

    health = {r["c"]: r for r in rows if r["target"] == targets[0].name}
    select = {r["c"]: r for r in rows if r["target"] == targets[1].name}
    lines = [
        f"# {args.title}",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {host}",
        f"- Tool: {h2load_version()}, one thread (`-t 1`); gRPC headers "
        f"`{'`, `'.join(GRPC_HEADERS)}`",
        f"- Server: `{args.binary} serve {' '.join(args.serve_arg)}`: defaults except "
        f"loopback ports and JSON logs to a file; decision slots "
        f"{server.config.get('decision_slots')}",
        f"- Payloads: `{payloads}` (`climbot loadtest payloads --seed 1`); SelectPlay = "
        "`lexio_easy_follow`, a 4-player view after 10+ actions with a play to beat",
        f"- Each concurrency: at least {args.reps} pairs of runs (health, SelectPlay; "
        "the order swapped every other pair), "
        f"{args.requests} requests each ({max(1, args.requests // 4)} at concurrency 1), "
        f"after {args.warmup} warm-up requests per target; at concurrency "
        f"{', '.join(map(str, args.gate))} more pairs, up to {args.max_reps}, until the "
        f"95% interval of the paired ratio is narrower than +-{args.ci_target}. "
        "Throughput = requests / time summed over the runs; p50/p99 pooled over every "
        "request; server CPU = the server's user + system time per call "
        "(/proc/<pid>/stat), mean over the runs.",
        "- Errors: h2load non-2xx/failed/timeouts, plus the server's side: for SelectPlay "
        "the change in `climbot_requests_total{rpc=\"select_play\"}` by code (OK must "
        "equal requests sent, other codes 0); for Health/Check every reply must be the "
        "7-byte SERVING body (error replies have no body).",
        "",
        "| Target | Concurrency (conns x streams) | Runs | Requests | Throughput (req/s) | "
        "Run mean [95% CI] (req/s) | Server CPU (us/call) | p50 (ms) | p99 (ms) | "
        "Errors |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        mean, low, high = mean_ci95(r["runs"])
        cpu = sum(r["cpu"]) / len(r["cpu"])
        interval = f"{mean:.0f} [{low:.0f}, {high:.0f}]" if len(r["runs"]) > 1 else "-"
        lines.append(
            f"| {r['target']} | {r['c']} ({r['conns']} x {r['streams']}) | "
            f"{len(r['runs'])} | {r['n']} | {r['rps']:.0f} | {interval} | {cpu:.1f} | "
            f"{r['p50']:.3f} | {r['p99']:.3f} | {r['errors']} |")
    lines += ["", "## SelectPlay (Lexio EASY) against Health/Check, same run", "",
              "Per-run ratios pair each SelectPlay run with the health run of the same "
              "pair; their mean carries a 95% confidence interval (Student t; n = the "
              "number of pairs). Pooled = SelectPlay requests / time over health-check "
              "requests / time, summed over the runs.",
              "",
              "| Concurrency | Pairs | Mean ratio [95% CI] | Pooled ratio | p50 ratio | "
              "p99 ratio | Server CPU SelectPlay - health (us/call) |",
              "|---|---|---|---|---|---|---|"]
    verdicts = []
    for c in args.concurrency:
        h, s = health[c], select[c]
        ratio = s["rps"] / h["rps"]
        paired = [sr / hr for sr, hr in zip(s["runs"], h["runs"])]
        mean, low, high = mean_ci95(paired)
        extra = [sc - hc for sc, hc in zip(s["cpu"], h["cpu"])]
        e_mean, e_low, e_high = mean_ci95(extra)
        lines.append(f"| {c} | {len(paired)} | **{mean:.3f}** [{low:.3f}, {high:.3f}] | "
                     f"{ratio:.3f} | {s['p50'] / h['p50']:.2f} | "
                     f"{s['p99'] / h['p99']:.2f} | {e_mean:.2f} [{e_low:.2f}, "
                     f"{e_high:.2f}] |")
        if c in args.gate:
            verdicts.append((f"concurrency {c}: mean ratio {mean:.3f} >= 0.90 and its "
                             f"95% CI low end {low:.3f} >= 0.85",
                             mean >= 0.90 and low >= 0.85))
            verdicts.append((f"concurrency {c}: the interval is within +-{args.ci_target} "
                             f"(+-{(high - low) / 2:.3f}, {len(paired)} pairs)",
                             (high - low) / 2 < args.ci_target))
    if 16 in select:
        p99 = select[16]["p99"] / health[16]["p99"]
        verdicts.append((f"SelectPlay p99 at concurrency 16 <= 1.2 x health's ({p99:.2f} x)",
                         p99 <= 1.2))
    lexio = targets[1].name
    if args.other_games:
        lines += ["", "## Other games' EASY against Lexio EASY (16 in flight)", "",
                  f"{args.other_games} rounds, each a run of every game in rotating order "
                  f"({args.requests} requests each, 4 x 4); the ratio pairs a game's run "
                  "with the Lexio run of the same round.",
                  "", "| Target | Runs (req/s) | Mean [95% CI] (req/s) | Ratio to Lexio "
                  "EASY, mean [95% CI] |", "|---|---|---|---|"]
        for name, runs in games.items():
            mean, low, high = mean_ci95(runs)
            paired = [g / x for g, x in zip(runs, games[lexio])]
            r_mean, r_low, r_high = mean_ci95(paired)
            lines.append(f"| {name} | {', '.join(f'{x:.0f}' for x in runs)} | "
                         f"{mean:.0f} [{low:.0f}, {high:.0f}] | {r_mean:.3f} "
                         f"[{r_low:.3f}, {r_high:.3f}] |")
            if name != lexio:
                verdicts.append((f"{name} within 10% of Lexio EASY's throughput "
                                 f"(mean ratio {r_mean:.3f})", r_mean >= 0.90))
    verdicts.append(("zero errors", not failures))
    lines += ["", "## Targets", ""]
    lines += [f"- [{'x' if ok else ' '}] {what}" for what, ok in verdicts]
    if failures:
        lines += ["", "## Failures", "", "```", *failures, "```"]
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)
    if failures:
        sys.exit(1)
    if args.strict and not all(ok for _, ok in verdicts):
        sys.exit(1)


def soak(args):
    started = datetime.datetime.now(datetime.timezone.utc)
    host = machine()
    tmp = tempfile.mkdtemp(prefix="h2soak-")
    target = Target("SelectPlay lexio EASY (follow)", SELECT_PATH,
                    os.path.join(args.payloads, "lexio_easy_follow.h2load.bin"), "easy")
    server = Server(args.binary, os.path.join(tmp, "server.log"), args.serve_arg)
    samples, stop = [], threading.Event()

    def sample():
        t0 = time.monotonic()
        while not stop.is_set():
            rss = server.rss_kib()
            if rss is not None:
                samples.append((time.monotonic() - t0, rss))
            stop.wait(args.sample_every)

    failures = []
    try:
        # Warm-up at full speed, then the baseline RSS is the first sample of the soak.
        checked_run(server, target, 2000, 4, 4)
        sampler = threading.Thread(target=sample, daemon=True)
        clients = args.clients
        per_client = max(1, round(args.rate / clients))
        total = per_client * clients * args.duration
        sampler.start()
        r, errors = checked_run(server, target, total, clients, 1, None, per_client,
                                timeout=args.duration * 2 + 60)
        stop.set()
        sampler.join()
        if errors:
            failures.append(f"{errors} errors\n{r['raw']}")
    finally:
        stop.set()
        code = server.stop()
    if code != 0:
        failures.append(f"server exited with {code}")
    first = samples[0][1]
    peak = max(rss for _, rss in samples)
    last = samples[-1][1]
    # Growth after the first minute (allocator pools and connection buffers settle).
    settled = [rss for t, rss in samples if t >= min(60, args.duration / 4)]
    base = settled[0] if settled else first
    growth = (last - first) / first * 100
    settled_growth = (last - base) / base * 100
    lines = [
        "# climbot soak (h2load, fixed rate)",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {host}",
        f"- Tool: {h2load_version()}: {clients} connections x {per_client} req/s "
        f"(`--rps`) = {per_client * clients} req/s for {args.duration} s "
        f"(`-n {total}`); SelectPlay Lexio EASY (`lexio_easy_follow`)",
        f"- Server: `{args.binary} serve` (release, defaults, JSON logs to a file); "
        f"VmRSS from /proc/<pid>/status every {args.sample_every} s",
        "",
        "| Requests | Achieved (req/s) | Errors (h2load + server /metrics) | RSS first "
        "(KiB) | RSS peak (KiB) | RSS last (KiB) | Growth first->last | Growth after "
        "warm-up |",
        "|---|---|---|---|---|---|---|---|",
        f"| {r['total']} | {r['rps']:.0f} | {r['errors']} | {first} | {peak} | {last} | "
        f"{growth:+.1f}% | {settled_growth:+.1f}% |",
        "",
        f"- [{'x' if not failures else ' '}] no errors (server OK count grew by "
        f"{r['server_ok']}, other codes by {r['server_errors']})",
        f"- [{'x' if growth < 10 else ' '}] resident memory growth under 10% "
        f"({growth:+.1f}%)",
        "",
        "RSS samples (s: KiB), every minute:",
        "",
        "```",
    ]
    next_mark = 0.0
    for t, rss in samples:
        if t >= next_mark:
            lines.append(f"{t:6.0f}: {rss}")
            next_mark += 60
    lines.append(f"{samples[-1][0]:6.0f}: {samples[-1][1]} (last)")
    lines.append("```")
    if failures:
        lines += ["", "## Failures", "", "```", *failures, "```"]
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)
    if failures or growth >= 10:
        sys.exit(1)


def tls(args):
    """SelectPlay Lexio EASY at one concurrency over TLS and over plaintext, alternated."""
    started = datetime.datetime.now(datetime.timezone.utc)
    host = machine()
    tmp = tempfile.mkdtemp(prefix="h2tls-")
    certs = os.path.join(tmp, "certs")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([os.path.join(root, "examples", "tls-certs.sh"), certs], check=True,
                   stdout=subprocess.DEVNULL)
    target = Target("SelectPlay lexio EASY (follow)", SELECT_PATH,
                    os.path.join(args.payloads, "lexio_easy_follow.h2load.bin"), "easy")
    tls_args = ["--tls-cert", os.path.join(certs, "server.crt"), "--tls-key",
                os.path.join(certs, "server.key")]
    conns, streams = shape(args.concurrency)
    servers, failures = {}, []
    runs = {"plaintext": [], "tls": []}
    lat = {"plaintext": [], "tls": []}
    negotiated = {}
    try:
        servers["plaintext"] = Server(args.binary, os.path.join(tmp, "plain.log"),
                                      args.serve_arg)
        servers["tls"] = Server(args.binary, os.path.join(tmp, "tls.log"),
                                [*args.serve_arg, *tls_args], scheme="https")
        for name in ("plaintext", "tls"):  # warm-up
            r, errors = checked_run(servers[name], target, args.warmup, conns, streams)
            if errors:
                failures.append(f"warm-up {name}: {errors} errors\n{r['raw']}")
        for rep in range(args.reps):
            # ABBA: plaintext first on even runs, TLS first on odd ones.
            order = ("plaintext", "tls") if rep % 2 == 0 else ("tls", "plaintext")
            for name in order:
                log = os.path.join(tmp, f"lat-{name}-{rep}.tsv")
                r, errors = checked_run(servers[name], target, args.requests, conns,
                                        streams, log)
                runs[name].append(r["rps"])
                lat[name] += latencies_us(log)
                if name == "tls":
                    for key in ("TLS Protocol", "Cipher", "Server Temp Key",
                                "Application protocol"):
                        m = re.search(rf"^{key}: (.+)$", r["raw"], re.M)
                        negotiated[key] = m.group(1).strip() if m else "?"
                if errors:
                    failures.append(f"{name} run {rep}: {errors} errors\n{r['raw']}")
    finally:
        codes = {name: s.stop() for name, s in servers.items()}
    for name, code in codes.items():
        if code != 0:
            failures.append(f"{name} server exited with {code}")
    if failures:
        die("tls: " + "\n".join(failures))
    ratios = [t / p for t, p in zip(runs["tls"], runs["plaintext"])]
    mean, low, high = mean_ci95(ratios)
    n = args.requests * args.reps
    pooled = {k: n / sum(args.requests / x for x in v) for k, v in runs.items()}
    lines = [
        f"## SelectPlay over TLS against plaintext, same run ({args.concurrency} in flight)",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {host}",
        f"- Command: `{args.command}`" if args.command else
        "- Command: `python3 deploy/loadtest/h2bench.py tls`",
        f"- Tool: {h2load_version()}, one thread, {conns} connections x {streams} streams; "
        "`https://` for the TLS server (negotiated, as h2load printed it: "
        f"{', '.join(f'{k} {v}' for k, v in negotiated.items())}; h2load does not "
        "verify the certificate)",
        f"- Servers: two `{' '.join([args.binary, 'serve', *args.serve_arg])}` at the same "
        "time, one plaintext, one with `--tls-cert`/`--tls-key` (EC P-256 certificate "
        "made at run time by `examples/tls-certs.sh`)",
        f"- {args.reps} runs per transport of {args.requests} requests each, alternated "
        f"ABBA (plaintext, TLS, TLS, plaintext, ...) after {args.warmup} warm-up "
        "requests each; every run checked on the server's /metrics (OK count = requests, "
        "other codes 0): 0 errors",
        "",
        "| Transport | Requests | Throughput (req/s) | Runs (req/s) | p50 (ms) | p99 (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("plaintext", "tls"):
        s = sorted(lat[name])
        lines.append(f"| {name} | {n} | {pooled[name]:.0f} | "
                     f"{', '.join(f'{x:.0f}' for x in runs[name])} | "
                     f"{percentile(s, 50) / 1000:.3f} | {percentile(s, 99) / 1000:.3f} |")
    ok = mean >= args.target
    lines += [
        "",
        f"TLS / plaintext throughput: per-run ratios (each TLS run over the plaintext run "
        f"of the same pair) {', '.join(f'{x:.2f}' for x in ratios)}; mean "
        f"**{mean:.2f}**, 95% CI [{low:.2f}, {high:.2f}] (Student t, {len(ratios)} "
        f"pairs); pooled {pooled['tls'] / pooled['plaintext']:.2f}.",
        "",
        f"- [{'x' if ok else ' '}] mean ratio >= {args.target:.2f}",
    ]
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)
    if args.strict and not ok:
        sys.exit(1)


def ab(args):
    """Two builds served at once, runs alternated ABBA: for each build, health and
    SelectPlay (`--payload`, Lexio EASY by default) at one concurrency. Per repetition: each build's
    SelectPlay/health ratio, and B over A for each target's throughput."""
    started = datetime.datetime.now(datetime.timezone.utc)
    host = machine()
    tmp = tempfile.mkdtemp(prefix="h2ab-")
    targets = [
        Target("health", HEALTH_PATH, os.path.join(args.payloads, "health.h2load.bin")),
        Target("select", SELECT_PATH,
               os.path.join(args.payloads, f"{args.payload}.h2load.bin"), "easy"),
    ]
    conns, streams = shape(args.concurrency)
    builds = {"A": args.a, "B": args.b}
    servers, failures = {}, []
    runs = {(b, t.name): [] for b in builds for t in targets}
    cpu = {(b, t.name): [] for b in builds for t in targets}
    try:
        for b, binary in builds.items():
            servers[b] = Server(binary, os.path.join(tmp, f"{b}.log"), args.serve_arg)
        for b in builds:
            for t in targets:
                checked_run(servers[b], t, args.warmup, conns, streams)
        for rep in range(args.reps):
            order = ("A", "B") if rep % 2 == 0 else ("B", "A")
            pair = targets if rep % 4 < 2 else targets[::-1]
            for b in order:
                for t in pair:
                    r, errors = checked_run(servers[b], t, args.requests, conns, streams)
                    runs[(b, t.name)].append(r["rps"])
                    cpu[(b, t.name)].append(r["server_cpu_us"])
                    if errors:
                        failures.append(f"{b} {t.name} rep {rep}: {errors} errors")
    finally:
        codes = {b: s.stop() for b, s in servers.items()}
    failures += [f"server {b} exited with {c}" for b, c in codes.items() if c != 0]
    if failures:
        die("ab: " + "\n".join(failures))

    def ci(values):
        mean, low, high = mean_ci95(values)
        return f"{mean:.3f} [{low:.3f}, {high:.3f}]"

    ratio = {b: [s / h for s, h in zip(runs[(b, "select")], runs[(b, "health")])]
             for b in builds}
    lines = [
        f"## A/B at {args.concurrency} in flight ({conns} x {streams})",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}; machine: {host}",
        f"- SelectPlay payload: `{args.payload}`",
        f"- A: `{args.a}`; B: `{args.b}`; both served at once; {args.reps} repetitions "
        f"of {args.requests} calls per build and target, builds alternated ABBA and "
        "targets health/SelectPlay alternated, after "
        f"{args.warmup} warm-up calls each; every run checked on the server's side",
        "- Mean [95% CI] over the repetitions (Student t); server CPU = the server "
        "process's user + system time over a run (/proc/<pid>/stat) per call",
        "",
        "| Measure | A | B | B - A or B / A |",
        "|---|---|---|---|",
        f"| SelectPlay / health ratio | {ci(ratio['A'])} | {ci(ratio['B'])} | "
        f"{ci([b - a for a, b in zip(ratio['A'], ratio['B'])])} |",
    ]
    for t in targets:
        a, b = runs[("A", t.name)], runs[("B", t.name)]
        lines.append(f"| {t.name} req/s | {ci(a)} | {ci(b)} | "
                     f"{ci([y / x for x, y in zip(a, b)])} |")
    for t in targets:
        a, b = cpu[("A", t.name)], cpu[("B", t.name)]
        lines.append(f"| {t.name} server CPU us/call | {ci(a)} | {ci(b)} | "
                     f"{ci([y - x for x, y in zip(a, b)])} |")
    extra = {k: [s_ - h for s_, h in zip(cpu[(k, "select")], cpu[(k, "health")])]
             for k in builds}
    lines.append(f"| SelectPlay - health server CPU us/call | {ci(extra['A'])} | "
                 f"{ci(extra['B'])} | {ci([y - x for x, y in zip(extra['A'], extra['B'])])} |")
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--payloads", default="deploy/loadtest/payloads")
    p.add_argument("--out", help="write the markdown report here")
    p.add_argument("--serve-arg", action="append", default=[],
                   help="extra `climbot serve` argument (repeatable), e.g. --serve-arg=--log=warn")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bench")
    b.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64])
    b.add_argument("--requests", type=int, default=20000)
    b.add_argument("--reps", type=int, default=5)
    b.add_argument("--warmup", type=int, default=2000)
    b.add_argument("--expert", type=int, default=200,
                   help="EXPERT requests at concurrency 2 (0: skip)")
    b.add_argument("--other-games", type=int, default=5,
                   help="rounds of Lexio, Dalmuti and Daifugo EASY at concurrency 16 "
                        "(0: none)")
    b.add_argument("--gate", type=int, nargs="*", default=[16, 64],
                   help="concurrencies whose ratio is a target and gets --ci-target")
    b.add_argument("--ci-target", type=float, default=0.05,
                   help="add pairs until the ratio's 95%% CI half-width is below this")
    b.add_argument("--max-reps", type=int, default=40)
    b.add_argument("--title", default="climbot load test (h2load)")
    b.add_argument("--strict", action="store_true",
                   help="also fail when a target (ratio, p99) is missed")
    s = sub.add_parser("soak")
    s.add_argument("duration", type=int, help="seconds")
    s.add_argument("rate", type=int, help="requests per second")
    s.add_argument("--clients", type=int, default=4)
    s.add_argument("--sample-every", type=float, default=5.0)
    t = sub.add_parser("tls")
    t.add_argument("--concurrency", type=int, default=16)
    t.add_argument("--requests", type=int, default=20000)
    t.add_argument("--reps", type=int, default=10)
    t.add_argument("--warmup", type=int, default=2000)
    t.add_argument("--target", type=float, default=0.8)
    t.add_argument("--command", help="the command line to quote in the report")
    t.add_argument("--strict", action="store_true",
                   help="fail when the mean ratio is under --target")
    a = sub.add_parser("ab", help="two builds against each other, alternated")
    a.add_argument("a", help="build A (the baseline)")
    a.add_argument("b", help="build B")
    a.add_argument("--concurrency", type=int, default=16)
    a.add_argument("--requests", type=int, default=20000)
    a.add_argument("--reps", type=int, default=8)
    a.add_argument("--warmup", type=int, default=2000)
    a.add_argument("--payload", default="lexio_easy_follow",
                   help="the SelectPlay payload (a file stem under --payloads, EASY)")
    args = p.parse_args()
    if args.cmd == "soak" and not (1 <= args.duration <= 3600 and 1 <= args.rate <= 20000):
        die("soak: duration must be 1..3600 s and rate 1..20000 req/s")
    {"bench": bench, "soak": soak, "tls": tls, "ab": ab}[args.cmd](args)


if __name__ == "__main__":
    main()
