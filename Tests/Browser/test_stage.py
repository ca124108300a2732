"""The stage (/{app}/stage), device frames on tab pages, the dark appearance and the start page's
cards, in headless Chromium (docs/stage.md)."""
import re
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import NoSuchElementException

from support import (APPS, SELECTED_TAB_OF, VIEWPORTS, By, Keys, distinct_pages, expect_valid_documents,
                     save_screenshot, tab_link, wait)

SIZES = list(VIEWPORTS)  # phone, tablet, desktop
# The appearance steps of the tab a tap shows, in UIKit's order (TabContainer's docs).
APPEARING = ["{new} willMove(toParent: container)", "addChild {new}", "{new} viewWillAppear", "{new} view added",
             "{new} viewDidAppear"]


def prefer_dark(driver):
    """The browser asks for the dark appearance (prefers-color-scheme: dark)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    return driver


def box(driver, element):
    return driver.execute_script(
        "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", element)


def frame(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'iframe[name="stage-{name}"]')


def in_frame(driver, name, body):
    driver.switch_to.frame(frame(driver, name))
    try:
        return body()
    finally:
        driver.switch_to.default_content()


def activate(link):
    # A scaled frame's links are activated from the keyboard: WebDriver's click aims at the
    # unscaled place and hits the frame's holder.
    link.send_keys(Keys.ENTER)


# Read from the stage's own document (its frames are of its origin), in one WebDriver command
# where switching into the frame and back takes five: `wait` asks these many times.
IN_FRAME = """
var frame = document.querySelector('iframe[name="stage-' + arguments[0] + '"]');
if (!frame) return {frame: false};
var shown = frame.contentDocument;
"""


def frame_script(driver, name, body):
    """`body` run in the stage's document with `shown`, the document of its `name` frame; its
    `return {value: …}` is returned. No such frame: NoSuchElementException, as `frame` would."""
    result = driver.execute_script(IN_FRAME + body, name)
    if not result.get("frame", True):
        raise NoSuchElementException(f"no {name} frame")
    return result["value"]


def frame_selected(driver, name):
    """The tab the `name` frame shows as selected (None while it shows none)."""
    return frame_script(driver, name, f"return {{value: ({SELECTED_TAB_OF})(shown)}};")


def frames_live(driver):
    """Whether both frames' pages have their event streams open (they then follow each other)."""
    return all(frame_script(driver, name, "return {value: shown && shown.documentElement.dataset.live};") == "open"
               for name in ("phone", "tablet"))


def timeline(driver):
    """Every step of the timeline, the containment steps it shows on request among them."""
    return driver.execute_script("""return Array.prototype.map.call(
        document.querySelectorAll('#timeline .timeline-steps li'), function (step) { return step.textContent.trim(); });""")


def in_order(steps, expected):
    """Whether `expected` occur in `steps` in this order, each after the one before."""
    position = 0
    for wanted in expected:
        try:
            position = steps.index(wanted, position) + 1
        except ValueError:
            return False
    return True


def open_stage(driver, base, app="restaurant"):
    driver.get(f"{base}/{app}/stage")
    for name in ("phone", "tablet"):
        wait(driver, lambda d: frame_selected(d, name) is not None, f"the {name} frame shows a tab")


