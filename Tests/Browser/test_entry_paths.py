"""How a page was reached, without the script (issue 30): Chromium's Fetch Metadata tells a click
on the bar (logged as a tap) from a URL typed into the address bar (logged as a URL entry), as
docs/routes.md, "Entry paths", says. WebDriver's `get` navigates as the address bar does."""
import pytest

from support import By, path_of, selected_tab, tap, wait

# app -> (its own layout, the tab typed first, the tab clicked, the tab typed last, what the click
# logs under the app's preset: seed004 asks no delegate, fsVertical's shouldSelect and didSelect)
WALKS = {"restaurant": ("bottom", "home", "finding", "wallet", ["guard finding (tap) → allowed"]),
         "vertical": ("vertical", "inbox", "discover", "favorites",
                      ["shouldSelect discover (tap) → yes", "didSelect discover (tap)"])}


def event_lines(driver, base, app):
    driver.get(f"{base}/{app}/events.json")
    return driver.find_element(By.TAG_NAME, "body").text


@pytest.mark.parametrize("app", WALKS)
def test_without_javascript_a_bar_click_is_a_tap_and_a_typed_url_a_url_entry(base, browser, app):
    layout, typed, clicked, typed_again, tapped = WALKS[app]
    driver = browser("phone", javascript=False)
    driver.get(f"{base}/{app}/{layout}/{typed}")
    tap(driver, clicked)
    wait(driver, lambda d: path_of(d) == f"/{app}/{layout}/{clicked}", f"the click opens {clicked}")
    driver.get(f"{base}/{app}/{layout}/{typed_again}")
    wait(driver, lambda d: selected_tab(d) == typed_again, f"the typed URL opens {typed_again}")
    log = event_lines(driver, base, app)
    for line in [f"guard {typed} (url) → allowed", *tapped, f"guard {typed_again} (url) → allowed"]:
        assert line in log, f"the log says {line!r}"
    for line in [f"{clicked} (url)", f"{typed_again} (tap)"]:
        assert line not in log, f"the log does not say {line!r}"
