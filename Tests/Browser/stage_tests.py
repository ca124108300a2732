"""The stage (/{app}/stage), device frames on tab pages, the dark appearance and the start page's
cards, in headless Chromium (docs/stage.md). Loaded by run_browser_tests.py."""
import re
import tempfile
import urllib.request
from pathlib import Path

import run_browser_tests as suite
from run_browser_tests import ROOT, expect, make_driver, save_screenshot, selected_tab, tab_link, test, wait
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "desktop": (1440, 900)}
# The appearance steps of the tab a tap shows, in UIKit's order (TabContainer's docs).
APPEARING = ["{new} willMove(toParent: container)", "addChild {new}", "{new} viewWillAppear", "{new} view added",
             "{new} viewDidAppear"]


def driver_for(size, javascript=True, dark=False):
    suite.VIEWPORTS.setdefault(size, SIZES[size])
    driver = make_driver(size, javascript=javascript)
    if dark:
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


def frame_selected(driver, name):
    return in_frame(driver, name, lambda: selected_tab(driver))


def timeline(driver):
    return [step.text.strip() for step in driver.find_elements(By.CSS_SELECTOR, "#timeline .timeline-steps li")]


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


def bars_of_the_stage(base, size):
    driver = driver_for(size)
    try:
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
        (vertical, tablet_page, tablet_tabs) = in_frame(driver, "tablet", lambda: bar("vertical"))
        expect(phone_tabs == tablet_tabs, f"the same app's tabs in both: {phone_tabs} / {tablet_tabs}")
        expect(bottom[2] > bottom[3] and bottom[2] >= phone_page[0] - 1, f"a bottom bar across the phone: {bottom}")
        expect(bottom[1] + bottom[3] >= phone_page[1] - 1, f"the phone's bar at its bottom: {bottom} in {phone_page}")
        expect(vertical[3] > vertical[2] and vertical[0] <= 1, f"a vertical bar at the tablet's left: {vertical}")
        expect(phone_page == [390, 844] and tablet_page == [1024, 768],
               f"device-sized screens, got {phone_page} and {tablet_page}")
        if size == "phone":
            expect(tablet_box[1] >= phone_box[1] + phone_box[3], f"narrow: stacked, {phone_box} then {tablet_box}")
        else:
            expect(tablet_box[0] >= phone_box[0] + phone_box[2] and abs(tablet_box[1] - phone_box[1]) < 2,
                   f"side by side: {phone_box} and {tablet_box}")
        for placed in (phone_box, tablet_box):
            expect(placed[0] >= 0 and placed[0] + placed[2] <= SIZES[size][0], f"a frame off screen: {placed}")
        save_screenshot(driver, f"stage-{size}")
    finally:
        driver.quit()


for _size in SIZES:
    def _bars(base, size=_size):
        bars_of_the_stage(base, size)
    _bars.__name__ = f"stage_shows_both_bars_{_size}"
    test(_bars)


def stage_keeps_both_in_step(base, size):
    driver = driver_for(size)
    try:
        open_stage(driver, base)
        start = frame_selected(driver, "phone")
        expect(start == frame_selected(driver, "tablet"), "both frames start on the same tab")
        driver.execute_script("window.__stageMarker = 'kept';")
        for clicked, other, tab in (("phone", "tablet", "wallet"), ("tablet", "phone", "news")):
            in_frame(driver, clicked, lambda: driver.execute_script("window.__frameMarker = 'kept';"))
            in_frame(driver, clicked, lambda: activate(tab_link(driver, tab)))
            wait(driver, lambda d: frame_selected(d, clicked) == tab, f"{tab} selected in the {clicked}")
            wait(driver, lambda d: frame_selected(d, other) == tab, f"the {other} follows to {tab}")
            expect(in_frame(driver, clicked, lambda: driver.execute_script("return window.__frameMarker")) == "kept",
                   f"the {clicked} frame swapped its page, not reloaded it")
            logged = driver.execute_script(
                "var r = new XMLHttpRequest(); r.open('GET', '/restaurant/events.json', false); r.send();"
                " return JSON.parse(r.responseText).events.map(function (e) { return e.event; });")
            starts = [index for index, step in enumerate(logged)
                      if re.match(rf"(shouldSelect|guard) {tab} \(tap\)", step)]
            expect(starts, f"the log has the tap on {tab}: {logged[-5:]}")
            expected = logged[starts[-1]:]
            expect(in_order(expected, [step.format(new=tab) for step in APPEARING]),
                   f"{tab} appears in UIKit's order: {expected}")
            wait(driver, lambda d: timeline(d)[-len(expected):] == expected,
                 f"the timeline gains {tab}'s steps in order: {expected}")
            newest = [step.text.strip() for step in driver.find_elements(By.CSS_SELECTOR, "#timeline .step-newest")]
            expect(newest == expected, f"the newest steps are highlighted: {newest}")
        expect(driver.execute_script("return window.__stageMarker") == "kept", "the stage itself never reloaded")
    finally:
        driver.quit()


