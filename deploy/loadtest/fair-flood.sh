#!/usr/bin/env bash
# Fair share under a flood, measured in one run against one release server with 2
# decision slots: a client keeping 20 EXPERT calls in flight, a quiet client sending one
# EXPERT call every 100 ms, and an EASY load (h2load). Prints the figures and exits
# non-zero unless every quiet call is served and the EASY p99 is at most 5 ms.
#
#   deploy/loadtest/fair-flood.sh [REPORT] [fair-flood.py option ...]
#   deploy/loadtest/fair-flood.sh deploy/loadtest/fair-flood-report.md --duration 60
#
# Default REPORT: stdout only. Needs grpcio and grpcio-tools
# (examples/python/requirements.txt).
source "$(dirname "$0")/common.sh"
out=()
if [ $# -ge 1 ] && [ "${1#-}" = "$1" ]; then
  out=(--out "$1")
  shift
fi
exec python3 deploy/loadtest/fair-flood.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  "${out[@]}" --command "deploy/loadtest/fair-flood.sh ${out[*]:+${out[1]} }$*" "$@"
