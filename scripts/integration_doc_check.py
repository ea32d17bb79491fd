"""Checks docs/integration.md against a running climbot server:

- every worked example (the ```json block after `<!-- example: GAME -->`) is accepted
  by SelectPlay, and its decision is among ListLegalPlays' decisions;
- every row of every mistakes table (after `<!-- mistakes: GAME -->`) names a mistake
  this script knows how to make on that game's example; the server refuses the result
  with INVALID_ARGUMENT and exactly the message the row quotes.

    python3 scripts/integration_doc_check.py ADDR

Needs the Python stubs generated from proto/ on PYTHONPATH (examples/python/run.sh
runs it after the Python client).
"""

import copy
import json
import pathlib
import re
import sys

import grpc
from google.protobuf import json_format
from climbot.v1 import bot_pb2, bot_pb2_grpc

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "integration.md"


def lexio(name, v):
    if name == "a tile without a suit":
        v["hand"][0].pop("suit")
    elif name == "a tile numbered for 5 players":
        v["hand"][0]["number"] = 14
    elif name == "the table without its owner":
        v["table"].pop("owner")
    elif name == "an owner other than the log's last play":
        v["table"]["owner"] = 1
    elif name == "the bot's own seat as the owner":
        v["table"]["owner"] = 0
        v.pop("log")
    elif name == "an empty table sent as a message":
        v["table"] = {"owner": 2}
        v.pop("log")
    elif name == "the table missing from played":
        v["played"] = v["played"][:2]
    elif name == "the tile counts at the deal, not now":
        v["seats"] = [{"tileCount": 13}] * 4
    elif name == "the bot's tile count not its hand's":
        v["seats"][0]["tileCount"] = 12
    elif name == "one seat entry too few":
        v["seats"] = v["seats"][:3]
    elif name == "only the current trick in the log":
        v["log"] = v["log"][1:]
    elif name == "the log without the last pass":
        v["log"] = v["log"][:2]
    elif name == "round 0":
        v["round"] = 0
    else:
        return False
    return True


def dalmuti(name, v):
    if name == "12 counts (the Jesters forgotten)":
        v["hand"]["counts"] = v["hand"]["counts"][:12]
    elif name == "no phase":
        v.pop("phase")
    elif name == "titles out of seat order":
        v["seats"][1]["title"], v["seats"][2]["title"] = (v["seats"][2]["title"],
                                                          v["seats"][1]["title"])
    elif name == "a seat marked finished that holds cards":
        v["seats"][2]["finished"] = True
    elif name == "a card count not what the log leaves":
        v["seats"][2]["cardCount"] = 15
    elif name == "played missing the table's cards":
        v["played"]["counts"][6] = 0
    elif name == "the table not the log's last play":
        v["table"] = {"rank": 10, "naturals": 2}
    elif name == "the log of the whole match, not this hand":
        v["log"].insert(0, {"seat": 3, "play": {"rank": 9, "naturals": 1}})
    elif name == "a log entry with neither pass nor play":
        v["log"][2] = {"seat": 2}
    elif name == "tax_return outside the tax-return phase":
        v["taxReturn"] = {"count": 2, "to": 4}
    elif name == "hand_number 0":
        v.pop("handNumber")
    else:
        return False
    return True


def daifugo(name, v):
    if name == "no rules preset":
        v["rules"] = {}
    elif name == "no phase":
        v.pop("phase")
    elif name == "a natural card without a suit":
        v["hand"][0].pop("suit")
    elif name == "the 2 as rank 2":
        v["hand"][11]["rank"] = 2
    elif name == "a joker with a rank":
        v["hand"][12]["rank"] = 15
    elif name == "a joker with a suit":
        v["hand"][12]["suit"] = "DAIFUGO_SUIT_SPADES"
    elif name == "the table's kind left out":
        v["table"].pop("kind")
    elif name == "the table's owner not the log's":
        v["table"]["owner"] = 2
    elif name == "the owner marked passed":
        v["seats"][3]["passed"] = True
    elif name == "the table missing from played":
        v["played"] = v["played"][:1]
    elif name == "card counts that miss the played cards":
        v["seats"][3]["cardCount"] = 13
    elif name == "no log":
        v.pop("log")
    elif name == "a lock on other suits than the table's":
        v["lock"] = ["DAIFUGO_SUIT_SPADES"]
    elif name == "titles before game 2":
        v["seats"][0]["title"] = "DAIFUGO_TITLE_DAIFUGO"
    else:
        return False
    return True


def request(name, r):
    """Mistakes of the request around a valid view (the Lexio example's)."""
    if name == "no game in the view":
        r["view"] = {}
    elif name == "a difficulty the server does not know":
        r["difficulty"] = 9
    elif name == "a zero budget":
        r["budgetMs"] = 0
    else:
        return False
    return True


def examples(text):
    out = {}
    for m in re.finditer(r"<!-- example: (\w+) -->\s*```json\n(.*?)\n```", text, re.S):
        out[m.group(1)] = json.loads(m.group(2))
    return out


def mistakes(text):
    """{game: [(mistake, message)]} from the tables after each marker."""
    out = {}
    for m in re.finditer(r"<!-- mistakes: (\w+) -->\n((?:\|.*\n)+)", text):
        rows = []
        for line in m.group(2).splitlines()[2:]:
            cells = [c.strip() for c in line.strip().strip("|").split("|", 1)]
            code = re.fullmatch(r"(`+)\s?(.*?)\s?\1", cells[1])
            assert code, f"no quoted message in {line!r}"
            rows.append((cells[0], code.group(2)))
        out[m.group(1)] = rows
    return out


def main(addr):
    text = DOC.read_text()
    stub = bot_pb2_grpc.BotServiceStub(grpc.insecure_channel(addr))
    requests = examples(text)
    assert set(requests) == {"lexio", "dalmuti", "daifugo"}, sorted(requests)
    for game, req in requests.items():
        msg = json_format.ParseDict(req, bot_pb2.SelectPlayRequest())
        reply = stub.SelectPlay(msg, timeout=5)
        legal = stub.ListLegalPlays(bot_pb2.ListLegalPlaysRequest(view=msg.view), timeout=5)
        decisions = [bot_pb2.Decision(**{game: d})
                     for d in getattr(legal, game).decisions]
        assert reply.decision in decisions, f"{game}: the answer is not legal"
    checked = 0
    mutate = {"lexio": lexio, "dalmuti": dalmuti, "daifugo": daifugo}
    for game, rows in mistakes(text).items():
        for name, expected in rows:
            if game == "request":
                req = copy.deepcopy(requests["lexio"])
                known = request(name, req)
            else:
                req = copy.deepcopy(requests[game])
                known = mutate[game](name, req["view"][game])
            assert known, f"{game}: no way to make the mistake {name!r}"
            msg = json_format.ParseDict(req, bot_pb2.SelectPlayRequest())
            try:
                stub.SelectPlay(msg, timeout=5)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, (game, name, e)
                assert e.details() == expected, (
                    f"{game}: {name}: the server says\n  {e.details()}\nthe doc says\n  "
                    f"{expected}")
                checked += 1
                continue
            raise AssertionError(f"{game}: {name}: accepted")
    print(f"docs/integration.md: 3 examples answered, {checked} mistakes refused as documented")


if __name__ == "__main__":
    main(sys.argv[1])
