# Sourced by the example clients' run.sh: starts climbot servers for a client to call
# and checks the client's refusals. The caller sets `bin` (the climbot binary) and
# defines `client ARG ...` (runs its client), and calls `stop_servers` on exit.
# The examples' default ports (20151 to 20173) lie below Linux's ephemeral range
# (32768-60999), so no outgoing connection of another step can hold one.

servers=()

# stop_servers: stops every server `serve` started.
stop_servers() {
    for s in "${servers[@]}"; do
        kill -TERM "$s" 2>/dev/null || true
        wait "$s" 2>/dev/null || true
    done
}

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
    if out=$(client "$@" 2>&1); then
        echo "$out"
        echo "FAIL: the client called $what" >&2
        exit 1
    fi
    grep -q "cannot call" <<<"$out" || { echo "$out"; echo "FAIL: $what: no clear error" >&2; exit 1; }
    echo "refused $what: $out"
}
