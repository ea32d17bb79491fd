#!/usr/bin/env bash
# The load test that runs without ghz: release server + h2load at concurrency 1, 16 and
# 64, health check and SelectPlay (Lexio EASY) alternated in the same run, every
# request checked against the server's own /metrics; writes a markdown report.
#
#   deploy/loadtest/run.sh [REPORT]      default REPORT: deploy/loadtest/report.md
#
# Two runs: the server as deployed (one JSON log line per call), then a diagnostic run
# with the per-call log lines filtered out (what they cost). Extra h2bench options go
# in H2BENCH_ARGS, e.g. H2BENCH_ARGS="--requests 5000". About 3 minutes on 2 cores,
# plus the release build when it is not up to date.
source "$(dirname "$0")/common.sh"
report=${1:-deploy/loadtest/report.md}
diagnostic=$(mktemp)
trap 'rm -f "$diagnostic"' EXIT
status=0
# shellcheck disable=SC2086
python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "$report" bench ${H2BENCH_ARGS:-} >/dev/null || status=$?
# shellcheck disable=SC2086
python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --serve-arg=--log-filter=info,climbot::service::handler=warn --out "$diagnostic" \
  bench --expert 0 --title "Diagnostic: the same without the per-call log lines" \
  ${H2BENCH_ARGS:-} >/dev/null || status=$?
{ echo; cat "$diagnostic"; } >>"$report"
cat "$report"
exit "$status"
