#!/usr/bin/env bash
# Generates the Python stubs from proto/, starts climbot on a spare port, runs the
# client and the check of docs/integration.md against it; then runs the client against
# a TLS server and a mutual-TLS one (certificates made here with openssl, in a
# temporary directory), checks that it fails clearly in plaintext, trusting another CA
# or without a client certificate, and stops the servers.
# Needs: pip install -r requirements.txt, and openssl.
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

# Certificates made now, in a temporary directory (examples/tls-certs.sh, openssl).
certs="$(mktemp -d)"
# client ARG ...: runs the client.
client() { PYTHONPATH="$gen" python3 "$here/client.py" "$@"; }
# shellcheck source=examples/servers.sh
. "$root/examples/servers.sh"
cleanup() {
    stop_servers
    rm -rf "$certs"
}
trap cleanup EXIT
"$root/examples/tls-certs.sh" "$certs"

port=${PY_EXAMPLE_PORT:-20151}
addr="127.0.0.1:$port"
serve "$addr"
client "$addr"
# The worked examples and the documented errors of docs/integration.md, sent for real.
PYTHONPATH="$gen" python3 "$root/scripts/integration_doc_check.py" "$addr"

# TLS: the same checks with the CA; in plaintext, or trusting another CA, the client
# must fail, clearly.
tls="127.0.0.1:$((port + 10))"
serve "$tls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key"
echo "== TLS"
client --ca "$certs/ca.crt" "$tls"
refused "a TLS server in plaintext" "$tls"
"$root/examples/tls-certs.sh" "$certs/other"
refused "a TLS server whose certificate another CA signed" --ca "$certs/other/ca.crt" "$tls"

# Mutual TLS: the client certificate is required.
mtls="127.0.0.1:$((port + 20))"
serve "$mtls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key" \
    --tls-client-ca "$certs/ca.crt"
echo "== mutual TLS"
client --ca "$certs/ca.crt" \
    --cert "$certs/client.crt" --key "$certs/client.key" "$mtls"
refused "a mutual-TLS server without a client certificate" --ca "$certs/ca.crt" "$mtls"
