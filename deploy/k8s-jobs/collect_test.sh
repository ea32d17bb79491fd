#!/usr/bin/env bash
# Runs collect.sh against a stand-in for kubectl that serves shard files made by the
# real binary, and checks that it merges them into the unsharded run's report.
#
#   deploy/k8s-jobs/collect_test.sh   (CLIMBOT_BIN, default target/debug/climbot)
set -euo pipefail
cd "$(dirname "$0")/../.."
climbot=$(realpath "${CLIMBOT_BIN:-target/debug/climbot}")
[ -x "$climbot" ] || {
  echo "collect_test: $climbot missing (cargo build)" >&2
  exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(ladder --game lexio --players 3 --rounds 2 --levels "random,easy" --blocks 3 --seed 4)
"$climbot" "${run[@]}" --json >"$tmp/whole.json"
mkdir "$tmp/pods" "$tmp/bin"
for i in 0 1 2; do
  "$climbot" "${run[@]}" --shard "$i/3" >"$tmp/pods/pod-$i"
done
# kubectl as collect.sh calls it: wait, the Job's completions, the pod of an index,
# its log.
cat >"$tmp/bin/kubectl" <<STUB
#!/usr/bin/env bash
case "\$1 \$2" in
  "wait "*) exit 0 ;;
  "get job") echo 3 ;;
  "get pods") sed -n 's/.*job-completion-index=\([0-9]*\).*/pod-\1/p' <<<"\$*" | head -1 ;;
  "logs "*) cat "$tmp/pods/\$2" ;;
  *) echo "unexpected kubectl \$*" >&2; exit 1 ;;
esac
STUB
chmod +x "$tmp/bin/kubectl"
PATH="$tmp/bin:$PATH" CLIMBOT_BIN="$climbot" deploy/k8s-jobs/collect.sh climbot-ladder \
  "$tmp/shards" -- --json >"$tmp/merged.json"
cmp "$tmp/whole.json" "$tmp/merged.json"
echo "collect_test: ok (3 shards merged into the unsharded ladder's report)"
