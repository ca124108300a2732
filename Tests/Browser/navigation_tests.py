"""Navigation stacks (issue 18): a list item pushes a detail screen with Back and its title in a
navigation bar, Back and the browser's back button pop it, a bar tap returns to the top of the
tab's stack, and hidesBottomBarWhenPushed (the vertical demo sets it) hides the bar while a
detail shows, in both layouts. The detail page passes axe and the Nu checker."""
from run_browser_tests import (By, expect, expect_no_axe_violations, expect_valid_html, make_driver, page_heading,
                               path_of, selected_tab, tab_link, test, wait)


def bars(driver):
    return driver.find_elements(By.CSS_SELECTOR, "nav.tab-bar")


def item_link(driver, href_end):
    return driver.find_element(By.CSS_SELECTOR, f'a.item-link[href$="{href_end}"]')


@test
def a_list_item_pushes_a_detail_and_back_pops_it(base):
    driver = make_driver("phone")
    try:
        driver.get(f"{base}/restaurant/bottom/news")
        item_link(driver, "/news/spring-menu").click()
        wait(driver, lambda d: path_of(d) == "/restaurant/bottom/news/spring-menu", "the detail's URL")
        wait(driver, lambda d: page_heading(d) == "Spring menu", "the detail's title")
        expect(driver.find_elements(By.CSS_SELECTOR, ".nav-bar a.back"), "a Back control in the navigation bar")
        expect(bars(driver), "the restaurant keeps its bar while a detail shows")
        # The bar tap on another tab and back again returns to the top of News's stack.
        tab_link(driver, "home").click()
        wait(driver, lambda d: selected_tab(d) == "home", "Home selected")
        tab_link(driver, "news").click()
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
            expect(line in log, f"the log says {line!r}")
    finally:
        driver.quit()


@test
def the_bar_hides_while_a_detail_shows_in_both_layouts(base):
    for layout in ["vertical", "bottom"]:
        driver = make_driver("tablet")
        try:
            driver.get(f"{base}/vertical/{layout}/discover")
            expect(bars(driver), f"{layout}: the bar shows on the list")
            item_link(driver, "/discover/travel").click()
            wait(driver, lambda d: page_heading(d) == "Travel", f"{layout}: the detail")
            expect(not bars(driver), f"{layout}: no bar while the detail shows")
            driver.find_element(By.CSS_SELECTOR, ".nav-bar a.back").click()
            wait(driver, lambda d: page_heading(d) == "Discover", f"{layout}: back on the list")
            expect(bars(driver), f"{layout}: the bar is back")
        finally:
            driver.quit()


@test
def a_detail_page_has_no_axe_violations_and_valid_html(base):
    pages = ["/vertical/vertical/discover/travel", "/restaurant/bottom/news/spring-menu",
             "/vertical/bottom/settings/sounds"]
    expect_no_axe_violations(base, pages)
    expect_valid_html(base, pages)
