"""Screen pages (issue 34): the designer's image fills the device screen's width, its hotspots lie
where the app file puts them, push a detail whose Back returns, count on the tab's badge, are
reached by keyboard in reading order with a visible focus ring, pass axe and the Nu checker, and
work without JavaScript; a click beside them flashes them."""
import pytest

from support import (LAYOUTS, LIVE_SECONDS, By, Keys, expect_no_axe_violations_on, expect_valid_html, path_of,
                     wait)

# examples/stride.json: Today's hotspots in reading order, in the image's points (390 x 720).
TODAY_HOTSPOTS = [("Start workout", (16, 256, 358, 52)), ("Add a glass of water", (314, 464, 44, 44)),
                  ("See your plans", (16, 548, 358, 60))]
IMAGE_WIDTH = 390


def rect(driver, element):
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];", element)


def hotspot(driver, label):
    for element in driver.find_elements(By.CSS_SELECTOR, ".hotspot"):
        if element.get_attribute("textContent").strip() == label:
            return element
    raise AssertionError(f"no hotspot {label!r}")


def click_hotspot(driver, label):
    """Clicks the middle of the hotspot (a swap may replace it between finding and clicking)."""
    wait(driver, lambda d: hotspot(d, label).click() is None, f"a click on {label!r}")


def badge_of(driver, tab):
    badges = driver.find_elements(By.CSS_SELECTOR, f'.tab-bar a.tab[data-tab="{tab}"] .badge')
    return badges[0].get_attribute("textContent").strip() if badges else None


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_screen_fills_the_width_and_its_hotspots_lie_where_the_file_puts_them(app_server, browser, viewport,
                                                                                  layout):
    base = app_server("stride")
    driver = browser(viewport)
    driver.get(f"{base}/stride/{layout}/today?appearance=light")
    image = driver.find_element(By.CSS_SELECTOR, ".screen-image")
    wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image),
         "the image loaded")
    page = driver.find_element(By.ID, "page")
    x, y, width, height = rect(driver, image)
    page_x, _, page_width, _ = rect(driver, page)
    inner = driver.execute_script("return arguments[0].clientWidth", page)
    assert abs(width - inner) <= 1 and abs(x - page_x) <= 1, f"the image {width} px wide, the screen {inner} px"
    assert abs(height - width * 720 / 390) <= 1, "the image keeps its proportions"
    assert driver.execute_script("return arguments[0].currentSrc", image).endswith(
        image.get_attribute("srcset").split(" ")[0]), "the light picture, as asked"
    scale = width / IMAGE_WIDTH
    for label, (spot_x, spot_y, spot_width, spot_height) in TODAY_HOTSPOTS:
        element = hotspot(driver, label)
        # The picture shows through: no button face of the page's forms on it.
        assert driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", element) in (
            "rgba(0, 0, 0, 0)", "transparent"), f"{label} covers the picture"
        hx, hy, hw, hh = rect(driver, element)
        for measured, expected in [(hx, x + spot_x * scale), (hy, y + spot_y * scale), (hw, spot_width * scale),
                                   (hh, spot_height * scale)]:
            assert abs(measured - expected) <= 1.5, f"{label}: {[hx, hy, hw, hh]}"


