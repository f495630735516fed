"""``stichsim serve`` in headless Chromium: a whole deal of every game played through the
page, clicking the legal choices as a person would, to the result and the series' list.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); without
them these tests are skipped with one line. ``STICHSIM_SCREENSHOTS=DIR`` also saves the
page mid-deal and at the end (docs/play.md shows them).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
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
                "--window-size=1280,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def shoot(driver: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name, seat", [("skat", 1), ("skat_en_deux", 0), ("doko_duell", 1),
                                        ("doko_skat", 2)])
def test_a_whole_deal_through_the_page(server: str, browser: object, name: str, seat: int) -> None:
    """Choose the game and seat in the form, then click random legal choices (cards, bids
    and declarations as buttons) until the deal is over; then the result and the series'
    first row are shown, the table survives a reload, and the next deal starts."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser
    wait = WebDriverWait(d, 20, ignored_exceptions=(StaleElementReferenceException,))  # type: ignore[arg-type]
    d.get(f"{server}/?pace=0")  # type: ignore[attr-defined]
    form = wait.until(lambda b: b.find_element(By.ID, "game"))
    Select(form).select_by_value(name)
    Select(d.find_element(By.ID, "seat")).select_by_value(str(seat))  # type: ignore[attr-defined]
    d.find_element(By.ID, "seed").send_keys("5")  # type: ignore[attr-defined]
    d.find_element(By.ID, "start").click()  # type: ignore[attr-defined]
    table = wait.until(lambda b: b.find_element(By.ID, "table"))
    rng = random.Random(name)
    clicks = 0

    def ready(b: object) -> list | str | None:
        """The clickable choices, ``over`` at the end, or None while the page is busy."""
        if table.get_attribute("data-step") == "over":
            return "over"
        buttons = [e for e in b.find_elements(By.CSS_SELECTOR, "#board [data-choice]")  # type: ignore[attr-defined]
                   if "picked" not in (e.get_attribute("class") or "")]
        return buttons or None

    while True:
        buttons = wait.until(ready)
        if buttons == "over":
            break
        before = (table.get_attribute("data-step"),
                  len(d.find_elements(By.CSS_SELECTOR, ".picked")))  # type: ignore[attr-defined]
        rng.choice(buttons).click()
        clicks += 1
        if clicks == 6:
            shoot(d, f"serve-{name}")
        wait.until(lambda b: (table.get_attribute("data-step"),
                              len(b.find_elements(By.CSS_SELECTOR, ".picked"))) != before)
    assert d.find_element(By.ID, "result").is_displayed()  # type: ignore[attr-defined]
    assert "Scores" in d.find_element(By.ID, "result").text or "Victory points" in \
        d.find_element(By.ID, "result").text  # type: ignore[attr-defined]
    rows = d.find_elements(By.CSS_SELECTOR, "#series tr")  # type: ignore[attr-defined]
    assert len(rows) == 3  # the head, deal 0, the totals
    shoot(d, f"serve-{name}-result")
    d.refresh()  # type: ignore[attr-defined]
    wait.until(lambda b: b.find_element(By.ID, "table").get_attribute("data-step") == "over")
    assert len(d.find_elements(By.CSS_SELECTOR, "#series tr")) == 3  # type: ignore[attr-defined]
    d.find_element(By.ID, "next").click()  # type: ignore[attr-defined]
    wait.until(lambda b: "deal 1 of seed 5" in b.find_element(By.ID, "where").text)
    assert len(GAMES[name].options.options) > 0
