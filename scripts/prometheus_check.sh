#!/usr/bin/env bash
# CI: the alert rules and the Grafana dashboard against a real Prometheus (about a
# minute). Installs Debian's `prometheus` (with `promtool`) when missing, then:
#   1. promtool check rules deploy/prometheus/alerts.yaml
#   2. promtool test rules deploy/prometheus/alerts_test.yaml (each alert firing and
#      silent), and alert_tests_can_fail.py (the tests catch a broken alert)
#   3. prometheus_check.py: climbot and Prometheus on 127.0.0.1, a short load, every
#      rule loaded healthy, every dashboard query returning data.
#
#   scripts/prometheus_check.sh          (CLIMBOT_BIN: default target/debug/climbot)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CLIMBOT_BIN:-target/debug/climbot}
[ -x "$bin" ] || cargo build --locked --bin climbot

if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  echo "prometheus check: installing Debian prometheus" >&2
  sudo_=""
  [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  # The package's service is not wanted (nothing here starts it; prometheus_check.py
  # runs its own on a free port).
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends \
    prometheus >/dev/null
fi
prometheus --version 2>&1 | head -1

promtool check rules deploy/prometheus/alerts.yaml
(cd deploy/prometheus && promtool test rules alerts_test.yaml)
python3 scripts/alert_tests_can_fail.py

stubs=$(mktemp -d)
trap 'rm -rf "$stubs"' EXIT
python3 -m grpc_tools.protoc -I proto --python_out="$stubs" --grpc_python_out="$stubs" \
  climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
timeout 300 python3 scripts/prometheus_check.py --binary "$bin" --stubs "$stubs"
