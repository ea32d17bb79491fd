#!/usr/bin/env bash
# Soak: SelectPlay (Lexio EASY) at a fixed rate for DURATION seconds, sampling the
# server's resident memory (VmRSS) every 5 s; fails on any error or on RSS growth of
# 10% or more. Writes a markdown report.
#
#   deploy/loadtest/soak.sh DURATION RATE [REPORT]
#   deploy/loadtest/soak.sh 600 2000      # 10 minutes at 2000 req/s
source "$(dirname "$0")/common.sh"
[ $# -ge 2 ] || { echo "usage: $0 DURATION_SECONDS RATE [REPORT]" >&2; exit 64; }
report=${3:-deploy/loadtest/soak-report.md}
python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "$report" soak "$1" "$2"
