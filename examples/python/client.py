"""A game backend in Python calling climbot: ListLegalPlays, then SelectPlay, for Lexio
and for The Great Dalmuti.

Stubs are generated from proto/ with grpcio-tools (see run.sh):
    python -m grpc_tools.protoc -I proto --python_out=gen --grpc_python_out=gen \
        climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
"""

import sys

import grpc
from climbot.v1 import bot_pb2, bot_pb2_grpc, dalmuti_pb2, lexio_pb2

CLOUD, STAR, MOON, SUN = (lexio_pb2.LEXIO_SUIT_CLOUD, lexio_pb2.LEXIO_SUIT_STAR,
                          lexio_pb2.LEXIO_SUIT_MOON, lexio_pb2.LEXIO_SUIT_SUN)


def tile(number, suit):
    return lexio_pb2.LexioTile(number=number, suit=suit)


def example_view():
    """Four players; seat 1 led star 3; the bot (seat 2) must beat it or pass."""
    hand = [tile(3, MOON), tile(4, CLOUD), tile(4, SUN), tile(5, STAR), tile(6, MOON),
            tile(7, SUN), tile(9, CLOUD), tile(9, STAR), tile(9, MOON), tile(11, CLOUD),
            tile(12, SUN), tile(1, STAR), tile(2, CLOUD)]
    return lexio_pb2.LexioView(
        player_count=4,
        seat=2,
        hand=hand,
        table=lexio_pb2.LexioTable(owner=1, tiles=[tile(3, STAR)]),
        seats=[lexio_pb2.LexioSeat(tile_count=n) for n in (13, 12, 13, 13)],
        played=[tile(3, STAR)],
        log=[lexio_pb2.LexioLogEntry(seat=1, tiles=[tile(3, STAR)])],
        round=1,
        scores=[0, 0, 0, 0],
    )


def show(decision):
    if decision.WhichOneof("decision") == "pass":
        return "pass"
    kind = lexio_pb2.LexioCombination.Name(decision.play.combination)
    tiles = " ".join(f"{lexio_pb2.LexioSuit.Name(t.suit)[len('LEXIO_SUIT_'):].lower()}-{t.number}"
                     for t in decision.play.tiles)
    return f"{kind[len('LEXIO_COMBINATION_'):].lower()} [{tiles}]"


def dalmuti_view():
    """Five players, first hand: the Greater Dalmuti (seat 0) leads with 16 cards."""
    # One count per rank 1..12, then Jesters: 1x1, 2x2, 3x3, 4x4, 5x5, 6x1.
    hand = [1, 2, 3, 4, 5, 1, 0, 0, 0, 0, 0, 0, 0]
    titles = [dalmuti_pb2.DALMUTI_TITLE_GREATER_DALMUTI,
              dalmuti_pb2.DALMUTI_TITLE_LESSER_DALMUTI,
              dalmuti_pb2.DALMUTI_TITLE_MERCHANT,
              dalmuti_pb2.DALMUTI_TITLE_LESSER_PEON,
              dalmuti_pb2.DALMUTI_TITLE_GREATER_PEON]
    return dalmuti_pb2.DalmutiView(
        seat=0,
        phase=dalmuti_pb2.DALMUTI_PHASE_PLAY,
        hand=dalmuti_pb2.DalmutiCards(counts=hand),
        seats=[dalmuti_pb2.DalmutiSeat(card_count=16, title=t) for t in titles],
        hand_number=1,
        hands_left=19,
    )


def show_dalmuti(decision):
    kind = decision.WhichOneof("decision")
    if kind == "play":
        p = decision.play
        return f"play {p.naturals} of rank {p.rank} + {p.jesters} Jesters"
    return kind


def dalmuti(stub):
    view = bot_pb2.GameView(dalmuti=dalmuti_view())
    legal = stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0)
    response = stub.SelectPlay(
        bot_pb2.SelectPlayRequest(view=view, difficulty=bot_pb2.DIFFICULTY_EASY),
        timeout=2.0)
    print(f"dalmuti: {len(legal.dalmuti.decisions)} legal leads; "
          f"bot: {show_dalmuti(response.decision.dalmuti)} (seed {response.seed})")
    assert response.decision.dalmuti in legal.dalmuti.decisions


def main(address):
    with grpc.insecure_channel(address) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        view = bot_pb2.GameView(lexio=example_view())

        legal = stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0)
        print(f"{len(legal.lexio.decisions)} legal decisions, e.g. "
              + ", ".join(show(d) for d in legal.lexio.decisions[:4]))

        request = bot_pb2.SelectPlayRequest(
            view=view, difficulty=bot_pb2.DIFFICULTY_EXPERT, budget_ms=100)
        response = stub.SelectPlay(request, timeout=2.0)
        print(f"bot plays {show(response.decision.lexio)} "
              f"(seed {response.seed}, fallback {response.fallback}, "
              f"{response.compute_micros} us)")
        assert response.decision.lexio in legal.lexio.decisions

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

        dalmuti(stub)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051")
