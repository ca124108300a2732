"""The README's pictures (docs/images/readme-*.png) are taken from the pages they show, and a
picture older than its page fails.

Beside each picture, docs/images/readme-NAME.json records the page, the viewport, a SHA-256 of
the page's markup when the picture was taken (the HTML a new visitor is served, its per-session
CSRF tokens blanked, followed by each stylesheet it links) and a SHA-256 of the picture itself.
Every run takes the picture anew into build/screenshots/; when the markup's hash differs from
the record (or the picture is not the one recorded), the test copies the new picture and record
into docs/images/ and fails, asking for them to be looked at and committed. The next run passes."""
import hashlib
import json
import re
import shutil
import urllib.request

import pytest

from support import ROOT, VIEWPORTS, save_screenshot, selected_tab, wait

IMAGES = ROOT / "docs" / "images"
# name -> (viewport, page of examples/bank.json, the tab it selects)
PICTURES = {"bottom": ("phone", "/bank/bottom/cards", "cards"),
            "vertical": ("tablet", "/bank/vertical/news", "news")}


def markup_sha256(base, path):
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    request = urllib.request.Request(base + path, headers={"Accept-Language": "en-US,en"})
    html = opener.open(request, timeout=20).read()
    html = re.sub(rb'(name="csrf" value=")[0-9a-f]*"', rb'\1"', html)
    digest = hashlib.sha256(html)
    for stylesheet in re.findall(rb'<link rel="stylesheet" href="(/[^"]*)"', html):
        digest.update(opener.open(base + stylesheet.decode(), timeout=20).read())
    return digest.hexdigest()


def file_sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", PICTURES)
def test_readme_screenshots_of_both_layouts(app_server, browser, name):
    bank = app_server("bank")
    viewport, path, tab = PICTURES[name]
    driver = browser(viewport)
    driver.get(bank + path)
    wait(driver, lambda d: selected_tab(d) == tab, f"{tab} selected")
    wait(driver, lambda d: d.execute_script(
        "return document.fonts.status === 'loaded' && Array.prototype.every.call(document.images, function (image) {"
        " return !image.getClientRects().length || (image.complete && image.naturalWidth > 0); });"),
        "fonts and the icons shown loaded")
    taken = save_screenshot(driver, f"readme-{name}", compact=True)
    picture, record_file = IMAGES / f"readme-{name}.png", IMAGES / f"readme-{name}.json"
    record = json.loads(record_file.read_text(encoding="utf-8")) if record_file.exists() else {}
    markup = markup_sha256(bank, path)
    if record.get("markup_sha256") == markup and picture.exists() and record.get("picture_sha256") == file_sha256(
            picture):
        return
    shutil.copyfile(taken, picture)
    recorded = record.get("markup_sha256") or "nothing"
    record = {"picture": picture.name, "app": "examples/bank.json", "page": path,
              "viewport": list(VIEWPORTS[viewport]), "markup_sha256": markup, "picture_sha256": file_sha256(picture)}
    record_file.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    pytest.fail(f"docs/images/{picture.name} was older than the markup of {path} it shows (recorded "
                f"{recorded[:12]}, now {markup[:12]}): it was taken again from the "
                f"page; look at it and commit it with docs/images/{record_file.name}")
