"""First use, as a presenter meets it (issue 17): the header follows script-driven swaps, a
refused tab is a sheet over the page that stays selected, login-only tabs carry a lock, and a
branded app (examples/bank.json, a green tint) passes axe and the Nu checker on every page kind
and is photographed in build/screenshots/."""
import json
import re
import urllib.parse

import pytest

from support import (By, Keys, document_survived, expect_no_axe_violations_on, expect_valid_html, header_item, log_in,
                     mark_document, page_heading, path_of, save_screenshot, screenshot_name, selected_tab, tab_link,
                     tap, texts, wait)

# The bank's tabs in its order; the first four are in the bottom bar, the rest in More.
BANK_TABS = ["home", "cards", "pay", "find", "news", "savings", "profile", "settings"]
BANK_LOGIN_ONLY = {"savings", "profile"}


@pytest.fixture
def bank(app_server):
    """The base URL of a server of examples/bank.json."""
    return app_server("bank")


def sheet(driver):
    found = driver.find_elements(By.ID, "login-sheet")
    return found[0] if found else None


def focus_is_inside(driver, element):
    return driver.execute_script("return arguments[0].contains(document.activeElement);", element)


def test_the_header_follows_a_swapped_tab_so_login_lands_there(base, phone):
    driver = phone
    driver.get(f"{base}/restaurant/bottom/home")
    mark_document(driver)
    tap(driver, "wallet")
    wait(driver, lambda d: selected_tab(d) == "wallet", "Wallet selected")
    assert document_survived(driver), "the tap swapped the stage"
    login = header_item(driver, "a.login-link")
    next_path = urllib.parse.parse_qs(urllib.parse.urlsplit(login.get_attribute("href")).query)["next"]
    assert next_path == ["/restaurant/bottom/wallet"], f"the header's Log in comes back to Wallet: {next_path}"
    login.click()
    log_in(driver, "Ada")
    wait(driver, lambda d: path_of(d) == "/restaurant/bottom/wallet", "log-in lands on Wallet, the tab on screen")
    assert selected_tab(driver) == "wallet", "Wallet stays selected"
    # Logged in, the log-out form follows a swap the same way.
    tap(driver, "news")
    wait(driver, lambda d: selected_tab(d) == "news", "News selected")
    field = driver.find_element(By.CSS_SELECTOR, '.stage-header form[action="/logout"] input[name="next"]')
    assert field.get_attribute("value") == "/restaurant/bottom/news", "the log-out form comes back to News"


def test_a_refused_tab_is_a_modal_sheet_over_the_page_that_stays(base, phone):
    driver = phone
    driver.get(f"{base}/restaurant/bottom/home")
    home_heading = page_heading(driver)
    mark_document(driver)
    tap(driver, "membership")
    wait(driver, lambda d: sheet(d) is not None and sheet(d).is_displayed(), "the log-in sheet")
    dialog = sheet(driver)
    assert driver.execute_script("return arguments[0].matches(':modal');", dialog), "the sheet is modal"
    assert focus_is_inside(driver, dialog), "focus moved into the sheet"
    assert selected_tab(driver) == "home", "the selection stays on Home"
    assert page_heading(driver) == home_heading, "Home's page stays under the sheet"
    assert path_of(driver) == "/restaurant/bottom/home", "a refusal adds no URL"
    assert document_survived(driver), "the refusal was swapped in, not loaded"
    save_screenshot(driver, "phone-first-use-refusal-sheet")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(driver, lambda d: sheet(d) is None, "Escape closes the sheet")
    active = driver.switch_to.active_element.get_attribute("data-tab")
    assert active == "membership", f"focus goes back to the refused tab, not {active!r}"
    # Cancel closes it too; logging in from it continues to the refused tab.
    tap(driver, "membership")
    wait(driver, lambda d: sheet(d) is not None, "the sheet again")
    sheet(driver).find_element(By.CSS_SELECTOR, "a.sheet-close").click()
    wait(driver, lambda d: sheet(d) is None, "Cancel closes the sheet")
    tap(driver, "membership")
    wait(driver, lambda d: sheet(d) is not None, "the sheet once more")
    log_in(driver, "Mei")
    wait(driver, lambda d: selected_tab(d) == "membership", "log-in continues to Membership")


