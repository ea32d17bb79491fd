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
servers=()
cleanup() {
    for s in "${servers[@]}"; do
        kill -TERM "$s" 2>/dev/null || true
        wait "$s" 2>/dev/null || true
    done
    rm -rf "$certs"
}
trap cleanup EXIT
"$root/examples/tls-certs.sh" "$certs"

# serve ADDR [FLAG ...]: starts climbot on ADDR and waits until it accepts connections.
serve() {
    local addr=$1
    shift
    "$bin" serve --grpc-addr "$addr" --metrics-addr 127.0.0.1:0 --log warn "$@" &
    servers+=($!)
    for _ in $(seq 100); do
        kill -0 "$!" 2>/dev/null || { echo "climbot did not start" >&2; exit 1; }
        (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null && return
        sleep 0.1
    done
    echo "climbot did not accept connections on $addr" >&2
    exit 1
}
# refused WHAT ARG ...: the client must fail to call (exit 2 and its one line).
refused() {
    local what=$1 out
    shift
    if out=$(PYTHONPATH="$gen" python3 "$here/client.py" "$@" 2>&1); then
        echo "$out"
        echo "FAIL: the client called $what" >&2
        exit 1
    fi
    grep -q "cannot call" <<<"$out" || { echo "$out"; echo "FAIL: $what: no clear error" >&2; exit 1; }
    echo "refused $what: $out"
}

port=${PY_EXAMPLE_PORT:-50151}
addr="127.0.0.1:$port"
serve "$addr"
PYTHONPATH="$gen" python3 "$here/client.py" "$addr"
# The worked examples and the documented errors of docs/integration.md, sent for real.
PYTHONPATH="$gen" python3 "$root/scripts/integration_doc_check.py" "$addr"

# TLS: the same checks with the CA; in plaintext, or trusting another CA, the client
# must fail, clearly.
tls="127.0.0.1:$((port + 10))"
serve "$tls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key"
echo "== TLS"
PYTHONPATH="$gen" python3 "$here/client.py" --ca "$certs/ca.crt" "$tls"
refused "a TLS server in plaintext" "$tls"
"$root/examples/tls-certs.sh" "$certs/other"
refused "a TLS server whose certificate another CA signed" --ca "$certs/other/ca.crt" "$tls"

# Mutual TLS: the client certificate is required.
mtls="127.0.0.1:$((port + 20))"
serve "$mtls" --tls-cert "$certs/server.crt" --tls-key "$certs/server.key" \
    --tls-client-ca "$certs/ca.crt"
echo "== mutual TLS"
PYTHONPATH="$gen" python3 "$here/client.py" --ca "$certs/ca.crt" \
    --cert "$certs/client.crt" --key "$certs/client.key" "$mtls"
refused "a mutual-TLS server without a client certificate" --ca "$certs/ca.crt" "$mtls"
