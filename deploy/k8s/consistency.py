#!/usr/bin/env python3
"""Checks on the objects `kubectl kustomize` builds from deploy/k8s and its overlays,
beyond what a schema can see (run by validate.sh).

  consistency.py split BUILD.yaml DIR      one file per object: builtin-NN-Kind.yaml for
                                           Kubernetes' own API groups, crd-NN-Kind.yaml
                                           for the others
  consistency.py check NAME=BUILD.yaml ... the base (NAME base) and the overlays
                                           pod-annotations, servicemonitor and tls

The checks: every selector (Services, PDB, NetworkPolicy, HPA target, topology spread,
ServiceMonitor) selects the Deployment's pods; every named port they use exists; the
readiness probe survives one slow probe; the base has no prometheus.io annotations, the
pod-annotations overlay has them (pointing at the metrics port) and no ServiceMonitor,
the servicemonitor overlay has the ServiceMonitor and no annotations (so the two ways to
scrape never both apply); the tls overlay has a cert-manager Certificate naming every
Service, whose Secret the pod mounts read-only as a whole directory (so that renewals
reach it), CLIMBOT_TLS_CERT and CLIMBOT_TLS_KEY naming files in that mount, TCP probes
on the gRPC port (the kubelet's gRPC probes speak no TLS) and no h2c appProtocol; apart
from that, each overlay builds the base's objects unchanged. Every CLIMBOT_* variable
the ConfigMap or a container sets is one `climbot serve` reads (the `env = "..."` of
src/service/config.rs). And the alert rules (deploy/prometheus/alerts.yaml) use the
ConfigMap's numbers: the decision slots, and the largest budget + 10% as the search
latency limit.
"""

import copy
import os
import re
import sys

import yaml

ANNOTATIONS = ("prometheus.io/scrape", "prometheus.io/port", "prometheus.io/path")
HERE = os.path.dirname(os.path.abspath(__file__))
PROBES = ("startupProbe", "readinessProbe", "livenessProbe")


