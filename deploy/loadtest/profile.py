#!/usr/bin/env python3
"""Where a call's time goes: perf profiles of a release server under h2load, SelectPlay
(Lexio EASY) against the health check on one binary, with flame graphs and a table.

For each target in turn (health, SelectPlay, alternated `--reps` times) h2load keeps 16
calls in flight (4 connections x 4 streams) for `--seconds` + 2 s; `perf record`
samples the server's threads (`-F`, DWARF call graphs) for `--seconds` in the middle.
The samples of every repetition are pooled per target, folded with
`inferno-collapse-perf` and drawn with `inferno-flamegraph`. Each sample is put in one
category by the innermost frame of its stack that matches a category's pattern
(CATEGORIES, in order), and the table gives the server's CPU time per call in each
category: the sampled CPU time (perf's periods, in nanoseconds) over the calls answered
while perf sampled (h2load's rate times the sampled time).

  python3 deploy/loadtest/profile.py --tag before      # -> deploy/loadtest/profile-*.svg
                                                       #    and profile-before.md

Needs perf (Debian linux-perf; perf_event_paranoid must allow sampling the server) and
inferno (`cargo install inferno`). The perf data stays in a temporary directory that is
deleted at the end.
"""

import argparse
import collections
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h2bench  # noqa: E402

# (category, pattern): a sample goes to the first category, from the leaf of its stack
# upwards, whose pattern matches a frame. Allocator frames are skipped for the category
# (the allocation is charged to its caller) but counted apart.
CATEGORIES = [
    ("EASY decision", r"climbot_core::lexio::bots|climbot_core::lexio::moves|"
     r"GameAdapter>::decide|BotHandler::respond"),
    ("view validation (domain view, fingerprint, seed)",
     r"climbot_core::lexio::view|climbot::service::game::decode|"
     r"climbot::service::lexio::view_input|derive_seed"),
    ("fast lane (reading the request bytes)",
     r"climbot::service::lexio::parse|climbot::service::lexio::tile|"
     r"climbot::service::fast_lane::parse|fast_lane::Reader|"
     r"drop_in_place<climbot_core::lexio::view::input"),
    ("metrics recording", r"^metrics::|metrics_util|climbot::service::metrics|"
     r"<metrics::|metrics_exporter"),
    ("tracing spans", r"^tracing::|<tracing::|tracing_core|tracing_subscriber|"
     r"drop_in_place<tracing::"),
    ("fair share, client metadata", r"climbot::service::fair|client_of|"
     r"check_client_name|ClientLabels"),
    ("deadline timers (guard, budget)", r"tokio::time::|tokio::runtime::time::entry|"
     r"TimerEntry|sleep_until|Sleep as core::future|budget::client_timeout|"
     r"parse_grpc_timeout"),
    ("task spawns", r"tokio::task::spawn|bind_new_task|task::core::Cell<T,S>::new|"
     r"task::harness::Harness<T,S>::dealloc|drop_join_handle"),
    ("encoding the answer (prost, tonic)", r"ProstEncoder|EncodeBody|codec::encode|"
     r"prost::encoding|as prost::message::Message>::encode|Message>::encoded_len"),
    ("guard layer (panic guard, answer by deadline, ticket)",
     r"climbot::service::guard"),
    ("handler (call record, plan)", r"climbot::service::handler|"
     r"climbot::service::error"),
    ("tonic decoding (framing, Streaming)", r"tonic::codec::decode|"
     r"drop_in_place<tonic::codec::decode"),
    ("health service", r"tonic_health"),
    ("tonic other (Grpc, status, metadata)", r"^tonic::|<tonic::|tonic_prost"),
    ("routing and layers (Routes, axum, transport's tracking)",
     r"tonic::service::router|axum|tower|climbot::service::transport::Tracked|"
     r"climbot::service::transport::OpenCall|climbot::service::fast_lane"),
    ("kernel: network syscalls", r"^(__GI___writev|__libc_recv|__GI___libc_read|"
     r"__libc_read|read|writev|recvfrom|__GI___recvfrom|__send|sendmsg|epoll_wait|"
     r"__GI_epoll_wait)$|tcp_|sock_|do_writev|ksys_read|__x64_sys_recvfrom|"
     r"__x64_sys_read|__x64_sys_writev|__x64_sys_epoll_wait"),
    ("HTTP/2 (h2, hyper, hpack)", r"^h2::|<h2::|hyper::|<hyper::|hyper_util|"
     r"drop_in_place<h2::|drop_in_place<hyper"),
    ("runtime: scheduling, parking, wakeups", r"tokio::runtime|futex|"
     r"__schedule|finish_task_switch|mio::"),
]
ALLOCATOR = re.compile(r"^(malloc|free|cfree|__GI___libc_free|__libc_malloc|_int_malloc|"
                       r"_int_free|_int_realloc|realloc|__libc_realloc|"
                       r"malloc_consolidate|unlink_chunk|_int_memalign|_mid_memalign|"
                       r"__posix_memalign|posix_memalign|__rustc::__rdl_|__rdl_|"
                       r"__rust_alloc|__rust_dealloc|__rust_realloc|"
                       r"alloc::alloc::|_int_free_merge_chunk|_int_free_create_chunk|"
                       r"tcache_|sysmalloc|__memmove|__memcpy|__memset)")
