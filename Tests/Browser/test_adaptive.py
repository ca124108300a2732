"""The adaptive layout (issue 21): one page that is a bottom bar at 390 wide and a sidebar at 1024,
switching on resize without a request; sections that collapse by keyboard; the edit list used by
keyboard alone, its order kept across a reload, Hide drawn only in its sidebar form (issue 30);
axe and the Nu checker on its pages. examples/library.json is the 9-tab app it runs on."""
import pytest

from support import (By, Keys, document_survived, expect_no_axe_violations_on, expect_valid_html,
                     mark_document, path_of, save_screenshot, wait)


@pytest.fixture
def library(app_server):
    """The base URL of a server of examples/library.json."""
    return app_server("library")


def bar_box(driver):
    return driver.execute_script(
        "var r = document.querySelector('.tab-bar-adaptive').getBoundingClientRect();"
        "return {x: r.left, y: r.top, width: r.width, height: r.height,"
        " viewport: [window.innerWidth, window.innerHeight]};")


def drawn_tabs(driver):
    """The ids of the bar's cells that are drawn, in order."""
    return driver.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('.tab-bar-adaptive a.tab'),"
        " function (a) { return a.getClientRects().length > 0; }).map(function (a) { return a.dataset.tab; });")


def expect_bottom_bar(driver, what):
    box = bar_box(driver)
    width, height = box["viewport"]
    assert box["width"] > box["height"], f"{what}: the bar is a row ({box})"
    assert abs(box["y"] + box["height"] - height) <= 2, f"{what}: the bar ends at the window's bottom ({box})"
    assert box["width"] >= width - 2, f"{what}: the bar spans the window ({box})"


def expect_sidebar(driver, what):
    box = bar_box(driver)
    assert box["height"] > box["width"], f"{what}: the bar is a column ({box})"
    assert box["x"] < 40 and box["width"] < 300, f"{what}: the column is on the left ({box})"


def test_adaptive_bar_is_a_bottom_bar_at_390_and_a_sidebar_at_1024(library, browser):
    phone = browser("phone")
    phone.get(f"{library}/library/adaptive/home")
    expect_bottom_bar(phone, "at 390")
    assert drawn_tabs(phone) == ["home", "catalogue", "news", "events", "_more"], (
        f"four tabs and More: {drawn_tabs(phone)}")
    save_screenshot(phone, "phone-adaptive-library-home")
    tablet = browser("tablet")
    tablet.get(f"{library}/library/adaptive/home")
    expect_sidebar(tablet, "at 1024")
    assert len(drawn_tabs(tablet)) == 9 and "_more" not in drawn_tabs(tablet), (
        f"every tab and no More: {drawn_tabs(tablet)}")
    save_screenshot(tablet, "tablet-adaptive-library-home")


def test_adaptive_resizing_switches_the_bar_without_a_request(base, tablet):
    driver = tablet
    driver.get(f"{base}/restaurant/adaptive/home")
    mark_document(driver)
    requests_before = driver.execute_script("return performance.getEntriesByType('resource').length")
    expect_sidebar(driver, "at 1024")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    wait(driver, lambda d: bar_box(d)["viewport"][0] == 390, "the window is 390 wide")
    expect_bottom_bar(driver, "after narrowing")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1024, "height": 768, "deviceScaleFactor": 1, "mobile": False})
    wait(driver, lambda d: bar_box(d)["viewport"][0] == 1024, "the window is 1024 wide")
    expect_sidebar(driver, "after widening")
    assert document_survived(driver), "the page was not reloaded"
    documents = driver.execute_script(
        "return performance.getEntriesByType('resource').filter(function (e) {"
        " return e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest'; }).length")
    assert documents == 0, f"no request for the page: {documents} fetches"
    assert driver.execute_script("return performance.getEntriesByType('resource').length") >= requests_before, (
        "the resource timeline is readable")


def test_adaptive_sections_collapse_and_expand_by_keyboard(library, tablet):
    driver = tablet
    driver.get(f"{library}/library/adaptive/home")
    toggle = driver.find_element(By.CSS_SELECTOR, '.section-toggle[aria-controls="tab-section-borrowing"]')
    assert toggle.get_attribute("aria-expanded") == "true", "the section starts expanded"
    toggle.send_keys(Keys.ENTER)
    wait(driver, lambda d: toggle.get_attribute("aria-expanded") == "false", "Enter collapses the section")
    assert "loans" not in drawn_tabs(driver), f"a collapsed section's tabs are not drawn: {drawn_tabs(driver)}"
    save_screenshot(driver, "tablet-adaptive-library-collapsed")
    toggle.send_keys(Keys.SPACE)
    wait(driver, lambda d: toggle.get_attribute("aria-expanded") == "true", "Space expands it again")
    assert "loans" in drawn_tabs(driver), "its tabs are drawn again"


def focused(driver):
    return driver.execute_script(
        "var e = document.activeElement; var row = e.closest && e.closest('.edit-row');"
        " return [e.tagName, e.dataset.action || e.textContent.trim(), row ? row.dataset.tab : null];")


