"""Live pages in a real browser (docs/live.md): two windows of one session in step, a presenter
and a follower in two browsers, `serve --watch` with a real file, a server restart."""
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException

import run_browser_tests
from run_browser_tests import ROOT, expect, make_driver, mark_document, document_survived, selected_tab, test, wait

# A change must show in another window or browser within this many seconds.
LIVE_SECONDS = 2


def wait_live(driver, condition, message, seconds=LIVE_SECONDS):
    try:
        ignored = (NoSuchElementException, StaleElementReferenceException)
        return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=ignored).until(
            lambda d: condition(d))
    except TimeoutException:
        raise AssertionError(f"not live within {seconds} s: {message} (at {driver.current_url})")


def stream_open(driver):
    """Waits until the page's event stream has said hello (its first event arrived)."""
    wait(driver, lambda d: d.execute_script("return document.documentElement.dataset.live === 'open'"),
         "the live stream to open")


def tap(driver, tab):
    driver.find_element(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"]').click()
    wait(driver, lambda d: selected_tab(d) == tab, f"{tab} selected by a tap")


@test
def two_windows_of_one_session_stay_in_step(base):
    driver = make_driver("tablet")
    try:
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
        wait_live(driver, lambda d: selected_tab(d) == "wallet", "the tap shown in the other window")
        expect(driver.current_url.endswith("/restaurant/bottom/wallet"), f"URL not replaced: {driver.current_url}")
        expect(document_survived(driver), "the other window reloaded instead of updating in place")
        focused = driver.execute_script("var a = document.activeElement; return a && a.getAttribute('data-tab')")
        expect(focused == "news", f"focus moved in the window that did not act: {focused}")
        driver.switch_to.window(events)
        wait_live(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "main tbody tr")) > rows_before,
                  "the event log appending the tap")
        expect(document_survived(driver), "the event log reloaded instead of updating in place")

        # A page action: the balance.
        driver.switch_to.window(acting)
        field = driver.find_element(By.CSS_SELECTOR, 'input[name="amount"]')
        field.send_keys("250")
        field.submit()
        wait(driver, lambda d: "1,450" in d.find_element(By.CSS_SELECTOR, ".balance").text, "the top-up")
        driver.switch_to.window(watching)
        wait_live(driver, lambda d: "1,450" in d.find_element(By.CSS_SELECTOR, ".balance").text,
                  "the top-up shown in the other window")

        # A log-in: the header of the other window follows.
        driver.switch_to.window(acting)
        driver.get(base + "/login?next=/restaurant/bottom/wallet")
        run_browser_tests.log_in(driver, "Ada")
        driver.switch_to.window(watching)
        wait_live(driver, lambda d: "Ada" in run_browser_tests.header_text(d),
                  "the log-in shown in the other window", seconds=LIVE_SECONDS + 2)
    finally:
        driver.quit()


def start_presenting(driver, base):
    driver.get(base + "/restaurant/bottom/home")
    driver.find_element(By.CSS_SELECTOR, '.live-panel form[action="/restaurant/present"] button').click()
    link = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "a.follow-link"), "the follow link")
    return link.get_attribute("href")


@test
def a_follower_in_another_browser_follows_every_tap_and_leaves_with_a_copy(base):
    presenter = make_driver("tablet")
    follower = make_driver("phone")
    try:
        follow = start_presenting(presenter, base)
        expect(re.search(r"/restaurant/follow/[0-9a-f]{32}$", follow), f"follow link: {follow}")
        stream_open(presenter)
        follower.get(follow)
        expect(follower.get_cookies() == [], f"the follow page set a cookie: {follower.get_cookies()}")
        expect("csrf" not in follower.page_source, "the follow page carries a CSRF token")
        banner = follower.find_element(By.CSS_SELECTOR, ".follow-banner")
        expect("Following" in banner.text, f"banner: {banner.text!r}")
        expect(follower.execute_script("return document.querySelector('.follow-inert').inert === true"),
               "the follower's bar is not inert")
        stream_open(follower)
        mark_document(follower)
        wait_live(presenter, lambda d: "1 person following" in d.find_element(By.CSS_SELECTOR, "[data-followers]").text,
                  "the presenter sees the follower")

        for tab in ["wallet", "finding", "news", "home", "news"]:
            tap(presenter, tab)
            wait_live(follower, lambda d: selected_tab(d) == tab, f"the follower seeing {tab}")
        expect(document_survived(follower), "the follow page reloaded instead of following in place")

        # The follower cannot act: a click on the bar does nothing, and the presenter stays.
        try:
            ActionChains(follower).move_to_element(
                follower.find_element(By.CSS_SELECTOR, '.tab-bar a.tab[data-tab="wallet"]')).click().perform()
        except WebDriverException:
            pass  # refused as not clickable: inert
        time.sleep(0.5)
        expect(selected_tab(follower) == "news" and "/follow/" in follower.current_url,
               f"the inert bar acted: {follower.current_url}")
        expect(selected_tab(presenter) == "news", "the follower changed the presenter's state")

        # Leaving: the follower's own session, starting from what was shown.
        follower.find_element(By.CSS_SELECTOR, ".follow-banner button").click()
        wait(follower, lambda d: d.current_url.endswith("/restaurant/bottom/news"), "leaving to an own copy")
        own = [c["value"] for c in follower.get_cookies() if c["name"] == "tabstage_session"]
        theirs = [c["value"] for c in presenter.get_cookies() if c["name"] == "tabstage_session"]
        expect(own and own != theirs, f"leaving did not give an own session: {own} vs {theirs}")
        tap(follower, "home")
        time.sleep(0.5)
        expect(selected_tab(presenter) == "news", "the follower's copy moved the presenter")

        # Stopping: the link says so.
        presenter.find_element(By.CSS_SELECTOR, f'form[action="/restaurant/present/stop"] button').click()
        wait(presenter, lambda d: d.find_elements(By.CSS_SELECTOR, '.live-panel form[action="/restaurant/present"]'),
             "the offer to present again")
        follower.get(follow)
        expect("ended" in follower.find_element(By.TAG_NAME, "main").text, "the stopped link does not say so")
    finally:
        presenter.quit()
        follower.quit()


