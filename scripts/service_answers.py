"""Asks a running climbot server for its answer to every SelectPlay payload at every
level and prints one line per (payload, level): the decision, the seed and the
difficulty, or the status code of a refusal. Two builds that print the same lines
answer the same way (used to show that a refactor changed nothing).

    python3 scripts/service_answers.py ADDR PAYLOAD_DIR

Needs the Python stubs generated from proto/ on PYTHONPATH (see examples/python/run.sh).
"""

import pathlib
import sys

import grpc
from google.protobuf import text_format
from climbot.v1 import bot_pb2, bot_pb2_grpc

LEVELS = [bot_pb2.DIFFICULTY_EASY, bot_pb2.DIFFICULTY_NORMAL,
          bot_pb2.DIFFICULTY_HARD, bot_pb2.DIFFICULTY_EXPERT]


def main(addr, payload_dir):
    stub = bot_pb2_grpc.BotServiceStub(grpc.insecure_channel(addr))
    for path in sorted(pathlib.Path(payload_dir).glob("*.bin")):
        # Plain requests only: not the framed copies for h2load and ghz
        # (`*.h2load.bin`, `*.ghz.bin`), nor the health check's.
        if len(path.suffixes) > 1 or path.name.startswith("health"):
            continue
        request = bot_pb2.SelectPlayRequest.FromString(path.read_bytes())
        for level in LEVELS:
            request.difficulty = level
            # A budget generous enough that no search is cut short by the clock, and a
            # fixed number of playouts, so that EXPERT's answer does not follow the clock
            # (successive halving over a budget does: Lexio's, and Daifugo's under the
            # UECda rules).
            request.budget_ms = 5000
            if level == bot_pb2.DIFFICULTY_EXPERT:
                request.max_iterations = 2000
            else:
                request.ClearField("max_iterations")
            try:
                response = stub.SelectPlay(request, timeout=30)
                decision = text_format.MessageToString(response.decision, as_one_line=True)
                line = (f"decision={decision} seed={response.seed} "
                        f"difficulty={bot_pb2.Difficulty.Name(response.difficulty)} "
                        f"fallback={response.fallback}")
            except grpc.RpcError as error:
                line = f"refused {error.code().name}"
            print(f"{path.stem} {bot_pb2.Difficulty.Name(level)}: {line}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
