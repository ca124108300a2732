"""Beyond axe (issue 19): what a screen-reader user, a keyboard user and a stress-tested layout
meet. The accessibility tree is read through DevTools (`Accessibility.getFullAXTree`, and the
partial tree of one element); a stress app (12 tabs, long titles, an 8-character badge, a
50-item list, an unbroken string) is served from a temporary file. Screenshots of the forced-
colours and long-content pages go to build/screenshots/."""
import pytest

from support import By, Keys, save_screenshot, selected_tab, tab_link, tap, wait


def text(en, zh=None):
    return {"en": en, "zh-Hant": zh or en}


def news_items(count):
    return [{"id": f"story-{n}", "title": text(f"Story number {n}", f"第 {n} 則"), "body": text("A story.")}
            for n in range(1, count + 1)]


# Twelve tabs: in the bottom bar four and More; in the vertical bar all twelve.
STRESS_TABS = [
    {"id": "news", "title": text("News"), "icon": "news", "page": {"kind": "news", "items": news_items(50)}},
    {"id": "cart", "title": text("Cart", "購物車"), "icon": "wallet",
     "badge": {"from": "count"},
     "page": {"kind": "counter", "label": text("Items in cart", "購物車內商品"), "start": 2, "maximum": 20}},
    {"id": "deals", "title": text("Deals", "優惠"), "icon": "star", "badge": "Clearing",
     "page": {"kind": "text", "paragraphs": [text("x" * 300)]}},
    {"id": "settings", "title": text("Notification preferences", "通知偏好設定"), "icon": "settings",
     "page": {"kind": "settings", "toggles": [
         {"id": "orders", "title": text("Order notifications", "訂單通知"), "on": True},
         {"id": "offers", "title": text("Offers", "優惠通知")}]}},
    {"id": "todo", "title": text("Packing list", "行李清單"), "icon": "inbox", "badge": 3,
     "page": {"kind": "checklist", "items": [
         {"id": "passport", "title": text("Passport", "護照"), "checked": True},
         {"id": "charger", "title": text("Charger", "充電器")}]}},
] + [
    {"id": f"extra-{n}", "title": text(f"Extra tab {n}", f"額外分頁 {n}"), "icon": "chart",
     "page": {"kind": "text", "paragraphs": [text(f"Extra page {n}.")]}}
    for n in range(1, 7)
] + [
    {"id": "long", "title": text("A title of 24 characters", "二十四個字的分頁標題二十四個字的分頁標題"), "icon": "bell",
     "page": {"kind": "text", "heading": text("The last tab"), "paragraphs": [text("The twelfth page.")]}},
]
STRESS_APP = {"id": "stress", "name": text("Stress"), "tint": "#FFCC00", "tabs": STRESS_TABS}


@pytest.fixture
def stress(app_server):
    """The base URL of a server of the stress app."""
    return app_server("stress", app=STRESS_APP)


# --- the accessibility tree ------------------------------------------------------------------

def ax_node(driver, selector):
    """The accessibility node of the first element `selector` finds: role, name and properties.
    A swap can replace the element between finding it and reading its node (DevTools then
    answers "Could not find node with given id"): `wait` finds it again."""
    def read(d):
        root = d.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node_id = d.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node_id:
            return None
        nodes = d.execute_cdp_cmd("Accessibility.getPartialAXTree", {"nodeId": node_id, "fetchRelatives": False})
        return summary(nodes["nodes"][0])

    return wait(driver, read, f"an element {selector!r} and its accessibility node")


def ax_nodes(driver, selector):
    """The accessibility node of every element `selector` finds, in the page's order: three
    DevTools commands for them all (`ax_node` takes three for each). Read again while the page
    changes under it (a node not found in the tree just read)."""
    def read(d):
        backend = {}  # DevTools' node id -> the element's lasting id, which the tree's nodes carry
        root = d.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]
        unread = [root]
        while unread:
            node = unread.pop()
            backend[node["nodeId"]] = node["backendNodeId"]
            unread += node.get("children", [])
        found = d.execute_cdp_cmd("DOM.querySelectorAll", {"nodeId": root["nodeId"], "selector": selector})
        tree = {node.get("backendDOMNodeId"): node for node in d.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]}
        nodes = [tree.get(backend.get(node_id)) for node_id in found["nodeIds"]]
        return [summary(node) for node in nodes] if all(nodes) else None

    return wait(driver, read, f"the accessibility nodes of {selector!r}")


