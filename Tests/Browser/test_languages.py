"""An app in the languages it has (issue 36): examples/pulse.json is written in English alone,
so none of its pages (the tab pages, a page swapped in by a tap, the stage, the event log, a
follower's page, the header's menu on a phone) offers a language switch, and each is in English.
test_first_use.py's test_an_english_only_app_shows_no_language_switch has the tab page and the
demos beside it."""
import pytest

from support import By, mark_document, document_survived, selected_tab, tap, wait


@pytest.fixture
def pulse(app_server):
    """The base URL of a server of examples/pulse.json (English alone) beside the demos."""
    return app_server("pulse")


def language_links(driver):
    return driver.find_elements(By.CSS_SELECTOR, "a[hreflang]")


def page_language(driver):
    return driver.execute_script("return document.documentElement.lang")


def test_an_english_only_app_shows_no_language_switch_anywhere(pulse, browser):
    driver = browser("tablet")
    for path in ["/pulse/bottom/today", "/pulse/vertical/plans", "/pulse/adaptive/progress", "/pulse/stage",
                 "/pulse/events"]:
        driver.get(pulse + path)
        assert page_language(driver) == "en", path
        assert not language_links(driver), f"{path} offers a language switch"
    # A tap swaps the page in with the script: the header it brings has no switch either.
    driver.get(pulse + "/pulse/bottom/today")
    mark_document(driver)
    tap(driver, "plans")
    wait(driver, lambda d: selected_tab(d) == "plans", "Plans selected")
    assert document_survived(driver)
    assert not language_links(driver)


def test_an_english_only_apps_phone_menu_and_follow_page_have_no_language_switch(pulse, browser):
    phone = browser("phone")
    phone.get(pulse + "/pulse/bottom/today")
    phone.find_element(By.CSS_SELECTOR, ".header-menu-button").click()
    menu = phone.find_element(By.ID, "header-menu")
    wait(phone, lambda d: menu.is_displayed(), "the menu opens")
    assert menu.find_elements(By.CSS_SELECTOR, "nav.appearance a"), "the menu holds the appearance links"
    assert not language_links(phone), "and no language link"
    presenter = browser("tablet")
    presenter.get(pulse + "/pulse/bottom/today")
    presenter.find_element(By.CSS_SELECTOR, '.live-panel form[action$="/present"] button').click()
    link = wait(presenter, lambda d: d.find_element(By.CSS_SELECTOR, "a.follow-link"), "the follow link")
    phone.get(link.get_attribute("href") + "?lang=zh-Hant")
    assert phone.find_elements(By.CSS_SELECTOR, ".follow-banner"), "a follower's page"
    assert page_language(phone) == "en", "zh-Hant is not the app's"
    assert not language_links(phone)