@pytest.mark.parametrize("size", SIZES)
def test_stage_shows_both_bars(base, browser, size):
    driver = browser(size)
    open_stage(driver, base)
    phone, tablet = frame(driver, "phone"), frame(driver, "tablet")
    phone_box, tablet_box = box(driver, phone), box(driver, tablet)

    def bar(kind):
        element = driver.find_element(By.CSS_SELECTOR, f".tab-bar-{kind}")
        inner = box(driver, element)
        page = driver.execute_script("return [innerWidth, innerHeight]")
        cells = [link.get_attribute("data-tab") for link in driver.find_elements(By.CSS_SELECTOR, "a.tab")]
        return inner, page, cells

    (bottom, phone_page, phone_tabs) = in_frame(driver, "phone", lambda: bar("bottom"))
    if size == "phone":
        # Below 1024 px the stage shows one device; its switch shows the other.
        driver.find_element(By.CSS_SELECTOR, 'label[for="stage-show-tablet"]').click()
    (vertical, tablet_page, tablet_tabs) = in_frame(driver, "tablet", lambda: bar("vertical"))
    assert phone_tabs == tablet_tabs, f"the same app's tabs in both: {phone_tabs} / {tablet_tabs}"
    assert bottom[2] > bottom[3] and bottom[2] >= phone_page[0] - 1, f"a bottom bar across the phone: {bottom}"
    assert bottom[1] + bottom[3] >= phone_page[1] - 1, f"the phone's bar at its bottom: {bottom} in {phone_page}"
    assert vertical[3] > vertical[2] and vertical[0] <= 1, f"a vertical bar at the tablet's left: {vertical}"
    assert phone_page == [390, 844] and tablet_page == [1024, 768], (
        f"device-sized screens, got {phone_page} and {tablet_page}")
    if size == "phone":
        assert tablet_box[2] == 0 and phone_box[2] > 0, f"narrow: the phone alone first, {phone_box} and {tablet_box}"
    else:
        assert tablet_box[0] >= phone_box[0] + phone_box[2] and abs(tablet_box[1] - phone_box[1]) < 2, (
            f"side by side: {phone_box} and {tablet_box}")
    for placed in (phone_box, tablet_box) if size != "phone" else (phone_box,):
        assert placed[0] >= 0 and placed[0] + placed[2] <= VIEWPORTS[size][0], f"a frame off screen: {placed}"
    save_screenshot(driver, f"stage-{size}")


@pytest.mark.parametrize("size", ["desktop", "tablet"])
def test_stage_keeps_both_in_step(base, browser, size):
    driver = browser(size)
    open_stage(driver, base)
    start = frame_selected(driver, "phone")
    assert start == frame_selected(driver, "tablet"), "both frames start on the same tab"
    driver.execute_script("window.__stageMarker = 'kept';")
    for clicked, other, tab in (("phone", "tablet", "wallet"), ("tablet", "phone", "news")):
        in_frame(driver, clicked, lambda: driver.execute_script("window.__frameMarker = 'kept';"))
        in_frame(driver, clicked, lambda: activate(tab_link(driver, tab)))
        wait(driver, lambda d: frame_selected(d, clicked) == tab, f"{tab} selected in the {clicked}")
        wait(driver, lambda d: frame_selected(d, other) == tab, f"the {other} follows to {tab}")
        assert in_frame(driver, clicked, lambda: driver.execute_script("return window.__frameMarker")) == "kept", (
            f"the {clicked} frame swapped its page, not reloaded it")
        logged = driver.execute_script(
            "var r = new XMLHttpRequest(); r.open('GET', '/restaurant/events.json', false); r.send();"
            " return JSON.parse(r.responseText).events.map(function (e) { return e.event; });")
        starts = [index for index, step in enumerate(logged)
                  if re.match(rf"(shouldSelect|guard) {tab} \(tap\)", step)]
        assert starts, f"the log has the tap on {tab}: {logged[-5:]}"
        expected = logged[starts[-1]:]
        assert in_order(expected, [step.format(new=tab) for step in APPEARING]), (
            f"{tab} appears in UIKit's order: {expected}")
        wait(driver, lambda d: timeline(d)[-len(expected):] == expected,
             f"the timeline gains {tab}'s steps in order: {expected}")
        newest = [step.get_attribute("textContent").strip()
                  for step in driver.find_elements(By.CSS_SELECTOR, "#timeline .step-newest")]
        assert newest == expected, f"the newest steps are highlighted: {newest}"
    assert driver.execute_script("return window.__stageMarker") == "kept", "the stage itself never reloaded"


