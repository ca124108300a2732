"""Presenting to followers as in issue 29 (docs/live.md, "Present and follow"): a link to hand
over (absolute, copied by a button, its QR code read by a real decoder), and a follower who
sees what the presenter sees. Two browsers: the presenter and a follower, each with its own
cookies."""
import re
import socket
import subprocess
import time

import pytest

from support import LIVE_SECONDS, ROOT, By, document_survived, holds, mark_document, selected_tab, wait
from support import tap as tap_cell
from test_live import free_port, start_on, start_presenting, stop, stream_open


def decode_qr(driver, tmp_path):
    """The text of the page's follow QR code, as zbarimg (Debian's zbar-tools) reads a picture of it."""
    picture = tmp_path / "follow-qr.png"
    picture.write_bytes(driver.find_element(By.CSS_SELECTOR, "svg.follow-qr").screenshot_as_png)
    read = subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True, timeout=30)
    assert read.returncode == 0, f"zbarimg found no code: {read.stderr!r}"
    return read.stdout.strip()


def test_the_follow_link_is_absolute_copied_by_a_button_and_its_qr_code_decodes_to_it(base, tablet, tmp_path):
    link = start_presenting(tablet, base)
    shown = tablet.find_element(By.CSS_SELECTOR, "a.follow-link").text
    assert re.fullmatch(re.escape(base) + r"/restaurant/follow/[0-9a-f]{32}", shown), f"the link shown: {shown!r}"
    assert link == shown
    assert decode_qr(tablet, tmp_path) == shown
    button = tablet.find_element(By.CSS_SELECTOR, ".live-panel button.copy-link")
    assert button.is_displayed(), "no copy button"
    button.click()
    wait(tablet, lambda d: button.text == "Link copied", "the copy button saying it copied")


def test_public_url_is_where_the_link_and_its_qr_code_lead(start_server, tablet, tmp_path):
    server = start_server("--public-url", "https://tabstage.example:8443/demo/")
    start_presenting(tablet, server.base)
    shown = tablet.find_element(By.CSS_SELECTOR, "a.follow-link").text
    assert re.fullmatch(r"https://tabstage\.example:8443/demo/restaurant/follow/[0-9a-f]{32}", shown), shown
    assert decode_qr(tablet, tmp_path) == shown


def test_listening_on_every_address_prints_the_addresses_to_type(binary):
    process = subprocess.Popen([str(binary), "serve", "--host", "0.0.0.0", "--port", "0", "--quiet",
                                "--sessions", "memory"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        first = process.stderr.readline()
        port = re.search(r"http://0\.0\.0\.0:(\d+)/", first).group(1)
    finally:
        # The server takes SIGTERM only once it has printed the lines that follow the first
        # (Server.runUntilSignal reads its signals after `ready`): the rest is all there.
        process.terminate()
        # Read through the same buffered file as the first line (communicate would bypass it).
        rest = process.stderr.read()
        process.wait(timeout=20)
    reachable = [line for line in rest.splitlines() if "reachable" in line]
    assert reachable, f"no address printed after {first!r}: {rest!r}"
    assert all(re.fullmatch(r"  reachable at http://[0-9.]+:" + port + "/", line) for line in reachable), reachable
    # Loopback last: the addresses others can type come first.
    assert reachable[-1] == f"  reachable at http://127.0.0.1:{port}/", reachable


# --- one screen for presenter and followers ---------------------------------------------------

def present(driver, url):
    """Opens `url` and presents it; returns the follow link."""
    driver.get(url)
    driver.find_element(By.CSS_SELECTOR, '.live-panel form[action$="/present"] button').click()
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "a.follow-link"), "the follow link").get_attribute(
        "href")


def follow(presenter, follower, link):
    stream_open(presenter)
    follower.get(link)
    stream_open(follower)
    mark_document(follower)


def shown_within(driver, seconds, started, condition, message):
    """Waits for what the presenter did to show on the follower's page, and writes how long it
    took beside its goal into build/follow-latency.txt. The goal (1 s from the tap) is a figure
    to read on a quiet machine, not an assertion: a test must pass on a slow, loaded one, where
    the presenter's own answer alone may take longer."""
    wait(driver, condition, message, seconds=LIVE_SECONDS)
    elapsed = time.monotonic() - started
    with open(ROOT / "build" / "follow-latency.txt", "a", encoding="utf-8") as figures:
        figures.write(f"{message}: {elapsed:.2f} s (goal {seconds:.1f} s)\n")


def tapped(driver):
    return driver.execute_script("return document.documentElement.dataset.presenterTapped || null")


