"""Live pages in a real browser (docs/live.md): two windows of one session in step, a presenter
and a follower in two browsers, `serve --watch` with a real file, a server restart."""
import json
import os
import re
import signal
import socket
import subprocess
import urllib.request

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains

from support import (LIVE_SECONDS, ROOT, By, document_survived, axe_violations, expect_valid_documents,
                     header_text, log_in, mark_document, selected_tab, wait)
from support import tap as tap_cell


def stream_open(driver):
    """Waits until the page's event stream has said hello (its first event arrived)."""
    wait(driver, lambda d: d.execute_script("return document.documentElement.dataset.live === 'open'"),
         "the live stream to open")


def tap(driver, tab):
    tap_cell(driver, tab)
    wait(driver, lambda d: selected_tab(d) == tab, f"{tab} selected by a tap")


def test_two_windows_of_one_session_stay_in_step(base, tablet):
    driver = tablet
    driver.get(base + "/restaurant/bottom/home")
    acting = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(base + "/restaurant/bottom/home")
    watching = driver.current_window_handle
    stream_open(driver)
    mark_document(driver)
    # Focus in the watching window, on a control that is still there after the change.
    driver.execute_script("document.querySelector('.tab-bar a.tab[data-tab=\"news\"]').focus()")
    driver.switch_to.new_window("window")
    driver.get(base + "/restaurant/events")
    events = driver.current_window_handle
    stream_open(driver)
    rows_before = len(driver.find_elements(By.CSS_SELECTOR, "main tbody tr"))
    mark_document(driver)

    driver.switch_to.window(acting)
    tap(driver, "wallet")
    driver.switch_to.window(watching)
    wait(driver, lambda d: selected_tab(d) == "wallet", "the tap shown in the other window", seconds=LIVE_SECONDS)
    assert driver.current_url.endswith("/restaurant/bottom/wallet"), f"URL not replaced: {driver.current_url}"
    assert document_survived(driver), "the other window reloaded instead of updating in place"
    focused = driver.execute_script("var a = document.activeElement; return a && a.getAttribute('data-tab')")
    assert focused == "news", f"focus moved in the window that did not act: {focused}"
    driver.switch_to.window(events)
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "main tbody tr")) > rows_before,
         "the event log appending the tap", seconds=LIVE_SECONDS)
    assert document_survived(driver), "the event log reloaded instead of updating in place"

    # A page action: the balance.
    driver.switch_to.window(acting)
    field = driver.find_element(By.CSS_SELECTOR, 'input[name="amount"]')
    field.send_keys("250")
    field.submit()
    wait(driver, lambda d: "1,450" in d.find_element(By.CSS_SELECTOR, ".balance").text, "the top-up")
    driver.switch_to.window(watching)
    wait(driver, lambda d: "1,450" in d.find_element(By.CSS_SELECTOR, ".balance").text,
         "the top-up shown in the other window", seconds=LIVE_SECONDS)

    # A log-in: the header of the other window follows.
    driver.switch_to.window(acting)
    driver.get(base + "/login?next=/restaurant/bottom/wallet")
    log_in(driver, "Ada")
    driver.switch_to.window(watching)
    wait(driver, lambda d: "Ada" in header_text(d), "the log-in shown in the other window",
         seconds=LIVE_SECONDS + 2)


def start_presenting(driver, base):
    driver.get(base + "/restaurant/bottom/home")
    driver.find_element(By.CSS_SELECTOR, '.live-panel form[action="/restaurant/present"] button').click()
    link = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "a.follow-link"), "the follow link")
    return link.get_attribute("href")


def logged_events(driver):
    """The events of the session of the page `driver` shows, oldest first, read by that page."""
    return driver.execute_script(
        "var r = new XMLHttpRequest(); r.open('GET', '/restaurant/events.json', false); r.send();"
        " return JSON.parse(r.responseText).events.map(function (e) { return e.event; });")


def last_selected(events):
    """The tab that appeared last."""
    shown = [event.split()[0] for event in events if event.endswith(" viewDidAppear")]
    return shown[-1] if shown else None


