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
import math
import sys

from arena_diff import arena_diff


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

    full, full_half, metric = arena_diff(args, f"{args.bot},{args.opponent}", args.players)
    rows = [(f"{args.bot} (full)", full, full_half, None)]
    variants = [f"{w}=0" for w in args.off.split(",") if w] + args.extra
    for v in variants:
        mean, half, _ = arena_diff(args, f"{args.bot}/{v},{args.opponent}", args.players)
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
