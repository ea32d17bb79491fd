#!/usr/bin/env bash
# Runs the pinned buf CLI (scripts/buf/package.json), installing it from npm on first
# use: scripts/buf.sh lint, scripts/buf.sh generate, ...
set -euo pipefail
dir="$(cd "$(dirname "$0")/buf" && pwd)"
if [ ! -x "$dir/node_modules/.bin/buf" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error >&2
fi
exec "$dir/node_modules/.bin/buf" "$@"