def test_the_follower_sees_the_more_list_and_a_detail_the_presenter_opens(app_server, browser):
    bank = app_server("bank")
    presenter, follower = browser("tablet"), browser("phone")
    follow(presenter, follower, present(presenter, bank + "/bank/bottom/home"))
    started = time.monotonic()
    tap_cell(presenter, "_more")
    shown_within(follower, 1.0, started, lambda d: d.find_elements(By.CSS_SELECTOR, ".more-list a.more-row"),
                 "the More list on the follower's page")
    assert selected_tab(follower) == "_more"
    assert tapped(follower) == "_more", f"the tap shown on {tapped(follower)!r}"
    assert document_survived(follower), "the follow page reloaded instead of following in place"
    follower.refresh()
    assert follower.find_elements(By.CSS_SELECTOR, ".more-list"), "a reload lost the More list"
    stream_open(follower)
    # A row of the More list opens its tab; the follower sees it.
    presenter.find_element(By.CSS_SELECTOR, 'a.more-row[data-tab="news"]').click()
    wait(follower, lambda d: "News" in d.find_element(By.ID, "page-title").text and not d.find_elements(
        By.CSS_SELECTOR, ".more-list"), "the tab opened from More", seconds=LIVE_SECONDS)


def test_the_follower_sees_the_log_in_sheet_and_cannot_use_it(base, browser):
    presenter, follower = browser("tablet"), browser("phone")
    follow(presenter, follower, present(presenter, base + "/restaurant/bottom/home"))
    started = time.monotonic()
    tap_cell(presenter, "membership")
    wait(presenter, lambda d: d.find_element(By.ID, "login-sheet"), "the presenter's sheet")
    shown_within(follower, 1.0, started, lambda d: d.find_element(By.ID, "login-sheet").is_displayed(),
                 "the log-in sheet on the follower's page")
    assert follower.execute_script("return document.getElementById('login-sheet').closest('[data-inert]').inert"), (
        "the follower's sheet can be used")
    assert tapped(follower) == "membership"
    # The presenter closes the sheet: the follower's goes too.
    presenter.find_element(By.CSS_SELECTOR, "#login-sheet a.sheet-close").click()
    wait(follower, lambda d: not d.find_elements(By.ID, "login-sheet"), "the sheet closed on the follower's page",
         seconds=LIVE_SECONDS)
    assert selected_tab(follower) == "home"


# --- language and appearance --------------------------------------------------------------------

def language_and_appearance(driver):
    return driver.execute_script(
        "return [document.documentElement.lang, document.documentElement.getAttribute('data-appearance')]")


def test_the_follower_follows_the_presenters_language_and_appearance_by_default(base, browser):
    presenter, follower = browser("tablet"), browser("phone")
    follow(presenter, follower, present(presenter, base + "/restaurant/bottom/home"))
    assert language_and_appearance(follower) == ["en", None]
    presenter.get(base + "/restaurant/bottom/home?lang=zh-Hant")
    presenter.get(base + "/restaurant/bottom/home?appearance=dark")
    wait(follower, lambda d: language_and_appearance(d) == ["zh-Hant", "dark"],
         "the follower in the presenter's Chinese and dark", seconds=LIVE_SECONDS)
    assert "觀看中" in follower.find_element(By.CSS_SELECTOR, ".follow-banner").text
    follower.refresh()
    assert language_and_appearance(follower) == ["zh-Hant", "dark"], "a reload lost the presenter's settings"


def test_a_followers_own_language_and_appearance_change_only_their_page_and_are_kept(base, browser):
    presenter, follower = browser("tablet"), browser("phone")
    link = present(presenter, base + "/restaurant/bottom/home")
    follow(presenter, follower, link)
    # What the header's Dark and 繁體中文 links lead to (on a phone they sit in a menu).
    assert follower.find_elements(By.CSS_SELECTOR, 'nav.appearance a[href="?appearance=dark"]')
    assert follower.find_elements(By.CSS_SELECTOR, 'a[hreflang="zh-Hant"]')
    follower.get(link + "?appearance=dark")
    wait(follower, lambda d: language_and_appearance(d)[1] == "dark", "the follower's own Dark")
    follower.get(link + "?lang=zh-Hant")
    wait(follower, lambda d: language_and_appearance(d) == ["zh-Hant", "dark"], "the follower's own Chinese")
    stream_open(follower)
    mark_document(follower)
    presenter.refresh()
    assert language_and_appearance(presenter) == ["en", None], "the follower's choice changed the presenter's page"
    for tab in ["wallet", "finding", "news", "home", "news"]:
        tap_cell(presenter, tab)
        wait(follower, lambda d: selected_tab(d) == tab, f"the follower seeing {tab}", seconds=LIVE_SECONDS)
        assert language_and_appearance(follower) == ["zh-Hant", "dark"], f"the follower's choice lost at {tab}"
    assert document_survived(follower)