def summary(node):
    properties = {item["name"]: item["value"].get("value") for item in node.get("properties", [])}
    return {"role": node.get("role", {}).get("value"), "name": node.get("name", {}).get("value", ""),
            "properties": properties, "ignored": node.get("ignored", False)}


def ax_tree(driver):
    """Every node of the page's accessibility tree that is not ignored."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [summary(node) for node in nodes if not node.get("ignored")]


def names_of(driver, role):
    return [node["name"] for node in ax_tree(driver) if node["role"] == role]


# --- 1. badges -------------------------------------------------------------------------------

def test_a_badge_is_heard_after_its_title_as_what_it_counts(app_server, stress, browser):
    driver = browser("tablet")
    driver.get(f"{stress}/stress/vertical/news")
    links = names_of(driver, "link")
    for expected in ("News, 50 unread", "Cart, Items in cart: 2", "Deals, Clearing", "Packing list, 3"):
        assert expected in links, f"a tab link named {expected!r}; links: {links}"
    driver.get(f"{stress}/stress/bottom/news?lang=zh-Hant")
    links = names_of(driver, "link")
    # The browser puts a space after the title's element (it is positioned), in Chinese too.
    assert "購物車， 購物車內商品：2" in links, f"the Chinese names: {links}"
    # In the More list the badge is part of its row's link.
    driver.get(f"{stress}/stress/bottom/_more?lang=en")
    row = ax_node(driver, 'a.more-row[data-tab="todo"]')
    assert row["name"] == "Packing list, 3", f"the More row's name: {row['name']!r}"
    # A login-only tab's padlock words come before the separator.
    bank = app_server("bank")
    driver = browser("phone")
    driver.get(f"{bank}/bank/bottom/_more")
    name = ax_node(driver, 'a.more-row[data-tab="savings"]')["name"]
    assert name == "Savings (requires login), New", f"a locked row's name: {name!r}"
    driver.get(f"{bank}/bank/vertical/home")
    name = ax_node(driver, '.tab-bar a.tab[data-tab="savings"]')["name"]
    assert name == "Savings (requires login), New", f"a locked tab's name: {name!r}"


# --- 4. reading order, skip link, distinct names ---------------------------------------------

def test_the_bottom_layout_reads_the_page_first_and_a_skip_link_leads_to_the_app(base, phone):
    driver = phone
    driver.get(f"{base}/restaurant/bottom/home")
    page_first = driver.execute_script(
        "var page = document.getElementById('page'), bar = document.querySelector('.tab-bar');"
        "return !!(page.compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING);")
    assert page_first, "the page comes before the bar in the DOM"
    page_box = driver.find_element(By.ID, "page").rect
    bar_box = driver.find_element(By.CSS_SELECTOR, ".tab-bar").rect
    assert bar_box["y"] >= page_box["y"] + page_box["height"] - 1, "the bar is still drawn below the page"
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    skip = driver.switch_to.active_element
    assert skip.get_attribute("class") == "skip-link", f"the first Tab stop is the skip link: {skip.text!r}"
    assert skip.text == "Skip to the app", f"the skip link's text: {skip.text!r}"
    skip.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "stage", "the skip link moves focus")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    inside = driver.execute_script("return document.getElementById('page').contains(document.activeElement);")
    assert inside, "the next Tab stop is in the page"
    driver.get(f"{base}/")
    links = names_of(driver, "link")
    repeated = sorted({name for name in links if links.count(name) > 1})
    assert not repeated, f"the start page's links have distinct names; repeated: {repeated}"


# --- 2. focus stays on the acting control; one polite live region ----------------------------

def live_regions(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]'))"
        ".map(function (e) { return e.id || e.className; });")


def announced(driver):
    return driver.execute_script("var r = document.getElementById('announcer'); return r ? r.textContent : null;")


def focused_value(driver):
    return driver.switch_to.active_element.get_attribute("value")


def test_a_page_action_keeps_focus_on_its_control_and_is_announced(base, phone):
    driver = phone
    driver.get(f"{base}/restaurant/bottom/home")
    assert live_regions(driver) == ["announcer"], f"one live region, the announcer: {live_regions(driver)}"
    region = ax_node(driver, "#announcer")
    assert region["properties"].get("live") == "polite", f"the announcer is polite: {region}"
    plus = driver.find_element(By.CSS_SELECTOR, '#page button[value="increment"]')
    driver.execute_script("arguments[0].focus()", plus)
    count = lambda d: d.find_element(By.CSS_SELECTOR, "#page .balance").text
    start = int(count(driver))
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: count(d) == str(start + 1), "the first Enter counts one")
    wait(driver, lambda d: focused_value(d) == "increment", "focus stays on +1")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: count(d) == str(start + 2), "a second Enter on +1 counts again")
    wait(driver, lambda d: announced(d) == f"Favourite dishes {start + 2}", "the count is announced")
    # A search's result count.
    driver.get(f"{base}/restaurant/bottom/finding")
    query = driver.find_element(By.CSS_SELECTOR, '#page input[name="q"]')
    query.send_keys("tea")
    query.send_keys(Keys.ENTER)
    wait(driver, lambda d: announced(d) == "1 result", "the search's result is announced")
    assert driver.switch_to.active_element.get_attribute("name") == "q", "focus stays in the search field"
    # A new page's title after a tab swap, and a refusal's reason.
    tap(driver, "wallet")
    wait(driver, lambda d: announced(d) == "Your wallet", "the new page's title is announced")
    tap(driver, "membership")
    wait(driver, lambda d: "log in" in (announced(d) or "").lower(), "the refusal is announced")
    assert live_regions(driver) == ["announcer"], f"still one live region: {live_regions(driver)}"


# --- 3. switches and checkboxes --------------------------------------------------------------

def test_settings_are_switches_and_checklist_items_checkboxes_named_by_their_titles(stress, browser):
    driver = browser("tablet")
    driver.get(f"{stress}/stress/vertical/settings")
    switches = [(node["name"], node["properties"].get("checked")) for node in ax_tree(driver)
                if node["role"] == "switch"]
    assert switches == [("Order notifications", "true"), ("Offers", "false")], f"the switches: {switches}"
    # Drawn as iOS draws them, at every width (a stray merge line once kept these rules to
    # windows of 1280 px and more).
    width = driver.execute_script(
        "return getComputedStyle(document.querySelector('.toggle-switch .toggle-control')).width;")
    assert width == "51px", f"the switch is drawn 51 px wide at 1024: {width}"
    driver.find_element(By.CSS_SELECTOR, "#page button.toggle-switch").send_keys(Keys.ENTER)
    wait(driver, lambda d: ax_node(d, "#page button.toggle-switch")["properties"].get("checked") == "false",
         "Enter turns the switch off")
    assert "toggle-switch" in driver.switch_to.active_element.get_attribute("class"), "focus stays on the switch"
    driver.get(f"{stress}/stress/vertical/todo")
    boxes = [(node["name"], node["properties"].get("checked")) for node in ax_tree(driver)
             if node["role"] == "checkbox"]
    assert boxes == [("Passport", "true"), ("Charger", "false")], f"the checkboxes: {boxes}"


# --- 9. a page action keeps the scroll position ----------------------------------------------

def row_is_in_view(driver, item):
    row = driver.find_element(By.ID, f"item-{item}").rect
    page = driver.find_element(By.ID, "page").rect
    return row["y"] >= page["y"] - 1 and row["y"] + row["height"] <= page["y"] + page["height"] + 1


def test_marking_item_20_of_50_read_keeps_the_list_where_it_was(stress, browser):
    driver = browser("phone")
    driver.get(f"{stress}/stress/bottom/news")
    driver.execute_script("document.getElementById('item-story-20').scrollIntoView({block: 'center'});")
    before = driver.execute_script("return document.getElementById('page').scrollTop;")
    assert before > 500, f"the list is scrolled down: {before}"
    driver.find_element(By.CSS_SELECTOR, "#item-story-20 form button").click()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#item-story-20 form"), "story 20 read")
    after = driver.execute_script("return document.getElementById('page').scrollTop;")
    assert abs(after - before) <= 2, f"the list stays scrolled: {before} then {after}"
    assert driver.execute_script("return window.scrollY;") == 0, "the window did not scroll"
    # The whole browser: the headless shell drops the form's fragment across the redirect.
    plain = browser("phone", javascript=False, kind="chromium")
    plain.get(f"{stress}/stress/bottom/news")
    plain.find_element(By.CSS_SELECTOR, "#item-story-20 form button").click()
    wait(plain, lambda d: not d.find_elements(By.CSS_SELECTOR, "#item-story-20 form"), "story 20 read")
    assert plain.current_url.endswith("/stress/bottom/news#item-story-20"), f"at {plain.current_url}"
    assert row_is_in_view(plain, "story-20"), "without JavaScript the page opens at the row"


# --- 11. long titles -------------------------------------------------------------------------

def title_width(driver, tab):
    """The width of a tab title's text itself (its element is as wide as its cell)."""
    return driver.execute_script(
        "var title = document.querySelector('.tab-bar a.tab[data-tab=\"' + arguments[0] + '\"] .tab-title');"
        "var range = document.createRange(); range.selectNodeContents(title.firstChild);"
        "return range.getBoundingClientRect().width;", tab)