@test
def follow_pages_pass_axe_and_the_nu_checker(base):
    from axe_selenium_python import Axe
    presenter = make_driver("tablet")
    follower = make_driver("tablet")
    folder = Path(tempfile.mkdtemp(prefix="tabstage-live-html-"))
    try:
        follow = start_presenting(presenter, base)
        follower.get(follow)
        problems = []
        for driver, name in [(presenter, "presenting"), (follower, "following")]:
            axe = Axe(driver)
            axe.inject()
            for violation in axe.run()["violations"]:
                problems.append(f"{name}: {violation['id']} ({violation['help']})")
            (folder / f"{name}.html").write_text(driver.execute_script(
                "return '<!doctype html>\\n' + document.documentElement.outerHTML"))
        expect(not problems, "axe violations:\n  " + "\n  ".join(problems))
        with urllib.request.urlopen(follow, timeout=10) as response:
            (folder / "follow-as-served.html").write_bytes(response.read())
        run_browser_tests.expect_valid_html_files([str(folder / "follow-as-served.html")])
    finally:
        presenter.quit()
        follower.quit()


def coffee(title):
    app = json.loads((ROOT / "examples" / "coffee.json").read_text())
    app["tabs"][0]["title"]["en"] = title
    return json.dumps(app, ensure_ascii=False, indent=2)


def tab_title(driver, tab):
    return driver.find_element(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"] .tab-title').text


@test
def watch_replaces_the_app_on_every_kind_of_save_and_shows_problems_until_fixed(base):
    folder = Path(tempfile.mkdtemp(prefix="tabstage-watch-"))
    path = folder / "coffee.json"
    path.write_text(coffee("Menu"))
    server = run_browser_tests.Server(run_browser_tests.BINARY, extra_arguments=["--app", str(path), "--watch"])
    driver = make_driver("tablet")
    try:
        driver.get(server.base + "/coffee/bottom/menu")
        stream_open(driver)
        mark_document(driver)

        # An editor that saves by writing a new file and renaming it over the old one.
        temporary = folder / ".coffee.json.swp"
        temporary.write_text(coffee("Drinks"))
        os.replace(temporary, path)
        wait_live(driver, lambda d: tab_title(d, "menu") == "Drinks", "the rename-save shown")

        # One that truncates the file, then writes it in pieces.
        text = coffee("Beverages")
        with open(path, "w") as file:
            file.flush()
            time.sleep(0.02)
            for start in range(0, len(text), 200):
                file.write(text[start:start + 200])
                file.flush()
                time.sleep(0.005)
        wait_live(driver, lambda d: tab_title(d, "menu") == "Beverages", "the in-place save shown")

        # An invalid save: the last good version serves, the page shows the problems.
        path.write_text(coffee("Broken").replace('"tabs"', '"tabz"', 1))
        banner = wait_live(driver, lambda d: d.find_element(By.ID, "live-problems"), "the problems banner")
        expect("coffee.json" in banner.text, f"banner: {banner.text!r}")
        expect(tab_title(driver, "menu") == "Beverages", "an invalid file replaced the app")
        path.write_text(coffee("Fixed"))
        wait_live(driver, lambda d: not d.find_elements(By.ID, "live-problems") and tab_title(d, "menu") == "Fixed",
                  "the banner cleared and the fix shown")
        expect(document_survived(driver), "the page reloaded instead of updating in place")
    finally:
        driver.quit()
        server.stop()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_on(port, database):
    command = [str(run_browser_tests.BINARY), "serve", "--host", "127.0.0.1", "--port", str(port), "--quiet",
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


@test
def an_open_page_catches_up_after_a_server_restart(base):
    folder = Path(tempfile.mkdtemp(prefix="tabstage-restart-"))
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    process = start_on(port, folder / "sessions.sqlite")
    driver = make_driver("tablet")
    try:
        driver.get(address + "/restaurant/bottom/home")
        stream_open(driver)
        mark_document(driver)
        cookie = [c["value"] for c in driver.get_cookies() if c["name"] == "tabstage_session"][0]
        stop(process)
        process = start_on(port, folder / "sessions.sqlite")
        # The visitor's session changes on the new server (another window, say) at once.
        request = urllib.request.Request(address + "/restaurant/bottom/news", headers={
            "Cookie": f"tabstage_session={cookie}", "X-TabStage-Source": "tap"})
        urllib.request.urlopen(request, timeout=10).read()
        wait_live(driver, lambda d: selected_tab(d) == "news", "the page catching up after the restart",
                  seconds=LIVE_SECONDS + 3)
        expect(document_survived(driver), "the page reloaded instead of catching up in place")
    finally:
        driver.quit()
        stop(process)