@pytest.mark.parametrize("javascript", [True, False], ids=["with_javascript", "without_javascript"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_hotspot_pushes_the_detail_its_back_returns_and_the_count_is_the_badge(app_server, browser, layout,
                                                                                 javascript):
    base = app_server("stride")
    driver = browser("phone" if layout == "bottom" else "tablet", javascript=javascript)
    driver.get(f"{base}/stride/{layout}/today")
    click_hotspot(driver, "Start workout")
    wait(driver, lambda d: path_of(d) == f"/stride/{layout}/today/workout", "the workout's URL")
    wait(driver, lambda d: "workout under way" in d.find_element(By.CSS_SELECTOR, ".screen-image").get_attribute("alt"),
         "the workout's screen")
    click_hotspot(driver, "Finish")
    wait(driver, lambda d: path_of(d) == f"/stride/{layout}/today", "back on Today")
    assert badge_of(driver, "today") is None
    click_hotspot(driver, "Add a glass of water")
    wait(driver, lambda d: badge_of(d, "today") == "1", "the count on Today's badge")
    click_hotspot(driver, "See your plans")
    wait(driver, lambda d: path_of(d) == f"/stride/{layout}/plans", "Plans selected")
    # Logged as a tap on the bar is: the rules of that entry path ran.
    driver.get(f"{base}/stride/events.json")
    assert "didSelect plans (tap)" in driver.find_element(By.TAG_NAME, "body").text
    driver.back()
    # Through the container's rules: the account needs a log-in.
    click_hotspot(driver, "Account")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#login-sheet form[action^="/login"]'),
         "the log-in the account tab asks for")


def test_the_keyboard_reaches_every_hotspot_in_reading_order_with_a_ring(app_server, phone):
    base = app_server("stride")
    phone.get(f"{base}/stride/bottom/today")
    phone.execute_script("document.getElementById('page').focus()")
    reached = []
    for _ in range(12):
        phone.switch_to.active_element.send_keys(Keys.TAB)
        active = phone.switch_to.active_element
        if "hotspot" in (active.get_attribute("class") or ""):
            reached.append(active.get_attribute("textContent").strip())
            outline = phone.execute_script("return getComputedStyle(arguments[0]).outlineStyle", active)
            assert outline != "none", f"{reached[-1]} shows no focus ring"
        elif reached:
            break
    assert reached == [label for label, _ in TODAY_HOTSPOTS]


def test_a_click_beside_every_hotspot_flashes_them(app_server, phone):
    base = app_server("stride")
    phone.get(f"{base}/stride/bottom/today")
    image = phone.find_element(By.CSS_SELECTOR, ".screen-image")
    phone.execute_script("arguments[0].scrollIntoView()", image)
    # The hero card at the top of the picture has no hotspot.
    phone.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "document.elementFromPoint(r.x + r.width / 2, r.y + 40)"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + 40}));",
        image)
    wait(phone, lambda d: "flash" in d.find_element(By.CSS_SELECTOR, ".screen").get_attribute("class"),
         "the hotspots flash")
    wait(phone, lambda d: "flash" not in d.find_element(By.CSS_SELECTOR, ".screen").get_attribute("class"),
         "and stop", seconds=5)


def test_a_follower_sees_the_presenters_screens_and_their_pushes(app_server, browser):
    base = app_server("stride")
    presenter = browser("tablet")
    follower = browser("phone")
    presenter.get(f"{base}/stride/bottom/today")
    presenter.find_element(By.CSS_SELECTOR, '.live-panel form[action="/stride/present"] button').click()
    link = wait(presenter, lambda d: d.find_element(By.CSS_SELECTOR, "a.follow-link"), "the follow link")
    follower.get(link.get_attribute("href"))
    wait(follower, lambda d: d.find_elements(By.CSS_SELECTOR, ".follow-banner .screen-image, .screen-image"),
         "the follower sees Today's screen")
    click_hotspot(presenter, "Start workout")
    wait(follower, lambda d: "workout under way" in d.find_element(By.CSS_SELECTOR, ".screen-image").get_attribute("alt"),
         "the follower sees the workout pushed", seconds=LIVE_SECONDS)
    # The follower's hotspots are the presenter's to use: inert on the follow page.
    assert follower.execute_script("return document.querySelector('.screen').closest('[inert]') !== null"), (
        "a follower could tap the presenter's screen")


SCREEN_PAGES = ["/stride/bottom/today", "/stride/vertical/today/workout", "/stride/adaptive/plans",
                "/stride/bottom/today?appearance=dark"]


def test_screen_pages_pass_axe_and_the_nu_checker(app_server, tablet, nu):
    base = app_server("stride")
    expect_no_axe_violations_on(tablet, base, SCREEN_PAGES)
    expect_valid_html(nu, base, SCREEN_PAGES)
