#!/usr/bin/env bash
# The API's compatibility checks, run by CI from the repository root:
#   - buf lint (buf.yaml: the standard rules and a comment on every element);
#   - buf breaking against the commit that froze climbot.v1 (the first commit with
#     buf.yaml) and against the previous commit: within v1, fields, messages, enum
#     values and RPCs are only added (docs/api.md, "Compatibility"). The proto changed
#     freely before the freeze, so the commits before it are not compared.
# Needs git history; in a clone without it (shallow) the breaking checks are skipped
# with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
buf=scripts/buf.sh

$buf lint
echo "proto: buf lint ok"

tree_at() { # ref dir: the proto and buf.yaml of commit `ref`, written to `dir`
    mkdir -p "$2"
    git archive "$1" buf.yaml proto | tar -x -C "$2"
}

if ! git rev-parse --verify --quiet HEAD >/dev/null; then
    echo "proto: no git history, buf breaking skipped"
    exit 0
fi
if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    git fetch --quiet --unshallow 2>/dev/null || true
fi
freeze="$(git log --diff-filter=A --format=%H -- buf.yaml | tail -n 1)"
if [ -z "$freeze" ]; then
    echo "proto: buf.yaml is not committed yet, buf breaking skipped"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
checked=0
for ref in "$freeze" HEAD~1; do
    git rev-parse --verify --quiet "$ref^{commit}" >/dev/null || continue
    # Only commits from the freeze on carry the frozen API.
    git merge-base --is-ancestor "$freeze" "$ref" || continue
    tree_at "$ref" "$work/$ref"
    $buf breaking --against "$work/$ref"
    echo "proto: buf breaking ok against $(git rev-parse --short "$ref") ($ref)"
    checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || echo "proto: the freeze is the current commit, nothing to compare"
