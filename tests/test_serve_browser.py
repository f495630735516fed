"""``stichsim serve`` in headless Chromium at 1366 x 768: a whole deal of every game played
through the card table, clicking the legal choices as a person would, to the end of the
deal and its hindsight; the trick and the hand always in view; a second click while the
other seats' moves are shown answering nothing.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); without
them these tests are skipped with one line. ``STICHSIM_SCREENSHOTS=DIR`` also saves the
table mid-deal, at the end and in hindsight (docs/play.md shows them).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.registry import GAMES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="browser tests skipped: no chromium/chromedriver here (apt-get install chromium chromium-driver)")
SHOTS = os.environ.get("STICHSIM_SCREENSHOTS")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app served by uvicorn in a thread on a free port; its base URL."""
    import uvicorn

    from sim.serve.app import build_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(build_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1366,768"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.set_window_size(1366, 768)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def shoot(driver: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))  # type: ignore[attr-defined]


def in_view(driver: object, element_id: str) -> bool:
    """Whether the element lies within the window, with no scrolling."""
    return bool(driver.execute_script(  # type: ignore[attr-defined]
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight"
        " && r.right <= window.innerWidth;", element_id))


def start(d: object, server: str, name: str, seat: int, pace: int = 0) -> object:
    """The setup form filled (game, seat, seed 5) and sent; the table element."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    d.get(f"{server}/?pace={pace}")  # type: ignore[attr-defined]
    form = WebDriverWait(d, 20).until(lambda b: b.find_element(By.ID, "game"))  # type: ignore[arg-type]
    Select(form).select_by_value(name)
    Select(d.find_element(By.ID, "seat")).select_by_value(str(seat))  # type: ignore[attr-defined]
    d.find_element(By.ID, "seed").send_keys("5")  # type: ignore[attr-defined]
    d.find_element(By.ID, "start").click()  # type: ignore[attr-defined]
    return d.find_element(By.ID, "table")  # type: ignore[attr-defined]


def enabled_choices(d: object) -> list:
    from selenium.webdriver.common.by import By

    return [e for e in d.find_elements(By.CSS_SELECTOR, "#table [data-choice]")  # type: ignore[attr-defined]
            if e.is_enabled() and "picked" not in (e.get_attribute("class") or "")]


@pytest.mark.parametrize("name, seat, deck, word", [
    ("skat", 1, "french", "of clubs"), ("skat_en_deux", 0, "four", "of spades"),
    ("doko_duell", 1, "french", "of hearts"), ("doko_skat", 2, "german", "of Eichel")])
def test_a_whole_deal_at_the_card_table(server: str, browser: object, name: str, seat: int,
                                        deck: str, word: str) -> None:
    """Choose the game and seat in the form, then click random legal choices (cards, bids
    and declarations as buttons) until the deal is over, the trick and the hand in view at
    every decision and the cards that may not be played greyed; then every dealt card, the
    score sheet's row and the series' first row are shown, hindsight steps through the
    tricks, the table survives a reload, and the next deal starts."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    wait = WebDriverWait(d, 20, ignored_exceptions=(StaleElementReferenceException,))  # type: ignore[arg-type]
    table = start(d, server, name, seat)
    Select(d.find_element(By.ID, "deck")).select_by_value(deck)  # type: ignore[attr-defined]
    rng = random.Random(name)
    clicks = greyed = 0

    def ready(b: object) -> list | str | None:
        """The clickable choices, ``over`` at the end, or None while the page is busy."""
        if table.get_attribute("data-step") == "over":  # type: ignore[attr-defined]
            return "over"
        return enabled_choices(b) or None

    while True:
        buttons = wait.until(ready)
        if buttons == "over":
            break
        assert in_view(d, "hand") and in_view(d, "trick") and in_view(d, "question")
        greyed += bool(d.find_elements(By.CSS_SELECTOR, "#hand .inert"))  # type: ignore[attr-defined]
        before = (table.get_attribute("data-step"),  # type: ignore[attr-defined]
                  len(d.find_elements(By.CSS_SELECTOR, ".picked")))  # type: ignore[attr-defined]
        rng.choice(buttons).click()
        clicks += 1
        if clicks == 12:
            shoot(d, f"serve-{name}")
        wait.until(lambda b: (table.get_attribute("data-step"),  # type: ignore[attr-defined]
                              len(b.find_elements(By.CSS_SELECTOR, ".picked"))) != before)
    assert greyed > 0  # some card was not playable at some trick
    labels = [e.get_attribute("aria-label") for e in d.find_elements(By.CSS_SELECTOR, "svg[data-card]")]  # type: ignore[attr-defined]
    assert any(word in label for label in labels)  # the deck chosen
    result = d.find_element(By.ID, "result")  # type: ignore[attr-defined]
    assert result.is_displayed()
    assert "Scores" in result.text or "Victory points" in result.text
    shown = {e.get_attribute("data-card")
             for e in result.find_elements(By.CSS_SELECTOR, ".dealt svg[data-card]")}
    assert shown == set(GAMES[name].deck.names)  # every hand and the rest of the deal
    assert len(result.find_elements(By.CSS_SELECTOR, ".sheet td")) >= 3
    assert len(d.find_elements(By.CSS_SELECTOR, "#series tr")) == 3  # type: ignore[attr-defined]
    shoot(d, f"serve-{name}-result")
    d.find_element(By.ID, "hindsight-button").click()  # type: ignore[attr-defined]
    wait = WebDriverWait(d, 120, ignored_exceptions=(StaleElementReferenceException,))  # type: ignore[arg-type]
    wait.until(lambda b: b.find_elements(By.ID, "hs-next"))
    first = d.find_element(By.CSS_SELECTOR, "#hindsight h3").text  # type: ignore[attr-defined]
    d.find_element(By.ID, "hs-next").click()  # type: ignore[attr-defined]
    assert d.find_element(By.CSS_SELECTOR, "#hindsight h3").text != first  # type: ignore[attr-defined]
    assert len(d.find_elements(By.CSS_SELECTOR, "#hindsight .hs-trick svg[data-card]")) \
        == (2 if name == "doko_duell" else 3)  # type: ignore[attr-defined]
    shoot(d, f"serve-{name}-hindsight")
    d.refresh()  # type: ignore[attr-defined]
    wait.until(lambda b: b.find_element(By.ID, "table").get_attribute("data-step") == "over")
    assert len(d.find_elements(By.CSS_SELECTOR, "#series tr")) == 3  # type: ignore[attr-defined]
    d.find_element(By.ID, "next").click()  # type: ignore[attr-defined]
    wait.until(lambda b: "deal 1 of seed 5" in b.find_element(By.ID, "where").text)
    d.find_element(By.ID, "new").click()  # type: ignore[attr-defined]
    assert d.find_element(By.ID, "setup").is_displayed()  # type: ignore[attr-defined]
    assert not d.find_element(By.ID, "table").is_displayed()  # type: ignore[attr-defined]
    assert d.find_element(By.ID, "where").text == ""  # type: ignore[attr-defined]


def test_a_second_click_plays_nothing(server: str, browser: object) -> None:
    """At Skat's first card, with each move shown for 2 s: a click on a card, at once a
    click on another, and one more while the other seats' cards are shown; exactly one
    card was played (the server's table made one decision, the first card's)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    wait = WebDriverWait(d, 30, ignored_exceptions=(StaleElementReferenceException,))  # type: ignore[arg-type]
    table = start(d, server, "skat", 1)
    rng = random.Random(3)
    while True:  # on to the first card with the moves shown at once
        buttons = wait.until(lambda b: enabled_choices(b) or None)
        if all(b.get_attribute("data-choice") and b.find_elements(By.CSS_SELECTOR, "svg")
               for b in buttons) and len(buttons) > 1:
            break
        step = table.get_attribute("data-step")  # type: ignore[attr-defined]
        rng.choice(buttons).click()
        wait.until(lambda b: table.get_attribute("data-step") != step)  # type: ignore[attr-defined]
    table_id = d.execute_script("return new URLSearchParams(location.search).get('table')")  # type: ignore[attr-defined]
    d.get(f"{server}/?pace=2000&table={table_id}")  # type: ignore[attr-defined]
    table = wait.until(lambda b: b.find_element(By.ID, "table"))
    cards = wait.until(lambda b: enabled_choices(b) or None)
    step = int(table.get_attribute("data-step"))
    first, second = cards[0], cards[1]
    played = first.find_element(By.CSS_SELECTOR, "svg").get_attribute("data-card")
    d.execute_script("arguments[0].click(); arguments[1].click();", first, second)  # type: ignore[attr-defined]
    time.sleep(1.0)  # the other seats' first card is on the table now
    d.execute_script(  # type: ignore[attr-defined]
        "for (const b of document.querySelectorAll('#hand button, #hand .cardwrap')) b.click();")
    wait = WebDriverWait(d, 60, ignored_exceptions=(StaleElementReferenceException,))  # type: ignore[arg-type]
    wait.until(lambda b: table.get_attribute("data-step") != str(step))
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}") as r:  # noqa: S310 (the test's own server)
        state = json.load(r)
    assert state["step"] == step + 1 or state["question"] is None
    mine = [line for line in state["told"] if line.startswith("you: play")]
    assert mine[-1] == f"you: play {played}"
    assert int(table.get_attribute("data-step")) == state["step"]
