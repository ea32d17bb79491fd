#!/usr/bin/env python3
"""The playground page in a real browser: headless Chromium driven by Selenium.

Starts `climbot playground` on a free port, then by clicking only: plays a whole Lexio
round, a whole Daifugo game and two whole Dalmuti hands from the human seat (the last
bot of each at a strength on the dial, shown in its seat), checks that
the human's hand shows (every card disabled) while bots play, from each deal on, checks
on every turn that cards outside every legal action cannot be picked, that nothing but a
legal action can be submitted and that "You" and the seat to act are drawn at the view's
own seats (Dalmuti's players change seats after the first hand), asks for a hint on the
first human turns of each deal (the suggestions drawn, the best marked, one picked and
not played), checks the review of the human's decisions after each deal (one row per
decision, each with its category), opens a bot's explanation, steps and plays a bot-only
table, and saves screenshots at 1280x800 and at a phone's 390x844.

Then the renderer over many seeded bot-only tables, every level in the seats: for each
game (and Daifugo preset) tables opened by their address (`#table=ID`) are run by the
bots to the end, every move's "why?" is opened, and the run fails on any console error,
any error shown on the page, an explanation without its legend or a table without its
final standings. The tables' moves must between them show every card (and tile) kind,
every Lexio combination, the lone and the declared Daifugo joker, Daifugo revolutions and
exchanges, and Dalmuti tax returns and revolution choices.

Usage: playground_browser.py --bin target/debug/climbot --out DIR
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import json
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

DESKTOP = (1280, 800)
PHONE = (390, 844)
TURN_TIMEOUT_S = 120


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_playground(binary):
    port = free_port()
    server = subprocess.Popen(
        # Few playouts per EXPERT move: the renderer is under test, not the search.
        [binary, "playground", "--addr", f"127.0.0.1:{port}", "--expert-iterations", "40"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(200):
        if server.poll() is not None:
            sys.exit(f"the playground exited: {server.stderr.read().decode()}")
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    sys.exit("the playground did not answer")


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_window_size(*DESKTOP)
    return driver


def retry(action, attempts=20):
    """Runs `action`, again if the page re-rendered under it."""
    for _ in range(attempts - 1):
        try:
            return action()
        except StaleElementReferenceException:
            time.sleep(0.05)
    return action()


def status(driver):
    return retry(lambda: driver.find_element(By.ID, "status").get_attribute("data-status"))


def log_length(driver):
    return retry(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#log li")))


def wait_for(driver, wanted, timeout=TURN_TIMEOUT_S):
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: status(d) in wanted
    )
    return status(driver)


def shot(driver, out, name, size=DESKTOP):
    driver.set_window_size(*size)
    time.sleep(0.3)
    path = os.path.join(out, f"{name}.png")
    driver.save_screenshot(path)
    driver.set_window_size(*DESKTOP)
    print(f"  screenshot {path}")


# The strength the last bot of every table set up by hand plays at.
STRENGTH = 900


def new_table(driver, url, game, players, human_seat, seed, rules=None, rounds=1, speed=4):
    driver.get(url)
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_visible_text(str(players))
    Select(driver.find_element(By.ID, "human-seat")).select_by_value(
        "" if human_seat is None else str(human_seat)
    )
    if rules:
        Select(driver.find_element(By.ID, "rules")).select_by_value(rules)
    levels = driver.find_elements(By.CSS_SELECTOR, "#levels select")
    for i, select in enumerate(levels):
        Select(select).select_by_visible_text(["hard", "normal", "easy"][i % 3])
    # The last bot plays at a strength on the dial instead of its level (the first
    # stays hard, whose moves the explanation check opens).
    driver.find_elements(By.CSS_SELECTOR, "#levels input.strength")[-1].send_keys(str(STRENGTH))
    for field, value in [("rounds", rounds), ("seed", seed)]:
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    # Speed 4: bots move as soon as the page has shown the last move.
    driver.execute_script(f"document.getElementById('speed').value = {speed};")
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 30).until(lambda d: status(d) != "")
    WebDriverWait(driver, 30).until(
        lambda d: f"strength {STRENGTH}" in d.find_element(By.ID, "seats").text
    )


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#hand button.card")


def selected_count(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#hand button.card.selected"))


def check_refusals(driver):
    """Cards outside every legal action cannot be picked, and with nothing or such a
    card picked nothing can be submitted. Returns how many cards were refused."""
    play = driver.find_element(By.ID, "play")
    assert not play.is_enabled(), "Play is enabled with no card picked"
    refused = [c for c in cards(driver) if not c.is_enabled()]
    for card in refused[:2]:
        card.click()  # a disabled button ignores the click
        assert selected_count(driver) == 0, "a refused card was picked"
        assert not driver.find_element(By.ID, "play").is_enabled()
    return len(refused)


def take_turn(driver, turn):
    """One human action by clicking: a choice button if one is offered, a pass on
    every other turn when passing is legal, otherwise enabled cards picked one by one
    until they make a legal action."""
    choices = driver.find_elements(By.CSS_SELECTOR, "#choices button.choice")
    pass_button = driver.find_element(By.ID, "pass")
    if choices:
        choices[0].click()
        return
    if pass_button.is_enabled() and turn % 2 == 1:
        pass_button.click()
        return
    for _ in range(20):
        if driver.find_element(By.ID, "play").is_enabled():
            driver.find_element(By.ID, "play").click()
            return
        choices = driver.find_elements(By.CSS_SELECTOR, "#choices button.choice")
        if choices:
            choices[0].click()
            return
        free = [c for c in cards(driver) if c.is_enabled() and "selected" not in c.get_attribute("class")]
        if not free:
            break
        free[0].click()
    if pass_button.is_enabled():
        pass_button.click()
        return
    raise AssertionError("no legal action could be picked by clicking")


SEATS_DRAWN = """
const game = state.game;
const own = state.your_hand && state.your_hand[game];
const seats = (selector) => Array.from(document.querySelectorAll(`#seats .seat${selector}`));
return {
  own: own ? own.seat : null,
  deal: own ? (own.round || own.game || own.hand_number) : null,
  view: state.view && state.view[game] ? state.view[game].seat : null,
  human: seats(".human").map((e) => [Number(e.dataset.seat), Number(e.dataset.player)]),
  acting: seats(".to-act").map((e) => Number(e.dataset.seat)),
  human_player: state.human_seat,
};
"""


def check_seats(driver, name):
    """At the human's turn "You" is drawn at the human's own seat, which is also the seat
    to act: the page's seats follow the view's numbering. Returns (deal, seat)."""
    drawn = driver.execute_script(SEATS_DRAWN)
    own = drawn["own"]
    assert drawn["human"] == [[own, drawn["human_player"]]], f"{name}: You at the wrong seat: {drawn}"
    assert drawn["acting"] == [own] and drawn["view"] == own, f"{name}: {drawn}"
    return drawn["deal"], own


def check_table_owner(driver, name):
    """The play to beat says who played it (in every game, Dalmuti's included)."""
    for owner in driver.find_elements(By.CSS_SELECTOR, "#table-play .owner"):
        assert owner.text.endswith("played"), f"{name}: the table says {owner.text!r}"


HINTS_PER_DEAL = 3


def hint_box(driver):
    return retry(lambda: driver.find_element(By.ID, "hint-box").text)


def ask_hint(driver, out, name, shoot):
    """Clicks "Hint" and checks what is drawn: suggestions with exactly one marked best
    and the unit stated, or a phase without analysis said. Picks the best suggestion and
    checks that nothing was played. Returns whether there were suggestions."""
    before = log_length(driver)
    driver.find_element(By.ID, "hint").click()
    WebDriverWait(driver, TURN_TIMEOUT_S, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-box tr.suggestion")
        or hint_box(d).startswith("No hint")
    )
    text = hint_box(driver)
    rows = driver.find_elements(By.CSS_SELECTOR, "#hint-box tr.suggestion")
    if not rows:
        assert "only the play of the cards" in text, f"{name}: {text!r}"
        return False
    assert "is better" in text, f"{name}: no unit and direction in {text!r}"
    best = driver.find_elements(By.CSS_SELECTOR, "#hint-box tr.suggestion.best")
    assert len(best) == 1 and rows[0] == best[0], f"{name}: best not marked first: {text!r}"
    assert "NaN" not in text and "undefined" not in text, f"{name}: {text!r}"
    if shoot:
        shot(driver, out, f"{name}-hint-1280x800")
    retry(lambda: driver.find_element(By.CSS_SELECTOR, "#hint-box tr.suggestion.best").click())
    WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-box tr.suggestion.picked")
    )
    time.sleep(0.2)
    assert log_length(driver) == before, f"{name}: picking a suggestion played it"
    assert status(driver) == "your_turn", f"{name}: picking a suggestion ended the turn"
    return True