def test_stage_works_without_javascript(base, browser):
    driver = browser("desktop", javascript=False)
    open_stage(driver, base)
    in_frame(driver, "phone", lambda: activate(tab_link(driver, "finding")))
    wait(driver, lambda d: frame_selected(d, "phone") == "finding", "a link in the phone frame works")
    driver.refresh()
    wait(driver, lambda d: frame_selected(d, "tablet") == "finding", "the tablet shows it after a refresh")
    # Without JavaScript the refresh can still be replacing the page the frame was read from.
    wait(driver, lambda d: "finding viewDidAppear" in timeline(d), "the tap in the timeline after a refresh")


def device_chrome(driver):
    return driver.execute_script("""
        var shown = function (selector) {
          var element = document.querySelector(selector);
          return !!element && getComputedStyle(element).display !== 'none';
        };
        var device = document.querySelector('.device');
        return {status: shown('.status-bar'), indicator: shown('.home-indicator'),
                bezel: parseFloat(getComputedStyle(device).borderTopWidth), width: device.getBoundingClientRect().width};
    """)


@pytest.mark.parametrize("size", SIZES)
def test_device_frames_on_wide_windows_only(base, browser, size):
    driver = browser(size)
    driver.get(f"{base}/restaurant/bottom/home")
    phone = device_chrome(driver)
    driver.get(f"{base}/restaurant/vertical/home")
    tablet = device_chrome(driver)
    if size == "phone":
        assert not phone["status"] and not phone["indicator"] and phone["bezel"] <= 1 and phone["width"] == 390, (
            f"390 wide: no frame, the page fills the screen: {phone}")
        assert not tablet["status"], f"390 wide: no tablet frame: {tablet}"
    else:
        assert phone["status"] and phone["indicator"] and phone["bezel"] >= 10, f"{size}: a phone frame: {phone}"
        # The tablet frame needs a window wider than the tablet.
        assert tablet["status"] == (size == "desktop"), f"{size}: tablet frame {tablet}"


def test_the_bottom_bar_sits_above_the_home_indicator(base, desktop):
    driver = desktop
    driver.get(f"{base}/restaurant/bottom/home")
    indicator = box(driver, driver.find_element(By.CSS_SELECTOR, ".home-indicator"))
    screen = box(driver, driver.find_element(By.CSS_SELECTOR, ".device"))
    for link in driver.find_elements(By.CSS_SELECTOR, ".tab-bar-bottom a.tab"):
        cell = box(driver, link)
        assert cell[1] + cell[3] <= indicator[1], f"a bar cell {cell} reaches the home indicator {indicator}"
    assert indicator[1] + indicator[3] <= screen[1] + screen[3], "the indicator inside the device"
    save_screenshot(driver, "framed-desktop-restaurant-bottom-home")
    driver.get(f"{base}/vertical/vertical/inbox")
    save_screenshot(driver, "framed-desktop-vertical-vertical-inbox")


def test_frame_none_is_remembered(base, desktop):
    driver = desktop
    driver.get(f"{base}/restaurant/bottom/home?frame=none")
    assert not device_chrome(driver)["status"], "?frame=none: no frame"
    driver.get(f"{base}/restaurant/bottom/wallet")
    assert not device_chrome(driver)["status"], "the session remembers it"
    driver.get(f"{base}/restaurant/bottom/wallet?frame=device")
    assert device_chrome(driver)["status"], "?frame=device: frames again"


def colours(driver):
    return driver.execute_script("""
        var shown = Array.prototype.filter.call(document.querySelectorAll('.tab-bar img.tab-icon'),
          function (image) { return getComputedStyle(image).display !== 'none'; });
        return {background: getComputedStyle(document.documentElement).backgroundColor,
                bar: getComputedStyle(document.querySelector('.tab-bar')).backgroundColor,
                icons: shown.map(function (image) { return image.currentSrc || image.src; }),
                loaded: shown.every(function (image) { return image.complete && image.naturalWidth > 0; })};
    """)


def is_dark(rgb):
    values = [int(part) for part in re.findall(r"\d+", rgb)[:3]]
    return sum(values) < 3 * 80


