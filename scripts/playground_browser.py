#!/usr/bin/env python3
"""The playground page in a real browser: headless Chromium driven by Selenium.

Starts `climbot playground` on a free port, then by clicking only: plays a whole Lexio
round, a whole Daifugo game and two whole Dalmuti hands from the human seat, checks that
the human's hand shows (every card disabled) while bots play, from each deal on, checks
on every turn that cards outside every legal action cannot be picked, that nothing but a
legal action can be submitted and that "You" and the seat to act are drawn at the view's
own seats (Dalmuti's players change seats after the first hand), opens a bot's
explanation, steps and plays a bot-only table, and saves screenshots at 1280x800 and at
a phone's 390x844.

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
        [binary, "playground", "--addr", f"127.0.0.1:{port}"],
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
    for field, value in [("rounds", rounds), ("seed", seed)]:
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    # Speed 4: bots move as soon as the page has shown the last move.
    driver.execute_script(f"document.getElementById('speed').value = {speed};")
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 30).until(lambda d: status(d) != "")


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


def play_human_table(driver, out, name, deals=1):
    turns = refused = 0
    phone_taken = False
    seats_by_deal = {}
    while True:
        state = wait_for(driver, {"your_turn", "over", "failed"})
        if state == "failed":
            raise AssertionError(driver.find_element(By.ID, "status").text)
        if state == "over":
            break
        before = log_length(driver)
        deal, seat = retry(lambda: check_seats(driver, name))
        seats_by_deal.setdefault(deal, seat)
        refused += retry(lambda: check_refusals(driver))
        if turns == 2:
            shot(driver, out, f"{name}-1280x800")
        if turns == 3 and not phone_taken:
            shot(driver, out, f"{name}-phone", PHONE)
            phone_taken = True
        retry(lambda: take_turn(driver, turns))
        WebDriverWait(driver, TURN_TIMEOUT_S).until(
            lambda d: log_length(d) > before or status(d) in {"over", "failed"}
        )
        turns += 1
    standings = driver.find_element(By.ID, "standings").text
    assert "per" in standings, f"no final standings: {standings!r}"
    shot(driver, out, f"{name}-over-1280x800")
    print(f"  {name}: {turns} human turns, {refused} refused cards seen, {log_length(driver)} moves,"
          f" the human's seat by deal {seats_by_deal}")
    assert turns > 0
    assert sorted(seats_by_deal) == list(range(1, deals + 1)), f"{name}: deals {seats_by_deal}"
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the climbot binary")
    parser.add_argument("--out", required=True, help="where the screenshots go")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server, url = start_playground(args.bin)
    profile = tempfile.mkdtemp(prefix="climbot-chromium-")
    driver = None
    started = time.monotonic()
    try:
        driver = browser(profile)
        print("playground browser test")
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
        print(f"playground browser test: ok in {time.monotonic() - started:.0f} s")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
