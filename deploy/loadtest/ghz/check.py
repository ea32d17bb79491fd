#!/usr/bin/env python3
"""Reads every ghz config of deploy/loadtest/ghz and its payload the way ghz does, and
fails on anything ghz would refuse, ignore or read otherwise than meant. ghz itself is
not installed here (it is in no package registry this project uses), so this mirrors
its code (github.com/bojand/ghz, runner/ and protodesc/, as of 2026):

- config file: `runner/config.go` LoadConfig (configor, JSON): the keys are the `json`
  tags of `Config`, unknown keys are dropped silently (here: refused, a misspelt key
  would silently fall back to a default); `data` must be an object or a non-empty array
  of objects (checkData). Durations are Go durations (`Duration.UnmarshalJSON`).
- `runner/options.go` NewConfig: `call` and `host` required, `connections` <= `concurrency`
  (defaults from the `default:` tags: total 200, concurrency 50, connections 1).
- `protodesc/protodesc.go` parseServiceMethod: `package.Service.Method` or
  `package.Service/Method`; the method must exist in the API (here: proto/ and
  grpc.health.v1, what the server's reflection serves).
- `runner/options.go` fromConfig: `binary-file` wins over `data-file` and `data`; paths are
  read relative to the working directory (run ghz from the repository root).
- `runner/data.go` createPayloadsFromBin: a binary file is read first as length-delimited
  messages (createPayloadsFromBinCountDelimited: proto.Buffer.DecodeMessage until
  io.ErrUnexpectedEOF, so a truncated length or body just ends the list); only if that
  errs or finds none is the whole file one message (createPayloadsFromBinSingleMessage).
  Required here: the length-delimited reading consumes the whole file and finds exactly
  one message (`<name>.ghz.bin`), the request meant (the same as `<name>.bin`); a bare
  message works only when its first bytes fail to read as a length (by luck), and an
  empty file gives no message ("no data provided for request", `runner/worker.go`).
- `runner/data.go` createPayloadsFromJSON: `data` is marshalled to JSON and read with
  jsonpb into the method's input type (unknown fields refused: here json_format.Parse,
  which refuses them too).

  deploy/loadtest/ghz/check.py --stubs DIR [CONFIG ...]   (default: every *.json here)
  deploy/loadtest/ghz/check.py --stubs DIR --self-test    broken configs must be refused

DIR holds the Python stubs of proto/ (grpc_tools.protoc --python_out).
"""

import argparse
import glob
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

# Config's json tags (runner/config.go) by type.
STRINGS = {"proto", "protoset", "call", "cacert", "cert", "key", "cname", "authority",
           "concurrency-schedule", "duration-stop", "data-file", "binary-file",
           "metadata-file", "output", "format", "name", "debug", "host", "load-schedule",
           "lb-strategy", "max-recv-message-size", "max-send-message-size"}
UINTS = {"skipFirst", "total", "concurrency", "concurrency-start", "concurrency-end",
         "connections", "rps", "stream-call-count", "cpus", "load-start", "load-end"}
INTS = {"concurrency-step", "load-step"}
BOOLS = {"count-errors", "skipTLS", "insecure", "async", "stream-dynamic-messages",
         "enable-compression", "disable-template-functions", "disable-template-data"}
DURATIONS = {"concurrency-step-duration", "concurrency-max-duration", "duration",
             "max-duration", "timeout", "connect-timeout", "keepalive", "stream-interval",
             "stream-call-duration", "load-step-duration", "load-max-duration"}
STRING_MAPS = {"metadata", "tags", "reflect-metadata"}
OTHER = {"data", "import-paths"}
KNOWN = STRINGS | UINTS | INTS | BOOLS | DURATIONS | STRING_MAPS | OTHER
FORMATS = {"summary", "csv", "json", "pretty", "html", "influx-summary", "influx-details",
           "prometheus"}
# Go's time.ParseDuration: a sequence of decimal numbers, each with a unit.
GO_DURATION = re.compile(r"[-+]?(0|(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+")


class Refused(Exception):
    pass


def api_methods(stubs):
    """{"package.Service": {"Method": input message class}} for the server's API."""
    sys.path.insert(0, stubs)
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    from climbot.v1 import bot_pb2

    # grpc.health.v1 (the standard health.proto), which the server registers.
    health = descriptor_pb2.FileDescriptorProto(name="grpc/health/v1/health.proto",
                                                package="grpc.health.v1", syntax="proto3")
    request = health.message_type.add(name="HealthCheckRequest")
    request.field.add(name="service", number=1, type=9, label=1, json_name="service")
    response = health.message_type.add(name="HealthCheckResponse")
    response.field.add(name="status", number=1, type=5, label=1, json_name="status")
    service = health.service.add(name="Health")
    service.method.add(name="Check", input_type=".grpc.health.v1.HealthCheckRequest",
                       output_type=".grpc.health.v1.HealthCheckResponse")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(health)
    health_file = pool.FindFileByName("grpc/health/v1/health.proto")

    methods = {}
    for file in (bot_pb2.DESCRIPTOR, health_file):
        for svc in file.services_by_name.values():
            methods[svc.full_name] = {
                m.name: message_factory.GetMessageClass(m.input_type) for m in svc.methods}
    return methods


