#!/usr/bin/env python3
"""EXPERT on its budget under load: every game's mid-game EXPERT views (the load test's
`*_expert_lead` and `*_expert_follow` payloads) sent with `budget_ms` at a fixed
concurrency, each call with a fresh seed and a deadline well past the budget.

Reports, per game, the client-side latency percentiles, the server's `compute_micros`
percentiles and the `search_iterations`, and exits 1 unless every call succeeded with
`search_iterations > 0`, no call fell back, and the p99 latency is within the budget
plus the server's deadline margin (10 ms by default).

    python3 deploy/loadtest/expert_budget.py --addr 127.0.0.1:50051 --budget-ms 100 \
        --concurrency 2 --calls 300

Needs the Python stubs of examples/python (examples/python/run.sh generates them into
examples/python/gen) and `pip install -r examples/python/requirements.txt`.
"""

import argparse
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "python", "gen"))

import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from climbot.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402

GAMES = ("lexio", "dalmuti", "daifugo")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def requests_for(game, budget_ms):
    out = []
    for kind in ("lead", "follow"):
        path = os.path.join(HERE, "payloads", f"{game}_expert_{kind}.json")
        with open(path) as f:
            request = json_format.Parse(json.dumps(json.load(f)), bot_pb2.SelectPlayRequest())
        request.budget_ms = budget_ms
        out.append(request)
    return out


def run_game(stub, game, args):
    templates = requests_for(game, args.budget_ms)
    latencies, computes, iterations, failures = [], [], [], []
    lock = threading.Lock()
    next_call = [0]

    def worker():
        while True:
            with lock:
                i = next_call[0]
                if i >= args.calls:
                    return
                next_call[0] += 1
            request = bot_pb2.SelectPlayRequest()
            request.CopyFrom(templates[i % len(templates)])
            request.seed = 1 + i
            start = time.perf_counter()
            try:
                response = stub.SelectPlay(request, timeout=args.deadline_ms / 1000)
            except grpc.RpcError as e:
                with lock:
                    failures.append(f"call {i}: {e.code().name} {e.details()}")
                continue
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                computes.append(response.compute_micros / 1000)
                iterations.append(response.search_iterations)
                if response.fallback or response.search_iterations == 0:
                    failures.append(f"call {i}: fallback={response.fallback} "
                                    f"search_iterations={response.search_iterations}")

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, computes, iterations, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--budget-ms", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--calls", type=int, default=300, help="calls per game")
    parser.add_argument("--deadline-ms", type=int, default=1000,
                        help="each call's deadline (well past the budget)")
    parser.add_argument("--margin-ms", type=float, default=10.0,
                        help="the server's --deadline-margin-ms")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    if args.calls < 1 or args.concurrency < 1 or args.budget_ms < 1:
        parser.error("--calls, --concurrency and --budget-ms must be at least 1")

    ok = True
    limit = args.budget_ms + args.margin_ms
    with grpc.insecure_channel(args.addr) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        print(f"EXPERT, budget_ms {args.budget_ms}, concurrency {args.concurrency}, "
              f"{args.calls} calls per game; p99 limit {limit:g} ms")
        for game in args.games.split(","):
            lat, comp, its, failures = run_game(stub, game, args)
            if lat:
                p99 = percentile(lat, 0.99)
                print(f"{game:8} latency p50 {percentile(lat, 0.5):6.1f} ms  p99 {p99:6.1f} ms  "
                      f"max {max(lat):6.1f} ms | compute p50 {percentile(comp, 0.5):6.1f} ms  "
                      f"p99 {percentile(comp, 0.99):6.1f} ms | search_iterations min {min(its)} "
                      f"p50 {percentile(its, 0.5)} | {len(failures)} failures")
                if p99 > limit:
                    print(f"  p99 latency {p99:.1f} ms is past {limit:g} ms")
                    ok = False
            for failure in failures[:5]:
                print(f"  {failure}")
            ok = ok and not failures and len(lat) == args.calls
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
