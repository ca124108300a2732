"""Presenting to followers as in issue 29 (docs/live.md, "Present and follow"): a link to hand
over (absolute, copied by a button, its QR code read by a real decoder), and a follower who
sees what the presenter sees. Two browsers: the presenter and a follower, each with its own
cookies."""
import re
import subprocess
import time

from support import By, wait
from test_live import start_presenting


def decode_qr(driver, tmp_path):
    """The text of the page's follow QR code, as zbarimg (Debian's zbar-tools) reads a picture of it."""
    picture = tmp_path / "follow-qr.png"
    picture.write_bytes(driver.find_element(By.CSS_SELECTOR, "svg.follow-qr").screenshot_as_png)
    read = subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True, timeout=30)
    assert read.returncode == 0, f"zbarimg found no code: {read.stderr!r}"
    return read.stdout.strip()


def test_the_follow_link_is_absolute_copied_by_a_button_and_its_qr_code_decodes_to_it(base, tablet, tmp_path):
    link = start_presenting(tablet, base)
    shown = tablet.find_element(By.CSS_SELECTOR, "a.follow-link").text
    assert re.fullmatch(re.escape(base) + r"/restaurant/follow/[0-9a-f]{32}", shown), f"the link shown: {shown!r}"
    assert link == shown
    assert decode_qr(tablet, tmp_path) == shown
    button = tablet.find_element(By.CSS_SELECTOR, ".live-panel button.copy-link")
    assert button.is_displayed(), "no copy button"
    button.click()
    wait(tablet, lambda d: button.text == "Link copied", "the copy button saying it copied")


def test_public_url_is_where_the_link_and_its_qr_code_lead(start_server, tablet, tmp_path):
    server = start_server("--public-url", "https://tabstage.example:8443/demo/")
    start_presenting(tablet, server.base)
    shown = tablet.find_element(By.CSS_SELECTOR, "a.follow-link").text
    assert re.fullmatch(r"https://tabstage\.example:8443/demo/restaurant/follow/[0-9a-f]{32}", shown), shown
    assert decode_qr(tablet, tmp_path) == shown


def test_listening_on_every_address_prints_the_addresses_to_type(binary):
    process = subprocess.Popen([str(binary), "serve", "--host", "0.0.0.0", "--port", "0", "--quiet",
                                "--sessions", "memory"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        first = process.stderr.readline()
        port = re.search(r"http://0\.0\.0\.0:(\d+)/", first).group(1)
        time.sleep(0.5)  # the addresses are printed with the first line
    finally:
        process.terminate()
        rest = process.communicate(timeout=20)[1]
    reachable = [line for line in rest.splitlines() if "reachable" in line]
    assert reachable, f"no address printed after {first!r}: {rest!r}"
    assert all(re.fullmatch(r"  reachable at http://[0-9.]+:" + port + "/", line) for line in reachable), reachable
    # Loopback last: the addresses others can type come first.
    assert reachable[-1] == f"  reachable at http://127.0.0.1:{port}/", reachable