def tab_until(driver, wanted, limit=80):
    """Presses Tab until the focused element matches `wanted` (a function of `focused`)."""
    for _ in range(limit):
        if wanted(focused(driver)):
            return
        driver.switch_to.active_element.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached the wanted control (last: {focused(driver)})")


def edit_by_keyboard(driver, base, javascript):
    """Opens More, then Edit, and moves Card up twice, with keys only (the iPhone's More → Edit)."""
    driver.get(f"{base}/library/adaptive/home")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    # With the script the bar is one Tab stop (roving tabindex) and End goes to its last cell.
    tab_until(driver, lambda f: f[0] == "A" and f[1] == ("Home" if javascript else "More"))
    if javascript:
        driver.switch_to.active_element.send_keys(Keys.END)
    assert focused(driver)[1] == "More", f"More is focused: {focused(driver)}"
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: path_of(d) == "/library/adaptive/_more", "the More list")
    tab_until(driver, lambda f: f[0] == "A" and f[1] == "Edit")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: path_of(d) == "/library/adaptive/_more/edit", "the edit list")
    for _ in range(2):
        tab_until(driver, lambda f: f[2] == "card" and f[1] == "up")
        press_and_wait_for_a_new_list(driver)


def press_and_wait_for_a_new_list(driver):
    """Enter on the focused button, then waits until the edit list is a new one (swapped in by
    the script, or a new page without it) and, with the script, until the focus is back in it."""
    driver.execute_script("document.querySelector('.edit-list').dataset.old = 'yes';")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.execute_script(
        "var list = document.querySelector('.edit-list'); if (!list || list.dataset.old) return false;"
        " var e = document.activeElement; return e === document.body || list.closest('#stage').contains(e);"),
        "a new edit list")


def edit_rows(driver):
    return [row.get_attribute("data-tab") for row in driver.find_elements(By.CSS_SELECTOR, ".edit-row")]


def shown_hide_buttons(driver):
    return [button for button in driver.find_elements(By.CSS_SELECTOR, '.edit-row button[value="hide"]')
            if button.is_displayed()]


def expect_edit_kept(driver, base, javascript):
    expected = ["home", "catalogue", "news", "events", "card", "loans", "reading-list", "account", "settings"]
    assert edit_rows(driver) == expected, f"Card moved up twice in its section: {edit_rows(driver)}"
    driver.get(f"{base}/library/adaptive/_more/edit")
    assert edit_rows(driver) == expected, f"the order is kept after a reload: {edit_rows(driver)}"
    driver.get(f"{base}/library/adaptive/_more")
    rows = [row.get_attribute("data-tab") for row in driver.find_elements(By.CSS_SELECTOR, "a.more-row")]
    assert rows == ["card", "loans", "reading-list", "account", "settings"], (
        f"the More list follows the edit: {rows} (script {javascript})")


@pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])
def test_adaptive_customizing_by_keyboard_is_kept_after_a_reload(library, browser, javascript):
    # Without the script, the whole browser: the headless shell's Tab key stays on Home.
    driver = browser("phone", javascript=javascript, kind="shell" if javascript else "chromium")
    edit_by_keyboard(driver, library, javascript)
    assert not shown_hide_buttons(driver), "the iPhone's More → Edit only moves: no Hide drawn at 390"
    save_screenshot(driver, f"phone-adaptive-library-edit-{'js' if javascript else 'nojs'}")
    expect_edit_kept(driver, library, javascript)


@pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])
def test_adaptive_hiding_by_keyboard_is_the_sidebars(library, browser, javascript):
    """iPadOS's sidebar customization hides tabs: the sidebar's Edit, then Hide on News."""
    driver = browser("tablet", javascript=javascript)
    driver.get(f"{library}/library/adaptive/home")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    tab_until(driver, lambda f: f[0] == "A" and f[1] == "Edit")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: path_of(d) == "/library/adaptive/_more/edit", "the edit list")
    assert shown_hide_buttons(driver), "Hide is drawn in the sidebar's form"
    tab_until(driver, lambda f: f[2] == "news" and f[1] == "hide")
    press_and_wait_for_a_new_list(driver)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.edit-row[data-tab="news"][data-hidden]'), "News hidden")
    driver.get(f"{library}/library/adaptive/home")
    assert "news" not in drawn_tabs(driver) and len(drawn_tabs(driver)) == 8, (
        f"the sidebar leaves News out: {drawn_tabs(driver)} (script {javascript})")
    # A device offers no way to a hidden tab: its URL leaves the screen shown, and says why.
    driver.get(f"{library}/library/adaptive/news")
    wait(driver, lambda d: path_of(d) == "/library/adaptive/home", "News's URL leads back to Home")
    assert "News is hidden. Show it again from Edit." in driver.find_element(By.ID, "stage").text, "the notice"


ADAPTIVE_PAGES = ["/library/adaptive/home", "/library/adaptive/loans", "/library/adaptive/_more",
                  "/library/adaptive/_more/edit", "/restaurant/adaptive/news", "/vertical/adaptive/settings",
                  "/restaurant/bottom/home"]


def test_adaptive_pages_pass_axe_and_the_nu_checker(library, tablet, nu):
    expect_no_axe_violations_on(tablet, library, ADAPTIVE_PAGES)
    expect_valid_html(nu, library, ADAPTIVE_PAGES)