def test_a_cut_title_is_its_links_tooltip_and_name_and_the_selected_one_is_no_wider(base, stress, browser):
    driver = browser("phone")
    driver.get(f"{stress}/stress/bottom/news")
    link = tab_link(driver, "settings")
    cut = driver.execute_script("var t = arguments[0].querySelector('.tab-title');"
                                "return t.scrollWidth > t.clientWidth;", link)
    assert cut, "the 24-character title is cut in the bottom bar"
    assert link.get_dom_attribute("title") == "Notification preferences", "the full title is the tooltip"
    name = ax_node(driver, '.tab-bar a.tab[data-tab="settings"]')["name"]
    assert name == "Notification preferences", f"the full title is the name: {name!r}"
    assert tab_link(driver, "news").get_dom_attribute("title") is None, "a title that fits has no tooltip"
    driver = browser("phone")
    for tab in ("finding", "membership", "wallet"):
        driver.get(f"{base}/restaurant/bottom/home")
        plain = title_width(driver, tab)
        driver.get(f"{base}/restaurant/bottom/{tab}?lang=en")
        if selected_tab(driver) == tab:
            assert title_width(driver, tab) == plain, f"{tab}: selected {title_width(driver, tab)}, plain {plain}"


# --- 7, 8, 10, 12. layouts under stress ------------------------------------------------------