def review_of(driver):
    return retry(lambda: (
        driver.find_element(By.ID, "review-panel").is_displayed(),
        driver.find_element(By.ID, "review").text,
        len(driver.find_elements(By.CSS_SELECTOR, "#review tbody tr")),
        len(driver.find_elements(By.CSS_SELECTOR, "#review tbody tr .category")),
    ))


def check_review(driver, out, name, noun, deal, decisions):
    """The review panel shows deal `deal` with a row and a category for each of the
    human's `decisions` in it."""
    def shown(d):
        visible, text, rows, categories = review_of(d)
        return visible and f"in {noun} {deal}" in text and rows > 0
    WebDriverWait(driver, TURN_TIMEOUT_S, poll_frequency=0.1).until(shown)
    _, text, rows, categories = review_of(driver)
    assert rows == decisions == categories, \
        f"{name}: {rows} rows, {categories} categories for {decisions} decisions in {noun} {deal}: {text!r}"
    assert "NaN" not in text and "undefined" not in text, f"{name}: {text!r}"
    shot(driver, out, f"{name}-review-{deal}-1280x800")
    print(f"  {name}: review of {noun} {deal}: {text.splitlines()[0]!r}")


def play_human_table(driver, out, name, deals=1):
    turns = refused = 0
    phone_taken = False
    seats_by_deal = {}
    decisions_by_deal = {}
    reviewed = set()
    suggested = 0
    noun = {"lexio": "round", "daifugo": "game", "dalmuti": "hand"}[name]
    while True:
        state = wait_for(driver, {"your_turn", "over", "failed"})
        if state == "failed":
            raise AssertionError(driver.find_element(By.ID, "status").text)
        if state == "over":
            break
        before = log_length(driver)
        deal, seat = retry(lambda: check_seats(driver, name))
        seats_by_deal.setdefault(deal, seat)
        if deal - 1 in decisions_by_deal and deal - 1 not in reviewed:
            check_review(driver, out, name, noun, deal - 1, decisions_by_deal[deal - 1])
            reviewed.add(deal - 1)
        refused += retry(lambda: check_refusals(driver))
        retry(lambda: check_table_owner(driver, name))
        if turns == 2:
            shot(driver, out, f"{name}-1280x800")
        if turns == 3 and not phone_taken:
            shot(driver, out, f"{name}-phone", PHONE)
            phone_taken = True
        decisions_by_deal[deal] = decisions_by_deal.get(deal, 0) + 1
        if decisions_by_deal[deal] <= HINTS_PER_DEAL:
            suggested += ask_hint(driver, out, name, shoot=suggested == 0)
        retry(lambda: take_turn(driver, turns))
        WebDriverWait(driver, TURN_TIMEOUT_S).until(
            lambda d: log_length(d) > before or status(d) in {"over", "failed"}
        )
        turns += 1
    standings = driver.find_element(By.ID, "standings").text
    assert "per" in standings, f"no final standings: {standings!r}"
    check_review(driver, out, name, noun, deals, decisions_by_deal[deals])
    shot(driver, out, f"{name}-over-1280x800")
    print(f"  {name}: {turns} human turns, {refused} refused cards seen, {log_length(driver)} moves,"
          f" the human's seat by deal {seats_by_deal}, {suggested} hints with suggestions")
    assert turns > 0
    assert suggested > 0, f"{name}: no hint had suggestions"
    assert sorted(seats_by_deal) == list(range(1, deals + 1)), f"{name}: deals {seats_by_deal}"
    assert reviewed == set(range(1, deals)), f"{name}: reviewed {reviewed} before the end"
    return refused


