"""Record a test (issue 35): a walk-through recorded on the stage with "Record a test" and
"Stop", downloaded as a request list with the browser's cookie, and replayed by `tabstage
snapshot test`: the first run records, the second matches, and a changed app title fails with
the diff of the title."""
import subprocess
import time
import urllib.request

from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import ROOT, log_in, page_heading, path_of, selected_tab, tap, wait


def click_record_button(driver, label):
    button = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".record-panel button[data-record]"),
                  "the record panel's button")[0]
    assert button.text == label
    button.click()


def download(driver, url):
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookies}), timeout=10) as response:
        assert response.headers["Content-Disposition"] == 'attachment; filename="coffee-test.txt"'
        return response.read().decode("utf-8")


def test_a_recorded_walk_through_replays_as_a_snapshot_test(app_server, browser, binary, tmp_path):
    base = app_server("coffee")
    driver = browser("tablet")
    driver.get(f"{base}/coffee/bottom/menu")
    click_record_button(driver, "Record a test")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".record-panel").get_attribute("data-recording") == "on",
         "recording on")
    # A tap; a refused tap and the log-in it asks for.
    tap(driver, "stamps")
    wait(driver, lambda d: selected_tab(d) == "stamps", "Stamps selected")
    tap(driver, "account")
    log_in(driver, "Ada")
    wait(driver, lambda d: selected_tab(d) == "account" and "Log in" not in page_heading(d), "Account after log-in")
    # A form.
    tap(driver, "stamps")
    wait(driver, lambda d: selected_tab(d) == "stamps", "Stamps again")
    driver.find_element(By.CSS_SELECTOR, '#page button[value="increment"]').click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#page").text.find("1") >= 0, "a stamp counted")
    # A detail pushed, and Back.
    tap(driver, "menu")
    wait(driver, lambda d: selected_tab(d) == "menu", "Menu selected")
    driver.find_element(By.CSS_SELECTOR, 'a.item-link[href$="/menu/latte"]').click()
    wait(driver, lambda d: path_of(d) == "/coffee/bottom/menu/latte", "the detail")
    driver.find_element(By.CSS_SELECTOR, ".nav-bar a.back").click()
    wait(driver, lambda d: path_of(d) == "/coffee/bottom/menu", "Back on the list")
    # A language switch.
    driver.get(f"{base}/coffee/bottom/menu?lang=zh-Hant")
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hant", "in Chinese")
    driver.get(f"{base}/coffee/bottom/menu?lang=en")
    click_record_button(driver, "Stop")
    link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".record-panel a[data-record-download]"),
                "the download link")[0]
    listing = download(driver, link.get_attribute("href"))
    # The event log offers the same.
    driver.get(f"{base}/coffee/events")
    assert driver.find_element(By.CSS_SELECTOR, "a[data-record-download]").text == "Download this session as a test"

    assert listing.startswith("# A TabStage test of Corner Coffee (coffee), recorded on ")
    for line in ["TAP /coffee/bottom/stamps", "POST /login ", "name=Ada", "POST /coffee/bottom/stamps/action action=increment",
                 "/coffee/bottom/menu/latte", "GET /coffee/bottom/menu?lang=zh-Hant", "expect 403"]:
        assert line in listing, f"the list lacks {line!r}:\n{listing}"
    session = [c["value"] for c in driver.get_cookies() if c["name"] == "tabstage_session"]
    assert session and session[0] not in listing and "tabstage_session" not in listing and "csrf" not in listing

    requests = tmp_path / "coffee-test.txt"
    requests.write_text(listing, encoding="utf-8")
    app = tmp_path / "coffee.json"
    app_text = (ROOT / "examples" / "coffee.json").read_text(encoding="utf-8")
    app.write_text(app_text, encoding="utf-8")

    # The first run records, as on the designer's machine; the others verify, as CI does (and
    # as the tool does by itself where CI is set, which this suite may run under).
    def snapshot(record="never"):
        return subprocess.run([binary, "snapshot", "test", "--app", str(app), "--requests", str(requests),
                               "--dir", str(tmp_path / "snapshots"), "--record", record],
                              capture_output=True, text=True, timeout=120)

    first = snapshot(record="missing")
    assert " 0 failed" in first.stdout and " 0 matched" in first.stdout, first.stdout + first.stderr
    second = snapshot()
    assert second.returncode == 0, second.stdout + second.stderr
    assert " 0 failed, 0 new, 0 obsolete" in second.stdout
    app.write_text(app_text.replace('"en": "Corner Coffee"', '"en": "Corner Café"'), encoding="utf-8")
    changed = snapshot()
    assert changed.returncode == 1
    assert "\n-app: coffee (Corner Coffee)\n+app: coffee (Corner Café)\n" in changed.stdout, changed.stdout


def test_recording_on_the_stage_keeps_the_frames_taps(app_server, browser, binary, tmp_path):
    base = app_server("coffee")
    driver = browser("desktop")
    driver.get(f"{base}/coffee/stage")
    click_record_button(driver, "Record a test")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".record-panel").get_attribute("data-recording") == "on",
         "recording on, back on the stage")
    assert path_of(driver) == "/coffee/stage"
    phone = driver.find_element(By.CSS_SELECTOR, 'iframe[name="stage-phone"]')

    def in_phone(body):
        driver.switch_to.frame(phone)
        try:
            return body()
        finally:
            driver.switch_to.default_content()

    wait(driver, lambda d: in_phone(lambda: selected_tab(d)) is not None, "the phone shows a tab")
    # A scaled frame's link is activated from the keyboard (see test_stage.py).
    pressed = []

    def stamps_tapped(d):
        """Presses Stamps (again at most once a second: a frame swapped by a live update just
        then can lose a key press) until the phone shows it."""
        if selected_tab(d) == "stamps":
            return True
        if not pressed or time.monotonic() - pressed[-1] > 1:
            try:
                d.find_element(By.CSS_SELECTOR, '.tab-bar a.tab[data-tab="stamps"]').send_keys(Keys.ENTER)
                pressed.append(time.monotonic())
            except ElementNotInteractableException:
                pass  # the frame is still laying out
        return False

    wait(driver, lambda d: in_phone(lambda: stamps_tapped(d)), "Stamps tapped in the phone")
    driver.get(f"{base}/coffee/stage")
    click_record_button(driver, "Stop")
    link = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".record-panel a[data-record-download]"),
                "the download link on the stage")[0]
    listing = download(driver, link.get_attribute("href"))
    assert "GET /coffee/stage  # as: stage" in listing, listing
    assert "TAP /coffee/bottom/stamps" in listing, listing
    requests = tmp_path / "coffee-test.txt"
    requests.write_text(listing, encoding="utf-8")

    def snapshot(record="never"):
        return subprocess.run([binary, "snapshot", "test", "--app", str(ROOT / "examples" / "coffee.json"),
                               "--requests", str(requests), "--dir", str(tmp_path / "snapshots"), "--record", record],
                              capture_output=True, text=True, timeout=120)

    first = snapshot(record="missing")
    assert " 0 failed" in first.stdout, first.stdout + first.stderr
    second = snapshot()
    assert second.returncode == 0, second.stdout + second.stderr