def test_a_refused_url_opens_the_sheet_and_closing_it_returns_to_the_selected_tab(base, tablet):
    driver = tablet
    driver.get(f"{base}/vertical/vertical/discover")
    driver.get(f"{base}/vertical/vertical/personal-center")
    wait(driver, lambda d: sheet(d) is not None, "the log-in sheet")
    assert driver.execute_script("return arguments[0].matches(':modal');", sheet(driver)), "modal"
    assert selected_tab(driver) == "discover", "Discover stays selected"
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(driver, lambda d: sheet(d) is None, "Escape closes the sheet")
    assert path_of(driver) == "/vertical/vertical/discover", "the URL is the selected tab's again"
    login = driver.find_element(By.CSS_SELECTOR, ".stage-header a.login-link").get_attribute("href")
    assert login.endswith("next=%2Fvertical%2Fvertical%2Fdiscover"), f"the header follows: {login}"


def test_a_refused_tab_without_javascript_is_a_plain_page_with_a_way_back(base, browser):
    driver = browser("phone", javascript=False)
    driver.get(f"{base}/restaurant/bottom/wallet")
    tap(driver, "membership")
    wait(driver, lambda d: sheet(d) is not None, "the log-in sheet")
    assert sheet(driver).is_displayed(), "the sheet shows without JavaScript"
    assert selected_tab(driver) == "wallet", "the selection stays on Wallet"
    save_screenshot(driver, "phone-first-use-refusal-no-javascript")
    sheet(driver).find_element(By.CSS_SELECTOR, "a.sheet-close").click()
    # The URL can name Wallet while the sheet's page is still the document read: wait for both.
    wait(driver, lambda d: path_of(d) == "/restaurant/bottom/wallet" and sheet(d) is None,
         "Cancel goes back to Wallet, and the sheet is gone")


def test_login_only_tabs_carry_a_lock_with_an_accessible_name(base, tablet):
    driver = tablet
    driver.get(f"{base}/restaurant/bottom/home")
    locked = [link.get_attribute("data-tab") for link in
              driver.find_elements(By.CSS_SELECTOR, ".tab-bar a.tab") if link.find_elements(By.CSS_SELECTOR, "svg.lock")]
    assert locked == ["membership"], f"only Membership is locked: {locked}"
    name = tab_link(driver, "membership").accessible_name
    assert name == "Membership (requires login)", f"the lock is in the tab's name: {name!r}"


def bank_pages():
    pages = ["/", "/icons", "/bank/events", "/bank/events?kind=page", "/bank/reset", "/bank/bottom/_more",
             "/bank/vertical/home?lang=zh-Hant"]
    for layout in ("bottom", "vertical"):
        pages += [f"/bank/{layout}/{tab}" for tab in BANK_TABS]
    return pages


def test_the_branded_app_passes_axe_and_the_nu_checker_on_every_page_kind(bank, tablet, nu):
    """With the tablet's screenshot of each page (the phone's: the test below)."""
    expect_no_axe_violations_on(tablet, bank, bank_pages(), screenshots="tablet-bank")
    expect_valid_html(nu, bank, bank_pages())


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_screenshots_of_the_branded_app_on_every_page_kind(bank, browser, viewport):
    """Every page kind at the phone's size (the tablet's are taken beside axe, above), and at
    both sizes the login-only page once logged in."""
    driver = browser(viewport)
    for path in bank_pages() if viewport == "phone" else []:
        driver.get(bank + path)
        save_screenshot(driver, f"{viewport}-bank-{screenshot_name(path)}")
    # Logged in, the login-only pages show their own content.
    driver.get(bank + "/login?next=/bank/bottom/savings")
    log_in(driver, "Ada")
    wait(driver, lambda d: selected_tab(d) == "_more" or path_of(d) == "/bank/bottom/savings", "Savings")
    save_screenshot(driver, f"{viewport}-bank-savings-logged-in")


