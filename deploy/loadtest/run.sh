#!/usr/bin/env bash
# The load test that runs without ghz: release server + h2load at concurrency 1, 16 and
# 64, health check and SelectPlay (Lexio EASY) alternated in the same run, every
# request checked against the server's own /metrics; writes a markdown report. At 16
# and 64 it adds pairs of runs until the SelectPlay/health ratio's 95% interval is
# narrower than +-0.05 (at most 40 pairs), then checks the targets. Also runs Lexio
# EXPERT (20 ms budget), and Dalmuti and Daifugo EASY in rounds beside Lexio EASY.
#
#   deploy/loadtest/run.sh [REPORT]      default REPORT: deploy/loadtest/report.md
#
# Extra h2bench options go in H2BENCH_ARGS, e.g. H2BENCH_ARGS="--requests 5000". About
# 5 to 10 minutes on 2 cores, plus the release build when it is not up to date.
source "$(dirname "$0")/common.sh"
report=${1:-deploy/loadtest/report.md}
status=0
# shellcheck disable=SC2086
python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "$report" bench ${H2BENCH_ARGS:-} >/dev/null || status=$?
cat "$report"
exit "$status"