def fail(message):
    print(f"consistency: {message}", file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def builtin(obj):
    """Kubernetes' own API groups: core ("v1"), unqualified groups, *.k8s.io."""
    group = obj["apiVersion"].rpartition("/")[0]
    return group == "" or "." not in group or group.endswith(".k8s.io")


def split(build, out_dir):
    for i, obj in enumerate(load(build)):
        kind = "builtin" if builtin(obj) else "crd"
        with open(os.path.join(out_dir, f"{kind}-{i:02d}-{obj['kind']}.yaml"), "w") as f:
            yaml.safe_dump(obj, f)


def one(objs, kind, name=None):
    found = [o for o in objs
             if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    if len(found) != 1:
        fail(f"expected one {kind}{' ' + name if name else ''}, found {len(found)}")
    return found[0]


def selects(match_labels, labels, what):
    if not match_labels:
        fail(f"{what}: empty selector")
    missing = {k: v for k, v in match_labels.items() if labels.get(k) != v}
    if missing:
        fail(f"{what}: selector {match_labels} does not select the pods ({labels})")


def check_base(objs):
    deployment = one(objs, "Deployment", "climbot")
    pod = deployment["spec"]["template"]
    labels = pod["metadata"]["labels"]
    if len(pod["spec"]["containers"]) != 1:
        fail("Deployment: expected one container")
    container = pod["spec"]["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}

    selects(deployment["spec"]["selector"]["matchLabels"], labels, "Deployment")
    for service in [o for o in objs if o["kind"] == "Service"]:
        name = service["metadata"]["name"]
        selects(service["spec"]["selector"], labels, f"Service {name}")
        for port in service["spec"]["ports"]:
            if port["targetPort"] not in ports:
                fail(f"Service {name}: targetPort {port['targetPort']} is not a container port")
    pdb = one(objs, "PodDisruptionBudget")
    selects(pdb["spec"]["selector"]["matchLabels"], labels, "PodDisruptionBudget")
    if pdb["spec"].get("unhealthyPodEvictionPolicy") != "AlwaysAllow":
        fail("PodDisruptionBudget: unhealthyPodEvictionPolicy should be AlwaysAllow")
    policy = one(objs, "NetworkPolicy")
    selects(policy["spec"]["podSelector"]["matchLabels"], labels, "NetworkPolicy")
    for rule in policy["spec"].get("ingress", []):
        for port in rule.get("ports", []):
            if port["port"] not in ports and port["port"] not in ports.values():
                fail(f"NetworkPolicy: port {port['port']} is not a container port")
    hpa = one(objs, "HorizontalPodAutoscaler")
    if hpa["spec"]["scaleTargetRef"]["name"] != deployment["metadata"]["name"]:
        fail("HorizontalPodAutoscaler: scaleTargetRef is not the Deployment")
    for spread in pod["spec"].get("topologySpreadConstraints", []):
        selects(spread["labelSelector"]["matchLabels"], labels, "topologySpreadConstraints")
        if "pod-template-hash" not in spread.get("matchLabelKeys", []):
            fail("topologySpreadConstraints: matchLabelKeys should list pod-template-hash")

    # Probes on the gRPC port; readiness tolerates a slow probe: more than one failure
    # in a row, and a timeout shorter than the period (probes do not pile up).
    for probe_name in PROBES:
        probe = container[probe_name]
        if probe["grpc"]["port"] != ports["grpc"]:
            fail(f"{probe_name}: not on the gRPC port {ports['grpc']}")
    readiness = container["readinessProbe"]
    if readiness.get("failureThreshold", 3) < 2:
        fail("readinessProbe: failureThreshold < 2 drops a pod on one slow probe")
    if readiness.get("timeoutSeconds", 1) >= readiness.get("periodSeconds", 10):
        fail("readinessProbe: timeoutSeconds should be shorter than periodSeconds")
    return deployment, ports


def pod_annotations(objs):
    pod = one(objs, "Deployment", "climbot")["spec"]["template"]
    return pod["metadata"].get("annotations") or {}


def without_scraping(objs):
    """The objects less the ServiceMonitor and the pod's scrape annotations."""
    rest = []
    for obj in objs:
        if obj["kind"] == "ServiceMonitor":
            continue
        obj = copy.deepcopy(obj)
        if obj["kind"] == "Deployment":
            meta = obj["spec"]["template"]["metadata"]
            for key in ANNOTATIONS:
                meta.get("annotations", {}).pop(key, None)
            if meta.get("annotations") == {}:
                del meta["annotations"]
        rest.append(obj)
    return sorted(rest, key=lambda o: (o["kind"], o["metadata"]["name"]))


def check_alerts(objs):
    config = one(objs, "ConfigMap", "climbot-config")["data"]
    path = os.path.join(HERE, "../prometheus/alerts.yaml")
    with open(path) as f:
        rules = {r["alert"]: r["expr"] for g in yaml.safe_load(f)["groups"]
                 for r in g["rules"] if "alert" in r}

    def threshold(alert, op):
        m = re.search(rf"{re.escape(op)}\s*([0-9.]+)\s*$", rules[alert].strip())
        if not m:
            fail(f"alerts.yaml: {alert}: no '{op} NUMBER' at the end of its expression")
        return float(m.group(1))

    slots = float(config["CLIMBOT_DECISION_SLOTS"])
    if threshold("ClimbotDecisionSlotsSaturated", ">=") != slots:
        fail(f"alerts.yaml: ClimbotDecisionSlotsSaturated should use {slots:g} "
             "(CLIMBOT_DECISION_SLOTS)")
    limit = 1.1 * float(config["CLIMBOT_MAX_BUDGET_MS"]) / 1000
    if abs(threshold("ClimbotSearchLatencyHigh", ">") - limit) > 1e-9:
        fail(f"alerts.yaml: ClimbotSearchLatencyHigh should use {limit:g} s "
             "(CLIMBOT_MAX_BUDGET_MS + 10%)")


def serve_variables():
    """The CLIMBOT_* variables `climbot serve` reads: the `env = "..."` of its flags."""
    with open(os.path.join(HERE, "../../src/service/config.rs")) as f:
        names = set(re.findall(r'env\s*=\s*"(CLIMBOT_[A-Z0-9_]+)"', f.read()))
    if not names:
        fail("src/service/config.rs: no env = \"CLIMBOT_...\" found")
    return names


def check_variables(name, objs):
    known = serve_variables()
    config = one(objs, "ConfigMap", "climbot-config")["data"]
    container = one(objs, "Deployment", "climbot")["spec"]["template"]["spec"]["containers"][0]
    for var in list(config) + [e["name"] for e in container.get("env", [])]:
        if var.startswith("CLIMBOT_") and var not in known:
            fail(f"{name}: {var} is not a variable of climbot serve (src/service/config.rs)")


def without_tls(objs):
    """The objects less the Certificate, the pod's volumes, mounts and variables, the
    probes' handlers and the gRPC ports' appProtocol."""
    rest = []
    for obj in objs:
        if obj["kind"] == "Certificate":
            continue
        obj = copy.deepcopy(obj)
        if obj["kind"] == "Deployment":
            pod = obj["spec"]["template"]["spec"]
            pod.pop("volumes", None)
            for container in pod["containers"]:
                for key in ("env", "volumeMounts"):
                    container.pop(key, None)
                for probe in PROBES:
                    for handler in ("grpc", "tcpSocket"):
                        container.get(probe, {}).pop(handler, None)
        if obj["kind"] == "Service":
            for port in obj["spec"]["ports"]:
                if port["name"] == "grpc":
                    port.pop("appProtocol", None)
        rest.append(obj)
    return sorted(rest, key=lambda o: (o["kind"], o["metadata"]["name"]))


def check_tls(objs, base, ports):
    certificate = one(objs, "Certificate")
    if certificate["apiVersion"] != "cert-manager.io/v1":
        fail(f"Certificate: apiVersion {certificate['apiVersion']}")
    spec = certificate["spec"]
    if not spec.get("issuerRef", {}).get("name"):
        fail("Certificate: no issuerRef.name")
    names = set(spec.get("dnsNames", []))
    for service in [o for o in objs if o["kind"] == "Service"]:
        if service["metadata"]["name"] not in names:
            fail(f"Certificate: dnsNames lack the Service {service['metadata']['name']}")
        for port in service["spec"]["ports"]:
            if port["name"] == "grpc" and port.get("appProtocol") == "kubernetes.io/h2c":
                fail(f"tls: Service {service['metadata']['name']} still says h2c on grpc")
    pod = one(objs, "Deployment", "climbot")["spec"]["template"]["spec"]
    container = pod["containers"][0]
    volumes = [v["name"] for v in pod.get("volumes", [])
               if v.get("secret", {}).get("secretName") == spec["secretName"]]
    if len(volumes) != 1:
        fail(f"tls: the Secret {spec['secretName']} is not one volume of the pod")
    mounts = [m for m in container.get("volumeMounts", []) if m["name"] == volumes[0]]
    if len(mounts) != 1 or not mounts[0].get("readOnly") or mounts[0].get("subPath"):
        fail("tls: the Secret's volume should be mounted once, readOnly, without subPath "
             "(a subPath mount never sees a renewed Secret)")
    mount = mounts[0]["mountPath"].rstrip("/")
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    for var, file in (("CLIMBOT_TLS_CERT", "tls.crt"), ("CLIMBOT_TLS_KEY", "tls.key")):
        if env.get(var) != f"{mount}/{file}":
            fail(f"tls: {var} should be {mount}/{file}, is {env.get(var)}")
    for probe_name in PROBES:
        probe = container[probe_name]
        if "grpc" in probe:
            fail(f"tls: {probe_name} is a gRPC probe, which speaks no TLS")
        port = probe.get("tcpSocket", {}).get("port")
        if port not in ("grpc", ports["grpc"]):
            fail(f"tls: {probe_name} should be a TCP probe on the gRPC port")
    if without_tls(objs) != without_tls(base):
        fail("tls: changes more than TLS (compare with the base)")


def check(builds):
    base = builds["base"]
    deployment, ports = check_base(base)
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    if any(k in pod_annotations(base) for k in ANNOTATIONS):
        fail("base: prometheus.io annotations are on; they belong to the component")
    if any(o["kind"] == "ServiceMonitor" for o in base):
        fail("base: has a ServiceMonitor; it belongs to the component")

    annotated = builds["pod-annotations"]
    found = pod_annotations(annotated)
    if found.get("prometheus.io/scrape") != "true":
        fail("pod-annotations: prometheus.io/scrape is not \"true\"")
    if found.get("prometheus.io/port") != str(ports["metrics"]):
        fail(f"pod-annotations: prometheus.io/port is not the metrics port {ports['metrics']}")
    if found.get("prometheus.io/path") != "/metrics":
        fail("pod-annotations: prometheus.io/path is not /metrics")
    if any(o["kind"] == "ServiceMonitor" for o in annotated):
        fail("pod-annotations: has a ServiceMonitor too (every series scraped twice)")

    monitored = builds["servicemonitor"]
    if any(k in pod_annotations(monitored) for k in ANNOTATIONS):
        fail("servicemonitor: the pods carry prometheus.io annotations too")
    monitor = one(monitored, "ServiceMonitor")
    if monitor["apiVersion"] != "monitoring.coreos.com/v1":
        fail(f"ServiceMonitor: apiVersion {monitor['apiVersion']}")
    services = [o for o in monitored if o["kind"] == "Service"
                and all(o["metadata"].get("labels", {}).get(k) == v
                        for k, v in monitor["spec"]["selector"]["matchLabels"].items())]
    if not services:
        fail("ServiceMonitor: its selector matches no Service")
    for service in services:
        names = {p["name"] for p in service["spec"]["ports"]}
        for endpoint in monitor["spec"]["endpoints"]:
            if endpoint["port"] not in names:
                # A headless Service without the metrics port is fine if another has it.
                if not any(endpoint["port"] in {p["name"] for p in s["spec"]["ports"]}
                           for s in services):
                    fail(f"ServiceMonitor: no selected Service has port {endpoint['port']}")
            if endpoint.get("path", "/metrics") != "/metrics":
                fail("ServiceMonitor: path is not /metrics")
    selects(monitor["spec"]["selector"]["matchLabels"],
            services[0]["metadata"]["labels"], "ServiceMonitor")

    for name in ("pod-annotations", "servicemonitor"):
        if without_scraping(builds[name]) != without_scraping(base):
            fail(f"{name}: changes more than the scraping (compare with the base)")
    check_tls(builds["tls"], base, ports)
    for name, objs in builds.items():
        check_variables(name, objs)
    check_alerts(base)
    print(f"consistency: ok ({', '.join(sorted(builds))}; pods {labels})")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "check":
        builds = dict(arg.split("=", 1) for arg in sys.argv[2:])
        for name in ("base", "pod-annotations", "servicemonitor", "tls"):
            if name not in builds:
                fail(f"missing build {name}")
        check({name: load(path) for name, path in builds.items()})
    else:
        fail(__doc__)


if __name__ == "__main__":
    main()
