#!/usr/bin/env bash
# Rolling-restart soak: 2 or 3 release servers on loopback ports, a mixed load over
# them (every game and level, broken views, cancellations, 1 ms deadlines, a client
# flooding EXPERT), each server stopped with SIGTERM and started again in turn. Fails
# on a lost call, a refusal that is not retryable, a server that does not exit 0, or
# resident memory that is not flat within 10%. Writes a markdown report.
#
#   deploy/loadtest/rolling-restart.sh [--servers 2|3] [--duration 20s|6m] [--out REPORT] ...
#   deploy/loadtest/rolling-restart.sh --servers 3 --duration 6m \
#       --out deploy/loadtest/rolling-restart-report.md
#
# Default: 3 servers, 6 minutes, report on stdout only. Other options: rolling-restart.py
# --help. Needs grpcio and grpcio-tools (examples/python/requirements.txt).
source "$(dirname "$0")/common.sh"
exec python3 deploy/loadtest/rolling-restart.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --command "deploy/loadtest/rolling-restart.sh $*" "$@"
