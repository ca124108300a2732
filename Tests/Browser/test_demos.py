"""Both built-in demos in headless Chromium: every tab clicked in both layouts at a phone and a
tablet viewport, the bars driven by keyboard, history walked, the log-in guard and the page forms
with and without JavaScript, the core walk without JavaScript; axe on every distinct page in
light, in dark as the browser asks for it and in dark as the session keeps it, the Nu HTML
checker on each, and a screenshot of each under build/screenshots/."""
import re

import pytest

from support import (APPS, LAYOUTS, By, Keys, axe_violations, distinct_pages, document_survived, expect_valid_html,
                     header_item, header_text, log_in, mark_document, page_heading, path_of, prefer_appearance,
                     save_screenshot, screenshot_name, selected_tab, tab_link, tap, wait)

BOTH_VIEWPORTS = ["phone", "tablet"]
# "with_javascript" / "without_javascript" in a test's name.
JAVASCRIPT = pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("app", APPS)
@pytest.mark.parametrize("viewport", BOTH_VIEWPORTS)
def test_click_every_tab(base, browser, viewport, app, layout):
    driver = browser(viewport)
    tabs, guarded = APPS[app]
    driver.get(f"{base}/{app}/{layout}")
    wait(driver, lambda d: selected_tab(d) is not None, "a selected tab")
    mark_document(driver)
    for tab in tabs:
        if tab == guarded:
            continue
        tap(driver, tab)
        wait(driver, lambda d: path_of(d) == f"/{app}/{layout}/{tab}", f"URL of {tab}")
        wait(driver, lambda d: selected_tab(d) == tab, f"{tab} marked selected")
        wait(driver, page_heading, f"{app}/{layout}/{tab}: the page has a heading")
        assert document_survived(driver), f"{app}/{layout}/{tab}: the click reloaded the page"
        assert driver.find_elements(By.CSS_SELECTOR, f".tab-bar-{layout}"), "the bar's layout"
        active = driver.switch_to.active_element.get_attribute("data-tab")
        assert active == tab, f"focus stays on the clicked tab, not {active!r}"


ARROWS = {"vertical": (Keys.ARROW_DOWN, Keys.ARROW_UP, Keys.ARROW_RIGHT),
          "bottom": (Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_DOWN)}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("app", APPS)
@pytest.mark.parametrize("viewport", BOTH_VIEWPORTS)
def test_keyboard(base, browser, viewport, app, layout):
    driver = browser(viewport)
    tabs, _ = APPS[app]
    forward, backward, off_axis = ARROWS[layout]
    driver.get(f"{base}/{app}/{layout}/{tabs[0]}")
    current = tab_link(driver, tabs[0])
    current.send_keys(Keys.NULL)  # focus without activating
    driver.execute_script("arguments[0].focus()", current)
    focused = lambda d: d.switch_to.active_element.get_attribute("data-tab")
    # The other axis's arrows do nothing.
    driver.switch_to.active_element.send_keys(off_axis)
    assert focused(driver) == tabs[0], f"{layout}: off-axis arrow moved focus"
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
    assert selected_tab(driver) == tabs[0], "arrows move focus only; Enter selects"
    tabindexes = [link.get_attribute("tabindex") for link in driver.find_elements(By.CSS_SELECTOR, ".tab-bar a.tab")]
    assert tabindexes.count("0") == 1, f"one tab in the Tab order (roving), got {tabindexes}"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: selected_tab(d) == tabs[1], f"{layout}: Enter selects {tabs[1]}")
    wait(driver, lambda d: focused(d) == tabs[1], f"{layout}: focus on {tabs[1]} after the switch")
    assert path_of(driver) == f"/{app}/{layout}/{tabs[1]}", "Enter updates the URL"


def test_history_back_and_forward(base, tablet):
    driver = tablet
    tabs = APPS["restaurant"][0]
    driver.get(f"{base}/restaurant/bottom/{tabs[0]}")
    mark_document(driver)
    for tab in tabs[1:4]:
        tap(driver, tab)
        wait(driver, lambda d: selected_tab(d) == tab, f"{tab} selected")
    for expected in (tabs[2], tabs[1], tabs[0]):
        driver.back()
        wait(driver, lambda d: path_of(d) == f"/restaurant/bottom/{expected}", f"back to {expected}")
        wait(driver, lambda d: selected_tab(d) == expected, f"the page shows {expected} after back")
    driver.forward()
    wait(driver, lambda d: selected_tab(d) == tabs[1], "forward shows the next tab")
    assert path_of(driver) == f"/restaurant/bottom/{tabs[1]}", "forward URL"
    assert document_survived(driver), "history moves swap the stage, not reload"


