#!/usr/bin/env bash
# The playground page in headless Chromium (Debian's chromium and chromium-driver,
# Selenium from PyPI): plays a Lexio round, a Daifugo game and two Dalmuti hands by
# clicking, checks what the page draws, and saves screenshots (1280x800 and a phone's
# 390x844) to $PLAYGROUND_SCREENSHOTS (default target/playground-screenshots); then runs
# seeded bot-only tables of every game and preset to the end, opening every "why?" and
# failing on any console error (arguments go to playground_browser.py, e.g.
# --bot-tables-only). Installs what it needs when missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
missing=""
for deb in chromium chromium-driver; do
    dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q "ok installed" || missing="$missing $deb"
done
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
python3 -m pip install --quiet --disable-pip-version-check "selenium==4.45.0"
bin="${CLIMBOT_BIN:-$root/target/debug/climbot}"
[ -x "$bin" ] || (cd "$root" && cargo build --quiet --bin climbot)
out="${PLAYGROUND_SCREENSHOTS:-$root/target/playground-screenshots}"
python3 "$root/scripts/playground_browser.py" --bin "$bin" --out "$out" "$@"
