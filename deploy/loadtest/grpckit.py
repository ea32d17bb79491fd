"""Shared by rolling-restart.py and fair-flood.py: the Python stubs (generated from
proto/ into a temporary directory with grpcio-tools), `climbot serve` children on fixed
loopback ports, the load-test payloads as SelectPlay requests, and small statistics.

Needs `pip install -r examples/python/requirements.txt` (grpcio, grpcio-tools) for the
stubs; importing it needs only the standard library, so h2bench.py and
scripts/search_profile.py take its statistics and machine description too.
"""

import datetime
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROTOS = ["climbot/v1/bot.proto", "climbot/v1/lexio.proto", "climbot/v1/dalmuti.proto",
          "climbot/v1/daifugo.proto"]
GAMES = ("lexio", "dalmuti", "daifugo")
LEVELS = ("EASY", "NORMAL", "HARD", "EXPERT")
PUSHBACK_KEY = "grpc-retry-pushback-ms"
CLIENT_KEY = "climbot-client"


# The standard health service (grpc/health/v1/health.proto), Check only: grpcio ships
# no stubs for it without the grpcio-health-checking package.
HEALTH_PROTO = """syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
"""


def die(message):
    print(f"{os.path.basename(sys.argv[0])}: {message}", file=sys.stderr)
    sys.exit(1)


def load_stubs(tmp):
    """Generates the stubs from proto/ into `tmp` and imports them."""
    gen = os.path.join(tmp, "gen")
    health_dir = os.path.join(tmp, "health-proto")
    os.makedirs(os.path.join(health_dir, "grpc_health", "v1"), exist_ok=True)
    os.makedirs(gen, exist_ok=True)
    with open(os.path.join(health_dir, "grpc_health", "v1", "health.proto"), "w") as f:
        f.write(HEALTH_PROTO)
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I",
                    os.path.join(ROOT, "proto"), "-I", health_dir, f"--python_out={gen}",
                    f"--grpc_python_out={gen}", *PROTOS, "grpc_health/v1/health.proto"],
                   check=True)
    sys.path.insert(0, gen)
    global grpc, json_format, bot_pb2, bot_pb2_grpc, health_pb2, health_pb2_grpc
    import grpc  # noqa: F401
    from google.protobuf import json_format  # noqa: F401
    from climbot.v1 import bot_pb2, bot_pb2_grpc  # noqa: F401
    from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: F401
    return grpc


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def channel(address, credentials=None):
    """A channel that reconnects quickly after a restart and never retries by itself
    (every attempt's outcome is the caller's to see)."""
    options = [("grpc.enable_retries", 0),
               ("grpc.initial_reconnect_backoff_ms", 50),
               ("grpc.min_reconnect_backoff_ms", 50),
               ("grpc.max_reconnect_backoff_ms", 250)]
    if credentials is not None:
        return grpc.secure_channel(address, credentials, options=options)
    return grpc.insecure_channel(address, options=options)


class Server:
    """One `climbot serve` on a fixed loopback port; JSON logs to a file. `start` may be
    called again after `stop` (a new process on the same port)."""

    def __init__(self, binary, name, port, log_dir, extra_args=()):
        self.binary, self.name, self.port = binary, name, port
        self.log_dir, self.extra_args = log_dir, list(extra_args)
        self.address = f"127.0.0.1:{port}"
        self.proc = None
        self.lifetimes = []  # one dict per process: pid, started, serving, samples, ...

    def start(self):
        n = len(self.lifetimes)
        log = open(os.path.join(self.log_dir, f"{self.name}-{n}.log"), "w")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLIMBOT_")}
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--grpc-addr", self.address, "--metrics-addr",
             "127.0.0.1:0", "--log-format", "json", *self.extra_args],
            stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        life = {"pid": self.proc.pid, "started": time.monotonic(), "serving": None,
                "samples": [], "sigterm": None, "exited": None, "code": None}
        self.lifetimes.append(life)
        life["serving"] = self.wait_serving()
        return life

    def wait_serving(self, timeout=30):
        """Polls grpc.health.v1 Check (service "") until SERVING; returns the time."""
        deadline = time.monotonic() + timeout
        ch = channel(self.address)
        stub = health_pb2_grpc.HealthStub(ch)
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    die(f"{self.name} exited with {self.proc.returncode} while starting")
                try:
                    r = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
                    if r.status == health_pb2.HealthCheckResponse.SERVING:
                        return time.monotonic()
                except grpc.RpcError:
                    pass
                time.sleep(0.05)
        finally:
            ch.close()
        die(f"{self.name} not SERVING within {timeout} s")

    def rss_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, AttributeError):
            pass
        return None

    def sample(self):
        if self.proc is not None and self.proc.poll() is None:
            rss = self.rss_kib()
            if rss is not None:
                life = self.lifetimes[-1]
                life["samples"].append((time.monotonic() - life["started"], rss))

    def stop(self, timeout=30):
        """SIGTERM, then waits for the exit; returns the exit code (None: killed)."""
        if self.proc is None:
            return None
        life = self.lifetimes[-1]
        if self.proc.poll() is None:
            life["sigterm"] = time.monotonic()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                life["code"] = "killed"
        life["exited"] = time.monotonic()
        if life["code"] is None:
            life["code"] = self.proc.returncode
        self.proc = None
        return life["code"]