def test_settings_toggles_are_switches_and_checklist_items_checkboxes(base, tablet):
    driver = tablet
    driver.get(f"{base}/vertical/vertical/settings")
    switches = driver.find_elements(By.CSS_SELECTOR, '#page [role="switch"]')
    assert switches, "the settings page has switches"
    first = switches[0]
    name, state = first.accessible_name, first.get_attribute("aria-checked")
    assert name and name == driver.find_elements(By.CSS_SELECTOR, "#page .toggle-title")[0].text, (
        f"named by its title: {name!r}")
    first.click()
    flipped = "false" if state == "true" else "true"
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#page [role="switch"]')[0].get_attribute("aria-checked")
         == flipped, "the switch flips")
    driver.get(f"{base}/vertical/vertical/favorites")
    boxes = driver.find_elements(By.CSS_SELECTOR, '#page [role="checkbox"]')
    assert boxes and all(box.get_attribute("aria-checked") in ("true", "false") for box in boxes), "checkboxes"


def test_the_more_list_is_uikits_and_its_rows_push_their_tabs_in_place(bank, phone):
    driver = phone
    driver.get(f"{bank}/bank/bottom/home")
    mark_document(driver)
    tap(driver, "_more")
    wait(driver, lambda d: path_of(d) == "/bank/bottom/_more", "the More list")
    rows = {row.get_attribute("data-tab"): row for row in driver.find_elements(By.CSS_SELECTOR, "a.more-row")}
    assert list(rows) == BANK_TABS[4:], f"the tabs past the bar: {list(rows)}"
    for tab, row in rows.items():
        assert row.find_elements(By.CSS_SELECTOR, ".more-icon img"), f"{tab}: an icon"
        assert row.find_elements(By.CSS_SELECTOR, ".chevron"), f"{tab}: a chevron"
        assert bool(row.find_elements(By.CSS_SELECTOR, "svg.lock")) == (tab in BANK_LOGIN_ONLY), f"{tab}: lock"
    assert rows["savings"].accessible_name.startswith("Savings (requires login)"), rows["savings"].accessible_name
    assert rows["news"].find_element(By.CSS_SELECTOR, ".badge").text.startswith("2"), "News's badge pill"
    rows["settings"].click()
    wait(driver, lambda d: path_of(d) == "/bank/bottom/settings", "Settings from the More list")
    assert document_survived(driver), "the row swapped the stage, not a reload"
    assert selected_tab(driver) == "_more", "the More cell is current while a More tab is shown"
    # More tapped while Settings is pushed on it pops back to its list, where no row is current.
    tap(driver, "_more")
    wait(driver, lambda d: path_of(d) == "/bank/bottom/_more", "the More list again")
    assert not driver.find_elements(By.CSS_SELECTOR, 'a.more-row[aria-current="page"]'), "no row is current"
    driver.get(f"{bank}/bank/events")
    log = driver.find_element(By.TAG_NAME, "main").text
    for line in ["shouldSelect moreNavigationController (tap)", "guard settings (More row)",
                 "moreNavigationController push settings", "moreNavigationController popToRoot"]:
        assert line in log, f"the log says {line!r}"
    assert "didSelect settings" not in log, "a row is no tab bar selection: the delegate is not told"
    save_screenshot(driver, "phone-bank-events-after-more")


@pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])
def test_the_phone_header_is_one_row_with_a_menu_and_wider_it_is_the_row(base, browser, javascript):
    driver = browser("phone", javascript=javascript)
    driver.get(f"{base}/restaurant/bottom/home")
    header = driver.find_element(By.CSS_SELECTOR, ".stage-header")
    button = header.find_element(By.CSS_SELECTOR, ".header-menu-button")
    brand = header.find_element(By.CSS_SELECTOR, ".brand")
    assert button.is_displayed(), "a Menu button on a phone"
    assert abs(button.rect["y"] - brand.rect["y"]) < 12 and header.rect["height"] <= 56, (
        f"one row: header {header.rect}, brand {brand.rect}, menu {button.rect}")
    vertical = header.find_element(By.CSS_SELECTOR, 'a[href="/restaurant/vertical"]')
    assert not vertical.is_displayed(), "the layout links are folded away"
    button.click()
    wait(driver, lambda d: vertical.is_displayed(), "the menu opens (a popover: no script needed)")
    for selector in ('a[hreflang="zh-Hant"]', "a.login-link", "a.event-log-link"):
        assert header.find_element(By.CSS_SELECTOR, selector).is_displayed(), f"{selector} in the menu"
    save_screenshot(driver, "phone-header-menu-open" + ("" if javascript else "-no-javascript"))
    if javascript:
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait(driver, lambda d: not vertical.is_displayed(), "Escape closes the menu")
        assert driver.switch_to.active_element == button, "and puts the focus back on Menu"
        button.click()
        wait(driver, lambda d: vertical.is_displayed(), "the menu opens again")
    vertical.click()
    wait(driver, lambda d: path_of(d).startswith("/restaurant/vertical"), "a link in the menu works")
    driver = browser("tablet")
    driver.get(f"{base}/restaurant/bottom/home")
    assert not driver.find_element(By.CSS_SELECTOR, ".header-menu-button").is_displayed(), "no Menu button wider"
    assert driver.find_element(By.CSS_SELECTOR, '.stage-header a[href="/restaurant/vertical"]').is_displayed(), (
        "the layout links are in the header's row")


def glyph_box(cell):
    """Where the icon's 24 pt glyph lies in its 80 x 80 cell picture (15 pt above centre)."""
    icon = cell.find_element(By.CSS_SELECTOR, "img.tab-icon").rect
    centre_x, centre_y = icon["x"] + icon["width"] / 2, icon["y"] + icon["height"] / 2 - 15
    return centre_x - 12, centre_y - 12, centre_x + 12, centre_y + 12


def test_a_login_only_tabs_lock_sits_on_its_icon_in_both_bars(base, tablet):
    driver = tablet
    for layout in ("bottom", "vertical"):
        driver.get(f"{base}/restaurant/{layout}/home")
        cell = tab_link(driver, "membership")
        lock = cell.find_element(By.CSS_SELECTOR, "svg.lock").rect
        left, top, right, bottom = glyph_box(cell)
        centre = (lock["x"] + lock["width"] / 2, lock["y"] + lock["height"] / 2)
        assert left - 2 <= centre[0] <= right + 8 and top - 2 <= centre[1] <= bottom + 8, (
            f"{layout}: the lock {lock} is on the glyph's corner {left, top, right, bottom}")
        title = cell.find_element(By.CSS_SELECTOR, ".tab-title").rect
        assert lock["y"] + lock["height"] <= title["y"] + 1, f"{layout}: the lock stays above the title"
        save_screenshot(driver, f"tablet-lock-{layout}")


LONG_BADGES = """{"id": "badges", "name": {"en": "Badges", "zh-Hant": "徽章"}, "tint": "#34C759", "layout": "vertical",
 "tabs": [
  {"id": "bills", "title": {"en": "Bills", "zh-Hant": "帳單"}, "icon": "inbox",
   "badge": {"en": "Overdue!", "zh-Hant": "逾期未付款項目"}, "page": {"kind": "text"}},
  {"id": "queue", "title": {"en": "Queue", "zh-Hant": "佇列"}, "icon": "bell", "badge": 1234,
   "badgeLabel": {"en": "waiting", "zh-Hant": "等待中"}, "page": {"kind": "text"}}
 ]}"""


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_a_long_badge_stays_inside_its_cell_in_the_visitors_language(app_server, browser, viewport):
    badges = app_server("badges", app=json.loads(LONG_BADGES))
    driver = browser(viewport)
    for language, text in (("en", "Overdue!"), ("zh-Hant", "逾期未付款項目")):
        driver.get(f"{badges}/badges/vertical/queue?lang={language}")
        cell = tab_link(driver, "bills")
        badge = cell.find_element(By.CSS_SELECTOR, ".badge")
        assert badge.get_attribute("textContent") == text, f"the badge in {language}: {badge.text!r}"
        inner, outer = badge.rect, cell.rect
        assert inner["x"] >= outer["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"], (
            f"{viewport} {language}: the badge {inner} stays inside its cell {outer}")
    driver.get(f"{badges}/badges/vertical/bills?lang=en")
    queue = tab_link(driver, "queue")
    assert "waiting" in queue.accessible_name, f"a count is heard with what it counts: {queue.accessible_name!r}"
    save_screenshot(driver, f"{viewport}-long-badges")


@pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])
def test_the_event_log_is_newest_first_filters_by_kind_and_resets_after_a_confirmation(base, browser, javascript):
    driver = browser("phone", javascript=javascript)
    driver.get(f"{base}/restaurant/bottom/home")
    tap(driver, "news")
    wait(driver, lambda d: selected_tab(d) == "news", "News selected")
    driver.get(f"{base}/restaurant/events")
    sequences = [int(cell) for cell in texts(driver, ".event-table tbody td:first-child")]
    assert sequences and sequences == sorted(sequences, reverse=True), f"newest first: {sequences}"
    times = texts(driver, ".event-table time")
    assert all(re.fullmatch(r"\d\d:\d\d:\d\d", time) for time in times), f"a compact time: {times[:3]}"
    save_screenshot(driver, "phone-event-log" + ("" if javascript else "-no-javascript"))
    driver.find_element(By.CSS_SELECTOR, '.event-filter a[href$="?kind=lifecycle"]').click()
    wait(driver, lambda d: d.current_url.endswith("?kind=lifecycle"), "the lifecycle filter")
    rows = texts(driver, ".event-table tbody tr")
    assert rows and not any("guard" in row for row in rows), f"only lifecycle events: {rows[:3]}"
    marked = driver.find_element(By.CSS_SELECTOR, '.event-filter a[aria-current="page"]').text
    assert marked == "Lifecycle", f"the filter shown is marked: {marked!r}"
    driver.find_element(By.CSS_SELECTOR, 'a[href="/restaurant/reset"]').click()
    wait(driver, lambda d: path_of(d) == "/restaurant/reset", "the confirmation step")
    save_screenshot(driver, "phone-reset-demo-confirmation")
    driver.find_element(By.LINK_TEXT, "Cancel").click()
    wait(driver, lambda d: path_of(d) == "/restaurant/events", "Cancel goes back")
    assert driver.find_elements(By.CSS_SELECTOR, ".event-table tbody tr"), "nothing was reset"
    driver.find_element(By.CSS_SELECTOR, 'a[href="/restaurant/reset"]').click()
    wait(driver, lambda d: path_of(d) == "/restaurant/reset", "the confirmation step again")
    driver.find_element(By.CSS_SELECTOR, "form.reset-demo button").click()
    wait(driver, lambda d: path_of(d) == "/restaurant/events", "back on the event log")
    assert "Nothing has happened yet" in driver.find_element(By.TAG_NAME, "main").text, "the log is cleared"


ENGLISH_ONLY = {
    "id": "pulse", "name": {"en": "Pulse"}, "tint": "#FF2D55", "languages": ["en"],
    "tabs": [
        {"id": "today", "title": {"en": "Today"}, "icon": "heart", "page": {"kind": "text"}},
        {"id": "plan", "title": {"en": "Plan"}, "icon": "calendar", "page": {"kind": "text"}},
        {"id": "train", "title": {"en": "Train"}, "icon": "dumbbell", "page": {"kind": "text"}},
    ],
}


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_an_english_only_app_shows_no_language_switch(app_server, browser, viewport):
    """Issue 36: an app declaring `"languages": ["en"]` loads, is shown in English to a visitor
    whose browser asks for Chinese, and its header (and its phone menu) offers no language."""
    pulse = app_server("pulse", app=ENGLISH_ONLY)
    driver = browser(viewport)
    driver.get(f"{pulse}/pulse/bottom/today?lang=zh-Hant")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert not driver.find_elements(By.CSS_SELECTOR, "a[hreflang]"), "no language links on an English-only app"
    assert "Plan" in tab_link(driver, "plan").get_attribute("textContent")
    driver.get(f"{pulse}/restaurant/bottom/home")
    assert driver.find_elements(By.CSS_SELECTOR, "a[hreflang='zh-Hant']"), "the demos keep their two languages"
    save_screenshot(driver, f"{viewport}-english-only-app")