@pytest.mark.parametrize("dark_by", ["browser", "session"])
def test_dark_appearance_follows_the_browser_and_the_session(base, browser, dark_by):
    if dark_by == "browser":
        driver = prefer_dark(browser("tablet"))
        driver.get(f"{base}/restaurant/bottom/home")
        auto = colours(driver)
        assert is_dark(auto["background"]) and is_dark(auto["bar"]), f"prefers dark: dark page and bar {auto}"
        assert len(auto["icons"]) == 5, f"one picture per cell: {auto['icons']}"
        unselected = [src for src in auto["icons"] if "/selected@" not in src]
        assert len(unselected) == 4 and all("color=C7C7CC" in src for src in unselected), (
            f"unselected icons in the light fill: {unselected}")
        assert any("selected@" in src and "tint=" in src for src in auto["icons"]), "the glow keeps the tint"
        wait(driver, lambda d: colours(d)["loaded"], "every icon shown is loaded")
        driver.get(f"{base}/restaurant/bottom/home?appearance=light")
        light = colours(driver)
        assert not is_dark(light["background"]) and all("color=" not in src for src in light["icons"]), (
            f"?appearance=light overrides the browser: {light}")
        driver.get(f"{base}/restaurant/vertical/wallet")
        assert not is_dark(colours(driver)["background"]), "the session keeps light"
        driver.get(f"{base}/restaurant/vertical/wallet?appearance=auto")
        assert is_dark(colours(driver)["background"]), "auto follows the browser again"
    else:
        driver = browser("desktop")
        driver.get(f"{base}/restaurant/bottom/news?appearance=dark")
        forced = colours(driver)
        assert is_dark(forced["background"]), f"?appearance=dark on a light browser: {forced}"
        toggle = driver.find_elements(By.CSS_SELECTOR, '.stage-header a[href="?appearance=dark"][aria-current]')
        assert toggle, "the header's toggle marks dark"
        save_screenshot(driver, "dark-desktop-restaurant-bottom-news")
        open_stage(driver, base)
        save_screenshot(driver, "dark-stage-desktop")


def test_dark_pages_are_valid_html(base, nu):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(urllib.request.Request(f"{base}/?appearance=dark&frame=none"), timeout=20).read()
    documents = []
    for path in distinct_pages():
        request = urllib.request.Request(base + path, headers={"Accept-Language": "en", "Sec-Fetch-Dest": "iframe"}
                                         if "/stage" not in path else {"Accept-Language": "en"})
        try:
            body = opener.open(request, timeout=20).read()
        except urllib.error.HTTPError as error:
            body = error.read()
        assert b'data-appearance="dark"' in body, f"{path} is dark"
        documents.append((path, body))
    expect_valid_documents(nu, documents)


def test_the_start_page_shows_each_app_as_a_card(base, desktop):
    driver = desktop
    driver.get(base + "/")
    cards = driver.find_elements(By.CSS_SELECTOR, ".app-card")
    assert len(cards) == len(APPS), f"{len(cards)} cards"
    for card, (app, (tabs, _)) in zip(cards, APPS.items()):
        icons = card.find_elements(By.CSS_SELECTOR, ".app-icons img")
        assert len(icons) == len(tabs), f"{app}: one icon per tab"
        wait(driver, lambda d: all(d.execute_script("return arguments[0].naturalWidth", icon) > 0 for icon in icons),
             f"{app}: the icons are drawn")
        links = [link.get_attribute("href").replace(base, "") for link in card.find_elements(By.CSS_SELECTOR, "a")]
        for wanted in (f"/{app}/stage", f"/{app}/vertical", f"/{app}/bottom", f"/{app}/events"):
            assert wanted in links, f"{app}: a link to {wanted} in {links}"
    save_screenshot(driver, "start-page-desktop")
    driver.get(base + "/restaurant/bottom/home")
    assert driver.find_elements(By.CSS_SELECTOR, '.stage-header a[href="/restaurant/stage"]'), (
        "the tab page's header links to the stage")
