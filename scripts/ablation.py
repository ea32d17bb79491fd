#!/usr/bin/env python3
"""Ablation table: a bot against its opponent with each term switched off in turn.

    scripts/ablation.py --game lexio --bot hard --players 5 --blocks 1000 \\
        --seed 900000 --off tempo,plan,control --extra must_block=0

Every row plays the same duplicate blocks (same seed) as the full bot. A row's effect
is the full bot's diff minus the ablated bot's diff (positive: the term helps), with a
95% interval from the two runs' standard errors (conservative: both runs share their
deals, so their errors are positively correlated). Prints a markdown table.
"""
import argparse
import json
import math
import subprocess
import sys


def run(args, name, players):
    cmd = [args.binary, "arena", "--game", args.game, "--players", str(players),
           "--lineup", f"{name},{args.opponent}", "--blocks", str(args.blocks),
           "--seed", str(args.seed), "--threads", str(args.threads), "--json"]
    cmd += args.arena_arg
    report = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                       check=True).stdout)
    d = report["diff"]
    sign = 1 if report["metric"]["higher_is_better"] else -1
    mean = sign * d["mean"]
    half = (d["ci95"][1] - d["ci95"][0]) / 2
    return mean, half, report["metric"]["name"]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--game", required=True)
    p.add_argument("--bot", required=True)
    p.add_argument("--opponent", default="easy")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--blocks", type=int, default=1000)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--off", required=True, help="comma-separated weights to set to 0")
    p.add_argument("--extra", action="append", default=[],
                   help="another row, as overrides a=1/b=2 (e.g. must_block=0)")
    p.add_argument("--arena-arg", action="append", default=[])
    args = p.parse_args()

    full, full_half, metric = run(args, args.bot, args.players)
    rows = [(f"{args.bot} (full)", full, full_half, None)]
    variants = [f"{w}=0" for w in args.off.split(",") if w] + args.extra
    for v in variants:
        mean, half = run(args, f"{args.bot}/{v}", args.players)[:2]
        rows.append((v, mean, half, full - mean))
    se = full_half / 1.96
    print(f"{args.game}, {args.players} players, {args.blocks} blocks, seed {args.seed}: "
          f"diff = bot - {args.opponent} in {metric} (higher is better for the bot)\n")
    print("| variant | diff vs opponent [95% CI] | effect of the term = full - variant [95% CI] |")
    print("|---|---|---|")
    for name, mean, half, effect in rows:
        cell = f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"
        if effect is None:
            print(f"| {name} | {cell} | |")
        else:
            h = 1.96 * math.hypot(se, half / 1.96)
            print(f"| {name} | {cell} | {effect:+.3f} [{effect - h:+.3f}, {effect + h:+.3f}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
