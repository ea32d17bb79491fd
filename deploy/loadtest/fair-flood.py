#!/usr/bin/env python3
"""A flooding client, a quiet one and an EASY load against one release server, measured
in the same run.

- flooder (`climbot-client: flooder`): keeps --flood EXPERT calls in flight (ten times
  the decision slots by default), budget --flood-budget-ms each, re-sent as soon as
  one ends, whatever its status (no pushback honoured: a worst-case neighbour);
- quiet (`climbot-client: quiet`): one EXPERT call every --quiet-every-ms, budget
  --quiet-budget-ms (time to wait for a slot) and --quiet-iterations playouts (a short
  search), deadline 2 s;
- EASY: h2load sends Lexio EASY (`lexio_easy_follow`) at --easy-rate req/s on 4
  connections (`--rps`), its latencies from h2load's log file; every EASY call checked
  on the server's /metrics (the `difficulty="easy"` OK count grows by exactly the
  requests sent, no other EASY code grows).

The quiet client and the EASY load start once the flood has filled the slots, and run
together for --duration seconds. Exits 1 unless every quiet call is served (OK, 0
refused) and the EASY p99 is at most --easy-p99-ms.

    python3 deploy/loadtest/fair-flood.py --duration 60 --out deploy/loadtest/fair-flood-report.md
"""

import argparse
import collections
import os
import random
import re
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grpckit as kit  # noqa: E402
import h2bench as hb  # noqa: E402


def easy_counts(counts):
    ok = sum(v for (rpc, _, d, code), v in counts.items()
             if rpc == "select_play" and d == "easy" and code == "ok")
    other = sum(v for (rpc, _, d, code), v in counts.items()
                if rpc == "select_play" and d == "easy" and code != "ok")
    return ok, other