@test
def stage_keeps_both_in_step_desktop(base):
    stage_keeps_both_in_step(base, "desktop")


@test
def stage_keeps_both_in_step_tablet(base):
    stage_keeps_both_in_step(base, "tablet")


@test
def stage_works_without_javascript(base):
    driver = driver_for("desktop", javascript=False)
    try:
        open_stage(driver, base)
        in_frame(driver, "phone", lambda: activate(tab_link(driver, "finding")))
        wait(driver, lambda d: frame_selected(d, "phone") == "finding", "a link in the phone frame works")
        driver.refresh()
        wait(driver, lambda d: frame_selected(d, "tablet") == "finding", "the tablet shows it after a refresh")
        expect("finding viewDidAppear" in timeline(driver), f"the timeline on refresh: {timeline(driver)[-3:]}")
    finally:
        driver.quit()


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


@test
def device_frames_on_wide_windows_only(base):
    for size in SIZES:
        driver = driver_for(size)
        try:
            driver.get(f"{base}/restaurant/bottom/home")
            phone = device_chrome(driver)
            driver.get(f"{base}/restaurant/vertical/home")
            tablet = device_chrome(driver)
            if size == "phone":
                expect(not phone["status"] and not phone["indicator"] and phone["bezel"] <= 1 and phone["width"] == 390,
                       f"390 wide: no frame, the page fills the screen: {phone}")
                expect(not tablet["status"], f"390 wide: no tablet frame: {tablet}")
            else:
                expect(phone["status"] and phone["indicator"] and phone["bezel"] >= 10, f"{size}: a phone frame: {phone}")
                # The tablet frame needs a window wider than the tablet.
                expect(tablet["status"] == (size == "desktop"), f"{size}: tablet frame {tablet}")
        finally:
            driver.quit()


@test
def the_bottom_bar_sits_above_the_home_indicator(base):
    driver = driver_for("desktop")
    try:
        driver.get(f"{base}/restaurant/bottom/home")
        indicator = box(driver, driver.find_element(By.CSS_SELECTOR, ".home-indicator"))
        screen = box(driver, driver.find_element(By.CSS_SELECTOR, ".device"))
        for link in driver.find_elements(By.CSS_SELECTOR, ".tab-bar-bottom a.tab"):
            cell = box(driver, link)
            expect(cell[1] + cell[3] <= indicator[1], f"a bar cell {cell} reaches the home indicator {indicator}")
        expect(indicator[1] + indicator[3] <= screen[1] + screen[3], "the indicator inside the device")
        save_screenshot(driver, "framed-desktop-restaurant-bottom-home")
        driver.get(f"{base}/vertical/vertical/inbox")
        save_screenshot(driver, "framed-desktop-vertical-vertical-inbox")
    finally:
        driver.quit()


@test
def frame_none_is_remembered(base):
    driver = driver_for("desktop")
    try:
        driver.get(f"{base}/restaurant/bottom/home?frame=none")
        expect(not device_chrome(driver)["status"], "?frame=none: no frame")
        driver.get(f"{base}/restaurant/bottom/wallet")
        expect(not device_chrome(driver)["status"], "the session remembers it")
        driver.get(f"{base}/restaurant/bottom/wallet?frame=device")
        expect(device_chrome(driver)["status"], "?frame=device: frames again")
    finally:
        driver.quit()


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


