# Sourced by run.sh, soak.sh and smoke.sh: repository root, h2load, the release
# binary and the payloads.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if ! command -v h2load >/dev/null; then
  echo "loadtest: installing h2load (Debian nghttp2-client)" >&2
  sudo_=""
  [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  $sudo_ apt-get install -y -qq nghttp2-client >/dev/null
fi
# The image's build (the `dist` profile of Cargo.toml) unless told otherwise.
CLIMBOT_BIN=${CLIMBOT_BIN:-target/dist/climbot}
if [ "$CLIMBOT_BIN" = target/dist/climbot ]; then
  cargo build --profile dist --locked --bin climbot
fi
PAYLOADS=${PAYLOADS:-deploy/loadtest/payloads}
"$CLIMBOT_BIN" loadtest payloads --out "$PAYLOADS" --seed 1 >/dev/null
