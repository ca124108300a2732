"""What scripts/dist-test and its Containerfile check share: messages, and HTTP exchanges with
the servers they start (plain or through TLS), and starting and stopping those servers."""

import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def say(message):
    print(f"test-dist: {message}", flush=True)


def fail(message):
    sys.stdout.flush()
    print(f"test-dist: FAIL: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port, path, method="GET", headers=(), body=b"", tls=False, host=None, timeout=5):
    """(status, headers as a lowercase dict of lists, body) of one HTTP/1.1 exchange."""
    host = host or f"127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as plain:
        connection = plain
        if tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            connection = context.wrap_socket(plain, server_hostname=host.split(":")[0])
        head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
        for key, value in headers:
            head += f"{key}: {value}\r\n"
        if method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        connection.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        fields.setdefault(key.strip().lower(), []).append(value.strip())
    if "chunked" in fields.get("transfer-encoding", [""])[0]:
        body = unchunk(body)
    return int(lines[0].split()[1]), fields, body


def unchunk(body):
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size.split(b";")[0], 16)
        if length == 0:
            break
        out, body = out + body[:length], body[length + 2:]
    return out


def first_answer(port, started, process, limit=20):
    """Seconds from `started` until GET /healthz first answers 200."""
    while time.monotonic() - started < limit:
        if process.poll() is not None:
            fail(f"{Path(process.args[0]).name} exited with status {process.returncode} before answering")
        try:
            if request(port, "/healthz", timeout=1)[0] == 200:
                return time.monotonic() - started
        except OSError:
            time.sleep(0.001)
    fail(f"no answer on port {port} within {limit} s")


def start(arguments, log, **options):
    return subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=open(log, "w"), **options)


def stop(process, log, traced=False):
    """SIGTERM to tabstage serve (strace's child when traced: strace exits with its status), once
    it has said it listens: its signal handlers are set up only after the server starts, so a
    SIGTERM in the moment between its first answer and that line would end it by the signal."""
    waited = time.monotonic()
    while "TabStage listening on" not in Path(log).read_text():
        if time.monotonic() - waited > 20:
            fail("tabstage serve never said it was listening")
        time.sleep(0.005)
    target = process.pid
    if traced:
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        if not children:
            fail("tabstage serve is not running under strace")
        target = int(children[0])
    os.kill(target, signal.SIGTERM)
    try:
        code = process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("tabstage serve did not stop on SIGTERM")
    if code != 0:
        # What it said last (an abort's reason is on stderr): the only trace of a rare failure.
        said = Path(log).read_text(errors="replace").strip().splitlines()[-8:]
        fail(f"tabstage serve exited with status {code} on SIGTERM; its log ended: {' | '.join(said)}")


def presented_page(port, tls=False, host=None):
    """The restaurant demo's page of a visitor who presents it (POST /restaurant/present with the
    page's token, from the site's own origin): the panel that holds the follow link."""
    host = host or f"127.0.0.1:{port}"
    status, fields, body = request(port, "/restaurant/bottom/home", tls=tls, host=host)
    cookie = next((value.split(";")[0] for value in fields.get("set-cookie", []) if value.startswith("tabstage_session=")),
                  None)
    token = re.search(rb'name="csrf" value="([0-9a-f]+)"', body)
    if status != 200 or not cookie or not token:
        fail(f"/restaurant/bottom/home under {host} gave no session or token to present with ({status})")
    form = f"layout=bottom&csrf={token.group(1).decode()}".encode()
    origin = f"{'https' if tls else 'http'}://{host}"
    status = request(port, "/restaurant/present", "POST", [
        ("Cookie", cookie), ("Origin", origin), ("Content-Type", "application/x-www-form-urlencoded")], form,
        tls=tls, host=host)[0]
    if status != 303:
        fail(f"POST /restaurant/present under {host} answered {status}")
    return request(port, "/restaurant/bottom/home", headers=[("Cookie", cookie)], tls=tls, host=host)[2]



def follow_link(page):
    """The follow link a presenter's page shows, or None."""
    found = re.search(rb'<a class="follow-link" href="([^"]+)"', page)
    return found.group(1).decode() if found else None
