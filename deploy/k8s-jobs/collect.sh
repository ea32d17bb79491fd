#!/usr/bin/env bash
# Gathers the shard files that the pods of an Indexed Job printed (arena-shards.yaml,
# ladder-shards.yaml) and merges them into the run's report.
#
#   deploy/k8s-jobs/collect.sh JOB [OUT_DIR] [-- MERGE_FLAGS...]
#   e.g. deploy/k8s-jobs/collect.sh climbot-arena shards -- --json
#
# It waits for the Job to complete (TIMEOUT, default 24h), saves the log of the pod
# that succeeded at each completion index as OUT_DIR/shard-I.json (default
# shards-JOB), and runs `climbot merge` on them (CLIMBOT_BIN, default `climbot` on
# PATH). kubectl uses its current context and namespace.
set -euo pipefail
job=${1:?usage: collect.sh JOB [OUT_DIR] [-- MERGE_FLAGS...]}
shift
out=shards-$job
if [ $# -gt 0 ] && [ "$1" != -- ]; then
  out=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
climbot=${CLIMBOT_BIN:-climbot}
kubectl wait --for=condition=complete "job/$job" --timeout="${TIMEOUT:-24h}" >&2
n=$(kubectl get job "$job" -o 'jsonpath={.spec.completions}')
mkdir -p "$out"
for ((i = 0; i < n; i++)); do
  pod=$(kubectl get pods \
    -l "batch.kubernetes.io/job-name=$job,batch.kubernetes.io/job-completion-index=$i" \
    --field-selector=status.phase=Succeeded -o 'jsonpath={.items[0].metadata.name}')
  [ -n "$pod" ] || {
    echo "collect: no pod of $job succeeded at index $i" >&2
    exit 1
  }
  kubectl logs "$pod" >"$out/shard-$i.json"
done
echo "collect: $n shard files in $out" >&2
"$climbot" merge "$out"/shard-*.json "$@"