def parse_service_method(call):
    """protodesc.parseServiceMethod."""
    if call.startswith("."):
        call = call[1:]
    if not call:
        raise Refused("call: no method name")
    slashes = call.count("/")
    if slashes == 0:
        service, _, method = call.rpartition(".")
        if not service:
            raise Refused(f"call {call!r}: must be package.Service.Method or package.Service/Method")
        return service, method
    if slashes == 1:
        return tuple(call.split("/"))
    raise Refused(f"call {call!r}: must be package.Service.Method or package.Service/Method")


def consume_varint(data, i):
    """protowire.ConsumeVarint: (value, next index), None when truncated."""
    value = 0
    for n in range(10):
        if i + n >= len(data):
            return None
        b = data[i + n]
        value |= (b & 0x7F) << (7 * n)
        if b < 0x80:
            if n == 9 and b > 1:
                raise Refused("varint overflows 64 bits")
            return value, i + n + 1
    raise Refused("varint overflows 64 bits")


def read_length_delimited(data, message_class):
    """createPayloadsFromBinCountDelimited: (messages, bytes consumed); Refused on a
    message that does not parse (ghz then falls back to one message)."""
    from google.protobuf.message import DecodeError
    messages, i = [], 0
    while True:
        head = consume_varint(data, i)
        if head is None or head[1] + head[0] > len(data):
            return messages, i  # io.ErrUnexpectedEOF: ends the list without error
        length, start = head
        message = message_class()
        try:
            message.ParseFromString(data[start:start + length])
        except DecodeError as e:
            raise Refused(f"message {len(messages) + 1} does not parse: {e}")
        messages.append(message)
        i = start + length


def check_binary(path, message_class):
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        raise Refused(f"{path}: empty: ghz sends nothing ('no data provided for request')")
    try:
        messages, used = read_length_delimited(data, message_class)
    except Refused as e:
        raise Refused(f"{path}: not length-delimited ({e}): ghz would fall back to reading "
                      "the file as one message, which works only by luck")
    if not messages:
        raise Refused(f"{path}: no length-delimited message: ghz would fall back to one "
                      "message, which works only by luck")
    if used != len(data):
        raise Refused(f"{path}: {len(data) - used} trailing bytes that ghz silently drops")
    if len(messages) != 1:
        raise Refused(f"{path}: reads as {len(messages)} length-delimited messages, not one "
                      "(a bare message read as a stream by accident?)")
    # The request meant: the bare message beside it (written by `climbot loadtest payloads`).
    bare = path[:-len(".ghz.bin")] + ".bin" if path.endswith(".ghz.bin") else None
    if bare and os.path.exists(bare):
        expected = message_class()
        with open(bare, "rb") as f:
            expected.ParseFromString(f.read())
        if messages[0] != expected:
            raise Refused(f"{path}: its message differs from {os.path.basename(bare)}")
    return messages[0]


def check_json_data(data, message_class, where):
    from google.protobuf import json_format
    items = data if isinstance(data, list) else [data]
    if len(items) != 1:
        raise Refused(f"{where}: {len(items)} messages for a unary call; give one object")
    try:
        return json_format.Parse(json.dumps(items[0]), message_class())
    except json_format.ParseError as e:
        raise Refused(f"{where}: jsonpb would refuse it: {e}")


def reads_as_ghz_does(key, value):
    """Whether `value` has the type Config gives `key` (a Go int refuses a bool)."""
    number = isinstance(value, int) and not isinstance(value, bool)
    if key in STRINGS:
        return isinstance(value, str)
    if key in UINTS:
        return number and value >= 0
    if key in INTS:
        return number
    if key in BOOLS:
        return isinstance(value, bool)
    if key in DURATIONS:
        return isinstance(value, str) and GO_DURATION.fullmatch(value) is not None
    if key in STRING_MAPS:
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    return True