@JAVASCRIPT
def test_login_guard(base, browser, javascript):
    driver = browser("phone", javascript=javascript)
    driver.get(f"{base}/restaurant/bottom/home")
    tap(driver, "membership")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'form[action^="/login"]'), "the log-in offer")
    assert selected_tab(driver) == "home", "a refused tab leaves the selection as it was"
    sheet = driver.find_element(By.ID, "login-sheet")
    assert "log in" in sheet.text.lower(), "the sheet over the page says why"
    log_in(driver, "Mei")
    wait(driver, lambda d: selected_tab(d) == "membership", "log-in continues to Membership")
    assert path_of(driver) == "/restaurant/bottom/membership", "Membership URL after log-in"
    assert "Mei" in header_text(driver), "the header names the visitor"
    header_item(driver, 'form[action="/logout"] button').click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.stage-header a[href^="/login"]'), "logged out")
    assert selected_tab(driver) != "membership", "log-out leaves the login-only tab"


def badge_count(driver, tab):
    badges = tab_link(driver, tab).find_elements(By.CSS_SELECTOR, ".badge")
    if not badges:
        return 0
    digits = re.match(r"\d+", badges[0].text.strip())
    return int(digits.group(0)) if digits else 0


@JAVASCRIPT
def test_page_forms_and_badge(base, browser, javascript):
    driver = browser("tablet", javascript=javascript)
    driver.get(f"{base}/restaurant/bottom/wallet")
    page = lambda d: d.find_element(By.ID, "page").text
    before = page(driver)
    amount = driver.find_element(By.CSS_SELECTOR, '#page input[name="amount"]')
    amount.clear()
    amount.send_keys("25")
    amount.submit()
    wait(driver, lambda d: page(d) != before, "the top-up changes the wallet page")
    assert path_of(driver) == "/restaurant/bottom/wallet", "post/redirect/get back to Wallet"
    driver.get(f"{base}/restaurant/bottom/news")
    unread = badge_count(driver, "news")
    assert unread > 0, "News starts with unread items"
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
    assert page(driver) != before, "the wallet kept its state across switches (keep-alive)"


@pytest.mark.parametrize("app", APPS)
def test_core_walk_without_javascript(base, browser, app):
    driver = browser("phone", javascript=False)
    tabs, guarded = APPS[app]
    for layout in LAYOUTS:
        driver.get(f"{base}/{app}/{layout}")
        for tab in tabs:
            if tab == guarded:
                continue
            tap(driver, tab)
            # The URL can name the next page while the last is still the document read.
            wait(driver, lambda d: path_of(d) == f"/{app}/{layout}/{tab}" and selected_tab(d) == tab,
                 f"the URL of {tab}, and {tab} selected without JavaScript")
            assert page_heading(driver), "a heading"
    # Switching layout keeps the selection: one container shown two ways.
    header_item(driver, f'a[href="/{app}/vertical"]').click()
    wait(driver, lambda d: path_of(d).startswith(f"/{app}/vertical/"), "layout switch")
    assert selected_tab(driver) == [t for t in tabs if t != guarded][-1], "the selection survives"


@pytest.mark.parametrize("path", distinct_pages(), ids=screenshot_name)
def test_axe_finds_no_violations(base, tablet, path):
    """Light; then dark as the browser asks for it, on the same page (it follows without a
    reload); then dark as the session keeps it (?appearance=dark sets it; a stage's frames read
    it from the session), on a light browser. The tablet's screenshot of each page is taken
    here, from the light page."""
    driver = tablet
    driver.get(base + path)
    problems = axe_violations(driver, f"light {path}")
    save_screenshot(driver, f"tablet-{screenshot_name(path)}")
    prefer_appearance(driver, "dark")
    problems += axe_violations(driver, f"browser dark {path}")
    prefer_appearance(driver, "light")
    driver.get(base + path + ("&" if "?" in path else "?") + "appearance=dark")
    problems += axe_violations(driver, f"session dark {path}")
    assert not problems, "axe violations:\n  " + "\n  ".join(problems)


def test_html_is_valid(base, nu):
    expect_valid_html(nu, base, distinct_pages())


def test_screenshots_of_every_page(base, phone):
    """At the phone's size; the tablet's are taken by test_axe_finds_no_violations."""
    driver = phone
    for path in distinct_pages():
        driver.get(base + path)
        save_screenshot(driver, f"phone-{screenshot_name(path)}")