def test_a_follower_in_another_browser_follows_every_tap_and_leaves_with_a_copy(base, browser):
    presenter = browser("tablet")
    follower = browser("phone")
    follow = start_presenting(presenter, base)
    assert re.search(r"/restaurant/follow/[0-9a-f]{32}$", follow), f"follow link: {follow}"
    stream_open(presenter)
    follower.get(follow)
    # The follower's own session (for Leave's token), never the presenter's.
    own = [c["value"] for c in follower.get_cookies() if c["name"] == "tabstage_session"]
    theirs = [c["value"] for c in presenter.get_cookies() if c["name"] == "tabstage_session"]
    assert own and own != theirs, f"the follow page's session: {own} vs the presenter's {theirs}"
    tokens = [field.get_attribute("value") for field in follower.find_elements(By.CSS_SELECTOR, 'input[name="csrf"]')]
    presenter_tokens = {field.get_attribute("value")
                        for field in presenter.find_elements(By.CSS_SELECTOR, 'input[name="csrf"]')}
    assert tokens and not set(tokens) & presenter_tokens, "the follow page carries the presenter's CSRF token"
    banner = follower.find_element(By.CSS_SELECTOR, ".follow-banner")
    assert "Following" in banner.text, f"banner: {banner.text!r}"
    assert follower.execute_script("return document.querySelector('.follow-inert').inert === true"), (
        "the follower's bar is not inert")
    stream_open(follower)
    mark_document(follower)
    wait(presenter, lambda d: "1 person following" in d.find_element(By.CSS_SELECTOR, "[data-followers]").text,
         "the presenter sees the follower", seconds=LIVE_SECONDS)

    for tab in ["wallet", "finding", "news", "home", "news"]:
        tap(presenter, tab)
        wait(follower, lambda d: selected_tab(d) == tab, f"the follower seeing {tab}", seconds=LIVE_SECONDS)
    assert document_survived(follower), "the follow page reloaded instead of following in place"

    # The follower cannot act: a click on the bar reaches no element of it (the page's script
    # acts on clicks in the bar only), so nothing is sent and the presenter stays.
    follower.execute_script(
        "window.__barClicks = 0; document.addEventListener('click', function (e) {"
        " if (e.target.closest && e.target.closest('.tab-bar')) window.__barClicks += 1; }, true);")
    try:
        ActionChains(follower).move_to_element(
            follower.find_element(By.CSS_SELECTOR, '.tab-bar a.tab[data-tab="wallet"]')).click().perform()
    except WebDriverException:
        pass  # refused as not clickable: inert
    assert follower.execute_script("return window.__barClicks") == 0, "a click reached the inert bar"
    assert selected_tab(follower) == "news" and "/follow/" in follower.current_url, (
        f"the inert bar acted: {follower.current_url}")
    assert last_selected(logged_events(presenter)) == "news", "the follower changed the presenter's state"

    # Leaving: the follower's own session, starting from what was shown.
    follower.find_element(By.CSS_SELECTOR, ".follow-banner button").click()
    wait(follower, lambda d: d.current_url.endswith("/restaurant/bottom/news"), "leaving to an own copy")
    assert [c["value"] for c in follower.get_cookies() if c["name"] == "tabstage_session"] == own, (
        "leaving kept the follower's session")
    # The tap has been answered once the follower shows it: the presenter's log has it or not.
    tap(follower, "home")
    assert last_selected(logged_events(presenter)) == "news", "the follower's copy moved the presenter"
    assert selected_tab(presenter) == "news", "the presenter's page moved"

    # Stopping: the link says so.
    presenter.find_element(By.CSS_SELECTOR, 'form[action="/restaurant/present/stop"] button').click()
    wait(presenter, lambda d: d.find_elements(By.CSS_SELECTOR, '.live-panel form[action="/restaurant/present"]'),
         "the offer to present again")
    follower.get(follow)
    assert "ended" in follower.find_element(By.TAG_NAME, "main").text, "the stopped link does not say so"


def test_follow_pages_pass_axe_and_the_nu_checker(base, browser, nu):
    presenter = browser("tablet")
    follower = browser("tablet")
    follow = start_presenting(presenter, base)
    follower.get(follow)
    problems = axe_violations(presenter, "presenting") + axe_violations(follower, "following")
    assert not problems, "axe violations:\n  " + "\n  ".join(problems)
    with urllib.request.urlopen(follow, timeout=10) as response:
        expect_valid_documents(nu, [("the follow page as served", response.read())])