def check_config(path, methods, root):
    where = os.path.relpath(path, root)
    try:
        with open(path) as f:
            config = json.load(f)
    except ValueError as e:
        raise Refused(f"{where}: not JSON: {e}")
    if not isinstance(config, dict):
        raise Refused(f"{where}: not a JSON object")
    for key, value in config.items():
        if key not in KNOWN:
            raise Refused(f"{where}: unknown key {key!r} (ghz ignores it silently)")
        ok = reads_as_ghz_does(key, value)
        if not ok:
            raise Refused(f"{where}: {key}: {value!r} is not what ghz reads there")
    if "data" in config:
        data = config["data"]
        if not (isinstance(data, dict) or (isinstance(data, list) and data
                                           and all(isinstance(d, dict) for d in data))):
            raise Refused(f"{where}: data: must be an object or a non-empty array of objects")
    if config.get("format", "summary") not in FORMATS:
        raise Refused(f"{where}: format {config['format']!r} unknown")
    for key in ("call", "host"):
        if not str(config.get(key, "")).strip():
            raise Refused(f"{where}: {key} required")
    if config.get("connections", 1) > config.get("concurrency", 50):
        raise Refused(f"{where}: connections > concurrency (ghz refuses it)")
    if not config.get("insecure") and not config.get("cacert"):
        raise Refused(f"{where}: neither insecure nor cacert: the server speaks cleartext")

    service, method = parse_service_method(config["call"].strip())
    if service not in methods or method not in methods[service]:
        raise Refused(f"{where}: call {config['call']!r}: no such method on the server")
    message_class = methods[service][method]

    if config.get("binary-file"):
        payload = os.path.join(root, config["binary-file"])
        message = check_binary(payload, message_class)
        source = config["binary-file"]
    elif config.get("data-file", "").strip():
        with open(os.path.join(root, config["data-file"].strip())) as f:
            message = check_json_data(json.load(f), message_class, where)
        source = config["data-file"]
    elif "data" in config:
        message = check_json_data(config["data"], message_class, where)
        source = "data"
    else:
        raise Refused(f"{where}: no data, data-file or binary-file: ghz sends nothing")
    return f"{where}: {service}/{method}, one {message.DESCRIPTOR.name} from {source} " \
           f"({message.ByteSize()} bytes)"


def self_test(methods, configs):
    """Broken variants of the real configs must all be refused."""
    work = tempfile.mkdtemp(prefix="climbot-ghz-check-")
    try:
        payloads = os.path.join(work, "deploy/loadtest/payloads")
        shutil.copytree(os.path.join(ROOT, "deploy/loadtest/payloads"), payloads)
        select = next(c for c in configs if "binary-file" in json.load(open(c)))
        base = json.load(open(select))
        bare = base["binary-file"].replace(".ghz.bin", ".bin")
        with open(os.path.join(payloads, "empty.bin"), "wb"):
            pass
        with open(os.path.join(payloads, "two.ghz.bin"), "wb") as f:
            f.write(open(os.path.join(ROOT, base["binary-file"]), "rb").read() * 2)
        cases = {
            "the bare message (read as one only by luck)": dict(base, **{"binary-file": bare}),
            "an empty binary file": dict(base, **{"binary-file": "deploy/loadtest/payloads/empty.bin"}),
            "two messages in one file": dict(base, **{"binary-file": "deploy/loadtest/payloads/two.ghz.bin"}),
            "a misspelt key": {**{k: v for k, v in base.items() if k != "binary-file"},
                               "binary_file": base["binary-file"]},
            "no data at all": {k: v for k, v in base.items() if k != "binary-file"},
            "an unknown method": dict(base, call="climbot.v1.BotService.SelectPlays"),
            "a field the message lacks": {**{k: v for k, v in base.items() if k != "binary-file"},
                                          "data": {"views": {}}},
            "a bad duration": dict(base, timeout="500 ms"),
            "more connections than concurrency": dict(base, connections=64, concurrency=4),
        }
        missed = []
        for name, config in cases.items():
            path = os.path.join(work, "case.json")
            with open(path, "w") as f:
                json.dump(config, f)
            try:
                check_config(path, methods, work)
                missed.append(name)
            except Refused as e:
                print(f"  refused as meant, {name}: {e}")
        if missed:
            sys.exit(f"ghz check: self-test: accepted {', '.join(missed)}")
        print(f"ghz check: self-test ok ({len(cases)} broken configs refused)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stubs", required=True)
    p.add_argument("--self-test", action="store_true")
    p.add_argument("configs", nargs="*")
    args = p.parse_args()
    configs = args.configs or sorted(glob.glob(os.path.join(HERE, "*.json")))
    if not configs:
        sys.exit("ghz check: no configs")
    methods = api_methods(args.stubs)
    if args.self_test:
        self_test(methods, configs)
        return
    failed = 0
    for path in configs:
        try:
            print(f"  ok: {check_config(path, methods, ROOT)}")
        except Refused as e:
            print(f"  FAIL: {e}", file=sys.stderr)
            failed += 1
    if failed:
        sys.exit(f"ghz check: {failed} of {len(configs)} configs fail")
    print(f"ghz check: ok ({len(configs)} configs read as ghz reads them)")


if __name__ == "__main__":
    main()
