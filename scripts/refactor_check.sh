#!/usr/bin/env bash
# Records what a refactor must not change, for one climbot binary: the arena's JSON
# (less its timing fields) for fixed lineups and seeds, and the service's answer to
# every load-test payload at every level. Run it on the binary before and after a
# change and compare the two folders with `diff -r`.
#
#   scripts/refactor_check.sh path/to/climbot OUT_DIR
#
# Needs the packages of examples/python/requirements.txt.
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

strip_timing() {
    python3 -c '
import json, sys
report = json.load(sys.stdin)
for key in ("seconds", "blocks_per_second"):
    report.pop(key, None)
for bot in report["bots"].values():
    for key in ("p50_us", "p99_us", "mean_us"):
        bot.pop(key, None)
print(json.dumps(report, indent=1, sort_keys=True))'
}

arena() {
    local name="$1"
    shift
    "$bin" arena --json "$@" | strip_timing >"$out/arena_$name.json"
}
arena lexio5_hard_easy --game lexio --players 5 --lineup hard,easy --blocks 60 --seed 3
arena lexio5_expert_easy --game lexio --players 5 --lineup expert,easy --blocks 60 --seed 3
arena dalmuti6_hard_easy --game dalmuti --players 6 --lineup hard,easy --blocks 40 --seed 3
for rules in house uecda; do
    arena "daifugo4_easy_$rules" --game daifugo --players 4 --lineup easy --blocks 100 --seed 3 --rules "$rules"
    arena "daifugo4_singles_easy_$rules" --game daifugo --players 4 --lineup singles,easy --blocks 100 --seed 3 --rules "$rules"
done

gen="$(mktemp -d)"
payloads="$(mktemp -d)"
trap 'rm -rf "$gen" "$payloads"; [ -n "${server:-}" ] && kill -TERM "$server" 2>/dev/null; true' EXIT
python3 -m grpc_tools.protoc -I "$root/proto" --python_out="$gen" --grpc_python_out="$gen" \
    climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
"$bin" loadtest payloads --seed 1 --out "$payloads" >/dev/null
addr="127.0.0.1:${REFACTOR_CHECK_PORT:-20171}"
"$bin" serve --grpc-addr "$addr" --metrics-addr 127.0.0.1:0 --log warn &
server=$!
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null && break
    sleep 0.1
done
PYTHONPATH="$gen" python3 "$root/scripts/service_answers.py" "$addr" "$payloads" >"$out/service_answers.txt"
echo "refactor check written to $out"