def deal_number(driver):
    words = retry(lambda: driver.find_element(By.ID, "status").text).split()
    for word, number in zip(words, words[1:]):
        if word in {"round", "game", "hand"} and number.isdigit():
            return int(number)
    return None


def check_hand_while_bots_play(driver, name):
    """At a bot's turn the human's whole hand is shown, every card disabled."""
    shown = retry(lambda: [c.is_enabled() for c in cards(driver)])
    heading = driver.find_element(By.CSS_SELECTOR, "#hand-area h2").text
    assert shown, f"{name}: no hand shown at a bot's turn ({heading!r})"
    assert not any(shown), f"{name}: a card can be picked at a bot's turn"
    assert "waiting" in heading, heading
    return len(shown)


def hand_from_the_deal(driver, url, out, game, players, seat, seed, rules=None):
    """A fresh table where a bot acts first: the hand shows before the human's turn
    (Dalmuti's tax phase included)."""
    new_table(driver, url, game, players, seat, seed, rules=rules, speed=0)
    driver.find_element(By.ID, "autoplay").click()  # pause the bots
    assert status(driver) == "bot_turn", f"{game}: a bot should act first"
    count = check_hand_while_bots_play(driver, game)
    shot(driver, out, f"{game}-deal-before-your-turn-1280x800")
    print(f"  {game}: {count} cards shown at a bot's turn right after the deal")