def test_the_follow_pages_header_never_leaves_the_presentation_unsaid(base, browser):
    presenter, follower = browser("tablet"), browser("desktop")
    link = present(presenter, base + "/restaurant/bottom/home")
    follow(presenter, follower, link)
    header = follower.find_element(By.CSS_SELECTOR, "header.stage-header")
    targets = [anchor.get_attribute("href") for anchor in header.find_elements(By.CSS_SELECTOR, "a[href]")]
    assert targets, "the header has the follower's own language and appearance links"
    leaving = [target for target in targets if target.split("?")[0] != link]
    assert not leaving, f"header links that leave the presentation: {leaving}"
    explore = follower.find_element(By.CSS_SELECTOR, ".follow-banner button")
    assert explore.text == "Explore on your own", f"the way out says: {explore.text!r}"
    note = follower.find_element(By.ID, explore.get_attribute("aria-describedby"))
    assert "stop following" in note.text, f"what exploring does: {note.text!r}"


# --- a restart ----------------------------------------------------------------------------------

def still_reconnecting(follower):
    """A few of the follower's reconnects are refused (it tries every second), and all the while
    its page says Reconnecting… and keeps the presentation."""
    holds(follower, lambda d: "Reconnecting" in d.find_element(By.CSS_SELECTOR, ".follow-banner").text
          and "ended" not in d.find_element(By.TAG_NAME, "main").text,
          "Reconnecting…, not ended, while the server is down", seconds=1.5)


def test_a_follower_sees_reconnecting_while_the_server_is_down_and_follows_again_never_ended(binary, browser, tmp_path):
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    database = tmp_path / "sessions.sqlite"
    process = start_on(binary, port, database)
    try:
        presenter, follower = browser("tablet"), browser("phone")
        follow(presenter, follower, present(presenter, address + "/restaurant/bottom/home"))
        stop(process)
        wait(follower, lambda d: "Reconnecting" in d.find_element(By.CSS_SELECTOR, ".follow-banner").text,
             "Reconnecting… while the server is down")
        still_reconnecting(follower)
        # The follower's page reconnects first: the presenter's page is held back a moment.
        process = start_on(binary, port, database)
        wait(follower, lambda d: d.execute_script("return document.documentElement.dataset.live") == "open"
             or "ended" in d.page_source, "the follower's stream back", seconds=LIVE_SECONDS + 5)
        assert "ended" not in follower.find_element(By.TAG_NAME, "main").text, "a restart ended the presentation"
        tap_cell(presenter, "wallet")
        wait(follower, lambda d: selected_tab(d) == "wallet", "the follower following after the restart",
             seconds=LIVE_SECONDS + 5)
        assert not follower.find_elements(By.ID, "live-reconnecting"), "still says Reconnecting…"
        assert document_survived(follower), "the follow page reloaded"
    finally:
        stop(process)


@pytest.fixture
def redis_url(tmp_path):
    """A redis-server of the test's own (Debian's), on a free port, stopped after it."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path), "--protected-mode", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def listening(_):
        assert process.poll() is None, "redis-server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False
    try:
        wait(None, listening, f"redis-server listening on {port}", seconds=20)
    except AssertionError:
        process.kill()
        raise
    yield f"redis://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_restart_with_only_the_follower_open_keeps_the_presentation(binary, browser, tmp_path, request, store):
    """The presentation is in the session store, not in the server's memory: with the
    presenter's window closed, the follower alone finds it again after a restart."""
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    sessions = f"sqlite:{tmp_path / 'sessions.sqlite'}" if store == "sqlite" else request.getfixturevalue("redis_url")
    process = start_on(binary, port, sessions=sessions)
    try:
        presenter, follower = browser("tablet"), browser("phone")
        follow(presenter, follower, present(presenter, address + "/restaurant/bottom/home"))
        presenter.get("about:blank")  # no page of the presenter's reconnects
        stop(process)
        wait(follower, lambda d: "Reconnecting" in d.find_element(By.CSS_SELECTOR, ".follow-banner").text,
             "Reconnecting… while the server is down")
        still_reconnecting(follower)
        process = start_on(binary, port, sessions=sessions)

        def back(d):
            assert "ended" not in d.find_element(By.TAG_NAME, "main").text, "a restart ended the presentation"
            return d.execute_script("return document.documentElement.dataset.live") == "open"
        wait(follower, back, "the follower's stream back without the presenter's page", seconds=LIVE_SECONDS + 5)
        assert not follower.find_elements(By.ID, "live-reconnecting"), "still says Reconnecting…"
        presenter.get(address + "/restaurant/bottom/home")
        tap_cell(presenter, "wallet")
        wait(follower, lambda d: selected_tab(d) == "wallet", "the follower following after the restart",
             seconds=LIVE_SECONDS + 5)
        assert document_survived(follower), "the follow page reloaded"
    finally:
        stop(process)
