#!/usr/bin/env bash
# Generates the Go code from proto/ with buf, builds the client, starts climbot on a
# spare port and runs the client against it; then runs it against a TLS server and a
# mutual-TLS one (certificates made here with openssl, in a temporary directory),
# checks that it fails clearly in plaintext, trusting another CA or without a client
# certificate, and stops the servers.
# Needs Go, protoc-gen-go, protoc-gen-go-grpc and the gRPC-Go and protobuf-Go modules
# (.ci/run installs Debian's: golang-go, protoc-gen-go, protoc-gen-go-grpc,
# golang-google-grpc-dev, golang-github-golang-protobuf-1-5-dev), npm for buf, openssl.
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

# Certificates made now, in a temporary directory (examples/tls-certs.sh, openssl).
"$root/examples/tls-certs.sh" "$work/certs"
certs="$work/certs"
# client ARG ...: runs the client.
client() { "$work/client" "$@"; }
# shellcheck source=examples/servers.sh
. "$root/examples/servers.sh"
cleanup() {
    stop_servers
    rm -rf "$work"
}
trap cleanup EXIT

port=${GO_EXAMPLE_PORT:-20152}
addr="127.0.0.1:$port"
serve "$addr"
client "$addr"

# TLS: the same checks with the CA; in plaintext, or trusting another CA, the client
# must fail, clearly.
tls="127.0.0.1:$((port + 10))"
serve "$tls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key"
echo "== TLS"
client -ca "$certs/ca.crt" "$tls"
refused "a TLS server in plaintext" "$tls"
"$root/examples/tls-certs.sh" "$certs/other"
refused "a TLS server whose certificate another CA signed" -ca "$certs/other/ca.crt" "$tls"

# Mutual TLS: the client certificate is required.
mtls="127.0.0.1:$((port + 20))"
serve "$mtls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key" \
    --tls-client-ca "$certs/ca.crt"
echo "== mutual TLS"
client -ca "$certs/ca.crt" -cert "$certs/client.crt" -key "$certs/client.key" "$mtls"
refused "a mutual-TLS server without a client certificate" -ca "$certs/ca.crt" "$mtls"
