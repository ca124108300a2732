"""Navigation stacks (issue 18): a list item pushes a detail screen with Back and its title in a
navigation bar, Back and the browser's back button pop it, a bar tap returns to the top of the
tab's stack, and hidesBottomBarWhenPushed hides UITabBarController's bar while a detail shows,
in both layouts (a seed's bar stays). The detail page passes axe and the Nu checker."""
import json

import pytest

from support import (LAYOUTS, ROOT, By, expect_no_axe_violations_on, expect_valid_html, page_heading, path_of,
                     selected_tab, tap, wait)


def bars(driver):
    return driver.find_elements(By.CSS_SELECTOR, "nav.tab-bar")


def item_link(driver, href_end):
    return driver.find_element(By.CSS_SELECTOR, f'a.item-link[href$="{href_end}"]')


def test_a_list_item_pushes_a_detail_and_back_pops_it(base, phone):
    driver = phone
    driver.get(f"{base}/restaurant/bottom/news")
    item_link(driver, "/news/spring-menu").click()
    wait(driver, lambda d: path_of(d) == "/restaurant/bottom/news/spring-menu", "the detail's URL")
    wait(driver, lambda d: page_heading(d) == "Spring menu", "the detail's title")
    assert driver.find_elements(By.CSS_SELECTOR, ".nav-bar a.back"), "a Back control in the navigation bar"
    assert bars(driver), "the restaurant keeps its bar while a detail shows"
    # The bar tap on another tab and back again returns to the top of News's stack.
    tap(driver, "home")
    wait(driver, lambda d: selected_tab(d) == "home", "Home selected")
    tap(driver, "news")
    wait(driver, lambda d: path_of(d) == "/restaurant/bottom/news/spring-menu", "back on the detail")
    driver.find_element(By.CSS_SELECTOR, ".nav-bar a.back").click()
    wait(driver, lambda d: path_of(d) == "/restaurant/bottom/news", "Back pops to the list")
    wait(driver, lambda d: page_heading(d) == "News", "the list's title")
    # The browser's back button returns to the detail, forward to the list again.
    driver.back()
    wait(driver, lambda d: page_heading(d) == "Spring menu", "history back shows the detail")
    driver.forward()
    wait(driver, lambda d: page_heading(d) == "News", "history forward shows the list")
    driver.get(f"{base}/restaurant/events.json")
    log = driver.find_element(By.TAG_NAME, "body").text
    for line in ["push news/spring-menu", "pop news/spring-menu", "news/spring-menu viewDidAppear"]:
        assert line in log, f"the log says {line!r}"


def bank_that_hides_its_bar():
    """examples/bank.json (UITabBarController, the preset uikit) with hidesBottomBarWhenPushed."""
    app = json.loads((ROOT / "examples" / "bank.json").read_text(encoding="utf-8"))
    app["hidesBottomBarWhenPushed"] = True
    return app


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_bar_hides_while_a_detail_shows_under_uikit_in_both_layouts(app_server, tablet, layout):
    driver = tablet
    base = app_server("bank-hiding-its-bar", app=bank_that_hides_its_bar())
    driver.get(f"{base}/bank/{layout}/news")
    assert bars(driver), f"{layout}: the bar shows on the list"
    driver.find_elements(By.CSS_SELECTOR, "a.item-link")[0].click()
    wait(driver, lambda d: page_heading(d) != "News", f"{layout}: the detail")
    assert not bars(driver), f"{layout}: no bar while the detail shows"
    driver.find_element(By.CSS_SELECTOR, ".nav-bar a.back").click()
    wait(driver, lambda d: page_heading(d) == "News", f"{layout}: back on the list")
    assert bars(driver), f"{layout}: the bar is back"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_seeds_bar_stays_while_a_detail_shows(base, tablet, layout):
    """The vertical demo runs the fsVertical seed, whose bar is a view of its own container:
    hidesBottomBarWhenPushed, which only UITabBarController's bar obeys, would not hide it."""
    driver = tablet
    driver.get(f"{base}/vertical/{layout}/discover")
    item_link(driver, "/discover/travel").click()
    wait(driver, lambda d: page_heading(d) == "Travel", f"{layout}: the detail")
    assert bars(driver), f"{layout}: the seed's bar stays while the detail shows"


DETAIL_PAGES = ["/vertical/vertical/discover/travel", "/restaurant/bottom/news/spring-menu",
                "/vertical/bottom/settings/sounds"]


def test_a_detail_page_has_no_axe_violations_and_valid_html(base, tablet, nu):
    expect_no_axe_violations_on(tablet, base, DETAIL_PAGES)
    expect_valid_html(nu, base, DETAIL_PAGES)
