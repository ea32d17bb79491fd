"""A game backend in Python calling climbot: for each game (Lexio, The Great Dalmuti,
Daifugo) it builds a view, asks ListLegalPlays for every legal decision, asks SelectPlay
for the bot's decision, checks that the decision is one of the legal ones, and replays
it with the echoed seed. It asks AnalyzePlay for a hint for a human in that seat (the
best three decisions, and a review of one the player considers). Then it sends a broken
view and checks that it is refused with INVALID_ARGUMENT naming the field.

    python client.py [--ca CA.crt [--cert CLIENT.crt --key CLIENT.key]] [ADDRESS]

Plaintext by default; `--ca` calls over TLS, trusting the server's certificate when that
CA signed it; `--cert` and `--key` add a client certificate for mutual TLS.

Stubs are generated from proto/ with grpcio-tools (see run.sh and README.md):
    python -m grpc_tools.protoc -I proto --python_out=gen --grpc_python_out=gen \\
        climbot/v1/bot.proto climbot/v1/lexio.proto climbot/v1/dalmuti.proto climbot/v1/daifugo.proto
"""

import argparse
import sys

import grpc
from google.protobuf import text_format
from climbot.v1 import bot_pb2, bot_pb2_grpc, daifugo_pb2, dalmuti_pb2, lexio_pb2

CLOUD, STAR, MOON, SUN = (lexio_pb2.LEXIO_SUIT_CLOUD, lexio_pb2.LEXIO_SUIT_STAR,
                          lexio_pb2.LEXIO_SUIT_MOON, lexio_pb2.LEXIO_SUIT_SUN)


def tile(number, suit):
    return lexio_pb2.LexioTile(number=number, suit=suit)


def lexio_view():
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


def daifugo_view():
    """Four players, game 1 under the house rules: seat 0 holds the diamond 3 and leads."""
    spades, hearts, diamonds, clubs = (daifugo_pb2.DAIFUGO_SUIT_SPADES,
                                       daifugo_pb2.DAIFUGO_SUIT_HEARTS,
                                       daifugo_pb2.DAIFUGO_SUIT_DIAMONDS,
                                       daifugo_pb2.DAIFUGO_SUIT_CLUBS)

    def card(rank, suit):
        return daifugo_pb2.DaifugoCard(rank=rank, suit=suit)

    hand = [card(3, diamonds), card(4, spades), card(5, hearts), card(5, clubs),
            card(7, diamonds), card(8, spades), card(9, hearts), card(10, spades),
            card(11, diamonds), card(12, clubs), card(13, hearts), card(14, spades),
            card(15, diamonds), daifugo_pb2.DaifugoCard(joker=1)]
    return daifugo_pb2.DaifugoView(
        rules=daifugo_pb2.DaifugoRules(preset=daifugo_pb2.DAIFUGO_RULE_PRESET_HOUSE),
        seat=0,
        game=1,
        phase=daifugo_pb2.DAIFUGO_PHASE_PLAY,
        hand=hand,
        seats=[daifugo_pb2.DaifugoSeat(card_count=n, title=daifugo_pb2.DAIFUGO_TITLE_HEIMIN)
               for n in (14, 13, 13, 13)],
    )


def legal_decisions(response):
    """The decisions ListLegalPlays listed, each wrapped as a Decision."""
    game = response.WhichOneof("game")
    return [bot_pb2.Decision(**{game: d}) for d in getattr(response, game).decisions]


