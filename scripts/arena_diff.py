"""One arena run read back as the bot's edge over its opponent (shared by tune.py and
ablation.py): `climbot arena ... --json`, the `diff` of the first lineup entry minus the
second on the game's primary metric, its sign flipped when lower is better."""
import json
import subprocess


def arena_diff(args, lineup, players):
    """(mean, 95% half-width, metric name) of `lineup`'s first bot minus the second.

    `args` carries binary, game, blocks, seed, threads and arena_arg (extra flags)."""
    cmd = [args.binary, "arena", "--game", args.game, "--players", str(players),
           "--lineup", lineup, "--blocks", str(args.blocks), "--seed", str(args.seed),
           "--threads", str(args.threads), "--json"]
    cmd += args.arena_arg
    report = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                       check=True).stdout)
    diff = report["diff"]
    sign = 1 if report["metric"]["higher_is_better"] else -1
    half = (diff["ci95"][1] - diff["ci95"][0]) / 2
    return sign * diff["mean"], half, report["metric"]["name"]
