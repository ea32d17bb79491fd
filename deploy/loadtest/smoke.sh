#!/usr/bin/env bash
# CI smoke of the load-test kit (about a minute): the debug binary CI already builds, a
# few thousand requests per target at concurrency 1, 16 and 64, zero errors required
# (checked on the server's /metrics); then the rolling-restart soak's short form (2
# servers, 20 s, one restart each: no call lost, every refusal retryable, every exit 0).
# No performance targets (debug build, shared CI machine). Installs h2load when missing.
#
#   deploy/loadtest/smoke.sh
set -euo pipefail
export CLIMBOT_BIN=${CLIMBOT_BIN:-target/debug/climbot}
cd "$(dirname "$0")/../.."
[ -x "$CLIMBOT_BIN" ] || cargo build --locked --bin climbot
source deploy/loadtest/common.sh

# The JSON payloads are valid proto3 JSON for the reference implementation (Python
# protobuf, as ghz -D would read them) and encode to the very bytes of the .bin files.
stubs=$(mktemp -d)
trap 'rm -rf "$stubs"' EXIT
python3 -m grpc_tools.protoc -I proto --python_out="$stubs" climbot/v1/bot.proto \
  climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
PYTHONPATH="$stubs" python3 - "$PAYLOADS" <<'PY'
import glob, os, sys
from google.protobuf import json_format
from climbot.v1 import bot_pb2
files = sorted(f for f in glob.glob(os.path.join(sys.argv[1], "*.json"))
               if not os.path.basename(f).startswith("health"))
assert files, "no payloads"
for path in files:
    # <game>_analyze_<view> is an AnalyzePlay request, the others SelectPlay requests.
    kind = (bot_pb2.AnalyzePlayRequest if "_analyze_" in os.path.basename(path)
            else bot_pb2.SelectPlayRequest)
    message = json_format.Parse(open(path).read(), kind())
    with open(path[:-len(".json")] + ".bin", "rb") as f:
        assert message.SerializeToString() == f.read(), f"{path}: JSON and .bin differ"
print(f"loadtest smoke: {len(files)} JSON payloads match their .bin")
PY

timeout 300 python3 deploy/loadtest/h2bench.py --binary "$CLIMBOT_BIN" --payloads "$PAYLOADS" \
  --out "${TMPDIR:-/tmp}/climbot-loadtest-smoke.md" \
  bench --requests 2000 --reps 1 --warmup 200 --expert 20 --gate --other-games 1 >/dev/null
rolling=${TMPDIR:-/tmp}/climbot-rolling-restart-smoke.md
if ! timeout 120 python3 deploy/loadtest/rolling-restart.py --binary "$CLIMBOT_BIN" \
  --payloads "$PAYLOADS" --servers 2 --duration 20s --out "$rolling" >/dev/null; then
  cat "$rolling" 2>/dev/null
  echo "loadtest smoke: the rolling-restart soak failed" >&2
  exit 1
fi
echo "loadtest smoke: ok (reports: ${TMPDIR:-/tmp}/climbot-loadtest-smoke.md, $rolling)"
