"""Fixtures of the browser suite: the servers under test and the browsers that visit them.

- `server` (its `base` URL as the fixture `base`): `tabstage serve` with the built-in demos,
  started once per test process from `--binary` (or $TABSTAGE_BINARY, else
  .build/debug/tabstage) on a port it picks itself, stopped at the end.
- `app_server(name)`: a server of one example app (examples/NAME.json, or an app a test
  describes), started the first time a test asks for it and kept for the rest of the run.
- `start_server(*arguments)`: a server of a test's own (a file it rewrites, `--watch`),
  stopped after the test.
- `browser(viewport, javascript=True, kind="shell")`: Chromium's headless shell (or with
  kind="chromium" the whole browser, support.BROWSER_BINARIES says when) at "phone" (390 x 844),
  "tablet" (1024 x 768), "desktop" (1440 x 900) or a projector's size. Starting Chromium costs
  a second of CPU, so a browser is kept for the next test that wants the same kind, and before it is handed out again it is
  reset: one window on a blank page, no cookies (a new session on every server), no emulated
  media, its viewport. Every test therefore starts as if in a new browser, and the tests run in
  any order, alone (`-k`, `--lf`) or in several processes (`-n`).
"""
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium.common.exceptions import WebDriverException

import support


def pytest_addoption(parser):
    parser.addoption("--binary", default=os.environ.get("TABSTAGE_BINARY", str(support.ROOT / ".build/debug/tabstage")),
                     help="the tabstage binary under test (default $TABSTAGE_BINARY, else .build/debug/tabstage)")


@pytest.fixture(scope="session")
def binary(pytestconfig):
    path = Path(pytestconfig.getoption("--binary")).resolve()
    if not os.access(path, os.X_OK):
        pytest.exit(f"no tabstage binary at {path}: build it with `swift build --product tabstage`", returncode=4)
    return path


@pytest.fixture(scope="session")
def server(binary):
    running = support.Server(binary)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def base(server):
    return server.base


@pytest.fixture(scope="session")
def app_server(binary, tmp_path_factory):
    """`app_server("bank")` serves examples/bank.json; `app_server("stress", app={...})` serves
    an app given as a dictionary. The built-in demos are served beside it. Returns the base URL."""
    running = {}

    def start(name, app=None):
        # Kept by the app itself, not its name alone: a test's own app called like an example
        # gets a server of its own, whichever test asks first (tests run in any order).
        key = (name, None if app is None else json.dumps(app, sort_keys=True))
        if key not in running:
            if app is None:
                file = support.ROOT / "examples" / f"{name}.json"
            else:
                file = tmp_path_factory.mktemp("apps") / f"{name}.json"
                file.write_text(json.dumps(app, ensure_ascii=False), encoding="utf-8")
            running[key] = support.Server(binary, extra_arguments=["--app", str(file)])
        return running[key].base

    yield start
    for each in running.values():
        each.stop()


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the run itself, not one of its pytest-xdist workers
        # The run's Nu checker (`nu`) writes its address here; the workers inherit the variable.
        config.nu_folder = Path(tempfile.mkdtemp(prefix="tabstage-nu-"))
        os.environ["TABSTAGE_NU_FOLDER"] = str(config.nu_folder)


def pytest_unconfigure(config):
    if hasattr(config, "nu_folder"):
        support.NuChecker.stop(config.nu_folder)
        shutil.rmtree(config.nu_folder, ignore_errors=True)


@pytest.fixture(scope="session")
def nu():
    """The run's Nu HTML checker, started the first time a test of any of its processes checks
    a page, stopped at the run's end."""
    return support.NuChecker(Path(os.environ["TABSTAGE_NU_FOLDER"]))


@pytest.fixture
def start_server(binary):
    """`start_server(*arguments)`: a server of this test's own, stopped after it."""
    started = []

    def start(*arguments):
        started.append(support.Server(binary, extra_arguments=arguments))
        return started[-1]

    yield start
    for each in started:
        each.stop()


class Browsers:
    """The Chromium sessions of this test process, kept from test to test."""

    def __init__(self):
        self.idle = {}  # (viewport, javascript, kind) -> [(driver, override)]

    def take(self, viewport, javascript, kind):
        kept = self.idle.get((viewport, javascript, kind), [])
        while kept:
            driver, override = kept.pop()
            try:
                support.reset_driver(driver, viewport, override)
                return driver, override
            except WebDriverException:
                support.quit_driver(driver)  # a browser the last test left broken is not reused
        return support.new_driver(viewport, javascript, kind)

    def give_back(self, viewport, javascript, kind, driver, override):
        self.idle.setdefault((viewport, javascript, kind), []).append((driver, override))

    def quit_all(self):
        for kept in self.idle.values():
            for driver, _ in kept:
                support.quit_driver(driver)
        self.idle.clear()


@pytest.fixture(scope="session")
def browsers():
    kept = Browsers()
    yield kept
    kept.quit_all()


@pytest.fixture
def browser(browsers):
    """`browser("phone")`, `browser("tablet", javascript=False)`, `browser("phone",
    kind="chromium")`: a browser for this test alone (two calls give two browsers), handed back
    when the test ends."""
    taken = []

    def take(viewport="tablet", javascript=True, kind="shell"):
        driver, override = browsers.take(viewport, javascript, kind)
        taken.append((viewport, javascript, kind, driver, override))
        return driver

    yield take
    for viewport, javascript, kind, driver, override in taken:
        browsers.give_back(viewport, javascript, kind, driver, override)


@pytest.fixture
def phone(browser):
    return browser("phone")


@pytest.fixture
def tablet(browser):
    return browser("tablet")


@pytest.fixture
def desktop(browser):
    return browser("desktop")