def play(stub, name, view, level, budget_ms=200):
    legal = legal_decisions(
        stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0))
    assert legal, f"{name}: no legal decision listed"
    request = bot_pb2.SelectPlayRequest(view=view, difficulty=level, budget_ms=budget_ms)
    reply = stub.SelectPlay(request, timeout=2.0)
    assert reply.decision in legal, f"{name}: {reply.decision} is not legal"
    # The same view, level and seed give the same decision (for EXPERT, also the same
    # number of playouts: fix it with max_iterations).
    request.seed = reply.seed
    if level == bot_pb2.DIFFICULTY_EXPERT:
        request.max_iterations = 200
        reply = stub.SelectPlay(request, timeout=2.0)
        assert reply.decision in legal, f"{name}: {reply.decision} is not legal"
    again = stub.SelectPlay(request, timeout=2.0)
    assert again.decision == reply.decision, f"{name}: the replay differs"
    decision = text_format.MessageToString(reply.decision, as_one_line=True)
    print(f"{name}: {len(legal)} legal decisions; {bot_pb2.Difficulty.Name(level)} plays "
          f"{decision} (seed {reply.seed}, fallback {reply.fallback}, "
          f"{reply.compute_micros} us)")


def strength(stub, name, view, target=900.0):
    """A finer dial than the levels: a target on the game's ladder rating scale (Elo,
    random = 0). The server plays its calibrated setting nearest the target and says
    which: its measured rating and the level it is built from. A strength with a level
    is refused naming `strength`."""
    legal = legal_decisions(
        stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0))
    request = bot_pb2.SelectPlayRequest(view=view, strength=target, max_iterations=200)
    reply = stub.SelectPlay(request, timeout=2.0)
    assert reply.decision in legal, f"{name}: {reply.decision} is not legal"
    assert reply.HasField("strength"), f"{name}: no strength in the answer"
    assert reply.difficulty != bot_pb2.DIFFICULTY_UNSPECIFIED, f"{name}: no level served"
    request.seed = reply.seed
    again = stub.SelectPlay(request, timeout=2.0)
    assert again.decision == reply.decision, f"{name}: the replay differs"
    try:
        stub.SelectPlay(bot_pb2.SelectPlayRequest(view=view, strength=target,
                                                  difficulty=bot_pb2.DIFFICULTY_HARD),
                        timeout=2.0)
        raise AssertionError(f"{name}: a strength with a level was accepted")
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
        assert e.details().startswith("strength: "), e.details()
    print(f"{name}: strength {target:g} plays the setting rated {reply.strength:g} "
          f"({bot_pb2.Difficulty.Name(reply.difficulty)})")


def hint(stub, name, view):
    """A hint for a human in this seat: the best three decisions with the outcome each is
    expected to give, and the review of the one the player considers (here the last
    legal decision). A fixed max_iterations makes it replayable with the echoed seed."""
    legal = legal_decisions(
        stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=view), timeout=2.0))
    considered = legal[-1]
    request = bot_pb2.AnalyzePlayRequest(view=view, decision=considered, top=3,
                                         max_iterations=20 * len(legal), budget_ms=2000)
    reply = stub.AnalyzePlay(request, timeout=5.0)
    assert reply.decisions and reply.decisions[0].best, f"{name}: the first is not the best"
    assert all(d.decision in legal for d in reply.decisions), f"{name}: an illegal hint"
    assert reply.review.decision == considered, f"{name}: the review is of another decision"
    request.seed = reply.seed
    again = stub.AnalyzePlay(request, timeout=5.0)
    # The same seed and the same number of playouts give the same analysis. On a loaded
    # machine the budget can end one of the two before max_iterations; then they differ
    # in work, and only the work is compared.
    if again.search_iterations == reply.search_iterations:
        assert again.decisions == reply.decisions, f"{name}: the replayed analysis differs"
    else:
        print(f"{name}: the budget ended a hint early ({reply.search_iterations} and "
              f"{again.search_iterations} playouts); not compared")
    direction = "higher" if reply.higher_is_better else "lower"
    best = reply.decisions[0]
    category = bot_pb2.ReviewCategory.Name(reply.review.category)
    print(f"{name}: hint {text_format.MessageToString(best.decision, as_one_line=True)} "
          f"expects {best.expected:.2f} {reply.unit} ({direction} is better, 95% "
          f"[{best.ci95_low:.2f}, {best.ci95_high:.2f}]); the considered decision is "
          f"{category} (loses {reply.review.loss:.2f}); {reply.search_iterations} playouts")


