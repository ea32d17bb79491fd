#!/usr/bin/env python3
"""The alert rules and the Grafana dashboard against a real Prometheus scraping a real
climbot server under load (run by scripts/prometheus_check.sh, which installs
Prometheus and generates the Python stubs).

  prometheus_check.py --binary target/debug/climbot --stubs DIR [--load-seconds 25]

1. Starts `climbot serve` on 127.0.0.1 (ephemeral gRPC and metrics ports) and Prometheus
   on 127.0.0.1 (a free port, its data in a temporary directory) with a config that
   scrapes the server's /metrics every second under the job `climbot` and loads
   deploy/prometheus/alerts.yaml.
2. Sends a short bounded load (a few threads, at most --load-seconds): SelectPlay on the
   payloads of deploy/loadtest/payloads at every level they have (EASY and EXPERT, each
   game), EXPERT with a 1 ms budget (fallback answers), ListLegalPlays, requests without
   a view (INVALID_ARGUMENT) and calls whose deadline is inside the server's margin
   (DEADLINE_EXCEEDED).
3. Checks that Prometheus scraped the target (up == 1), loaded every rule of
   alerts.yaml with health "ok", and that every PromQL query of
   deploy/grafana/climbot.json (panels, rows and template variables) returns data when
   run against its HTTP API the way Grafana would send it: `$__rate_interval` as 1m,
   each variable as its "All" value, and a repeated panel once per value of its
   variable. Every metric a query names must exist, so `or vector(0)` cannot hide a
   misspelt name.

Everything listens on 127.0.0.1 and is stopped at the end, whatever happens.
"""

import argparse
import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALERTS = os.path.join(ROOT, "deploy/prometheus/alerts.yaml")
DASHBOARD = os.path.join(ROOT, "deploy/grafana/climbot.json")
PAYLOADS = os.path.join(ROOT, "deploy/loadtest/payloads")
GAMES = ("lexio", "dalmuti", "daifugo")
# Grafana's $__rate_interval is max(4 x scrape interval, step + scrape interval): with
# the 1 s scrape here, 1m is more than enough and close to what a dashboard asks.
RATE_INTERVAL = "1m"
# The server's deadline margin for this run: a call with a shorter deadline is answered
# DEADLINE_EXCEEDED at once.
DEADLINE_MARGIN_MS = 50


