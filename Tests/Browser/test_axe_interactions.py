"""axe after interactions (issue 27): the other tests run axe on pages just loaded; these run it
on what a visitor has in front of them after acting, where the page's script has changed the
document: the log-in sheet over a page, a tab swapped in by a bar tap, the stage after a tap in
one of its frames, a follow page, the adaptive edit list after a move, and the dark appearance
after the header's toggle."""
import pytest

from support import (LAYOUTS, By, Keys, document_survived, expect_no_axe_violations, header_item, mark_document,
                     path_of, selected_tab, tab_link, tap, wait)
from test_live import start_presenting, stream_open
from test_stage import frame_selected, in_frame, activate, open_stage


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_axe_with_the_log_in_sheet_open(base, browser, viewport):
    driver = browser(viewport)
    driver.get(f"{base}/restaurant/bottom/home")
    mark_document(driver)
    tap(driver, "membership")
    wait(driver, lambda d: d.execute_script(
        "var s = document.getElementById('login-sheet'); return !!s && s.matches(':modal');"), "the modal log-in sheet")
    assert document_survived(driver), "the sheet was swapped in"
    expect_no_axe_violations(driver, f"{viewport}: the log-in sheet over Home")


@pytest.mark.parametrize("layout", LAYOUTS + ["adaptive"])
def test_axe_after_a_bar_tap_swaps_the_tab_in(base, tablet, layout):
    driver = tablet
    driver.get(f"{base}/restaurant/{layout}/home")
    mark_document(driver)
    tap(driver, "wallet")
    wait(driver, lambda d: selected_tab(d) == "wallet", "Wallet swapped in")
    assert document_survived(driver), "the tap swapped the stage, not a reload"
    expect_no_axe_violations(driver, f"{layout}: Wallet after a tap on Home")


@pytest.mark.parametrize("app, tab", [("restaurant", "wallet"), ("vertical", "discover")])
def test_axe_on_the_stage_and_its_frames_after_a_tap(base, desktop, app, tab):
    driver = desktop
    open_stage(driver, base, app)
    expect_no_axe_violations(driver, f"/{app}/stage")
    in_frame(driver, "phone", lambda: activate(tab_link(driver, tab)))
    wait(driver, lambda d: frame_selected(d, "tablet") == tab, f"the tablet frame follows to {tab}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline .step-newest"), "the timeline's newest steps")
    expect_no_axe_violations(driver, f"/{app}/stage after a tap on {tab} in the phone frame")


def test_axe_on_a_follow_page(base, tablet):
    driver = tablet
    follow = start_presenting(driver, base)
    expect_no_axe_violations(driver, "presenting")
    driver.get(follow)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".follow-banner"), "the follow banner")
    stream_open(driver)
    expect_no_axe_violations(driver, "following")


def test_axe_in_the_adaptive_edit_list_after_a_move(app_server, phone):
    library = app_server("library")
    driver = phone
    driver.get(f"{library}/library/adaptive/_more/edit")
    expect_no_axe_violations(driver, "the edit list")
    driver.execute_script("document.querySelector('.edit-list').dataset.old = 'yes';")
    up = driver.find_element(By.CSS_SELECTOR, '.edit-row[data-tab="card"] [data-action="up"]')
    driver.execute_script("arguments[0].focus()", up)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.execute_script(
        "var list = document.querySelector('.edit-list'); return !!list && !list.dataset.old;"), "a new edit list")
    assert path_of(driver) == "/library/adaptive/_more/edit", f"still the edit list: {driver.current_url}"
    expect_no_axe_violations(driver, "the edit list after moving Card up")


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_axe_in_the_dark_appearance_after_the_toggle(base, browser, viewport):
    driver = browser(viewport)
    driver.get(f"{base}/restaurant/bottom/news")
    header_item(driver, 'a[href="?appearance=dark"]').click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-appearance") == "dark",
         "the dark appearance")
    expect_no_axe_violations(driver, f"{viewport}: News in the dark appearance")
    tap(driver, "wallet")
    wait(driver, lambda d: selected_tab(d) == "wallet", "Wallet swapped in")
    expect_no_axe_violations(driver, f"{viewport}: Wallet swapped in, dark")