COMPILED = [(name, re.compile(pattern)) for name, pattern in CATEGORIES]
OTHER = "other"


def categorize(frames):
    """frames: leaf first. Returns (category, whether the leaf is in the allocator)."""
    in_alloc = bool(frames) and bool(ALLOCATOR.search(frames[0]))
    for frame in frames:
        if ALLOCATOR.search(frame):
            continue
        for name, pattern in COMPILED:
            if pattern.search(frame):
                return name, in_alloc
    return OTHER, in_alloc


def folded_stacks(path):
    """(frames root first, count) from an inferno-collapse-perf file."""
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            # The first field is the command (thread) name.
            yield stack.split(";")[1:], int(count)


def run(cmd, **kwargs):
    return subprocess.run(cmd, check=True, **kwargs)


def profile_once(server, target, seconds, freq, data_path):
    """h2load on `target` for seconds + 2, perf on the server for `seconds` in the middle;
    returns h2load's rate."""
    conns, streams = 4, 4
    cmd = ["h2load", "-D", str(seconds + 2), "-c", str(conns), "-m", str(streams),
           "-t", "1", "-d", target.body]
    for h in h2bench.GRPC_HEADERS:
        cmd += ["-H", h]
    cmd.append(server.url(target.path))
    load = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    time.sleep(1)
    run(["perf", "record", "-q", "-F", str(freq), "--call-graph", "dwarf,16384", "-p",
         str(server.proc.pid), "-o", data_path, "--", "sleep", str(seconds)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out, _ = load.communicate(timeout=seconds + 60)
    m = re.search(r"finished in [\d.]+m?s, ([\d.]+) req/s", out)
    if load.returncode != 0 or not m:
        h2bench.die(f"h2load failed:\n{out}")
    m2 = re.search(r"(\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", out)
    if m2 and any(int(x) for x in m2.groups()[1:]):
        h2bench.die(f"h2load saw errors:\n{out}")
    return float(m.group(1))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--payloads", default="deploy/loadtest/payloads")
    p.add_argument("--out-dir", default="deploy/loadtest")
    p.add_argument("--tag", default="before",
                   help="SelectPlay's flame graph is profile-selectplay-TAG.svg, the "
                        "table profile-TAG.md")
    p.add_argument("--seconds", type=int, default=8, help="perf time per repetition")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--freq", type=int, default=1999)
    p.add_argument("--health-svg", default="profile-health.svg")
    p.add_argument("--keep-folded", metavar="DIR",
                   help="also keep the folded stacks (health.folded, selectplay.folded)")
    args = p.parse_args()
    for tool in ("perf", "h2load", "inferno-collapse-perf", "inferno-flamegraph"):
        if not shutil.which(tool):
            h2bench.die(f"{tool} not found (perf: Debian linux-perf; inferno: cargo "
                        "install inferno)")
    started = datetime.datetime.now(datetime.timezone.utc)
    host = h2bench.machine()
    targets = [
        h2bench.Target("Health/Check", h2bench.HEALTH_PATH,
                       os.path.join(args.payloads, "health.h2load.bin")),
        h2bench.Target("SelectPlay lexio EASY (follow)", h2bench.SELECT_PATH,
                       os.path.join(args.payloads, "lexio_easy_follow.h2load.bin"),
                       "easy"),
    ]
    os.makedirs(args.out_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="climbot-profile-")
    folded = {t.name: os.path.join(tmp, f"{i}.folded") for i, t in enumerate(targets)}
    calls = collections.Counter()
    rates = collections.defaultdict(list)
    try:
        server = h2bench.Server(args.binary, os.path.join(tmp, "server.log"))
        try:
            for t in targets:
                h2bench.checked_run(server, t, 20000, 4, 4)
            for rep in range(args.reps):
                for i, t in enumerate(targets):
                    data = os.path.join(tmp, f"perf-{rep}-{i}.data")
                    rps = profile_once(server, t, args.seconds, args.freq, data)
                    rates[t.name].append(rps)
                    calls[t.name] += rps * args.seconds
                    script = subprocess.run(
                        ["perf", "script", "-i", data, "--no-inline"],
                        capture_output=True, check=True).stdout
                    collapsed = subprocess.run(["inferno-collapse-perf"],
                                               input=script, capture_output=True,
                                               check=True).stdout
                    with open(folded[t.name], "ab") as f:
                        f.write(collapsed)
                    os.remove(data)
        finally:
            server.stop()
        svgs = {targets[0].name: os.path.join(args.out_dir, args.health_svg),
                targets[1].name: os.path.join(args.out_dir,
                                              f"profile-selectplay-{args.tag}.svg")}
        per_call = {}
        alloc_per_call = {}
        totals = {}
        for t in targets:
            with open(svgs[t.name], "wb") as out:
                run(["inferno-flamegraph", "--title",
                     f"climbot {t.name}, 16 in flight ({args.tag})", folded[t.name]],
                    stdout=out)
            by_cat = collections.Counter()
            alloc = collections.Counter()
            for frames, count in folded_stacks(folded[t.name]):
                category, in_alloc = categorize(list(reversed(frames)))
                by_cat[category] += count
                if in_alloc:
                    alloc[category] += count
            # inferno weighs a sample by its period: nanoseconds of CPU time.
            us = 1e-3 / calls[t.name]
            per_call[t.name] = {k: v * us for k, v in by_cat.items()}
            alloc_per_call[t.name] = sum(alloc.values()) * us
            totals[t.name] = sum(by_cat.values()) * us
        if args.keep_folded:
            os.makedirs(args.keep_folded, exist_ok=True)
            for t, name in zip(targets, ("health", "selectplay")):
                shutil.copy(folded[t.name], os.path.join(args.keep_folded, f"{name}.folded"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    h, s = targets[0].name, targets[1].name
    names = [name for name, _ in CATEGORIES] + [OTHER]
    rows = sorted(names, key=lambda k: -(per_call[s].get(k, 0) - per_call[h].get(k, 0)))
    lines = [
        f"## Server CPU per call by category ({args.tag})",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {host}",
        f"- Binary: `{args.binary}`; command: `python3 deploy/loadtest/profile.py "
        f"--binary {args.binary} --tag {args.tag} --seconds {args.seconds} --reps "
        f"{args.reps} --freq {args.freq} --health-svg {args.health_svg}`",
        f"- `perf record -F {args.freq} --call-graph dwarf,16384 -p <server>` for "
        f"{args.seconds} s in the middle of each h2load run (4 connections x 4 streams, "
        f"`-D {args.seconds + 2}`), {args.reps} runs per target, alternated; "
        f"h2load rates (req/s): health {', '.join(f'{x:.0f}' for x in rates[h])}; "
        f"SelectPlay {', '.join(f'{x:.0f}' for x in rates[s])}",
        f"- Calls in the sampled time: health {calls[h]:.0f}, SelectPlay {calls[s]:.0f}. "
        "A sample goes to the innermost frame that matches a category "
        "(`deploy/loadtest/profile.py`, CATEGORIES); allocator frames are charged to "
        "their caller.",
        "",
        "| Category | Health/Check (us/call) | SelectPlay (us/call) | Extra (us/call) |",
        "|---|---|---|---|",
    ]
    for k in rows:
        a, b = per_call[h].get(k, 0.0), per_call[s].get(k, 0.0)
        lines.append(f"| {k} | {a:.2f} | {b:.2f} | {b - a:+.2f} |")
    lines.append(f"| **total** | **{totals[h]:.2f}** | **{totals[s]:.2f}** | "
                 f"**{totals[s] - totals[h]:+.2f}** |")
    lines.append(f"| of which in the allocator (malloc/free/memcpy) | "
                 f"{alloc_per_call[h]:.2f} | {alloc_per_call[s]:.2f} | "
                 f"{alloc_per_call[s] - alloc_per_call[h]:+.2f} |")
    report = "\n".join(lines) + "\n"
    with open(os.path.join(args.out_dir, f"profile-{args.tag}.md"), "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
