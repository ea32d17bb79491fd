#!/usr/bin/env bash
# CI smoke of the load-test kit (about 30 s): the debug binary CI already builds, a few
# thousand requests per target at concurrency 1, 16 and 64, zero errors required
# (checked on the server's /metrics); no performance targets (debug build, shared CI
# machine). Installs h2load when missing.
#
#   deploy/loadtest/smoke.sh
set -euo pipefail
export CLIMBOT_BIN=${CLIMBOT_BIN:-target/debug/climbot}
cd "$(dirname "$0")/../.."
[ -x "$CLIMBOT_BIN" ] || cargo build --locked --bin climbot
source deploy/loadtest/common.sh
timeout 300 python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "${TMPDIR:-/tmp}/climbot-loadtest-smoke.md" \
  bench --requests 2000 --reps 1 --warmup 200 --expert 20 >/dev/null
echo "loadtest smoke: ok (report: ${TMPDIR:-/tmp}/climbot-loadtest-smoke.md)"
