#!/usr/bin/env bash
# SelectPlay (Lexio EASY) over TLS against plaintext in the same run: two release
# servers (one with a certificate made now by examples/tls-certs.sh, never kept), h2load
# at 16 calls in flight, runs alternated ABBA; writes a markdown report with the
# per-run TLS/plaintext throughput ratios, their mean and 95% interval.
#
#   deploy/loadtest/tls.sh [REPORT]      default REPORT: deploy/loadtest/tls-report.md
#
# Extra options (h2bench.py tls --help) go in TLS_ARGS, e.g. TLS_ARGS="--reps 4".
# About a minute on 2 cores; needs openssl.
source "$(dirname "$0")/common.sh"
report=${1:-deploy/loadtest/tls-report.md}
# shellcheck disable=SC2086
python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "$report" tls --command "${TLS_ARGS:+TLS_ARGS=\"$TLS_ARGS\" }deploy/loadtest/tls.sh${*:+ $*}" \
  ${TLS_ARGS:-} >/dev/null
cat "$report"
