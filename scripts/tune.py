#!/usr/bin/env python3
"""Coordinate descent on a bot's weights, through the arena (duplicate blocks).

    scripts/tune.py --game lexio --bot hard --players 3 4 5 \\
        --blocks 150 --seed 10000 --start tiles=8/low=5 --weights tiles,low,plan

The objective is the mean over the player counts of the arena's `diff` (the bot minus
its opponent on the game's primary metric; for a lower-is-better metric the sign is
flipped), every evaluation on the same tuning seeds (common random numbers). Each
pass tries, for every weight in turn, the current value times 0.5 and 2 (or
-1 and +1 when it is 0); a change is kept only when it improves the objective by more
than --min-gain. Report the result on seeds never used here.
"""
import argparse
import sys

from arena_diff import arena_diff


def parse(spec):
    out = {}
    for part in filter(None, spec.split("/")):
        k, v = part.split("=")
        out[k] = float(v)
    return out


def spec_of(weights):
    return "/".join(f"{k}={v:g}" for k, v in weights.items())


def evaluate(args, weights, cache):
    key = spec_of(weights)
    if key in cache:
        return cache[key]
    name = args.bot + ("/" + key if key else "")
    diffs = [arena_diff(args, f"{name},{args.opponent}", p)[0] for p in args.players]
    value = sum(diffs) / len(diffs)
    cache[key] = value
    print(f"  {value:+.4f}  {key}", flush=True)
    return value


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default="target/release/climbot")
    p.add_argument("--game", required=True)
    p.add_argument("--bot", required=True, help="arena name taking /name=value overrides")
    p.add_argument("--opponent", default="easy")
    p.add_argument("--players", type=int, nargs="+", required=True)
    p.add_argument("--blocks", type=int, default=150)
    p.add_argument("--seed", type=int, default=10000, help="tuning seed (never report it)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--start", default="",
                   help="starting values, a=1/b=2 (every tuned weight must be listed)")
    p.add_argument("--weights", required=True, help="comma-separated weights to tune")
    p.add_argument("--passes", type=int, default=2)
    p.add_argument("--min-gain", type=float, default=0.05)
    p.add_argument("--arena-arg", action="append", default=[])
    args = p.parse_args()

    weights = parse(args.start)
    names = args.weights.split(",")
    missing = [n for n in names if n not in weights]
    if missing:
        p.error(f"--start must give the current value of every tuned weight: {missing}")
    cache = {}
    best = evaluate(args, weights, cache)
    for n in range(args.passes):
        print(f"pass {n + 1}: {best:+.4f} {spec_of(weights)}", flush=True)
        improved = False
        for name in names:
            current = weights.get(name, 0.0)
            trials = [-1.0, 1.0] if current == 0 else [current * 0.5, current * 2.0]
            for value in trials:
                trial = dict(weights)
                trial[name] = value
                score = evaluate(args, trial, cache)
                if score > best + args.min_gain:
                    best, weights, improved = score, trial, True
        if not improved:
            break
    print(f"best {best:+.4f} {spec_of(weights)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