def die(message):
    print(f"prometheus check: {message}", file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, probe, timeout, proc=None, log=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = open(log).read()[-2000:] if log else ""
            die(f"{what} exited with {proc.returncode}\n{tail}")
        result = probe()
        if result:
            return result
        time.sleep(0.1)
    die(f"{what}: not ready within {timeout} s")


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def stop(proc):
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Climbot:
    """`climbot serve` on ephemeral loopback ports, JSON logs to a file."""

    def __init__(self, binary, log_path):
        self.log_path = log_path
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLIMBOT_")}
        with open(log_path, "w") as log:
            self.proc = subprocess.Popen(
                [binary, "serve", "--grpc-addr", "127.0.0.1:0", "--metrics-addr",
                 "127.0.0.1:0", "--log-format", "json",
                 "--deadline-margin-ms", str(DEADLINE_MARGIN_MS)],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self.grpc, self.metrics = wait_for("climbot", self._addresses, 60, self.proc, log_path)

    def _addresses(self):
        grpc = metrics = serving = None
        with open(self.log_path) as f:
            for line in f:
                try:
                    fields = json.loads(line).get("fields", {})
                except ValueError:
                    continue
                if fields.get("message") == "climbot starting":
                    grpc, metrics = fields["grpc_addr"], fields["metrics_addr"]
                serving = serving or fields.get("message") == "serving"
        return (grpc, metrics) if grpc and serving else None


class Prometheus:
    """Prometheus on a free loopback port, scraping climbot every second."""

    def __init__(self, work, metrics_addr):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = os.path.join(work, "prometheus.yml")
        with open(config, "w") as f:
            f.write(
                "global:\n"
                "  scrape_interval: 1s\n"
                "  evaluation_interval: 1s\n"
                f"rule_files: [{json.dumps(ALERTS)}]\n"
                "scrape_configs:\n"
                "  - job_name: climbot\n"
                "    static_configs:\n"
                f"      - targets: [\"{metrics_addr}\"]\n")
        self.log_path = os.path.join(work, "prometheus.log")
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                ["prometheus", f"--config.file={config}",
                 f"--storage.tsdb.path={os.path.join(work, 'data')}",
                 f"--web.listen-address=127.0.0.1:{self.port}",
                 # The Debian package's defaults point at its own web assets; the API
                 # needs none.
                 "--web.console.templates=/nonexistent",
                 "--web.console.libraries=/nonexistent"],
                stdout=log, stderr=subprocess.STDOUT)
        wait_for("prometheus", self._ready, 60, self.proc, self.log_path)

    def _ready(self):
        try:
            return http_get(f"{self.url}/-/ready", timeout=1).strip() != ""
        except OSError:
            return False

    def api(self, path, **params):
        query = urllib.parse.urlencode(params, doseq=True)
        body = json.loads(http_get(f"{self.url}/api/v1/{path}?{query}", timeout=10))
        if body.get("status") != "success":
            die(f"{path} {params}: {body}")
        return body["data"]

    def query(self, expr):
        return self.api("query", query=expr)["result"]


def send_load(target, stubs, seconds, threads=3):
    """A bounded mixed load; returns the calls made by outcome."""
    sys.path.insert(0, stubs)
    import grpc
    from climbot.v1 import bot_pb2, bot_pb2_grpc

    requests = []
    for path in sorted(glob.glob(os.path.join(PAYLOADS, "*.bin"))):
        name = os.path.basename(path)
        if name.startswith("health") or name.endswith(".h2load.bin") \
                or name.endswith(".ghz.bin"):
            continue
        request = bot_pb2.SelectPlayRequest()
        with open(path, "rb") as f:
            request.ParseFromString(f.read())
        requests.append((name, request))
    games = {name.split("_")[0] for name, _ in requests}
    if set(GAMES) - games:
        die(f"payloads missing for {sorted(set(GAMES) - games)} under {PAYLOADS}")

    counts = {}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def count(outcome):
        with lock:
            counts[outcome] = counts.get(outcome, 0) + 1

    def call(fn, request, timeout):
        try:
            fn(request, timeout=timeout)
            count("OK")
        except grpc.RpcError as e:
            count(e.code().name)

    def worker(offset):
        with grpc.insecure_channel(target) as channel:
            stub = bot_pb2_grpc.BotServiceStub(channel)
            i = offset
            while time.monotonic() < stop_at and i < offset + 100_000:
                name, request = requests[i % len(requests)]
                call(stub.SelectPlay, request, 5)
                if "expert" in name and i % 3 == 0:
                    starved = bot_pb2.SelectPlayRequest()
                    starved.CopyFrom(request)
                    starved.budget_ms = 1
                    call(stub.SelectPlay, starved, 5)
                if i % 5 == 0:
                    call(stub.ListLegalPlays, bot_pb2.ListLegalPlaysRequest(view=request.view), 5)
                    call(stub.SelectPlay, bot_pb2.SelectPlayRequest(), 5)
                    call(stub.SelectPlay, request, DEADLINE_MARGIN_MS / 2000)
                i += 1

    pool = [threading.Thread(target=worker, args=(k * 7,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=seconds + 60)
    return counts


def dashboard_queries(dashboard):
    """(title, expr, {variable: value}) for every query the dashboard sends, with its
    variables as Grafana fills them in, plus each template variable's own query."""
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    for name, v in variables.items():
        if v["type"] == "query" and v.get("allValue") is None:
            die(f"variable {name}: no allValue (the check substitutes it for All)")

    # A row owns the panels after it in the flat list, or those nested in it when
    # collapsed; each repeats with its row.
    out = []
    row = None
    for panel in dashboard["panels"]:
        if panel["type"] == "row":
            row = panel
            nested = [(p, row) for p in panel.get("panels", [])]
        else:
            nested = [(panel, row)]
        for item, owner in nested:
            repeats = [r for r in (owner.get("repeat") if owner else None,
                                   item.get("repeat")) if r]
            for target in item.get("targets", []):
                out.append((item["title"], target["expr"], repeats))
    return variables, out


def substitute(expr, values):
    def one(m):
        name = m.group(1) or m.group(2)
        if name == "__rate_interval":
            return RATE_INTERVAL
        if name not in values:
            die(f"unknown variable ${name} in {expr}")
        return values[name]
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", one, expr)


METRIC = re.compile(r"\b(climbot_[a-z_]+|up|kube_[a-z_]+)\b(?=\s*[{\[)])")


def check_dashboard(prom):
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    variables, queries = dashboard_queries(dashboard)
    all_values = {name: v.get("allValue") for name, v in variables.items() if v["type"] == "query"}
    all_values["datasource"] = "prometheus"

    # Template variables: label_values(selector, label), as Grafana asks the series API.
    options = {}
    for name, v in variables.items():
        if v["type"] != "query":
            continue
        query = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", query.strip())
        if not m:
            die(f"variable {name}: not a label_values() query: {query}")
        selector = substitute(m.group(1), all_values)
        series = prom.api("series", **{"match[]": selector})
        found = sorted({s[m.group(2)] for s in series if m.group(2) in s})
        if not found:
            die(f"variable {name}: {query} finds no values")
        options[name] = found
        print(f"  variable {name}: {', '.join(found)}")
    missing = set(GAMES) - set(options.get("game", []))
    if missing:
        die(f"variable game lacks {sorted(missing)}: the load did not reach every game")

    # The check can tell data from none: a misspelt metric gives an empty result.
    if prom.query(f'sum(rate(climbot_requests_totl{{job=~".+"}}[{RATE_INTERVAL}]))'):
        die("a query of a metric that does not exist returned data")
    metrics_checked = set()
    runs = 0
    for title, expr, repeat_over in queries:
        for metric in METRIC.findall(expr):
            if metric not in metrics_checked:
                if not prom.api("series", **{"match[]": metric}):
                    die(f"panel '{title}': metric {metric} has no series")
                metrics_checked.add(metric)
        repeats = [dict(all_values)]
        for var in repeat_over:
            repeats = [dict(r, **{var: value}) for r in repeats for value in options[var]]
        for values in repeats:
            sent = substitute(expr, values)
            result = prom.query(sent)
            runs += 1
            if not result:
                die(f"panel '{title}': no data for {sent}")
        print(f"  ok: '{title}': {len(repeats)} quer{'y' if len(repeats) == 1 else 'ies'} "
              f"with data ({expr.splitlines()[0][:70]}...)")
    return runs, len(metrics_checked)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--binary", default=os.path.join(ROOT, "target/debug/climbot"))
    p.add_argument("--stubs", required=True, help="generated Python stubs of proto/")
    p.add_argument("--load-seconds", type=float, default=25)
    args = p.parse_args()

    work = tempfile.mkdtemp(prefix="climbot-prometheus-")
    server = prom = None
    try:
        server = Climbot(args.binary, os.path.join(work, "climbot.log"))
        prom = Prometheus(work, server.metrics)
        print(f"prometheus check: climbot grpc {server.grpc}, metrics {server.metrics}; "
              f"prometheus {prom.url}")
        started = time.monotonic()
        counts = send_load(server.grpc, args.stubs, args.load_seconds)
        print(f"prometheus check: load for {time.monotonic() - started:.1f} s: "
              + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        if counts.get("OK", 0) == 0:
            die("no call succeeded")
        # Two more scrapes after the load, then the rules' next evaluation.
        time.sleep(3)

        up = prom.query('up{job="climbot"}')
        if [r["value"][1] for r in up] != ["1"]:
            die(f"target not up: {up}")
        groups = prom.api("rules")["groups"]
        rules = [r for g in groups for r in g["rules"]]
        bad = [r for r in rules if r.get("health") != "ok"]
        if not rules or bad:
            die(f"rules not loaded or unhealthy: {bad or 'none loaded'}")
        firing = sorted({r["name"] for r in rules if r.get("state") != "inactive"})
        print(f"prometheus check: {len(rules)} alert rules loaded, health ok "
              f"(pending or firing under this load: {', '.join(firing) or 'none'})")
        fallbacks = prom.query("sum(climbot_fallbacks_total)")
        print(f"prometheus check: fallback answers counted: "
              f"{fallbacks[0]['value'][1] if fallbacks else 0}")

        runs, metrics = check_dashboard(prom)
        print(f"prometheus check: ok ({runs} dashboard queries returned data; "
              f"{metrics} metrics named, each with series)")
    finally:
        stop(prom.proc if prom else None)
        stop(server.proc if server else None)


if __name__ == "__main__":
    main()
