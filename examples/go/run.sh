#!/usr/bin/env bash
# Generates the Go code from proto/ with buf, builds the client, starts climbot on a
# spare port, runs the client against it and stops the server.
# Needs Go, protoc-gen-go, protoc-gen-go-grpc and the gRPC-Go and protobuf-Go modules
# (.ci/run installs Debian's: golang-go, protoc-gen-go, protoc-gen-go-grpc,
# golang-google-grpc-dev, golang-github-golang-protobuf-1-5-dev), and npm for buf.
#
# Debian's Go libraries live in a GOPATH (/usr/share/gocode), so this script builds in
# GOPATH mode; with network access to the Go module proxy, `go mod tidy && go run .`
# builds the same code in module mode (README.md).
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

rm -rf "$here/gen"
(cd "$here" && "$root/scripts/buf.sh" generate ../../proto)

work="$(mktemp -d)"
mkdir -p "$work/src/example.com"
ln -s "$here" "$work/src/example.com/climbot-client"
export GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOFLAGS=
export GOCACHE="${GOCACHE:-$root/target/go-cache}"
go vet example.com/climbot-client
go build -o "$work/client" example.com/climbot-client

addr="127.0.0.1:${GO_EXAMPLE_PORT:-50152}"
"$bin" serve --grpc-addr "$addr" --metrics-addr 127.0.0.1:0 --log warn &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    kill -0 "$server" 2>/dev/null || { echo "climbot did not start" >&2; exit 1; }
    (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null && break
    sleep 0.1
done
"$work/client" "$addr"
