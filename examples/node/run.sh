#!/usr/bin/env bash
# Installs the npm packages (package-lock.json), generates the TypeScript code from
# proto/ with buf and protoc-gen-es, compiles it with tsc, starts climbot on a spare
# port, runs the client against it and stops the server. Needs Node.js 20+ and npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
rm -rf src/gen dist
PATH="$here/node_modules/.bin:$PATH" buf generate ../../proto
./node_modules/.bin/tsc -p .

bin="${CLIMBOT_BIN:-$root/target/debug/climbot}"
[ -x "$bin" ] || (cd "$root" && cargo build --quiet --bin climbot)
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
