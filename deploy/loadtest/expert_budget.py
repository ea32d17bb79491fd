#!/usr/bin/env python3
"""EXPERT (or AnalyzePlay) on its budget under load: every game's mid-game views (the
load test's `*_expert_lead` and `*_expert_follow` payloads, or `*_analyze_*` with
`--rpc analyze`) sent with `budget_ms` at a fixed concurrency, each call with a fresh
seed and a deadline well past the budget.

Reports, per game, the client-side latency percentiles, the server's `compute_micros`
percentiles and the `search_iterations`, and exits 1 unless every call succeeded with
`search_iterations > 0`, no call fell back, and the p99 latency is within the budget
plus the server's deadline margin (10 ms by default). With `--rpc analyze` it also
checks that every decision listed is one ListLegalPlays lists, that every legal
decision is listed, and that exactly one, the first, is marked best; and reports the
compute p99 against the budget plus 1 ms.

`--agreement N` then asks, for each view and N seeds, AnalyzePlay and EXPERT's
SelectPlay with the same seed and `max_iterations` (`--agreement-iterations`), and
reports how often the analysis' best is EXPERT's choice.

    python3 deploy/loadtest/expert_budget.py --addr 127.0.0.1:50051 --budget-ms 100 \
        --concurrency 2 --calls 300 [--rpc analyze [--agreement 50]]

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

# Daifugo twice: under the house rules (4 players) and the UECda rules (5 players),
# which EXPERT searches differently.
GAMES = ("lexio", "dalmuti", "daifugo", "daifugo_uecda")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def requests_for(game, budget_ms, rpc="select"):
    """The game's lead and follow payloads of `rpc` (select: EXPERT's SelectPlay;
    analyze: AnalyzePlay), with `budget_ms`."""
    name, message = {"select": ("expert", bot_pb2.SelectPlayRequest),
                     "analyze": ("analyze", bot_pb2.AnalyzePlayRequest)}[rpc]
    out = []
    for kind in ("lead", "follow"):
        path = os.path.join(HERE, "payloads", f"{game}_{name}_{kind}.json")
        with open(path) as f:
            request = json_format.Parse(json.dumps(json.load(f)), message())
        request.budget_ms = budget_ms
        out.append(request)
    return out


def legal_decisions(stub, view):
    """The decisions ListLegalPlays lists for `view`, serialized (to compare)."""
    response = stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=5.0)
    game = response.WhichOneof("game")
    return [bot_pb2.Decision(**{game: d}).SerializeToString(deterministic=True)
            for d in getattr(response, game).decisions]


def analysis_problems(response, legal):
    """What is wrong with an AnalyzePlay response listing every decision, if anything."""
    listed = [d.decision.SerializeToString(deterministic=True) for d in response.decisions]
    problems = []
    illegal = [d for d in listed if d not in legal]
    if illegal:
        problems.append(f"{len(illegal)} illegal decisions listed")
    if sorted(listed) != sorted(legal):
        problems.append(f"{len(listed)} decisions listed, {len(legal)} legal")
    best = [i for i, d in enumerate(response.decisions) if d.best]
    if best != [0]:
        problems.append(f"best marked at {best}, not at 0 alone")
    return problems


def run_game(stub, game, args):
    templates = requests_for(game, args.budget_ms, args.rpc)
    call = stub.AnalyzePlay if args.rpc == "analyze" else stub.SelectPlay
    legal = {}
    if args.rpc == "analyze":
        for i, template in enumerate(templates):
            legal[i] = legal_decisions(stub, template.view)
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
            template = templates[i % len(templates)]
            request = type(template)()
            request.CopyFrom(template)
            request.seed = 1 + i
            start = time.perf_counter()
            try:
                response = call(request, timeout=args.deadline_ms / 1000)
            except grpc.RpcError as e:
                with lock:
                    failures.append(f"call {i}: {e.code().name} {e.details()}")
                continue
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                computes.append(response.compute_micros / 1000)
                iterations.append(response.search_iterations)
                fallback = getattr(response, "fallback", False)
                if fallback or response.search_iterations == 0:
                    failures.append(f"call {i}: fallback={fallback} "
                                    f"search_iterations={response.search_iterations}")
                if args.rpc == "analyze":
                    failures.extend(f"call {i}: {p}" for p in
                                    analysis_problems(response, legal[i % len(templates)]))

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, computes, iterations, failures


def agreement(stub, game, args):
    """(agreeing, asked): how often AnalyzePlay's best is EXPERT's SelectPlay choice with
    the same view, seed and max_iterations."""
    agreeing = asked = 0
    for template in requests_for(game, args.budget_ms, "analyze"):
        for seed in range(1, args.agreement + 1):
            analyze = bot_pb2.AnalyzePlayRequest(view=template.view, seed=seed, top=1,
                                                 max_iterations=args.agreement_iterations)
            select = bot_pb2.SelectPlayRequest(view=template.view, seed=seed,
                                               difficulty=bot_pb2.DIFFICULTY_EXPERT,
                                               max_iterations=args.agreement_iterations)
            best = stub.AnalyzePlay(analyze, timeout=30.0).decisions[0].decision
            chosen = stub.SelectPlay(select, timeout=30.0).decision
            agreeing += best == chosen
            asked += 1
    return agreeing, asked


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
    parser.add_argument("--rpc", choices=("select", "analyze"), default="select",
                        help="EXPERT's SelectPlay (default) or AnalyzePlay")
    parser.add_argument("--agreement", type=int, default=0, metavar="N",
                        help="then compare AnalyzePlay's best with EXPERT's choice on N "
                             "seeds per view")
    parser.add_argument("--agreement-iterations", type=int, default=2000)
    args = parser.parse_args()
    if args.calls < 1 or args.concurrency < 1 or args.budget_ms < 1:
        parser.error("--calls, --concurrency and --budget-ms must be at least 1")

    ok = True
    limit = args.budget_ms + args.margin_ms
    with grpc.insecure_channel(args.addr) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        what = "AnalyzePlay" if args.rpc == "analyze" else "EXPERT"
        print(f"{what}, budget_ms {args.budget_ms}, concurrency {args.concurrency}, "
              f"{args.calls} calls per game; p99 limit {limit:g} ms")
        for game in args.games.split(","):
            lat, comp, its, failures = run_game(stub, game, args)
            if lat:
                p99 = percentile(lat, 0.99)
                print(f"{game:13} latency p50 {percentile(lat, 0.5):6.1f} ms  p99 {p99:6.1f} ms  "
                      f"max {max(lat):6.1f} ms | compute p50 {percentile(comp, 0.5):6.1f} ms  "
                      f"p99 {percentile(comp, 0.99):6.1f} ms | search_iterations min {min(its)} "
                      f"p50 {percentile(its, 0.5)} | {len(failures)} failures")
                if p99 > limit:
                    print(f"  p99 latency {p99:.1f} ms is past {limit:g} ms")
                    ok = False
                compute_p99 = percentile(comp, 0.99)
                print(f"  compute p99 {compute_p99:.2f} ms: "
                      f"{'within' if compute_p99 <= args.budget_ms + 1 else 'past'} "
                      f"the budget + 1 ms")
            for failure in failures[:5]:
                print(f"  {failure}")
            ok = ok and not failures and len(lat) == args.calls
        if args.agreement > 0:
            for game in args.games.split(","):
                agreeing, asked = agreement(stub, game, args)
                print(f"{game:13} AnalyzePlay's best is EXPERT's choice in {agreeing} of {asked} "
                      f"(same view, seed and max_iterations {args.agreement_iterations})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
