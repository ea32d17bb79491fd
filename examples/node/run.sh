#!/usr/bin/env bash
# Installs the npm packages (package-lock.json), generates the TypeScript code from
# proto/ with buf and protoc-gen-es, compiles it with tsc, starts climbot on a spare
# port, runs the client against it and stops the server. Needs Node.js 20+ and npm.
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
cd "$here"
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
rm -rf src/gen dist
PATH="$here/node_modules/.bin:$PATH" buf generate ../../proto
./node_modules/.bin/tsc -p .

addr="127.0.0.1:${NODE_EXAMPLE_PORT:-50153}"
"$bin" serve --grpc-addr "$addr" --metrics-addr 127.0.0.1:0 --log warn &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    kill -0 "$server" 2>/dev/null || { echo "climbot did not start" >&2; exit 1; }
    (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null && break
    sleep 0.1
done
node dist/client.js "$addr"
