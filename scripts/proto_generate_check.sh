#!/usr/bin/env bash
# Runs buf.gen.yaml into a scratch folder and checks that every language it names got
# code: Go (with the gRPC client), TypeScript (with the service), Python, Java and C#.
# Needs protoc-gen-go, protoc-gen-go-grpc and protoc (see .ci/run) and protoc-gen-es
# (examples/node's npm packages: run examples/node/run.sh or npm ci there first).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
PATH="$root/examples/node/node_modules/.bin:$PATH" scripts/buf.sh generate -o "$out"
for file in go/climbot/v1/bot_grpc.pb.go go/climbot/v1/lexio.pb.go ts/climbot/v1/bot_pb.ts \
    python/climbot/v1/lexio_pb2.py python/climbot/v1/lexio_pb2.pyi \
    java/climbot/v1/LexioView.java csharp/Lexio.cs; do
    [ -s "$out/gen/$file" ] || { echo "buf generate wrote no gen/$file" >&2; exit 1; }
done
grep -q 'namespace Climbot.V1' "$out/gen/csharp/Lexio.cs"
grep -q '^package climbot.v1;' "$out/gen/java/climbot/v1/LexioView.java"
echo "proto: buf generate ok ($(find "$out/gen" -type f | wc -l) files: Go, TypeScript, Python, Java, C#)"