def hand_after_a_new_deal(driver, url, out):
    """A two-round Lexio table, the bots stepped by hand: the hand shows at every bot
    turn, and after the second deal before the human's first turn."""
    new_table(driver, url, "lexio", 4, 2, 2, rounds=2, speed=0)
    driver.find_element(By.ID, "autoplay").click()  # pause: the bots move on Step
    turns = 0
    for _ in range(1000):
        state = wait_for(driver, {"your_turn", "bot_turn", "over", "failed"})
        assert state not in {"over", "failed"}, "the first round should lead to a second"
        if state == "your_turn":
            before = log_length(driver)
            retry(lambda: take_turn(driver, turns))
            turns += 1
        else:
            count = check_hand_while_bots_play(driver, "lexio")
            if deal_number(driver) == 2:
                shot(driver, out, "lexio-new-deal-before-your-turn-1280x800")
                print(f"  lexio: {count} tiles shown at a bot's turn after the new deal")
                return
            before = log_length(driver)
            driver.find_element(By.ID, "step").click()
        WebDriverWait(driver, TURN_TIMEOUT_S).until(lambda d: log_length(d) > before)
    raise AssertionError("the second round never came")


def explain_a_bot_move(driver, out):
    """A hard bot's move shows the candidates it scored, its choice marked."""
    moves = [li for li in driver.find_elements(By.CSS_SELECTOR, "#log li") if "(hard)" in li.text]
    assert moves, "no hard bot move to explain"
    # Its first move: a hard bot that leads or follows early has choices to score.
    moves[0].find_element(By.CSS_SELECTOR, "button.why").click()
    WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#explanation tr.chosen")
    )
    rows = driver.find_elements(By.CSS_SELECTOR, "#explanation tbody tr")
    assert len(rows) > 1, f"{len(rows)} candidates"
    print(f"  explanation: {len(rows)} candidates")
    shot(driver, out, "explanation-1280x800")


def watch_table(driver, url, out):
    new_table(driver, url, "lexio", 3, None, 5)
    assert status(driver) == "bot_turn"
    for _ in range(3):
        before = log_length(driver)
        driver.find_element(By.ID, "step").click()
        WebDriverWait(driver, TURN_TIMEOUT_S).until(lambda d: log_length(d) > before)
    assert log_length(driver) == 3
    driver.execute_script("document.getElementById('speed').value = 3;")
    driver.find_element(By.ID, "autoplay").click()
    WebDriverWait(driver, TURN_TIMEOUT_S).until(lambda d: log_length(d) >= 8)
    driver.find_element(By.ID, "autoplay").click()
    paused = log_length(driver)
    time.sleep(1)
    assert log_length(driver) <= paused + 1, "the table moved on after Pause"
    shot(driver, out, "watch-1280x800")
    shot(driver, out, "watch-phone", PHONE)
    print(f"  watch: {log_length(driver)} moves stepped and played")