def coffee(title):
    app = json.loads((ROOT / "examples" / "coffee.json").read_text())
    app["tabs"][0]["title"]["en"] = title
    return json.dumps(app, ensure_ascii=False, indent=2)


def tab_title(driver, tab):
    return driver.find_element(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"] .tab-title').text


def test_watch_replaces_the_app_on_every_kind_of_save_and_shows_problems_until_fixed(start_server, tablet, tmp_path):
    path = tmp_path / "coffee.json"
    path.write_text(coffee("Menu"))
    server = start_server("--app", str(path), "--watch")
    driver = tablet
    driver.get(server.base + "/coffee/bottom/menu")
    stream_open(driver)
    mark_document(driver)

    # An editor that saves by writing a new file and renaming it over the old one.
    temporary = tmp_path / ".coffee.json.swp"
    temporary.write_text(coffee("Drinks"))
    os.replace(temporary, path)
    wait(driver, lambda d: tab_title(d, "menu") == "Drinks", "the rename-save shown", seconds=LIVE_SECONDS)

    # One that truncates the file, then writes it in pieces: read once, whole, so the page never
    # shows a problem on the way.
    driver.execute_script(
        "window.__problemsShown = false; new MutationObserver(function () {"
        " if (document.getElementById('live-problems')) window.__problemsShown = true; })"
        ".observe(document.documentElement, {childList: true, subtree: true});")
    text = coffee("Beverages")
    with open(path, "w") as file:
        file.flush()
        for start in range(0, len(text), 200):
            file.write(text[start:start + 200])
            file.flush()
    wait(driver, lambda d: tab_title(d, "menu") == "Beverages", "the in-place save shown", seconds=LIVE_SECONDS)
    assert not driver.execute_script("return window.__problemsShown"), "a half-written file was read"

    # An invalid save: the last good version serves, the page shows the problems.
    path.write_text(coffee("Broken").replace('"tabs"', '"tabz"', 1))
    banner = wait(driver, lambda d: d.find_element(By.ID, "live-problems"), "the problems banner", seconds=LIVE_SECONDS)
    assert "coffee.json" in banner.text, f"banner: {banner.text!r}"
    assert tab_title(driver, "menu") == "Beverages", "an invalid file replaced the app"
    path.write_text(coffee("Fixed"))
    wait(driver, lambda d: not d.find_elements(By.ID, "live-problems") and tab_title(d, "menu") == "Fixed",
         "the banner cleared and the fix shown", seconds=LIVE_SECONDS)
    assert document_survived(driver), "the page reloaded instead of updating in place"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_on(binary, port, database):
    command = [str(binary), "serve", "--host", "127.0.0.1", "--port", str(port), "--quiet",
               "--public", str(ROOT / "Public"), "--sessions", f"sqlite:{database}"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=str(ROOT))
    line = process.stderr.readline()
    if "listening" not in line:
        process.kill()
        raise RuntimeError(f"tabstage serve did not start: {line!r}")
    return process


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)


def test_an_open_page_catches_up_after_a_server_restart(binary, tablet, tmp_path):
    # The same port on both sides of the restart: the page's event stream reconnects to it.
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    process = start_on(binary, port, tmp_path / "sessions.sqlite")
    try:
        driver = tablet
        driver.get(address + "/restaurant/bottom/home")
        stream_open(driver)
        mark_document(driver)
        cookie = [c["value"] for c in driver.get_cookies() if c["name"] == "tabstage_session"][0]
        stop(process)
        process = start_on(binary, port, tmp_path / "sessions.sqlite")
        # The visitor's session changes on the new server (another window, say) at once.
        request = urllib.request.Request(address + "/restaurant/bottom/news", headers={
            "Cookie": f"tabstage_session={cookie}", "X-TabStage-Source": "tap"})
        urllib.request.urlopen(request, timeout=10).read()
        wait(driver, lambda d: selected_tab(d) == "news", "the page catching up after the restart",
             seconds=LIVE_SECONDS + 3)
        assert document_survived(driver), "the page reloaded instead of catching up in place"
    finally:
        stop(process)