def scroll_sizes(driver, selector):
    return driver.execute_script(
        "var e = arguments[0] ? document.querySelector(arguments[0]) : document.scrollingElement;"
        "return [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight];", selector)


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_long_content_scrolls_only_inside_the_device(stress, browser, viewport):
    driver = browser(viewport)
    # 8: a 50-item list scrolls the phone's page, not the document.
    driver.get(f"{stress}/stress/bottom/news")
    width, client_width, height, client_height = scroll_sizes(driver, None)
    assert height <= client_height, f"{viewport}: the document does not scroll: {height} > {client_height}"
    page = scroll_sizes(driver, "#page")
    assert page[2] > page[3], f"{viewport}: the page scrolls inside the device: {page}"
    save_screenshot(driver, f"{viewport}-a11y-long-list")
    # 12: a long unbroken string wraps instead of scrolling the phone sideways.
    driver.get(f"{stress}/stress/bottom/deals")
    page = scroll_sizes(driver, "#page")
    assert page[0] <= page[1], f"{viewport}: the page does not scroll sideways: {page}"
    assert scroll_sizes(driver, None)[0] <= scroll_sizes(driver, None)[1], "nor the document"
    # 7: an 8-character badge stays on one line, inside its cell.
    badge = driver.find_element(By.CSS_SELECTOR, '.tab-bar a.tab[data-tab="deals"] .badge')
    cell = tab_link(driver, "deals").rect
    assert badge.rect["height"] <= 20, f"{viewport}: the badge is one line: {badge.rect}"
    assert badge.rect["x"] + badge.rect["width"] <= cell["x"] + cell["width"] + 1, (
        f"{viewport}: the badge stays in its cell: {badge.rect} in {cell}")
    save_screenshot(driver, f"{viewport}-a11y-long-badge")


