#!/usr/bin/env bash
# Makes throw-away certificates for trying TLS and mutual TLS with the example clients
# (their run.sh call it; nothing it writes is ever committed):
#
#   examples/tls-certs.sh DIR
#
# DIR/ca.crt          a CA (EC P-256), valid 2 days, that signs both of:
# DIR/server.crt|key  the server's: SAN DNS:localhost and IP:127.0.0.1, serverAuth
# DIR/client.crt|key  a client's, CN climbot-example-client, clientAuth
#
# Keys are PKCS#8 PEM. Needs the openssl command (Debian's openssl package).
set -euo pipefail
dir=${1:?usage: tls-certs.sh DIR}
command -v openssl >/dev/null || { echo "tls-certs.sh: openssl missing" >&2; exit 2; }
mkdir -p "$dir"
cd "$dir"
umask 077
# A minimal config of our own, so that the system's openssl.cnf adds nothing.
cat >openssl.cnf <<'CNF'
[req]
distinguished_name = dn
prompt = no
[dn]
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
CNF
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
key ca.key
openssl req -config openssl.cnf -new -x509 -key ca.key -subj "/CN=climbot example CA" \
    -days 2 -extensions ca -out ca.crt
for who in server client; do
    key "$who.key"
    cn=$([ "$who" = server ] && echo localhost || echo climbot-example-client)
    openssl req -config openssl.cnf -new -key "$who.key" -subj "/CN=$cn" -out "$who.csr"
    openssl x509 -req -in "$who.csr" -CA ca.crt -CAkey ca.key \
        -set_serial "0x$(openssl rand -hex 8)" -days 2 -extfile openssl.cnf -extensions "$who" \
        -out "$who.crt" 2>/dev/null
    rm "$who.csr"
done
rm openssl.cnf
chmod 644 ca.crt server.crt client.crt