def refused(stub):
    """A Lexio view whose first tile has no suit: INVALID_ARGUMENT naming the field."""
    bad = lexio_view()
    bad.hand[0].suit = lexio_pb2.LEXIO_SUIT_UNSPECIFIED
    try:
        stub.SelectPlay(bot_pb2.SelectPlayRequest(view=bot_pb2.GameView(lexio=bad)),
                        timeout=2.0)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
        assert e.details().startswith("view.lexio.hand[0].suit: "), e.details()
        print(f"bad view refused: {e.code().name}: {e.details()}")
        return
    raise AssertionError("a bad view was accepted")


def channel(args):
    """A plaintext channel, or a TLS one trusting --ca (with --cert/--key: mutual TLS)."""
    if args.ca is None:
        return grpc.insecure_channel(args.address)

    def read(path):
        with open(path, "rb") as f:
            return f.read()

    credentials = grpc.ssl_channel_credentials(
        root_certificates=read(args.ca),
        private_key=read(args.key) if args.key else None,
        certificate_chain=read(args.cert) if args.cert else None)
    return grpc.secure_channel(args.address, credentials)


def reachable(stub, args):
    """One call first, so that a server that cannot be reached (or whose TLS does not
    match ours) is reported once, clearly, instead of as four failed checks."""
    try:
        stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(
            view=bot_pb2.GameView(lexio=lexio_view())), timeout=5.0)
        return True
    except grpc.RpcError as e:
        if args.ca is None:
            how = "plaintext (no --ca)"
        elif args.cert is None:
            how = f"TLS trusting {args.ca}, without a client certificate"
        else:
            how = f"TLS trusting {args.ca}, with the client certificate {args.cert}"
        print(f"python: cannot call {args.address} over {how}: {e.code().name}: "
              f"{e.details()}", file=sys.stderr)
        return False


def main(argv):
    parser = argparse.ArgumentParser(description="Calls climbot as a game backend would.")
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051")
    parser.add_argument("--ca", metavar="FILE",
                        help="call over TLS, trusting the CA certificates in FILE (PEM)")
    parser.add_argument("--cert", metavar="FILE",
                        help="mutual TLS: the client certificate chain (PEM); needs --key")
    parser.add_argument("--key", metavar="FILE",
                        help="mutual TLS: the client certificate's private key (PEM)")
    args = parser.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together")
    if args.cert and args.ca is None:
        parser.error("--cert and --key need --ca (a client certificate is sent over TLS)")
    with channel(args) as ch:
        stub = bot_pb2_grpc.BotServiceStub(ch)
        if not reachable(stub, args):
            return 2
        checks = [
            ("lexio", lambda: play(stub, "lexio", bot_pb2.GameView(lexio=lexio_view()),
                                   bot_pb2.DIFFICULTY_EXPERT, budget_ms=100)),
            ("dalmuti", lambda: play(stub, "dalmuti",
                                     bot_pb2.GameView(dalmuti=dalmuti_view()),
                                     bot_pb2.DIFFICULTY_HARD)),
            ("daifugo", lambda: play(stub, "daifugo",
                                     bot_pb2.GameView(daifugo=daifugo_view()),
                                     bot_pb2.DIFFICULTY_HARD)),
            ("strength", lambda: [strength(stub, game, bot_pb2.GameView(**{game: view()}))
                                  for game, view in (("lexio", lexio_view),
                                                     ("dalmuti", dalmuti_view),
                                                     ("daifugo", daifugo_view))]),
            ("hint", lambda: [hint(stub, game, bot_pb2.GameView(**{game: view()}))
                              for game, view in (("lexio", lexio_view),
                                                 ("dalmuti", dalmuti_view),
                                                 ("daifugo", daifugo_view))]),
            ("bad view", lambda: refused(stub)),
        ]
        failed = 0
        for name, check in checks:
            try:
                check()
            except (AssertionError, grpc.RpcError) as e:
                print(f"FAIL {name}: {e}", file=sys.stderr)
                failed += 1
        print(f"python: {len(checks) - failed} passed, {failed} failed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