def test_twelve_tabs_in_the_vertical_bar_scroll_and_the_last_page_starts_at_its_heading(stress, browser):
    driver = browser("tablet")
    driver.get(f"{stress}/stress/vertical/news")
    bar = scroll_sizes(driver, ".tab-bar-vertical")
    assert bar[2] > bar[3], f"the bar scrolls by itself: {bar}"
    document = scroll_sizes(driver, None)
    assert document[2] <= document[3], f"the document does not scroll: {document}"
    first = tab_link(driver, "news")
    driver.execute_script("arguments[0].focus()", first)
    driver.switch_to.active_element.send_keys(Keys.END)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: selected_tab(d) == "long", "the last tab is selected")
    heading = driver.find_element(By.ID, "page-title").rect
    height = driver.execute_script("return window.innerHeight;")
    assert 0 <= heading["y"] and heading["y"] + heading["height"] <= height, (
        f"the new page's heading is on screen: {heading}, window {height}")
    assert driver.execute_script("return document.getElementById('page').scrollTop;") == 0, "page at its top"
    save_screenshot(driver, "tablet-a11y-twelve-tabs")


# --- 5. forced colours -----------------------------------------------------------------------

def style_of(driver, selector, *properties):
    return driver.execute_script(
        "var s = getComputedStyle(document.querySelector(arguments[0]));"
        "return arguments[1].map(function (p) { return s.getPropertyValue(p); });", selector, list(properties))


def test_forced_colours_keep_the_current_marks_and_button_borders(base, tablet):
    driver = tablet
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "forced-colors", "value": "active"}]})
    driver.get(f"{base}/restaurant/bottom/home")
    assert driver.execute_script("return matchMedia('(forced-colors: active)').matches"), "forced colours on"
    marks = ("background-color", "outline-style", "text-decoration-line")
    for current, other in (
            ('.stage-header nav a[aria-current="page"]', '.stage-header nav a:not([aria-current])'),
            ('.stage-header a[hreflang][aria-current]', '.stage-header a[hreflang]:not([aria-current])'),
            ('.tab-bar a.tab[aria-current="page"]', '.tab-bar a.tab:not([aria-current])')):
        assert style_of(driver, current, *marks) != style_of(driver, other, *marks), (
            f"{current} is marked apart from {other}: {style_of(driver, current, *marks)}")
    width, style = style_of(driver, '#page button[value="increment"]', "border-top-width", "border-top-style")
    assert style != "none" and width != "0px", f"a button keeps a border: {width} {style}"
    save_screenshot(driver, "tablet-a11y-forced-colours")


# --- 6. focus ring contrast ------------------------------------------------------------------

def luminance(rgb):
    def linear(component):
        value = component / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = rgb
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first, second):
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def rgb(css):
    return tuple(int(part) for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])


@pytest.mark.parametrize("appearance", ["light", "dark"])
@pytest.mark.parametrize("app", ["restaurant", "coffee"])
def test_the_focus_ring_stands_out_at_three_to_one_on_the_bar_in_both_appearances(
        base, app_server, tablet, app, appearance):
    # The orange demo and a dark brown tint (examples/coffee.json), whose ring on a dark bar the
    # light shade alone left at about 2:1.
    page = f"{base}/restaurant/bottom/home" if app == "restaurant" else f"{app_server('coffee')}/coffee/bottom/menu"
    driver = tablet
    driver.get(f"{page}?appearance={appearance}")
    link = driver.find_elements(By.CSS_SELECTOR, ".tab-bar a.tab")[1]
    driver.execute_script("arguments[0].focus()", link)
    link.send_keys(Keys.SHIFT)  # keyboard modality, so :focus-visible applies
    ring = driver.execute_script("return getComputedStyle(arguments[0]).outlineColor;", link)
    bar, = style_of(driver, ".tab-bar", "background-color")
    ratio = contrast(rgb(ring), rgb(bar))
    assert ratio >= 3, f"{page} {appearance}: the ring {ring} on the bar {bar} is {ratio:.2f}:1"


# --- Checks: one page per layout and page kind, read from the accessibility tree ---------------

def tabs_of(driver, base, app):
    """Every tab id of `app`, from its vertical bar (which shows them all): together they cover
    each of the demo's page kinds."""
    driver.get(f"{base}/{app}/vertical")
    return [link.get_attribute("data-tab") for link in driver.find_elements(By.CSS_SELECTOR, ".tab-bar a.tab")]


