#!/usr/bin/env python3
"""Where the served EXPERT's time goes, and what a build change does to it.

`profile`: for each game, `perf record` samples `climbot arena` playing the served
EXPERT in every seat on a 20 ms budget (one thread, the game's load-test table: Lexio 5 players, Dalmuti 6,
Daifugo 4 under the house rules) for `--seconds`; the samples' stacks, inlined frames
included, are collapsed with `inferno-collapse-perf`, and every sample inside an EXPERT
decision is put in one part of the search (below, `PARTS`). Prints a Markdown table of
each part's share of the decisions' CPU time, with the share of it spent in the
allocator (malloc and free called from that part).

`compare A B`: the two binaries alternately (A B B A ...) play the same fixed-work arena
(`--lineup expert,hard`: one seat of the served EXPERT, its decisions timed by the
arena) for `--reps` pairs per game, and the script prints B's mean EXPERT decision time
over A's with a 95% t interval over the pairs. Both must give the same arena results
(same seed, same work): a change to speed must not change a decision; the script stops
if they differ.

Needs perf (Debian linux-perf; perf_event_paranoid at most 2) and inferno
(`cargo install inferno`) for `profile`. Run on a quiet machine: the comparison's
pairs share the noise, the profile does not.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy",
                                "loadtest"))
from grpckit import die, mean_ci95  # noqa: E402  (the load tests' statistics)

# The load test's tables, where the bench's views come from.
TABLES = {
    "lexio": ["--players", "5"],
    "dalmuti": ["--players", "6", "--rounds", "2"],
    "daifugo": ["--players", "4"],
}


def named(*names):
    """A frame of one of these functions, inlined (a bare name) or not (a path)."""
    return r"(^|::)(" + "|".join(names) + r")(<|$)"


# The parts of a decision. A sample belongs to the outermost frame that matches an
# enclosing part (its whole cost, whatever it calls), else to the innermost frame
# that matches a working part, else to "race bookkeeping" (the search's own loop:
# outcomes kept, leaders and paired deficits summed).
ENCLOSING = [
    ("budget checks", named("should_stop", "clock_gettime", "budget_spent", "budget_share")
     + r"|Instant::now"),
    ("deal weights (the log's likelihood)",
     named("log_likelihood_of_log", "replay_log", "logged_decisions")),
    ("candidates (HARD's ranking, mate checks)",
     r"HardBot|bots::hard::|search::mate::|" + named("first_mate_play", "mate_step", "mate_play",
                                                       "mate_lead_memo")),
]
WORKING = [
    ("deals and positions", named("determinize", "deal", "from_view", "position") + r"|Dealer"),
    ("policy: features (and their buffers)",
     named("features", "score", "act", "places_by_kind")),
    ("policy: scores and sampling", named("scores", "sample", "argmax", "LinearPolicy::scores")),
    ("legal moves", named("legal_actions", "legal_plays", "for_each_legal_play", "for_each_play",
                          "for_each_lead", "for_each_follow", "for_each_group", "for_each_five",
                          "legal_decisions")),
    ("rule playouts (the easy rule's choice)", named("playout_action", "choose_play_with")),
    ("moves applied", named("apply", "play")),
    ("outcomes", named("outcome", "net", "effective_count")),
    ("tree (select, expand, back up)", named("select", "child") + r"|tree::Tree"),
]
RESIDUAL = "race bookkeeping"
ALLOCATOR = re.compile(r"malloc|free$|calloc|realloc|_int_|tcache|cfree")
DECISION = re.compile(r"ExpertBot<G> as climbot_core::game::Policy<G>>::decide")


def clean(frame):
    return re.sub(r"::h[0-9a-f]{16}$", "", frame)


def part_of(frames):
    for name, pattern in ENCLOSING:
        if any(re.search(pattern, f) for f in frames):
            return name
    for frame in reversed(frames):
        for name, pattern in WORKING:
            if re.search(pattern, frame):
                return name
    return RESIDUAL


def categorise(folded):
    """{part: [ns, of which allocator ns]} over samples inside an EXPERT decision."""
    parts = collections.defaultdict(lambda: [0, 0])
    with open(folded) as f:
        for line in f:
            stack, count = line.rstrip().rsplit(" ", 1)
            frames = [clean(x) for x in stack.split(";")]
            inside = [i for i, x in enumerate(frames) if DECISION.search(x)]
            if not inside:
                continue
            frames = frames[inside[0] + 1:]
            name = part_of(frames)
            parts[name][0] += int(count)
            if frames and ALLOCATOR.search(frames[-1]):
                parts[name][1] += int(count)
    return parts


def arena(binary, game, lineup, seed):
    return [binary, "arena", "--game", game, *TABLES[game], "--lineup", lineup,
            "--blocks", "2", "--seed", str(seed), "--threads", "1"]


def profile(args):
    for tool in ("perf", "inferno-collapse-perf"):
        if shutil.which(tool) is None:
            die(f"{tool} not found (perf: Debian linux-perf; inferno: cargo install inferno)")
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            data = os.path.join(tmp, f"{game}.data")
            command = ["timeout", "-s", "INT", str(args.seconds), "perf", "record", "-q",
                       "-F", str(args.freq), "--call-graph", "dwarf,16384", "-o", data, "--",
                       *arena(args.binary, game, args.lineup, args.seed)]
            print(f"{game}: {' '.join(command)}", file=sys.stderr)
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            script = subprocess.run(["perf", "script", "-i", data], capture_output=True,
                                    check=True)
            folded = os.path.join(args.keep_folded or tmp, f"{game}.folded")
            if args.keep_folded:
                os.makedirs(args.keep_folded, exist_ok=True)
            with open(folded, "wb") as out:
                subprocess.run(["inferno-collapse-perf"], input=script.stdout, stdout=out,
                               check=True)
            rows[game] = categorise(folded)
    names = [n for n, _ in ENCLOSING] + [n for n, _ in WORKING] + [RESIDUAL]
    totals = {game: sum(v[0] for v in rows[game].values()) or 1 for game in args.games}
    print("| part | " + " | ".join(args.games) + " |")
    print("|---|" + "---|" * len(args.games))
    for name in names:
        cells = []
        for game in args.games:
            ns, alloc = rows[game].get(name, [0, 0])
            cells.append(f"{100 * ns / totals[game]:.1f}%"
                         + (f" ({100 * alloc / totals[game]:.1f}% allocator)"
                            if alloc * 1000 >= totals[game] else ""))
        print(f"| {name} | " + " | ".join(cells) + " |")
    cells = [f"{100 * sum(v[1] for v in rows[game].values()) / totals[game]:.1f}%"
             for game in args.games]
    print("| of all: allocator | " + " | ".join(cells) + " |")


TIMES = {"mean_us", "p50_us", "p99_us", "seconds", "blocks_per_second"}


def untimed(report):
    """The arena report without its times: what two builds of the same bots must share."""
    if isinstance(report, dict):
        return {k: untimed(v) for k, v in report.items() if k not in TIMES}
    if isinstance(report, list):
        return [untimed(v) for v in report]
    return report


def run_arena(binary, game, seed):
    out = subprocess.run([*arena(binary, game, "expert,hard", seed), "--json"],
                         capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    return report["bots"]["expert"]["mean_us"], untimed(report)


def compare(args):
    for game in args.games:
        ratios = []
        for rep in range(args.reps):
            order = (args.a, args.b) if rep % 2 == 0 else (args.b, args.a)
            times, results = {}, {}
            for binary in order:
                times[binary], results[binary] = run_arena(binary, game, args.seed)
            if results[args.a] != results[args.b]:
                die(f"{game}: the two builds' arena results differ")
            ratios.append(times[args.b] / times[args.a])
            print(f"{game} pair {rep + 1}: A {times[args.a]:.0f} us, B {times[args.b]:.0f} us",
                  file=sys.stderr)
        mean, low, high = mean_ci95(ratios)
        print(f"{game}: B/A mean EXPERT decision time {mean:.3f} [{low:.3f}, {high:.3f}] "
              f"({len(ratios)} pairs; same arena results)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    prof = sub.add_parser("profile", help="the served EXPERT's time by part of the search")
    prof.add_argument("--binary", default="target/dist/climbot")
    prof.add_argument("--seconds", type=int, default=25, help="perf time per game")
    prof.add_argument("--freq", type=int, default=300, help="samples per second")
    prof.add_argument("--keep-folded", metavar="DIR", help="keep the collapsed stacks here")
    prof.add_argument("--lineup", default="expert/budget_ms=20",
                      help="the bots profiled (default: the served EXPERT in every seat, "
                           "on a 20 ms budget checked as the service checks it)")
    cmp_ = sub.add_parser("compare", help="B's EXPERT decision time over A's, paired")
    cmp_.add_argument("a")
    cmp_.add_argument("b")
    cmp_.add_argument("--reps", type=int, default=6, help="pairs per game")
    for s in (prof, cmp_):
        s.add_argument("--games", nargs="+", choices=list(TABLES), default=list(TABLES))
        s.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    profile(args) if args.command == "profile" else compare(args)


if __name__ == "__main__":
    main()
