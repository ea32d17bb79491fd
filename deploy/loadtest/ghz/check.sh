#!/usr/bin/env bash
# CI: the ghz kit as ghz reads it (seconds; ghz itself is not needed). The committed
# payloads must be what `climbot loadtest payloads --seed 1` writes today, then
# check.py reads every config of this directory and its payload the way ghz does
# (see its header for the ghz code it mirrors), and refuses a set of broken configs.
#
#   deploy/loadtest/ghz/check.sh          (CLIMBOT_BIN: default target/debug/climbot)
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${CLIMBOT_BIN:-target/debug/climbot}
[ -x "$bin" ] || cargo build --locked --bin climbot

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" loadtest payloads --out "$tmp/payloads" --seed 1 >/dev/null
if ! diff -r "$tmp/payloads" deploy/loadtest/payloads >/dev/null; then
  diff -rq "$tmp/payloads" deploy/loadtest/payloads || true
  echo "ghz check: deploy/loadtest/payloads is stale:" \
    "climbot loadtest payloads --out deploy/loadtest/payloads --seed 1" >&2
  exit 1
fi
echo "ghz check: deploy/loadtest/payloads is what climbot loadtest payloads --seed 1 writes"

python3 -m grpc_tools.protoc -I proto --python_out="$tmp" climbot/v1/bot.proto \
  climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
python3 deploy/loadtest/ghz/check.py --stubs "$tmp"
python3 deploy/loadtest/ghz/check.py --stubs "$tmp" --self-test
