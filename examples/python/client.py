"""A game backend in Python calling climbot: ListLegalPlays, then SelectPlay.

Stubs are generated from proto/ with grpcio-tools (see run.sh):
    python -m grpc_tools.protoc -I proto --python_out=gen --grpc_python_out=gen \
        climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/daifugo.proto
"""

import sys

import grpc
from climbot.v1 import bot_pb2, bot_pb2_grpc, lexio_pb2

CLOUD, STAR, MOON, SUN = (lexio_pb2.SUIT_CLOUD, lexio_pb2.SUIT_STAR,
                          lexio_pb2.SUIT_MOON, lexio_pb2.SUIT_SUN)


def tile(number, suit):
    return lexio_pb2.Tile(number=number, suit=suit)


def example_view():
    """Four players; seat 1 led star 3; the bot (seat 2) must beat it or pass."""
    hand = [tile(3, MOON), tile(4, CLOUD), tile(4, SUN), tile(5, STAR), tile(6, MOON),
            tile(7, SUN), tile(9, CLOUD), tile(9, STAR), tile(9, MOON), tile(11, CLOUD),
            tile(12, SUN), tile(1, STAR), tile(2, CLOUD)]
    return lexio_pb2.LexioView(
        player_count=4,
        seat=2,
        hand=hand,
        table=[tile(3, STAR)],
        seats=[lexio_pb2.LexioSeat(tile_count=n) for n in (13, 12, 13, 13)],
        played=[tile(3, STAR)],
        log=[lexio_pb2.LexioLogEntry(seat=1, tiles=[tile(3, STAR)])],
        round=1,
        scores=[0, 0, 0, 0],
    )


def show(action):
    if action.WhichOneof("action") == "pass":
        return "pass"
    kind = lexio_pb2.LexioCombination.Name(action.play.combination)
    tiles = " ".join(f"{lexio_pb2.Suit.Name(t.suit)[5:].lower()}-{t.number}"
                     for t in action.play.tiles)
    return f"{kind[len('LEXIO_COMBINATION_'):].lower()} [{tiles}]"


def main(address):
    with grpc.insecure_channel(address) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        view = bot_pb2.GameView(lexio=example_view())

        legal = stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0)
        print(f"{len(legal.lexio.actions)} legal actions, e.g. "
              + ", ".join(show(a) for a in legal.lexio.actions[:4]))

        request = bot_pb2.SelectPlayRequest(
            view=view, difficulty=bot_pb2.DIFFICULTY_EXPERT, budget_ms=100)
        response = stub.SelectPlay(request, timeout=2.0)
        print(f"bot plays {show(response.decision.lexio)} "
              f"(seed {response.seed}, fallback {response.fallback}, "
              f"{response.compute_micros} us)")
        assert response.decision.lexio in legal.lexio.actions

        # A bad view is refused with INVALID_ARGUMENT naming the field.
        bad = example_view()
        bad.hand[0].suit = 0
        try:
            stub.SelectPlay(bot_pb2.SelectPlayRequest(view=bot_pb2.GameView(lexio=bad)),
                            timeout=2.0)
            raise SystemExit("a bad view was accepted")
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
            print(f"bad view refused: {e.code().name}: {e.details()}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051")