def requests(payloads):
    """{(game, level, view): SelectPlayRequest} from the load-test payloads: the EASY
    and EXPERT payloads as written, NORMAL and HARD from the EASY ones."""
    out = {}
    for game in GAMES:
        for view in ("lead", "follow"):
            for level in LEVELS:
                src = "expert" if level == "EXPERT" else "easy"
                with open(os.path.join(payloads, f"{game}_{src}_{view}.json")) as f:
                    req = json_format.Parse(f.read(), bot_pb2.SelectPlayRequest())
                req.difficulty = getattr(bot_pb2, f"DIFFICULTY_{level}")
                out[(game, level, view)] = req
    return out


def broken(req):
    """A copy of a view that breaks a rule (INVALID_ARGUMENT, nothing computed)."""
    bad = bot_pb2.SelectPlayRequest()
    bad.CopyFrom(req)
    game = bad.view.WhichOneof("game")
    if game == "lexio":
        bad.view.lexio.hand[0].suit = 0
    elif game == "dalmuti":
        bad.view.dalmuti.seat = 99
    else:
        bad.view.daifugo.seat = 99
    return bad


def code_name(code):
    return code.name if code is not None else "?"


def pushback_ms(err):
    """The refusal's grpc-retry-pushback-ms trailer in ms, or None."""
    try:
        for key, value in err.trailing_metadata() or ():
            if key == PUSHBACK_KEY:
                return int(value)
    except (ValueError, TypeError):
        return None
    return None


def percentile(sorted_values, p):
    """Nearest-rank percentile of sorted values."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1,
                   round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def percentile_ci95(sorted_values, p):
    """Distribution-free 95% interval of a percentile (order statistics, normal
    approximation of the binomial): (low, high) values of the sample."""
    n = len(sorted_values)
    if n == 0:
        return float("nan"), float("nan")
    q = p / 100
    half = 1.96 * (n * q * (1 - q)) ** 0.5
    lo = max(0, int(n * q - half) - 1)
    hi = min(n - 1, int(n * q + half + 0.999))
    return sorted_values[lo], sorted_values[hi]


# Two-sided 95% Student t quantiles by degrees of freedom (1..30).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
       2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
       2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    """The two-sided 95% Student t quantile for `df` degrees of freedom: the table up
    to 30, then the Cornish-Fisher expansion around the normal quantile (within 0.001
    of the exact value from 30 on)."""
    if df <= len(T95):
        return T95[df - 1]
    z = 1.959964
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean_ci95(values):
    """Mean and 95% confidence interval (Student t)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
    half = t95(n - 1) * sd / n ** 0.5
    return mean, mean - half, mean + half


def wilson95(k, n):
    """95% Wilson interval of a proportion k/n, as (low, high)."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return (f"{platform.node()} ({platform.system()} {platform.release()}, {cpu}, "
            f"{os.cpu_count()} CPUs, load average at start "
            f"{load[0]:.2f}/{load[1]:.2f}/{load[2]:.2f})")


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def workdir(prefix):
    return tempfile.mkdtemp(prefix=prefix)


def dump(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f)