# The bar's cells as the page has them, in one command.
BAR_CELLS = """return Array.prototype.map.call(document.querySelectorAll('.tab-bar a.tab'), function (cell) {
  var badge = cell.querySelector('.badge');
  return {tab: cell.getAttribute('data-tab'), current: cell.getAttribute('aria-current'),
          title: cell.querySelector('.tab-title').textContent, badge: badge ? badge.textContent : null};
});"""


def expect_named_roles_and_states(driver, where):
    """The bar's links, badges, switches, checkboxes and the live region as a screen reader meets them."""
    tree = ax_tree(driver)
    if driver.execute_script("var d = document.getElementById('login-sheet'); return !!d && d.matches(':modal');"):
        # A refused tab: the modal sheet is all a reader meets (the page behind it is inert).
        dialogs = [node for node in tree if node["role"] == "dialog"]
        assert len(dialogs) == 1 and dialogs[0]["name"], f"{where}: one named dialog: {dialogs}"
        return
    navigations = [node["name"] for node in tree if node["role"] == "navigation"]
    assert "Tabs" in navigations, f"{where}: a navigation named Tabs; navigations: {navigations}"
    cells = driver.execute_script(BAR_CELLS)
    current = [cell for cell in cells if cell["current"] == "page"]
    assert len(current) <= 1, f"{where}: at most one current tab, {len(current)}"
    for cell, node in zip(cells, ax_nodes(driver, ".tab-bar a.tab"), strict=True):
        tab, title, label = cell["tab"], cell["title"], cell["badge"]
        assert node["role"] == "link", f"{where}: the {tab} cell is a link: {node}"
        assert node["name"].startswith(title.split(",")[0].strip()), f"{where}: {tab} is named by its title: {node}"
        if label is not None:
            assert ", " in node["name"] or "，" in node["name"], f"{where}: {tab}'s badge is set apart: {node['name']!r}"
            assert any(part in node["name"] for part in label.split()), f"{where}: {tab}'s name has its badge: {node}"
    regions = [node for node in tree if node["properties"].get("live") == "polite"]
    assert len(regions) >= 1, f"{where}: a polite live region"
    for role in ("switch", "checkbox"):
        for node in (node for node in tree if node["role"] == role):
            assert node["name"] and node["properties"].get("checked") in ("true", "false"), (
                f"{where}: a {role} with a name and a state: {node}")
            assert not node["name"].startswith(("On", "Off")), f"{where}: a {role} named by its item: {node}"


@pytest.mark.parametrize("layout", ["vertical", "bottom", "adaptive"])
@pytest.mark.parametrize("app", ["restaurant", "vertical"])
def test_every_layout_and_page_kind_reads_with_names_roles_and_states(base, tablet, app, layout):
    driver = tablet
    tabs = tabs_of(driver, base, app)
    assert len(tabs) >= 5, f"{app}'s tabs: {tabs}"
    for tab in tabs:
        driver.get(f"{base}/{app}/{layout}/{tab}")
        expect_named_roles_and_states(driver, f"{app}/{layout}/{tab}")


# --- the icon gallery's tables scroll by keyboard (axe: scrollable-region-focusable) -----------

def test_the_icon_gallerys_wide_tables_are_named_regions_a_keyboard_scrolls(base, phone):
    driver = phone
    driver.get(f"{base}/icons")
    region = ax_node(driver, ".gallery")
    assert region["role"] == "region" and region["name"] == "Icons", f"the first table's region: {region}"
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    for _ in range(40):  # the header's controls come first
        if "gallery" in (driver.switch_to.active_element.get_attribute("class") or ""):
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    gallery = driver.switch_to.active_element
    assert "gallery" in (gallery.get_attribute("class") or ""), "Tab reaches the gallery"
    outline = driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle;", gallery)
    assert outline != "none", "the focused gallery shows a focus ring"
    width, client = driver.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth];", gallery)
    assert width > client, f"at 390 the table is wider than its region: {width} > {client}"
    gallery.send_keys(Keys.ARROW_RIGHT)
    wait(driver, lambda d: d.execute_script("return arguments[0].scrollLeft;", gallery) > 0, "→ scrolls the table")