def refusals(server):
    """climbot_client_refusals_total by client, from /metrics."""
    with urllib.request.urlopen(f"http://{server.metrics}/metrics", timeout=5) as r:
        text = r.read().decode()
    out = {}
    for m in re.finditer(r'^climbot_client_refusals_total\{client="([^"]*)"\} (\S+)$',
                         text, re.M):
        out[m.group(1)] = float(m.group(2))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--payloads", default="deploy/loadtest/payloads")
    p.add_argument("--decision-slots", type=int, default=2)
    p.add_argument("--flood", type=int, default=0,
                   help="flooder's calls in flight (default: 10 x the slots)")
    p.add_argument("--flood-budget-ms", type=int, default=100)
    p.add_argument("--quiet-every-ms", type=int, default=100)
    p.add_argument("--quiet-budget-ms", type=int, default=500)
    p.add_argument("--quiet-iterations", type=int, default=200)
    p.add_argument("--easy-rate", type=int, default=400, help="EASY req/s (h2load)")
    p.add_argument("--easy-p99-ms", type=float, default=5.0)
    p.add_argument("--duration", type=int, default=60, help="seconds")
    p.add_argument("--out", help="write the markdown report here")
    p.add_argument("--command", help="the command line to quote in the report")
    args = p.parse_args()
    flood_n = args.flood or 10 * args.decision_slots
    if not 5 <= args.duration <= 1800:
        kit.die("--duration must be 5..1800 s")

    started_at = kit.now_utc()
    host = kit.machine()
    tmp = kit.workdir("fair-flood-")
    kit.load_stubs(tmp)
    reqs = kit.requests(args.payloads)
    serve_args = ["--decision-slots", str(args.decision_slots)]
    server = hb.Server(args.binary, os.path.join(tmp, "server.log"), serve_args)
    stop_flood, stop_quiet = threading.Event(), threading.Event()
    lock = threading.Lock()
    flood = collections.Counter()
    flood_pushbacks = []
    flood_lat = []  # ms, OK calls in the measured window
    measuring = threading.Event()
    quiet = []  # (status, seconds, pushback)
    failures = []
    ch = kit.channel(server.grpc)
    stub = kit.bot_pb2_grpc.BotServiceStub(ch)

    def flooder(seed):
        rng = random.Random(seed)
        md = ((kit.CLIENT_KEY, "flooder"),)
        while not stop_flood.is_set():
            req = kit.bot_pb2.SelectPlayRequest()
            req.CopyFrom(reqs[(kit.GAMES[rng.randrange(3)], "EXPERT",
                               ("lead", "follow")[rng.randrange(2)])])
            req.seed = rng.getrandbits(63)
            req.budget_ms = args.flood_budget_ms
            t = time.monotonic()
            try:
                stub.SelectPlay(req, timeout=2.0, metadata=md)
                code = "OK"
                if measuring.is_set():
                    with lock:
                        flood_lat.append((time.monotonic() - t) * 1000)
            except kit.grpc.RpcError as e:
                code = kit.code_name(e.code())
                pb = kit.pushback_ms(e)
                if code == "RESOURCE_EXHAUSTED" and pb is not None:
                    with lock:
                        flood_pushbacks.append(pb)
            with lock:
                flood[code] += 1

    def quiet_client():
        rng = random.Random(7)
        md = ((kit.CLIENT_KEY, "quiet"),)
        next_at = time.monotonic()
        while not stop_quiet.is_set():
            req = kit.bot_pb2.SelectPlayRequest()
            req.CopyFrom(reqs[(kit.GAMES[rng.randrange(3)], "EXPERT",
                               ("lead", "follow")[rng.randrange(2)])])
            req.seed = rng.getrandbits(63)
            req.budget_ms = args.quiet_budget_ms
            req.max_iterations = args.quiet_iterations
            t = time.monotonic()
            pb = None
            try:
                stub.SelectPlay(req, timeout=2.0, metadata=md)
                code = "OK"
            except kit.grpc.RpcError as e:
                code = kit.code_name(e.code())
                pb = kit.pushback_ms(e)
            quiet.append((code, time.monotonic() - t, pb))
            next_at += args.quiet_every_ms / 1000
            time.sleep(max(0.0, next_at - time.monotonic()))

    easy = hb.Target("SelectPlay lexio EASY (follow)", hb.SELECT_PATH,
                     os.path.join(args.payloads, "lexio_easy_follow.h2load.bin"), "easy")
    threads = [threading.Thread(target=flooder, args=(i,), daemon=True)
               for i in range(flood_n)]
    try:
        # Warm-up: EASY connections and caches, then the flood fills every slot.
        hb.h2load(server.url(easy.path), easy.body, 2000, 4, 1)
        for t in threads:
            t.start()
        time.sleep(3)
        flood_before = dict(flood)
        before = server.scrape()
        refusals_before = refusals(server)
        measuring.set()
        qt = threading.Thread(target=quiet_client, daemon=True)
        qt.start()
        per_conn = max(1, args.easy_rate // 4)
        total = per_conn * 4 * args.duration
        lat_log = os.path.join(tmp, "easy.tsv")
        r = hb.h2load(server.url(easy.path), easy.body, total, 4, 1, lat_log, per_conn,
                      timeout=args.duration * 2 + 60)
        stop_quiet.set()
        measuring.clear()
        qt.join(timeout=10)
        after = server.scrape()
        refusals_after = refusals(server)
        flood_during = {k: flood.get(k, 0) - flood_before.get(k, 0) for k in flood}
    finally:
        stop_quiet.set()
        stop_flood.set()
        for t in threads:
            t.join(timeout=5)
        ch.close()
        code = server.stop()
    if code != 0:
        failures.append(f"server exited with {code}")

    ok0, other0 = easy_counts(before)
    ok1, other1 = easy_counts(after)
    easy_ok, easy_other = int(ok1 - ok0), int(other1 - other0)
    h2_errors = (r["total"] - r["2xx"]) + r["failed"] + r["errored"] + r["timeout"]
    easy_errors = h2_errors + easy_other + abs(r["total"] - easy_ok)
    lat = sorted(x / 1000 for x in hb.latencies_us(lat_log))
    p50, p99 = kit.percentile(lat, 50), kit.percentile(lat, 99)
    p99_lo, p99_hi = kit.percentile_ci95(lat, 99)
    q_codes = collections.Counter(c for c, _, _ in quiet)
    q_ok = q_codes.get("OK", 0)
    q_refused = len(quiet) - q_ok
    q_lat = sorted(s * 1000 for c, s, _ in quiet if c == "OK")
    q_lo, q_hi = kit.wilson95(q_ok, len(quiet))
    quiet_refusals = refusals_after.get("quiet", 0) - refusals_before.get("quiet", 0)
    flood_refusals = refusals_after.get("flooder", 0) - refusals_before.get("flooder", 0)
    fp = sorted(flood_pushbacks)
    verdicts = [
        (f"quiet client: every call served ({q_ok} of {len(quiet)} OK, {q_refused} not; "
         f"server refusals of `quiet`: {quiet_refusals:.0f})",
         q_refused == 0 and quiet_refusals == 0 and len(quiet) > 0),
        (f"EASY p99 <= {args.easy_p99_ms:g} ms ({p99:.3f} ms)", p99 <= args.easy_p99_ms),
        (f"EASY: no errors ({easy_errors})", easy_errors == 0),
        ("server exited 0 after SIGTERM", not failures),
    ]
    lines = [
        "# climbot fair share under a flood, with EASY in the same run",
        "",
        f"- Date: {started_at}",
        f"- Machine: {host}",
    ]
    if args.command:
        lines.append(f"- Command: `{args.command}`")
    lines += [
        f"- Server: `{args.binary} serve {' '.join(serve_args)}` on loopback ports",
        f"- flooder: {flood_n} EXPERT calls in flight (10 x the slots when not set), "
        f"budget {args.flood_budget_ms} ms, re-sent at once whatever the status; quiet: one "
        f"EXPERT call every {args.quiet_every_ms} ms, budget {args.quiet_budget_ms} ms, "
        f"{args.quiet_iterations} iterations, deadline 2 s; EASY: h2load, 4 connections x "
        f"{per_conn} req/s for {args.duration} s; all three games' EXPERT payloads for the "
        "flooder and the quiet client",
        f"- Measured window: {args.duration} s (the EASY run), after 3 s of flood alone",
        "",
        "| Client | Calls | OK | Refused / failed | Latency of OK calls (ms) |",
        "|---|---|---|---|---|",
        f"| quiet | {len(quiet)} | {q_ok} (95% CI of the served share "
        f"[{q_lo * 100:.1f}%, {q_hi * 100:.1f}%]) | {q_refused} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(q_codes.items()) if k != 'OK') or 'none'}) | "
        + (f"p50 {kit.percentile(q_lat, 50):.1f}, p99 {kit.percentile(q_lat, 99):.1f}, "
           f"max {q_lat[-1]:.1f}" if q_lat else "-") + " |",
        f"| flooder | {sum(flood_during.values())} | {flood_during.get('OK', 0)} | "
        f"{sum(v for k, v in flood_during.items() if k != 'OK')} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(flood_during.items()) if k != 'OK')}; "
        f"server refusals of `flooder`: {flood_refusals:.0f}) | "
        + (f"p50 {kit.percentile(sorted(flood_lat), 50):.1f}, p99 "
           f"{kit.percentile(sorted(flood_lat), 99):.1f} (waiting included) |"
           if flood_lat else "- |"),
        f"| EASY (h2load) | {r['total']} | {easy_ok} (server /metrics) | {easy_errors} | "
        f"p50 {p50:.3f}, p99 **{p99:.3f}** (95% CI [{p99_lo:.3f}, {p99_hi:.3f}]), "
        f"max {lat[-1]:.3f}; {r['rps']:.0f} req/s achieved |",
        "",
    ]
    if fp:
        lines.append(f"Flooder refusals carrying `{kit.PUSHBACK_KEY}` (whole run): {len(fp)}, "
                     f"pushback min {fp[0]} ms, p50 {kit.percentile(fp, 50)} ms, max {fp[-1]} ms.")
        lines.append("")
    lines.append("The p99 interval is distribution-free (order statistics); the served "
                 "share's is Wilson's.")
    lines += ["", "## Verdict", ""]
    lines += [f"- [{'x' if ok else ' '}] {what}" for what, ok in verdicts]
    if failures:
        lines += ["", "## Failures", "", "```", *failures, "```"]
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)
    sys.exit(0 if all(ok for _, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