# Bot-only tables: (game, levels, seed, rules, rounds). Every level sits at every game;
# the first Daifugo table is the one whose lone joker once stopped the page.
BOT_TABLES = [
    ("lexio", ["easy", "normal", "hard"], 11, None, 2),
    ("lexio", ["expert", "hard", "normal", "easy"], 12, None, 2),
    ("lexio", ["hard", "expert", "easy", "normal", "hard"], 13, None, 2),
    ("lexio", ["hard", "expert", "easy", "normal", "hard"], 15, None, 2),
    ("daifugo", ["hard", "easy", "normal", "hard", "expert"], 21, "uecda", 2),
    ("daifugo", ["easy", "normal", "hard", "expert"], 22, "house", 3),
    ("daifugo", ["expert", "hard", "normal", "easy", "hard", "normal"], 23, "house", 2),
    ("daifugo", ["normal", "expert", "hard"], 24, "uecda", 3),
    ("dalmuti", ["easy", "normal", "hard", "expert"], 35, None, 3),
    ("dalmuti", ["hard", "expert", "normal", "easy", "hard", "normal"], 32, None, 2),
]


def api(url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def seen_kinds(game, rules, moves):
    """What the moves show: card kinds, combinations and the special moves."""
    kinds = set()
    for move in moves:
        d = move["decision"][game]
        if game == "lexio":
            play = d.get("play")
            if play:
                kinds.add(play["combination"])
                kinds.update(f"tile {t['number']}" for t in play["tiles"])
        elif game == "daifugo":
            if d.get("exchange"):
                kinds.add("exchange")
            play = d.get("play")
            if play:
                cards = play["cards"]
                for pc in cards:
                    card = pc["card"]
                    kinds.add("joker" if card.get("joker") else f"rank {card['rank']}")
                    if card.get("joker") and pc.get("declared"):
                        kinds.add("declared joker")
                if len(cards) == 1 and cards[0]["card"].get("joker"):
                    kinds.add("lone joker")
                ranks = {(pc.get("declared") or pc["card"]).get("rank") for pc in cards}
                if len(cards) >= 4 and len(ranks) == 1:
                    kinds.add("revolution")
                kinds.add(f"{rules} rules")
        else:
            if d.get("tax_return"):
                kinds.add("tax return")
            if d.get("revolution") is not None:
                kinds.add("revolution choice")
            play = d.get("play")
            if play:
                if play.get("naturals"):
                    kinds.add(f"rank {play['rank']}")
                if play.get("jesters"):
                    kinds.add("jester")
    return kinds


EXPECTED_KINDS = {
    "lexio": {f"LEXIO_COMBINATION_{c}" for c in ["SINGLE", "PAIR", "TRIPLE", "STRAIGHT", "FLUSH",
                                                  "FULL_HOUSE", "FOUR_PLUS_ONE", "STRAIGHT_FLUSH"]}
    | {f"tile {n}" for n in range(1, 16)},
    "daifugo": {f"rank {r}" for r in range(3, 16)}
    | {"joker", "lone joker", "declared joker", "revolution", "exchange", "house rules", "uecda rules"},
    "dalmuti": {f"rank {r}" for r in range(1, 13)} | {"jester", "tax return", "revolution choice"},
}

# Clicks every "why?" of the log in turn and waits for each explanation; returns the
# number opened and what went wrong.
OPEN_EVERY_WHY = """
const done = arguments[arguments.length - 1];
(async () => {
  const problems = [];
  const buttons = Array.from(document.querySelectorAll('#log button.why'));
  for (const button of buttons) {
    const n = button.closest('li').value;
    button.click();
    const started = performance.now();
    for (;;) {
      const box = document.getElementById('explanation');
      const text = box.textContent;
      if (box.classList.contains('error')) { problems.push(`move ${n}: ${text}`); break; }
      if (text.startsWith(`Move ${n}:`)) {
        const table = box.querySelector('table');
        if (table) {
          if (!box.querySelector('dl.legend')) problems.push(`move ${n}: no legend`);
          if (!box.querySelector('tr.chosen')) problems.push(`move ${n}: no chosen candidate`);
          if (/undefined|NaN/.test(table.textContent)) problems.push(`move ${n}: ${table.textContent}`);
          break;
        }
        if (text.includes('fixed rule')) break;
      }
      if (performance.now() - started > 20000) { problems.push(`move ${n}: no explanation`); break; }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  done({ opened: buttons.length, problems });
})();
"""


def console_errors(driver):
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def bot_tables(driver, url):
    """Every table of BOT_TABLES run to the end on the page, every "why?" opened."""
    driver.set_script_timeout(600)
    seen = {game: set() for game in EXPECTED_KINDS}
    for game, levels, seed, rules, rounds in BOT_TABLES:
        request = {"game": game, "players": len(levels), "levels": levels, "seed": seed,
                   "rounds": rounds}
        if rules:
            request["rules"] = rules
        table = api(url, "POST", "/api/tables", request)
        driver.get(f"{url}#table={table['id']}")
        WebDriverWait(driver, 30).until(lambda d: status(d) == "bot_turn")
        driver.execute_script("document.getElementById('speed').value = 4;")
        driver.find_element(By.ID, "autoplay").click()
        name = f"{game} {rules or ''} seed {seed}"
        WebDriverWait(driver, 600, poll_frequency=0.2).until(
            lambda d: status(d) in {"over", "failed"}
            or d.find_element(By.ID, "message").text
        )
        message = driver.find_element(By.ID, "message").text
        assert not message, f"{name}: the page says {message!r}"
        assert status(driver) == "over", f"{name}: {driver.find_element(By.ID, 'status').text}"
        standings = driver.find_element(By.ID, "standings").text
        assert "Final" in standings, f"{name}: no final standings: {standings!r}"
        moves = api(url, "GET", f"/api/tables/{table['id']}")["moves"]
        assert log_length(driver) == len(moves), f"{name}: {log_length(driver)} of {len(moves)} moves drawn"
        opened = driver.execute_async_script(OPEN_EVERY_WHY)
        assert not opened["problems"], f"{name}: {opened['problems'][:5]}"
        errors = console_errors(driver)
        assert not errors, f"{name}: console errors {errors}"
        seen[game] |= seen_kinds(game, rules, moves)
        print(f"  {name}: {len(moves)} moves, {opened['opened']} explanations opened")
    for game, wanted in EXPECTED_KINDS.items():
        missing = wanted - seen[game]
        assert not missing, f"{game}: no table showed {sorted(missing)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the climbot binary")
    parser.add_argument("--out", required=True, help="where the screenshots go")
    parser.add_argument("--bot-tables-only", action="store_true",
                        help="only the bot-only tables run to the end")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server, url = start_playground(args.bin)
    profile = tempfile.mkdtemp(prefix="climbot-chromium-")
    driver = None
    started = time.monotonic()
    try:
        driver = browser(profile)
        print("playground browser test")
        if args.bot_tables_only:
            bot_tables(driver, url)
            print(f"playground browser test: ok in {time.monotonic() - started:.0f} s")
            return
        hand_from_the_deal(driver, url, args.out, "lexio", 4, 2, 2)
        hand_from_the_deal(driver, url, args.out, "daifugo", 4, 3, 5, rules="house")
        hand_from_the_deal(driver, url, args.out, "dalmuti", 5, 2, 8)
        hand_after_a_new_deal(driver, url, args.out)
        new_table(driver, url, "lexio", 4, 0, 17)
        refused = play_human_table(driver, args.out, "lexio")
        explain_a_bot_move(driver, args.out)
        new_table(driver, url, "daifugo", 4, 1, 23, rules="house")
        refused += play_human_table(driver, args.out, "daifugo")
        assert refused > 0, "no turn offered a card that could not be played"
        # Two hands: the finishing order of the first seats the second.
        new_table(driver, url, "dalmuti", 5, 0, 29, rounds=2)
        play_human_table(driver, args.out, "dalmuti", deals=2)
        watch_table(driver, url, args.out)
        errors = console_errors(driver)
        assert not errors, f"console errors {errors}"
        bot_tables(driver, url)
        print(f"playground browser test: ok in {time.monotonic() - started:.0f} s")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