@test
def dark_appearance_follows_the_browser_and_the_session(base):
    driver = driver_for("tablet", dark=True)
    try:
        driver.get(f"{base}/restaurant/bottom/home")
        auto = colours(driver)
        expect(is_dark(auto["background"]) and is_dark(auto["bar"]), f"prefers dark: dark page and bar {auto}")
        expect(len(auto["icons"]) == 5, f"one picture per cell: {auto['icons']}")
        unselected = [src for src in auto["icons"] if "/selected@" not in src]
        expect(len(unselected) == 4 and all("color=C7C7CC" in src for src in unselected),
               f"unselected icons in the light fill: {unselected}")
        expect(any("selected@" in src and "tint=" in src for src in auto["icons"]), "the glow keeps the tint")
        wait(driver, lambda d: colours(d)["loaded"], "every icon shown is loaded")
        driver.get(f"{base}/restaurant/bottom/home?appearance=light")
        light = colours(driver)
        expect(not is_dark(light["background"]) and all("color=" not in src for src in light["icons"]),
               f"?appearance=light overrides the browser: {light}")
        driver.get(f"{base}/restaurant/vertical/wallet")
        expect(not is_dark(colours(driver)["background"]), "the session keeps light")
        driver.get(f"{base}/restaurant/vertical/wallet?appearance=auto")
        expect(is_dark(colours(driver)["background"]), "auto follows the browser again")
    finally:
        driver.quit()
    driver = driver_for("desktop")
    try:
        driver.get(f"{base}/restaurant/bottom/news?appearance=dark")
        forced = colours(driver)
        expect(is_dark(forced["background"]), f"?appearance=dark on a light browser: {forced}")
        toggle = driver.find_elements(By.CSS_SELECTOR, '.stage-header a[href="?appearance=dark"][aria-current]')
        expect(toggle, "the header's toggle marks dark")
        save_screenshot(driver, "dark-desktop-restaurant-bottom-news")
        open_stage(driver, base)
        save_screenshot(driver, "dark-stage-desktop")
        driver.get(f"{base}/?appearance=light")
    finally:
        driver.quit()


def stage_pages():
    return [f"/{app}/stage" for app in suite.APPS]


@test
def dark_pages_pass_axe(base):
    from axe_selenium_python import Axe
    problems = []
    for dark_by in ("browser", "session"):
        driver = driver_for("tablet", dark=dark_by == "browser")
        try:
            if dark_by == "session":
                driver.get(f"{base}/?appearance=dark")
            for path in suite.distinct_pages():
                driver.get(base + path)
                axe = Axe(driver)
                axe.inject()
                for violation in axe.run()["violations"]:
                    targets = [node["target"] for node in violation["nodes"]][:3]
                    problems.append(f"{dark_by} dark {path}: {violation['id']} ({violation['help']}) at {targets}")
        finally:
            driver.quit()
    expect(not problems, "axe violations:\n  " + "\n  ".join(problems))


@test
def dark_pages_are_valid_html(base):
    folder = Path(tempfile.mkdtemp(prefix="tabstage-dark-html-"))
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(urllib.request.Request(f"{base}/?appearance=dark&frame=none"), timeout=20).read()
    files = []
    for index, path in enumerate(suite.distinct_pages()):
        request = urllib.request.Request(base + path, headers={"Accept-Language": "en", "Sec-Fetch-Dest": "iframe"}
                                         if "/stage" not in path else {"Accept-Language": "en"})
        try:
            body = opener.open(request, timeout=20).read()
        except urllib.error.HTTPError as error:
            body = error.read()
        expect(b'data-appearance="dark"' in body, f"{path} is dark")
        file = folder / f"dark{index:02d}.html"
        file.write_bytes(body)
        files.append(str(file))
    suite.expect_valid_html_files(files)


@test
def the_start_page_shows_each_app_as_a_card(base):
    driver = driver_for("desktop")
    try:
        driver.get(base + "/")
        cards = driver.find_elements(By.CSS_SELECTOR, ".app-card")
        expect(len(cards) == len(suite.APPS), f"{len(cards)} cards")
        for card, (app, (tabs, _)) in zip(cards, suite.APPS.items()):
            icons = card.find_elements(By.CSS_SELECTOR, ".app-icons img")
            expect(len(icons) == len(tabs), f"{app}: one icon per tab")
            wait(driver, lambda d: all(d.execute_script("return arguments[0].naturalWidth", icon) > 0 for icon in icons),
                 f"{app}: the icons are drawn")
            links = [link.get_attribute("href").replace(base, "") for link in card.find_elements(By.CSS_SELECTOR, "a")]
            for wanted in (f"/{app}/stage", f"/{app}/vertical", f"/{app}/bottom", f"/{app}/events"):
                expect(wanted in links, f"{app}: a link to {wanted} in {links}")
        save_screenshot(driver, "start-page-desktop")
        driver.get(base + "/restaurant/bottom/home")
        expect(driver.find_elements(By.CSS_SELECTOR, '.stage-header a[href="/restaurant/stage"]'),
               "the tab page's header links to the stage")
    finally:
        driver.quit()
