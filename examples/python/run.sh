#!/usr/bin/env bash
# Generates the Python stubs from proto/, starts climbot on a spare port, runs the
# client and the check of docs/integration.md against it, and stops the server.
# Needs: pip install -r requirements.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# The climbot binary to run: $CLIMBOT_BIN, else target/debug/climbot (what `cargo build`
# and `cargo test` leave). Nothing is built here: a missing binary stops the script.
bin="${CLIMBOT_BIN:-$root/target/debug/climbot}"
if [ ! -x "$bin" ]; then
    echo "$(basename "$here")/run.sh: no climbot binary at $bin: build one first" \
        "(cargo build, or cargo build --release and CLIMBOT_BIN=target/release/climbot)," \
        "or set CLIMBOT_BIN to a climbot binary" >&2
    exit 1
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
gen="$here/gen"
rm -rf "$gen" && mkdir -p "$gen"
python3 -m grpc_tools.protoc -I "$root/proto" --python_out="$gen" --grpc_python_out="$gen" \
    climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto

addr="127.0.0.1:${PY_EXAMPLE_PORT:-50151}"
"$bin" serve --grpc-addr "$addr" --metrics-addr 127.0.0.1:0 --log "warn" &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    kill -0 "$server" 2>/dev/null || { echo "climbot did not start" >&2; exit 1; }
    (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null && break
    sleep 0.1
done
PYTHONPATH="$gen" python3 "$here/client.py" "$addr"
# The worked examples and the documented errors of docs/integration.md, sent for real.
PYTHONPATH="$gen" python3 "$root/scripts/integration_doc_check.py" "$addr"
