#!/usr/bin/env bash
# Validates every manifest under deploy/k8s with `kubernetes-validate --strict` (PyPI;
# strict = unknown fields are errors) against each Kubernetes version given (default:
# the oldest we support, 1.30 for the native preStop sleep, and the newest bundled).
#
#   deploy/k8s/validate.sh [VERSION ...]      e.g. deploy/k8s/validate.sh 1.30.0 1.37.0
#
# Also checks that the kustomization lists every manifest of the directory, and that
# --strict really rejects a misspelt field (so a silently lax validator fails CI too).
# Then builds the base and each overlay of deploy/k8s-overlays/ with `kubectl kustomize`
# (built into kubectl; components need 1.21 or later; no cluster, no network), validates
# every object built the same way, and checks that the objects agree with each other
# (consistency.py: selectors, named ports, scrape annotations on or off, probes, the
# TLS overlay's Certificate, Secret, variables and probes). Last, the Indexed Jobs of
# deploy/k8s-jobs/ (strict, their shard counts, and collect.sh against a stand-in kubectl).
set -euo pipefail
cd "$(dirname "$0")"
# The console script may not be on PATH (pip --user): run the module.
kubernetes-validate() { python3 -m kubernetes_validate "$@"; }
python3 -c 'import kubernetes_validate' 2>/dev/null || {
  echo "validate: kubernetes-validate missing: python3 -m pip install kubernetes-validate" >&2
  exit 2
}
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(1.30.0 1.37.0)

# The kustomization's resources, in order (a failure to read them stops here).
listed=$(python3 - <<'PY'
import yaml
with open("kustomization.yaml") as f:
    k = yaml.safe_load(f)
for r in k["resources"]:
    print(r)
PY
)
mapfile -t resources <<<"$listed"
for f in *.yaml; do
  [ "$f" = kustomization.yaml ] && continue
  printf '%s\n' "${resources[@]}" | grep -qx "$f" || {
    echo "validate: $f is not listed in kustomization.yaml" >&2
    exit 1
  }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A Deployment with one misspelt field: --strict must refuse it.
sed 's/terminationGracePeriodSeconds:/terminationGracePeriodSecond:/' deployment.yaml >"$tmp/typo.yaml"

for v in "${versions[@]}"; do
  echo "== Kubernetes $v"
  out=$(kubernetes-validate --strict -k "$v" "${resources[@]}" 2>&1) || {
    echo "$out"
    echo "validate: manifests fail against $v" >&2
    exit 1
  }
  echo "$out"
  if grep -q "Couldn't find schema" <<<"$out"; then
    echo "validate: a built-in resource has no schema for $v" >&2
    exit 1
  fi
  # The ServiceMonitor and cert-manager's Certificate are CRDs: no schema bundled, so
  # only their YAML is checked here (consistency.py checks what they refer to).
  kubernetes-validate --strict -k "$v" components/servicemonitor/servicemonitor.yaml
  kubernetes-validate --strict -k "$v" components/tls/certificate.yaml
  if kubernetes-validate --strict --quiet -k "$v" "$tmp/typo.yaml" >/dev/null 2>&1; then
    echo "validate: --strict accepted a misspelt field against $v" >&2
    exit 1
  fi
  echo "ok: a misspelt field is refused against $v"
done
if ! command -v kubectl >/dev/null && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends kubectl >/dev/null 2>&1 || true
fi
command -v kubectl >/dev/null || {
  echo "validate: kubectl missing (its built-in kustomize builds the overlays)" >&2
  exit 2
}
builds=()
for dir in . ../k8s-overlays/*/; do
  dir=${dir%/}
  name=$([ "$dir" = . ] && echo base || basename "$dir")
  kubectl kustomize "$dir" >"$tmp/$name.yaml"
  # One file per object: built-in kinds against the bundled schemas; CRDs (no schema
  # bundled) are checked by consistency.py.
  mkdir "$tmp/$name"
  python3 consistency.py split "$tmp/$name.yaml" "$tmp/$name"
  for v in "${versions[@]}"; do
    out=$(kubernetes-validate --strict -k "$v" "$tmp/$name"/builtin-*.yaml 2>&1) || {
      echo "$out"
      echo "validate: kubectl kustomize $dir fails against $v" >&2
      exit 1
    }
    if grep -q "Couldn't find schema" <<<"$out"; then
      echo "$out"
      echo "validate: a built-in resource of $dir has no schema for $v" >&2
      exit 1
    fi
  done
  echo "ok: kubectl kustomize $dir ($name): $(cd "$tmp/$name" && ls | sed 's/^[a-z]*-[0-9]*-//; s/\.yaml$//' | tr '\n' ' ')"
  builds+=("$name=$tmp/$name.yaml")
done
python3 consistency.py check "${builds[@]}"

# The Indexed Jobs that shard a run over a cluster (deploy/k8s-jobs): strict against
# each version, each pod's --shard I/N with N the Job's completions and I its index,
# and collect.sh against a stand-in for kubectl.
jobs=(../k8s-jobs/*.yaml)
for v in "${versions[@]}"; do
  out=$(kubernetes-validate --strict -k "$v" "${jobs[@]}" 2>&1) || {
    echo "$out"
    echo "validate: deploy/k8s-jobs fails against $v" >&2
    exit 1
  }
  if grep -q "Couldn't find schema" <<<"$out"; then
    echo "$out"
    echo "validate: a Job of deploy/k8s-jobs has no schema for $v" >&2
    exit 1
  fi
done
python3 - "${jobs[@]}" <<'PY'
import sys, yaml
for path in sys.argv[1:]:
    job = yaml.safe_load(open(path))
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed", path
    container = spec["template"]["spec"]["containers"][0]
    shard = [a for a in container["args"] if a.startswith("--shard=")]
    want = f"--shard=$(SHARD_INDEX)/{spec['completions']}"
    assert shard == [want], f"{path}: {shard} is not [{want!r}]"
    env = {e["name"]: e for e in container["env"]}
    ref = env["SHARD_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"]
    assert ref == "metadata.annotations['batch.kubernetes.io/job-completion-index']", path
    print(f"ok: {path}: {spec['completions']} shards, one per completion index")
PY
../k8s-jobs/collect_test.sh
echo "validate: ok (${versions[*]})"
